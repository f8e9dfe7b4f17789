"""A group of players held by a `let` is a value like any other group (issue 29): `let g = others except next`,
a sealed choice's `let v = all secretly choose player all`, or `let g = others where COND`, then `count(g)`
(before, read as a pile's count: E502 unknown pile), `max(N over g)` and the other aggregates, `g where COND`,
`choose player g` (before, none of these parsed). A word of the language where such a name may stand is still
E401, as the parser said before. Scenarios: tests/scenarios/held-groups.yaml.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.engine.game import Game
from unodsl.rulebook.document import render_rulebook

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
HELD = REPO / "tests" / "scenarios" / "variants" / "held-groups.yaml"


def _variant(tmp_path, effect: str):
    path = tmp_path / "v.yaml"
    body = "".join(f"      {line}\n" for line in effect.splitlines())
    path.write_text(f"unodsl: 1\nname: t\nextends: classic\npiles:\n  bank: {{}}\ncards:\n  skip:\n"
                    f"    on_play: |\n{body}", encoding="utf-8")
    return check_file(str(path))


@pytest.mark.parametrize("effect", [
    "let g = others\nnext draws count(g)",
    "let g = others except next\nif count(g) > 1:\n    skip next",
    "let v = all secretly choose player all\nnext draws count(v)",
    "next draws count(bank)\nlet bank = others\nnext draws count(bank)",
    "let bank = others\nmove count(bank) cards from draw to bank",
])
def test_a_held_group_is_counted_by_name(tmp_path, effect):
    assert _variant(tmp_path, effect).diagnostics == []


@pytest.mark.parametrize("effect, code, words", [
    ("let g = 3\nnext draws count(g)", "E501", "group"),
    ("let g = next\nnext draws count(g)", "E501", "group"),
    ("next draws count(gg)", "E502", "unknown pile 'gg'"),
    ("for each p in others:\n    p draws count(p)", "E501", "'p' holds a player"),
    ("let n = 2\nnext draws count(n)", "E501", "'n' holds a number"),
])
def test_a_wrong_count_is_located(tmp_path, effect, code, words):
    diags = _variant(tmp_path, effect).diagnostics
    assert diags and diags[0].code == code, diags
    assert words in diags[0].message and diags[0].line >= 9 and diags[0].column > 1


def test_the_rulebook_counts_the_group():
    text = render_rulebook(unodsl.load(str(HELD)))
    assert "You draw as many cards as the number of the other players except the next player." in text
    assert "For each of the other players except the next player except the previous player, that player draws" in text
    assert "If the number of the players chosen most (the chosen) is more than 1" in text
    assert "If the number of cards in the crowd pile is 0" in text


def test_both_modes_play_the_same_games():
    fast, reference = Game(unodsl.load(str(HELD)).variant), Game(unodsl.load(str(HELD)).variant, fast=False)
    for seed in range(8):
        play_both_modes(fast, reference, 3 + seed % 2, seed)


@pytest.mark.parametrize("effect", [
    "let g = others except next\nnext draws max(hand(player) over g)",
    "let g = others\nif any(hand(player) < 2 over g) and all(hand(player) > 0 over g):\n    skip next",
    "let g = others\nnext draws sum(hand(player) over g where hand(player) > 1) % 3",
    "let g = others\nnext draws count(g where hand(player) > 1) + min(hand(player) over g)",
    "let g = others\nfor each p in g where hand(player) > 1:\n    p draws 1",
    "let g = others\nlet t = choose player g\nt draws 1",
    "let g = others\nlet t = next chooses player g where hand(player) > 1\nt draws 1",
    "let g = others where hand(player) > 1\nlet h = g where hand(player) < 5\nnext draws count(h)",
    "let g = players where hand(player) > 1\nlet t = choose player g\nt draws 1",
    "let v = all secretly choose player all\nlet w = others secretly choose player v\nnext draws count(w)",
    "let t = choose player players\nt draws 1",
    "let g = others\nfor each p in g except next:\n    p draws 1",
    "let g = others\nlet h = g except next where hand(player) > 1\nnext draws count(h) + count(g except previous)",
    "let g = others\nlet t = choose player g except next\nt draws max(hand(player) over g except t)",
    "let g = others\nnext draws (max hand of g - min hand of g) % 3",
    "let v = all secretly choose player all\nlet w = v secretly choose player others\nnext draws count(w)",
])
def test_a_held_group_is_read_wherever_a_group_is(tmp_path, effect):
    assert _variant(tmp_path, effect).diagnostics == []


@pytest.mark.parametrize("effect, code, words", [
    # a word of the language where a let's group may be named: refused at the word, as the parser did
    ("let t = choose player next", "E401", "unexpected 'next'; expected a group of players: 'all', 'others'"),
    ("let v = all secretly choose player self", "E401", "unexpected 'self'; expected a group of players"),
    ("next draws max(1 over previous)", "E401", "unexpected 'previous'; expected a collection: 'all'"),
    ("next draws count(dealer where hand(player) > 1)", "E401", "expected a collection"),
    ("let t = next chooses player 2", "E401", "expected 'all', 'cards', 'opponents', 'others', 'players'"),
    # an unknown name, with a did-you-mean; a name holding no group
    ("let crowd = others\nlet t = choose player crowds", "E502", "unknown name 'crowds' (did you mean 'crowd'?)"),
    ("let crowd = others\nnext draws max(1 over crow)", "E502", "did you mean 'crowd'?"),
    ("let n = 3\nnext draws max(1 over n)", "E501", "got a number"),
    ("let t = choose player others\nlet u = choose player t", "E501", "expected a group, got a player"),
    # a card collection is still not named by let (E545), with or without a filter
    ("let h = cards of self", "E545", "read where it is written"),
    ("next draws max hand of next", "E401", "unexpected 'next'; expected a group of players"),
    ("let n = 2\nlet g = n except next", "E501", "expected a group, got a number"),
    ("let crowd = others\nlet g = crowds except next", "E502", "did you mean 'crowd'?"),
])
def test_a_wrong_group_name_is_located(tmp_path, effect, code, words):
    diags = _variant(tmp_path, effect).diagnostics
    assert diags and diags[0].code == code, diags
    assert words in diags[0].message and diags[0].line >= 9 and diags[0].column > 1, diags[0].message


def test_the_rulebook_names_a_kept_group_once():
    text = render_rulebook(unodsl.load(str(HELD)))
    assert ("The other players for which that player holds more than 2 cards, as they are now, are the loaded. "
            "If for at least one of the loaded, that player holds more than 3 cards: you choose a player from the "
            "loaded.") in text
    assert "For each of the loaded for which that player holds fewer than 4 cards, that player draws 1 card." in text


def test_the_checker_knows_the_words_the_parser_knows():
    """check reads the grammar's words from its text (the engine never imports the parser): the same set."""
    from unodsl.effects.check_expressions import _words
    from unodsl.effects.parse import keywords
    assert _words() == keywords()

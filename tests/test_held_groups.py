"""A group of players held by a `let` and counted by its name (issue 29): `let g = others except next`, or a
sealed choice's `let v = all secretly choose player all`, then `count(g)`. Before, `count(g)` was read as a
pile's count (E502 unknown pile). Scenarios: tests/scenarios/held-groups.yaml.
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
    assert "If the number of the players chosen most (the chosen) is more than 1" in text
    assert "If the number of cards in the crowd pile is 0" in text


def test_both_modes_play_the_same_games():
    fast, reference = Game(unodsl.load(str(HELD)).variant), Game(unodsl.load(str(HELD)).variant, fast=False)
    for seed in range(8):
        play_both_modes(fast, reference, 3 + seed % 2, seed)

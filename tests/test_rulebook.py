"""The generated rulebooks: in step with the variants, deterministic, and readable English."""

from __future__ import annotations

from pathlib import Path

import pytest

from unodsl.check import check_file, load
from tools.rulebooks import rulebook_paths
from unodsl.effects.parse import parse
from unodsl.model.variant import Text
from unodsl.rulebook.english import describe_condition as _describe_condition
from unodsl.rulebook.english import describe_effect as _describe_effect
from unodsl.rulebook.document import render_rulebook


def describe_effect(game, source: str) -> str:
    return _describe_effect(game, parse(Text(source))[0])


def describe_condition(game, source: str) -> str:
    return _describe_condition(game, parse(Text(source), "condition")[0])

REPO = Path(__file__).resolve().parent.parent
PAIRS = rulebook_paths(REPO)


@pytest.fixture(scope="module")
def classic():
    return load(str(REPO / "variants" / "classic.yaml"), str(REPO))


def _game(path: Path):
    result = check_file(str(path), str(REPO))
    assert not result.errors, [d.header() for d in result.errors]
    return result.game


def test_every_variant_has_a_rulebook():
    assert PAIRS, "no variants found"
    pages = {p.name for p in (REPO / "docs" / "variants").glob("*.md")}
    assert pages == {page.name for _, page in PAIRS}, \
        "docs/variants/ is out of step with variants/*.yaml: run python -m tools.rulebooks"


@pytest.mark.parametrize("variant, page", PAIRS, ids=[v.stem for v, _ in PAIRS])
def test_rulebook_is_up_to_date(variant, page):
    assert page.exists(), f"{page} is missing: run python -m tools.rulebooks"
    expected = render_rulebook(_game(variant), "markdown")
    assert page.read_text(encoding="utf-8") == expected, \
        f"{page.name} is stale: run python -m tools.rulebooks"


@pytest.mark.parametrize("variant, page", PAIRS, ids=[v.stem for v, _ in PAIRS])
def test_both_formats_render_every_section(variant, page):
    game = _game(variant)
    markdown = render_rulebook(game, "markdown")
    text = render_rulebook(game, "text")
    v = game.variant
    for heading in ("Players", "The deck", "What the cards do", "Setting up", "A turn", "End of a round",
                    "Scoring"):
        assert f"## {heading}" in markdown
        assert f"{heading}\n{'-' * len(heading)}" in text
    for card in v.cards.values():
        assert f"### {card.name}" in markdown
        assert card.name in text
    for name in v.rulings:
        assert f"`{name}`" in markdown
        assert name in text
    assert markdown.startswith(f"# {v.name}\n")
    assert "`" not in text and "**" not in text and "| " not in text
    assert "Tree(" not in markdown and "Token(" not in markdown and "| None |" not in markdown
    assert max(len(line) for line in text.splitlines()) <= 78 or "http" in text


def test_rendering_is_deterministic(classic):
    assert render_rulebook(classic) == render_rulebook(classic)
    assert render_rulebook(classic, "text") == render_rulebook(classic, "text")


def test_unknown_format_is_refused(classic):
    with pytest.raises(ValueError):
        render_rulebook(classic, "html")


def test_classic_deck_table(classic):
    md = render_rulebook(classic)
    assert "108 cards in 4 colors: red, yellow, green and blue." in md
    assert "| Number | number | all | 0: 1, 1-9: 2 | 76 | face value |" in md
    assert "| Wild Draw Four | wild | none | — | 4 | 50 |" in md


def test_card_text_wins_over_translation(classic):
    md = render_rulebook(classic)
    assert "Play reverses direction. With two players it works like a Skip." in md


@pytest.mark.parametrize("source, english", [
    ("next draws 2 and loses turn", "The next player draws 2 cards and loses their turn."),
    ("choose color", "You choose the color that continues play."),
    ("skip next", "The next player is skipped: they lose their next turn."),
    ("skip next 2", "The next 2 players are skipped"),
    ("reverse", "The direction of play reverses."),
    ("self draws 1", "You draw 1 card."),
    ("next draws until playable", "The next player draws cards one at a time until they draw a card they can play."),
    ("next chooses color", "The next player chooses the color that continues play."),
    ("set color red", "The color in play becomes red."),
    ("let p = choose player others\nswap hands with p",
     "You choose a player from the other players. You swap hands with the chosen player."),
    ("rotate hands", "Every player passes their hand to the next player in the direction of play."),
    ("rotate hands left", "Every player passes their hand to the next player to the left."),
    ("rotate hands against the direction of play",
     "Every player passes their hand to the next player against the direction of play."),
    ("next gives 2 to self", "The next player gives 2 cards of their choice to you."),
    ("self exchanges 1 with next", "You and the next player each pick 1 card"),
    ("look at next", "You look at the next player's hand."),
    ("show hand of next to all", "The next player shows their hand to every other player; each of them sees it as "
                                 "it is now."),
    ("show hand of self to next", "You show your hand to the next player, who sees it as it is now."),
    ("show hand of self to players where hand(player) < 3", "You show your hand to all players for which that "
                                                            "player holds fewer than 3 cards; each of them sees"),
    ("trade with next", "You may swap any number of your cards, one for one, with cards of the next player's hand"),
    ("self discards color current", "You discard every card of the current color from your hand"),
    ("gather and redeal", "All hands are gathered, shuffled and dealt out again"),
    ("gather and redeal right", "All hands are gathered, shuffled and dealt out again one card at a time, starting "
                                "with the player to the right of you and going round to the right."),
    ("extra turn", "You take another turn."),
    ("turn to previous", "The previous player takes the next turn."),
    ("eliminate next", "The next player is out of the round for good"),
    ("lock color current until turn of self", "Until your next turn, the other players may only play cards of the "
                                              "current color"),
    ("next must play color current else:\n    self draws 2",
     "The next player must play a card of the current color; the turn then continues from the next player. "
     "If they cannot, you draw 2 cards."),
    ("repeat 3: self draws 1", "Do the following 3 times: you draw 1 card."),
    ("for each p in others: p draws 1", "For each player other than you, in turn order, that player draws 1 card."),
    ("if hand(self) > 3: self draws 1\nelif hand(self) == 1: nothing\nelse: skip next",
     "If you hold more than 3 cards, you draw 1 card. Otherwise, if you hold exactly 1 card, nothing happens. "
     "Otherwise, the next player is skipped"),
    ("nothing", "Nothing happens."),
    ("self scores 20", "You score 20 points."),
    ("next scores -1", "The next player loses 1 point."),
    ("self scores hand(next)", "You score as many points as the number of cards in the next player's hand."),
    ("next may challenge:\n    guilty: self draws 4\n    accepted: next draws 4 and loses turn",
     "The next player may challenge this card. If they challenge and it was played illegally, you draw 4 cards. "
     "If they challenge and it was played legally, nothing happens. If they do not challenge, the next player "
     "draws 4 cards and loses their turn."),
])
def test_effects_in_english(classic, source, english):
    assert describe_effect(classic, source).startswith(english)


def test_rulings_are_folded_in(classic):
    # two_player_reverse_is_skip is true in classic, so the ruling disappears from the sentence.
    said = describe_effect(classic, "reverse\nif players == 2 and rule.two_player_reverse_is_skip:\n    skip next")
    assert said.startswith("The direction of play reverses. If there are 2 players in the round, the next player")
    # wd4_wild_counts_as_color_match is false: the second half of the restriction vanishes.
    restriction = classic.variant.cards["wild_draw_four"].challenge.source
    assert describe_condition(classic, restriction) == "you do not hold a card of the current color"


@pytest.mark.parametrize("source, english", [
    ("hand(next) == 1", "the next player holds exactly 1 card"),
    ("self holds card skip", "you hold a Skip card"),
    ("not next is out", "the next player is still in the round"),
    ("card is wild", "the card is a wild card"),
    ("card.type == \"skip\"", "the card is a Skip"),
    ("players > 2 or stack >= 4",
     "there are more than 2 players in the round or the size of the pending draw stack is at least 4"),
    ("true", "always"),
    ("false", "never"),
])
def test_conditions_in_english(classic, source, english):
    assert describe_condition(classic, source) == english


def test_start_effects_speak_of_the_dealer(classic):
    md = render_rulebook(classic)
    assert "| Draw Two | The player after the dealer draws 2 cards and loses their turn. |" in md
    assert "| Reverse | The direction of play reverses. The dealer takes the first turn. |" in md
    assert "| Wild Draw Four | Put it back into the draw pile, shuffle, and turn up a new start card. |" in md


def test_house_rules_section(tmp_path, monkeypatch):
    (tmp_path / "classic.yaml").write_text((REPO / "variants" / "classic.yaml").read_text(encoding="utf-8"))
    (tmp_path / "house.yaml").write_text(
        "unodsl: 1\nname: House\nextends: classic.yaml\n"
        "stacking: {answer: same_type}\njump_in: {wilds: true}\n"
        "rulings:\n  jump_in_during_stack: {value: true}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = check_file("house.yaml")
    assert not result.errors
    md = render_rulebook(result.game)
    assert "## House rules" in md
    assert "**Stacking.**" in md and "a card of the same type (Draw Two or Wild Draw Four)" in md
    assert "**Jump-in.**" in md and "Wild cards may jump in too." in md
    assert "Jumping in on a pending draw stack is allowed." in md
    assert "unless they can stack" in md


# --- the English keeps the file's arithmetic grouping

def _effect_sources():
    """(label, game, where, source) for every effect and condition of the shipped variants and
    house rules, and every effect example in docs/ (read against classic)."""
    import re
    from unodsl.check import check_file
    out = []
    files = sorted((REPO / "variants").glob("*.yaml")) + sorted((REPO / "variants" / "house-rules").glob("*.yaml")) \
        + sorted((REPO / "docs" / "examples").glob("*.yaml"))
    for path in files:
        result = check_file(str(path), str(REPO))
        if result.errors or result.game is None:
            continue
        v = result.game.variant
        for ct in v.cards.values():
            for where, text in (("on_play", ct.on_play), ("on_start", ct.on_start), ("condition", ct.strict),
                                ("condition", ct.challenge)):
                if text is not None:
                    out.append((f"{path.name}:{ct.name}:{where}", result.game, where, text.source))
        for where, text in (("on_start", v.start_default), ("setup", v.on_deal), ("condition", v.may_draw_if),
                            ("player_out", v.on_player_out), ("after_draw", v.after_draw)):
            if text is not None:
                out.append((f"{path.name}:{where}", result.game, where, text.source))
    classic = _game(REPO / "variants" / "classic.yaml")
    fence = re.compile(r"^```(effect|condition)([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
    for page in sorted((REPO / "docs").glob("*.md")):
        for m in fence.finditer(page.read_text(encoding="utf-8")):
            where = m.group(2).split()[0] if m.group(2).split() else ("on_play" if m.group(1) == "effect" else "condition")
            out.append((f"{page.name}:{m.start()}", classic, where, m.group(3)))
    out.append(("issue 21", classic, "on_play", "let h = hand(self) + 1\nif h - (h // 2) * 2 == 0:\n  next draws 1\n"))
    return out


def _compound(tr, t) -> bool:
    from unodsl.effects import ast as A
    inner = tr.bound(t)
    return isinstance(inner, (A.BinOp, A.Neg)) and tr.fold(inner) is None


@pytest.mark.parametrize("label, game, where, source", _effect_sources(), ids=lambda x: x if isinstance(x, str) and ":" in x or x == "issue 21" else "")
def test_arithmetic_grouping_is_kept(label, game, where, source):
    """A compound right operand of -, * and // (and left operand of * and //) is one group."""
    from unodsl.effects import ast as A
    from unodsl.effects.parse import parse
    from unodsl.model.variant import Text
    from unodsl.rulebook.english import Translator
    kind = "condition" if where == "condition" else "effect"
    tree, _ = parse(Text(source), kind)
    if tree is None:
        pytest.skip("not parseable on its own")
    tr = Translator(game, where)
    english = tr.condition(tree) if kind == "condition" else tr.effect(tree)
    for node in A.walk(tree):
        if not isinstance(node, A.BinOp) or tr.fold(node) is not None:
            continue
        rendered = tr.num(node)
        sides = [node.right] if node.op == "-" else [node.left, node.right] if node.op in ("*", "//") else []
        for side in sides:
            if _compound(tr, side):
                assert f"({tr.num(tr.bound(side))})" in rendered, (rendered, node.op)
        inner = tr.bound(node.right)
        if node.op == "+" and _compound(tr, node.right) and isinstance(inner, A.BinOp) and inner.op in ("+", "-"):
            assert f"({tr.num(inner)})" in rendered, rendered
    assert "(rounded down) times" not in english


def test_issue_21_formula_reads_as_written(classic):
    said = describe_effect(classic, "let h = hand(self) + 1\nif h - (h // 2) * 2 == 0:\n  next draws 1\n")
    assert said.startswith("If the number of cards in your hand plus 1 minus (((the number of cards in your hand "
                           "plus 1) divided by 2, rounded down) times 2) is 0"), said


def test_last_card_rule_is_said_once():
    for variant, page in PAIRS:
        text = page.read_text(encoding="utf-8")
        assert "Played as your last card, it has no effect." not in text, page.name

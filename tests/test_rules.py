"""A Game's rule choices are decided once (engine/rules.py): one record, made by a pure function of the
variant's modes and of what its effects compiled to, from enums and compiled constants, never from text.

The Game copies the choices its turn reads on every decision into slots of its own: those copies are held
to the record here, for every shipped variant and house rule in both modes, and no engine module may
decide a mode again by comparing a variant's field with a word.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import unodsl
from unodsl.engine import Game
from unodsl.engine.rules import Compiled, Rules, choose_rules
from unodsl.model.variant import CatchLimit

REPO = Path(__file__).resolve().parent.parent
ENGINE = REPO / "unodsl" / "engine"
SHIPPED = sorted(str(p) for p in (REPO / "variants").rglob("*.yaml") if "scenarios" not in p.parts)
FIELDS = {f.name for f in dataclasses.fields(Rules)}


def _copied(game: Game) -> set[str]:
    """The rule choices the Game holds in a slot of its own."""
    return {name for name in FIELDS if name in type(game).__slots__}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: Path(p).stem)
def test_the_game_copies_its_rule_choices_unchanged_in_both_modes(path):
    fast = unodsl.load(path, root="/")
    for game in (fast, Game(fast.variant, fast=False)):
        copied = _copied(game)
        assert copied, "the Game copies the hot rule choices into its slots"
        assert {name: getattr(game, name) for name in copied} == {name: getattr(game.rules, name) for name in copied}
        # The record is decided once: nothing changes it after the Game is built.
        with pytest.raises(dataclasses.FrozenInstanceError):
            game.rules.jump_in = True


def test_a_rule_choice_lives_in_the_record_or_in_one_copy_of_it_and_nowhere_else():
    # Every slot of the Game named as a rule choice is a copy; the rest of the record is read through
    # game.rules (a choice dropped from the copies cannot linger as a stale slot).
    game = unodsl.load(str(REPO / "variants" / "classic.yaml"))
    assert "rules" in Game.__slots__
    for name in FIELDS - _copied(game):
        assert not hasattr(game, name), f"Game.{name}: read it as game.rules.{name}"


def test_the_reference_mode_takes_no_fast_path_and_the_fast_mode_does():
    variant = unodsl.load(str(REPO / "variants" / "classic.yaml")).variant
    classic, reference = Game(variant, fast=True), Game(variant, fast=False)      # whatever UNODSL_FAST says
    assert classic.rules.simple_draw and classic.rules.plain_plays
    assert not reference.rules.simple_draw and not reference.rules.plain_plays
    # What is not a fast path is the same choice in both modes.
    same = FIELDS - {"simple_draw", "plain_plays"}
    assert {n: getattr(classic.rules, n) for n in same} == {n: getattr(reference.rules, n) for n in same}


def _program(**changes) -> Compiled:
    facts = dict(after_draw=-1, turn_draw=-1, turn_start=-1, card_played=-1, windows=False, eliminates=False,
                 wins=False, may_draw_constant=None, scores_by_effect=False, play_piles=False)
    facts.update(changes)
    return Compiled(**facts)


def test_choices_follow_what_the_effects_compiled_to():
    v = unodsl.load(str(REPO / "variants" / "classic.yaml")).variant
    plain = choose_rules(v, _program(), fast=True)
    assert choose_rules(v, _program(), fast=True) == plain
    # An after-draw event: the simple draw and a straight effect's draw are off.
    drawn = choose_rules(v, _program(after_draw=3), fast=True)
    assert not drawn.simple_draw and not drawn.straight_draws and plain.simple_draw and plain.straight_draws
    # A winning or elimination rule is tested as every play settles: no simple draw, and with win_when no plain play.
    assert not choose_rules(v, _program(wins=True), fast=True).plain_plays
    assert not choose_rules(v, _program(eliminates=True), fast=True).simple_draw
    # A turn_start hook or a declared window: every turn begins in the State's hand-off.
    assert plain.plain_turns == v.max_turns
    assert choose_rules(v, _program(turn_start=0), fast=True).plain_turns == -1
    assert choose_rules(v, _program(windows=True), fast=True).plain_turns == -1
    # A may-draw condition the variant alone makes true is `may always draw`; one that reads the game is not.
    assert choose_rules(dataclasses.replace(v, may_draw_if="x"), _program(may_draw_constant=True), True).may_always_draw
    assert not choose_rules(dataclasses.replace(v, may_draw_if="x"), _program(), True).may_always_draw


@pytest.mark.parametrize("word, member", [("none", CatchLimit.NONE), ("window", CatchLimit.WINDOW),
                                          ("round", CatchLimit.ROUND)])
def test_the_catch_limit_is_an_enum_decided_once(tmp_path, word, member):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Limits\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    f"uno:\n  catch: {{limit: {word}}}\n", encoding="utf-8")
    game = unodsl.load(str(path), root="/")
    assert game.variant.uno_catch_limit is member
    assert game.rules.catch_once_per_round == (member is CatchLimit.ROUND)
    assert game.rules.catch_once_per_window == (member is CatchLimit.WINDOW)
    assert game.rules.catch_rules == (member is not CatchLimit.NONE)


def _word_comparisons(source: str) -> list[str]:
    """Each `<...>.variant.NAME == "word"` (or !=, in) of a module: a mode decided again from its text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute):
            owner = node.left.value
            reads_variant = (isinstance(owner, ast.Attribute) and owner.attr == "variant") or (
                isinstance(owner, ast.Name) and owner.id in ("v", "variant"))
            if reads_variant and any(isinstance(c, ast.Constant) and isinstance(c.value, str)
                                     for c in node.comparators):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_no_engine_module_decides_a_mode_from_a_word():
    assert _word_comparisons('x = g.variant.score_by == "team"\n'), "the scan finds what it looks for"
    found = {path.name: _word_comparisons(path.read_text(encoding="utf-8")) for path in sorted(ENGINE.glob("*.py"))}
    assert {name: lines for name, lines in found.items() if lines} == {}

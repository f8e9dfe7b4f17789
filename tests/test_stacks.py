"""The stack as a value (issue 29 item 7): `P draws the stack` in a recorded game (its events, its words,
a save in the middle of it), and both engine modes playing a variant that uses it.

The rules themselves are scenarios: tests/scenarios/stacks.yaml over tests/scenarios/variants/stacks.yaml.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.engine import events as E
from unodsl.engine.state import State
from unodsl.rulebook.narration import narrate

from lockstep import play_both_modes

VARIANT = Path(__file__).parent / "scenarios" / "variants" / "stacks.yaml"


@pytest.fixture(scope="module")
def game():
    return unodsl.load(str(VARIANT))


def _position(game, hands, top, draw_pile=(), turn=0):
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top, *draw_pile])
    pile = [game.card_index[c] for c in draw_pile] + sorted(rest.elements())
    return game.position(hands, pile, [top], dealer=(turn - 1) % len(hands), turn=turn, record=True)


def test_a_stack_thrown_back_is_drawn_at_once_with_its_events_and_words(game):
    state = _position(game, [["red_draw_two", "blue_2", "blue_3"], ["red_reverse", "green_draw_two", "blue_4"],
                             ["green_1", "green_2"]], "red_5", ["yellow_1", "yellow_2"])
    state.apply("play red_draw_two")
    assert (state.stack, state.stack_victim) == (2, 1)
    saved = state.to_json()                       # a save with the stack open loads and plays on the same
    start = len(state.events)
    state.apply("play red_reverse")
    kinds = [(e.kind, e.player, e.count) for e in state.events[start:] if e.kind in (E.STACK_TAKEN, E.DREW)]
    assert kinds == [(E.STACK_TAKEN, 0, 2), (E.DREW, 0, 2)]
    assert "you draw the stack of 2: Yellow 1, Yellow 2" in narrate(state.events_for(0)[start:], 0, game)
    assert "p0 draws the stack of 2" in narrate(state.events_for(1)[start:], 1, game)
    assert (state.stack, state.stack_victim, state.current_player) == (0, -1, 0)
    loaded = State.from_json(game, saved)
    loaded.apply("play red_reverse")
    assert loaded.to_json() == state.to_json()


@pytest.mark.parametrize("seed", range(4))
def test_both_modes_play_the_stack_drawn_at_once_the_same(seed):
    fast, reference = unodsl.load(str(VARIANT)), unodsl.load(str(VARIANT), fast=False)
    play_both_modes(fast, reference, 3, seed)


@pytest.mark.parametrize("section, mode", [("", "none"), ("stacking: {cards: [draw_two]}\n", "same_type"),
                                           ("stacking: {answer: none}\n", "none"),
                                           ("stacking: {enabled: false, answer: any_draw}\n", "none")])
def test_the_stacking_defaults_are_the_documented_ones(tmp_path, section, mode):
    """docs/language.md's stacking table: `same_type` when the section is present without `answer`, `none` without
    the section, with `answer: none` or with `enabled: false`."""
    path = tmp_path / "v.yaml"
    classic = Path(__file__).resolve().parent.parent / "variants" / "classic.yaml"
    (tmp_path / "classic.yaml").write_text(classic.read_text(encoding="utf-8"), encoding="utf-8")
    path.write_text("unodsl: 1\nname: T\nextends: classic.yaml\n" + section, encoding="utf-8")
    assert unodsl.load(str(path)).variant.stacking.value == mode

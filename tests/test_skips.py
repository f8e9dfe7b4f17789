"""A pending skip answered and passed on (issue 29 item 7): stacking.skips in a recorded game (its events, its
words, a save in the middle of it), passed on uncounted, its diagnostics, and both engine modes.

The rules themselves are scenarios: tests/scenarios/skips.yaml over tests/scenarios/variants/skips.yaml.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.engine import events as E
from unodsl.engine.errors import InvalidState
from unodsl.engine.state import State
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import decision_help, narrate

from lockstep import play_both_modes

VARIANT = Path(__file__).parent / "scenarios" / "variants" / "skips.yaml"
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return unodsl.load(str(VARIANT))


def _position(game, hands, top, turn=0):
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top])
    return game.position(hands, sorted(rest.elements()), [top], dealer=(turn - 1) % len(hands), turn=turn,
                         record=True)


HANDS = [["red_skip", "red_2", "blue_3", "blue_7"], ["blue_skip", "green_2", "blue_6", "blue_8"],
         ["yellow_1", "yellow_2", "yellow_3"], ["blue_1", "blue_2", "blue_4"]]


def test_a_skip_passed_on_with_its_events_words_and_a_save(game):
    state = _position(game, HANDS, "red_5")
    state.apply("play red_skip")
    assert (state.skip_stack, state.skip_victim, state.current_player) == (1, 1, 1)
    saved = state.to_json()                   # a save with the skip pending loads and plays on the same
    start = len(state.events)
    state.apply("play blue_skip")
    stacked = [(e.player, e.count) for e in state.events[start:] if e.kind == E.SKIP_STACKED]
    assert stacked == [] and state.lost_turns == [0, 0, 1, 0]     # p2 has no answer: lost 2, one of them now
    loaded = State.from_json(game, saved)
    loaded.apply("play blue_skip")
    assert loaded.to_json() == state.to_json()
    words = narrate(state.events_for(1), 1, game)
    assert "a skip of a turn is pending: you must answer it or lose a turn" in words


def test_taking_the_skip_is_told(game):
    state = _position(game, HANDS, "red_5")
    state.apply("play red_skip")
    start = len(state.events)
    state.apply("pass")
    assert [(e.kind, e.player, e.count) for e in state.events[start:] if e.kind == E.SKIP_TAKEN] == [
        (E.SKIP_TAKEN, 1, 1)]
    assert "p1 takes the skip and loses the turn" in narrate(state.events_for(0)[start:], 0, game)
    assert (state.skip_stack, state.skip_victim, state.current_player) == (0, -1, 2)


def test_the_decision_says_a_skip_is_answered_and_a_draw_stack_drawn(game):
    state = _position(game, HANDS, "red_5")
    state.apply("play red_skip")
    legal = state.legal_actions()
    assert state.decision == "stack" and "pass" in legal and "draw" not in legal
    assert decision_help("stack", legal) == "answer the skip with a card that passes it on, or pass and lose the turn"
    assert decision_help("stack", ["play red_draw2", "draw"]) == "answer the draw penalty with a stacking card, or draw the stack"


def test_a_save_that_asks_a_skip_of_a_player_it_is_not_against_is_refused(game):
    state = _position(game, HANDS, "red_5")
    state.apply("play red_skip")
    saved = json.loads(state.to_json())
    saved["skip_victim"] = 2
    with pytest.raises(InvalidState, match="asks player 1 to answer a stack"):
        State.from_json(game, json.dumps(saved))


def _copy_classic(tmp_path):
    (tmp_path / "classic.yaml").write_text((REPO / "variants" / "classic.yaml").read_text(encoding="utf-8"),
                                           encoding="utf-8")


def test_uncounted_the_answer_passes_on_its_own_skip(tmp_path):
    _copy_classic(tmp_path)
    path = tmp_path / "v.yaml"
    path.write_text(VARIANT.read_text(encoding="utf-8").replace("counted: true", "counted: false")
                    .replace("../../../variants/classic.yaml", "classic.yaml"), encoding="utf-8")
    game = unodsl.load(str(path))
    state = _position(game, HANDS, "red_5")
    state.apply("play red_skip")
    state.apply("play blue_skip")
    assert state.lost_turns == [0, 0, 0, 0] and state.current_player == 3     # p2 lost the one turn


def test_an_unknown_answer_and_an_empty_list_are_located(tmp_path):
    _copy_classic(tmp_path)
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: T\nextends: classic.yaml\nstacking:\n  answer: none\n  skips: {cards: [skp]}\n", encoding="utf-8")
    found = [d.header() for d in check_file(str(path), str(tmp_path)).diagnostics]
    assert found == [f"{path}:6:19: E301 unknown card type 'skp' (did you mean 'skip'?)"]
    path.write_text("unodsl: 1\nname: T\nextends: classic.yaml\nstacking:\n  answer: none\n  skips: {cards: []}\n", encoding="utf-8")
    found = [d.header() for d in check_file(str(path), str(tmp_path)).diagnostics]
    assert found == [f"{path}:6:18: E363 stacking.skips.cards lists no card, so no card could answer a skip: list "
                     "the card types that answer one"]


def test_the_rulebook_says_it(game):
    text = render_rulebook(game)
    assert "A player skipped while holding a Skip or Skip Two may answer" in text


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2), (4, 3), (3, 4)])
def test_both_modes_play_pending_skips_the_same(players, seed):
    fast, reference = unodsl.load(str(VARIANT)), unodsl.load(str(VARIANT), fast=False)
    play_both_modes(fast, reference, players, seed)

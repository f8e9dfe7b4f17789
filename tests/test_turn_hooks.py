"""The turn hooks (events.turn_start, events.turn_end) and the play hook (events.card_played).

Each test builds a small variant on classic and plays it in both engine modes: the fast mode must
hand over to the general path wherever a hook exists, so the two give the same games.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.engine import Game
from unodsl.engine import events as E
from unodsl.engine.fast import FastHookState, FastState

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
MODES = ["fast", "reference"]


def _game(tmp_path, body: str, mode: str = "fast"):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Hooks\nextends: {REPO / 'variants' / 'classic.yaml'}\n" + body,
                    encoding="utf-8")
    game = unodsl.load(str(path), root="/", fast=True)
    return game if mode == "fast" else Game(game.variant, fast=False)


def _position(game, hands, top, turn=0, draw_pile=()):
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top, *draw_pile])
    pile = [game.card_index[c] for c in draw_pile] + sorted(rest.elements())
    return game.position(hands, pile, [top], dealer=(turn - 1) % len(hands), turn=turn)


COUNTING = """
scoring: {mode: none}
events:
  turn_start: self scores 1
  turn_end: self scores 1000
"""


@pytest.mark.parametrize("mode", MODES)
def test_the_turn_hooks_run_once_per_turn_for_the_player_on_turn(tmp_path, mode):
    game = _game(tmp_path, COUNTING, mode)
    for seed in range(6):
        state = game.new_game(3, seed=seed, record=True)
        state.play_out(random.Random(seed).random)
        begun = Counter(e.player for e in state.events if e.kind == E.TURN)
        ended = Counter(e.player for e in state.events if e.kind == E.HOOK and e.name == "turn_end")
        # every turn began with its hook; every turn but the round's last ended with its own
        assert [s % 1000 for s in state.scores] == [begun[p] for p in range(3)]
        assert [s // 1000 for s in state.scores] == [ended[p] for p in range(3)]
        assert sum(ended.values()) == sum(begun.values()) - (not state.stalled)


@pytest.mark.parametrize("mode", MODES)
def test_the_set_up_is_no_turn(tmp_path, mode):
    game = _game(tmp_path, COUNTING + "start: {default: nothing}\n", mode)
    state = game.new_game(2, seed=4)
    p = state.current_player
    assert state.scores[p] == 1 and state.scores[1 - p] == 0     # only the first turn's start


@pytest.mark.parametrize("mode", MODES)
def test_a_turn_ends_with_its_hook_after_a_kept_card_and_after_a_pass(tmp_path, mode):
    game = _game(tmp_path, COUNTING, mode)
    state = _position(game, [["blue_1", "blue_2"], ["green_1", "green_2"]], "red_5", draw_pile=["red_6", "green_7"])
    state.apply("draw")
    state.apply("keep")
    assert state.scores == [1000, 1]
    state.apply("draw")                                    # green_7 matches nothing: the turn passes
    assert state.scores == [1001, 1001] and state.current_player == 0


DECIDING = """
events:
  turn_start: |
    if hand(self) >= 3:
        self chooses:
            shed: self discards color current
            keep: nothing
  turn_end: |
    let t = choose player others
    t draws 1
  card_played: |
    if card.number == 7:
        next chooses color
"""


@pytest.mark.parametrize("mode", MODES)
def test_hooks_ask_for_decisions_and_a_paused_hook_saves_and_loads(tmp_path, mode):
    game = _game(tmp_path, DECIDING, mode)
    state = _position(game, [["red_7", "blue_2"], ["green_1", "red_2", "red_3"], ["yellow_1", "yellow_2"]], "red_5")
    state.apply("play red_7 uno")
    assert (state.decision, state.current_player) == ("color", 1)         # card_played, after the 7's play
    copy = type(state).from_json(game, state.to_json())
    state.apply("color green")
    assert (state.decision, state.current_player) == ("target", 0)        # turn_end: player 0 chooses
    assert type(state).from_json(game, state.to_json()).to_json() == state.to_json()
    state.apply("target 2")
    assert (state.decision, state.current_player) == ("option", 1)        # turn_start of player 1
    assert state.legal_actions() == ["option keep", "option shed"]
    resumed = type(state).from_json(game, state.to_json())
    for s in (state, resumed):
        s.apply("option shed")
        # green was named by the 7's hook: the green card goes
        assert s.hands[1] == [game.card_index["red_2"], game.card_index["red_3"]] and s.decision == "turn"
    assert resumed.to_json() == state.to_json()
    for action in ("color green", "target 2", "option shed"):
        copy.apply(action)
    assert copy.to_json() == state.to_json()


@pytest.mark.parametrize("mode", MODES)
def test_a_hook_is_held_to_the_turn_s_work_limit(tmp_path, mode):
    game = _game(tmp_path, "events:\n  turn_start: |\n    repeat 1000:\n        repeat 1000:\n"
                           "            set color red\n", mode)
    state = game.new_game(2, seed=1)
    assert state.is_over and state.stalled


@pytest.mark.parametrize("mode", MODES)
def test_no_hook_runs_for_an_eliminated_player(tmp_path, mode):
    game = _game(tmp_path, "events:\n  turn_start: |\n    if hand(self) >= 3:\n        eliminate self\n"
                           "  turn_end: self scores 7\n", mode)
    state = _position(game, [["red_1", "blue_2"], ["green_1", "green_2", "green_3"], ["yellow_1", "yellow_2"]],
                      "red_5")
    state.apply("play red_1 uno")
    # player 1 begins with three cards and is knocked out by their turn_start: their turn passes on
    assert state.eliminated == [False, True, False]
    assert state.current_player == 2 and state.decision == "turn"
    assert state.scores == [7, 0, 0]


ROTATING = """
players: {allowed: [4]}
teams: {size: 2}
round: {ends_when: team_out%s}
events:
  turn_start: rotate hands
"""


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("cap", ["", ", max_turns: 100000"])
def test_turns_with_no_decision_are_a_loop_not_a_recursion(tmp_path, mode, cap):
    # Player 0 goes out; from then on each turn_start hands the empty hand to the player on turn, whose turn
    # ends at once with no decision, and the next one's does the same: turn after turn until the turn cap.
    # Each such turn began inside the one before, until Python's recursion limit (found by the long
    # template campaign, seed 10,640); a cap far above that limit shows the hand-off is a loop.
    game = _game(tmp_path, ROTATING % cap, mode)
    state = _position(game, [["red_1"], ["blue_1", "blue_2"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]],
                      "red_5")
    state.apply("play red_1")
    assert state.is_over and state.stalled
    assert state.turns == game.rules.max_turns + 1
    assert sorted(map(len, state.hands)) == [0, 2, 2, 2]


def test_the_fast_mode_hands_over_where_a_hook_exists(tmp_path):
    plain = unodsl.load("classic", fast=True)
    assert plain.state_class is FastState and plain.plain_turns > 0 and any(plain.plain)
    assert _game(tmp_path, "events: {turn_end: nothing}\n").state_class is FastHookState
    assert _game(tmp_path, "events: {turn_start: nothing}\n").plain_turns == -1
    assert not any(_game(tmp_path, "events: {card_played: nothing}\n").plain)


@pytest.mark.parametrize("body", [COUNTING, DECIDING, DECIDING + "jump_in: {wilds: false}\n",
                                  DECIDING + "stacking: {answer: any_draw}\n"])
def test_both_modes_play_the_same_games(tmp_path, body):
    fast, reference = _game(tmp_path, body, "fast"), _game(tmp_path, body, "reference")
    for n in (2, 3, 4):
        for seed in range(3):
            play_both_modes(fast, reference, n, seed)

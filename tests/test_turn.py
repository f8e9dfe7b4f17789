"""A programmable turn: turn.draw, uno.at, uno.penalty as an effect (with `catcher`), round.on_end and `P scores N`.

Each test writes a small variant on top of classic, builds a position with the scenarios'
`build_state`, plays actions and checks what the rules say, in both engine modes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.effects import check_statements
from unodsl.scenarios import build_state

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def variant(request, tmp_path):
    """Compile `body` (YAML keys on top of classic) in the mode of the parameter."""
    def make(body: str, teams: bool = False):
        base = "teams-standard-deck.yaml" if teams else "classic.yaml"
        path = tmp_path / "v.yaml"
        path.write_text(f"unodsl: 1\nname: Turn test\nextends: {REPO / 'variants' / base}\n{body}", encoding="utf-8")
        return unodsl.load(str(path), root="/", fast=request.param)
    return make


def play(game, given: dict, actions: list[str]):
    state = build_state(game, {"given": given})
    for action in actions:
        state.apply(action)
    return state


def test_the_penalty_effect_knows_the_catcher(variant):
    game = variant("uno:\n  penalty: |\n    catcher draws 1\n    self draws 3 and loses turn\n")
    state = play(game, {"hands": [["red_1", "red_2"], ["green_1", "green_2"]], "top": "red_5", "turn": 0,
                        "draw_pile": ["blue_9", "blue_8", "blue_7", "blue_6"]},
                 ["play red_1", "catch 0"])
    # The catcher drew first (blue_9), then the caught player three; with two players, the lost
    # turn of the caught player gives the catcher a second turn.
    assert sorted(state.hands[1]) == sorted(game.card_index[c] for c in ["green_1", "green_2", "blue_9"])
    assert len(state.hands[0]) == 4
    assert (state.decision, state.current_player) == ("turn", 1)
    state.apply("play green_1")
    assert (state.decision, state.current_player) == ("turn", 1)


def test_a_catch_with_an_effect_penalty_is_recorded_with_no_card_count(variant):
    game = variant("uno:\n  penalty: self draws 2\n")
    state = build_state(game, {"given": {"hands": [["red_1", "red_2"], ["green_1", "green_2"]], "top": "red_5",
                                         "turn": 0}})
    state = game.position([list(h) for h in state.hands], list(reversed(state.draw_pile)), list(state.discard),
                          dealer=1, turn=0, record=True)
    state.apply("play red_1")
    state.apply("catch 0")
    kinds = [(e.kind, e.count) for e in state.events]
    assert ("caught", 0) in kinds and ("drew", 2) in kinds
    assert len(state.hands[0]) == 3


def test_uno_at_two_asks_a_player_left_with_two_by_an_effect(variant):
    game = variant("uno: {at: 2}\ncards:\n  skip: {on_play: next gives 1 to self}\n")
    state = play(game, {"hands": [["red_skip", "red_2", "red_3", "red_4"], ["green_1", "green_2", "green_3"],
                                  ["yellow_1", "yellow_2", "yellow_3"]], "top": "red_5", "turn": 0},
                 ["play red_skip", "give green_1"])
    assert (state.decision, state.current_player) == ("uno", 1)
    state.apply("pass")
    assert (state.decision, state.current_player, state.legal_actions()) == ("catch", 1, ["uno", "pass"])
    state.apply("pass")
    assert (state.decision, state.current_player, state.legal_actions()) == ("catch", 2, ["catch 1", "pass"])


def test_points_go_to_the_whole_team_with_team_scoring(variant):
    game = variant("cards:\n  skip: {on_play: self scores 7; next scores -2}\n", teams=True)
    state = play(game, {"hands": [["red_skip", "red_2"], ["green_1", "green_2"], ["yellow_1", "yellow_2"],
                                  ["blue_1", "blue_2"]], "top": "red_5", "turn": 0},
                 ["play red_skip uno"])
    team = game.team_tables[4][0]
    assert state.scores == [7 if team[q] == team[0] else -2 for q in range(4)]


def test_round_end_runs_for_the_winner_before_scoring(variant):
    game = variant("round:\n  on_end: |\n    self scores 100\n    if points(next) > 5:\n        next scores 1\n")
    state = play(game, {"hands": [["red_1"], ["green_9"], ["yellow_2"]], "top": "red_5", "turn": 0},
                 ["play red_1"])
    assert state.is_over and state.winner == 0
    assert state.scores == [100 + 9 + 2, 1, 0]


def test_round_end_does_not_run_without_a_winner(variant):
    # Ten turns among three players of seven cards each: nobody can go out, the round stalls.
    game = variant("round:\n  max_turns: 10\n  stall: no_winner\n  on_end: self scores 100\n")
    state = game.new_game(3, seed=4)
    state.play_out()
    assert state.stalled and state.winner is None
    assert state.scores == [0, 0, 0]


def test_round_end_is_held_to_the_step_budget(variant):
    game = variant("round:\n  on_end: |\n    repeat 1000:\n        repeat 1000:\n            self scores 1\n")
    state = play(game, {"hands": [["red_1"], ["green_9"]], "top": "red_5", "turn": 0}, ["play red_1"])
    assert state.is_over
    assert 1000 < state.scores[0] < 100_000


def test_turn_draw_may_pause_and_offers_its_last_card(variant):
    game = variant("turn:\n  draw: |\n    self draws 1\n    choose color\n    self draws 1\n")
    # Seat 1 plays first: a saved state's next player is known only once a turn has passed.
    state = play(game, {"hands": [["blue_1", "green_2"], ["red_1", "red_2", "red_3"]], "top": "red_5", "turn": 1,
                        "draw_pile": ["yellow_3", "yellow_4"]}, ["play red_1", "draw"])
    assert (state.decision, state.current_player) == ("color", 0)
    saved = state.to_json()
    state.apply("color yellow")
    assert (state.decision, state.legal_actions()) == ("drawn", ["play yellow_4", "keep"])
    again = type(state).from_json(game, saved)
    again.apply("color yellow")
    assert again.to_json() == state.to_json()


def test_turn_draw_without_a_card_drawn_offers_nothing(variant):
    game = variant("turn:\n  draw: next draws 1\n")
    state = play(game, {"hands": [["blue_1", "green_2"], ["red_1", "red_2"]], "top": "red_5", "turn": 0,
                        "draw_pile": ["red_3"]}, ["draw"])
    assert (state.decision, state.current_player) == ("turn", 1)
    assert len(state.hands[1]) == 3


def test_a_drawing_statement_the_checker_does_not_list_is_still_refused_in_round_end(tmp_path, monkeypatch):
    monkeypatch.setattr(check_statements, "ROUND_OVER_REFUSES", frozenset())
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: T\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    "round:\n  on_end: next draws 2\n", encoding="utf-8")
    result = check_file(str(path), root="/")
    assert [d.code for d in result.diagnostics] == ["E514"]

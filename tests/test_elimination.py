"""round.eliminate_when and round.eliminated_cards: a player is eliminated however their hand grew.

Each game extends the shipped classic UNO with a small elimination rule ("five cards or more")
and is played in both modes; the swap, the rotation and the drawn stack are the ways a hand
grows that `events.after_draw` never sees.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.engine import Game

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
MODES = ["fast", "reference"]


def _games(tmp_path, body: str):
    """A classic variant with `body` added, compiled in both modes (fast, reference)."""
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Test\nextends: {REPO / 'variants' / 'classic.yaml'}\n" + body,
                    encoding="utf-8")
    game = unodsl.load(str(path), root="/")
    return {"fast": game, "reference": Game(game.variant, fast=False)}


def _position(game, hands, top, turn=0, draw_pile=()):
    """Named hands and top card, the draw pile top first, every other card under it."""
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top, *draw_pile])
    pile = [game.card_index[c] for c in draw_pile] + sorted(rest.elements())
    return game.position(hands, pile, [top], dealer=(turn - 1) % len(hands), turn=turn)


def _conserved(state) -> bool:
    zones = state.hands + [state.draw_pile, state.discard] + state.limbo
    return Counter(k for zone in zones for k in zone) == Counter(state.g.deck)


RULE = "round:\n  eliminate_when: hand(self) >= 5\n"
SEVEN = """deck: {total: null}
cards:
  swapper:
    count: 2
    wild: true
    points: 50
    on_play: |
      let target = choose player others
      swap hands with target
  passer:
    count: 2
    wild: true
    points: 50
    on_play: rotate hands
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_hand_grown_by_a_swap_is_eliminated(tmp_path, mode):
    game = _games(tmp_path, RULE + SEVEN)[mode]
    state = _position(game, [["swapper", "red_1"], ["blue_1", "blue_2", "blue_3", "blue_4", "blue_5"],
                             ["red_2", "red_3"]],
                      top="green_9")
    state.apply("play swapper")
    state.apply("target 1")
    assert state.hands[0] == [] and state.eliminated == [True, False, False]
    assert not state.is_over and _conserved(state)


@pytest.mark.parametrize("mode", MODES)
def test_hands_passed_on_are_tested_and_the_last_player_standing_wins(tmp_path, mode):
    game = _games(tmp_path, RULE + SEVEN)[mode]
    state = _position(game, [["passer", "blue_1", "blue_2", "blue_3", "blue_4", "blue_5"], ["red_1", "red_2"]],
                      top="green_9")
    state.apply("play passer")
    assert state.eliminated == [False, True]
    assert state.is_over and state.winner == 0


@pytest.mark.parametrize("mode", MODES)
def test_a_plain_play_and_a_plain_draw_are_settled_too(tmp_path, mode):
    """A condition that is not about growth: the fast paths that skip settling are off."""
    game = _games(tmp_path, "round:\n  eliminate_when: hand(self) == 3\n")[mode]
    state = _position(game, [["red_1", "red_2", "red_3", "red_4"], ["blue_1", "blue_2"], ["blue_3", "blue_4"]],
                      top="red_9", draw_pile=["green_5"])
    state.apply("play red_1")
    assert state.eliminated == [True, False, False]
    state.apply("draw")
    assert state.eliminated == [True, True, False] and state.is_over and state.winner == 2


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("where, pile", [("under_draw", "draw_pile"), ("under_discard", "discard")])
def test_where_an_eliminated_hand_goes(tmp_path, mode, where, pile):
    game = _games(tmp_path, RULE + f"  eliminated_cards: {where}\n")[mode]
    state = _position(game, [["red_draw_two", "red_1"], ["blue_1", "blue_2", "blue_3"], ["red_2", "red_3"]],
                      top="red_9", draw_pile=["green_1", "green_2"])
    state.apply("play red_draw_two")
    assert state.eliminated == [False, True, False]
    names = [game.card_names[k] for k in getattr(state, pile)]
    assert names[:5] == ["blue_1", "blue_2", "blue_3", "green_1", "green_2"]
    assert game.card_names[state.discard[-1]] == "red_draw_two" and _conserved(state)


@pytest.mark.parametrize("mode", MODES)
def test_into_draw_shuffles_the_hand_into_the_draw_pile(tmp_path, mode):
    game = _games(tmp_path, RULE + "  eliminated_cards: into_draw\n")[mode]
    state = _position(game, [["red_draw_two", "red_1"], ["blue_1", "blue_2", "blue_3"], ["red_2", "red_3"]],
                      top="red_9", draw_pile=["green_1", "green_2"])
    state.apply("play red_draw_two")
    assert state.eliminated == [False, True, False] and len(state.discard) == 2 and _conserved(state)


def test_the_condition_is_type_checked_with_a_position(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Test\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    "round:\n  eliminate_when: hand(slef) >= 25\n", encoding="utf-8")
    diags = [d for d in check_file(str(path), root="/").diagnostics if d.severity == "error"]
    assert [(d.line, d.column, d.code) for d in diags] == [(5, 24, "E502")]
    assert diags[0].message == "unknown name 'slef' (did you mean 'self'?)"


def test_a_bad_place_for_the_cards_is_a_schema_error(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Test\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    "round:\n  eliminated_cards: out_of_the_window\n", encoding="utf-8")
    diags = check_file(str(path), root="/").diagnostics
    assert [(d.line, d.column, d.code, d.message) for d in diags] == [
        (5, 21, "E203", "'out_of_the_window' is not one of under_draw, under_discard, into_draw")]


@pytest.mark.parametrize("condition, expected", [
    ("hand(self)", (5, 19, "E501", "expected a condition, got a number")),
    ("5", (5, 19, "E202", "expected string or boolean, got integer 5")),
    ('"eliminate self"', (5, 30, "E401", None)),
])
def test_a_condition_that_is_not_one_is_reported_where_it_is(tmp_path, condition, expected):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Test\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    f"round:\n  eliminate_when: {condition}\n", encoding="utf-8")
    diags = [d for d in check_file(str(path), root="/").diagnostics if d.severity == "error"]
    assert len(diags) == 1
    line, column, code, message = expected
    assert (diags[0].line, diags[0].column, diags[0].code) == (line, column, code)
    assert message is None or diags[0].message == message


@pytest.mark.parametrize("condition, fast, reference", [
    ("hand(self) >= 5", 5, 1),
    ("hand(self) == 3 or hand(self) > 10", 3, 1),
    ("not hand(self) < 12", 12, 1),
    ("hand(self) > 9 and hand(self) != 11", 10, 1),
    ("hand(self) >= 5 and players > 2", 1, 1),          # reads more than the own hand: every hand tested
    ("hand(next) >= 5", 1, 1),
    ("hand(self) > 500", 109, 1),                        # never holds: no hand is tested (109: past the deck)
])
def test_a_condition_on_the_own_hand_alone_has_a_threshold(tmp_path, condition, fast, reference):
    """Game.eliminate_from: the smallest hand size for which the rule may hold, from the fast mode's table by
    hand size; the reference mode tests every hand."""
    games = _games(tmp_path, f"round:\n  eliminate_when: {condition}\n")
    # In the suite's reference run (UNODSL_FAST=0) every Game plays the reference mode, which tests every hand.
    assert games["fast"].eliminate_from == (fast if games["fast"].fast else reference)
    assert games["reference"].eliminate_from == reference


@pytest.mark.parametrize("condition", ["hand(self) >= 5", "hand(self) == 3 or hand(self) >= 9",
                                       "hand(self) > 6 and hand(self) != 8"])
def test_both_modes_play_the_same_games_under_a_threshold(tmp_path, condition):
    """The threshold skips tests and draws cards at once, plain plays stay plain: the same games as the reference."""
    games = _games(tmp_path, f"round:\n  eliminate_when: {condition}\n" + SEVEN)
    for seed in range(12):
        play_both_modes(games["fast"], games["reference"], 2 + seed % 3, seed)

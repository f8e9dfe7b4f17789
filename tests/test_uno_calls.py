"""UNO calls and accusations that can be wrong (uno.false_call, uno.catch: docs/language.md 3 "uno" and 9.9).

A false call costs its caller (cards or an effect); uno.catch.if says who may catch whom (`catcher`
beside `self`); uno.catch.limit how often; uno.catch.wrong makes any opponent accusable while the window
is open and a wrong accusation cost the accuser. Both engine modes play the same games; the heuristic bots
never call falsely nor accuse wrongly; saves keep the new fields; classic keeps its action space.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import unodsl
from unodsl.agents.simple import HeuristicBot
from unodsl.check import check_file
from unodsl.engine import Game
from unodsl.engine import events as E
from unodsl.engine.events import Event
from unodsl.engine import State
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
ACCUSATIONS = str(REPO / "variants" / "house-rules" / "uno-accusations.yaml")


def _game(tmp_path, body: str, fast: bool = True):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Calls\nextends: {REPO / 'variants' / 'classic.yaml'}\n" + body,
                    encoding="utf-8")
    game = unodsl.load(str(path), root="/", fast=True)
    return game if fast else Game(game.variant, fast=False)


def _position(game, hands, top="red_5", turn=0, draw_pile=()):
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top, *draw_pile])
    pile = [game.card_index[c] for c in draw_pile] + sorted(rest.elements())
    return game.position(hands, pile, [top], dealer=(turn - 1) % len(hands), turn=turn, record=True)


THREE = [["red_1", "red_2", "red_3"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]]
TWO = [["red_1", "red_2"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]]


# --- false calls

def test_without_false_call_a_call_is_offered_only_where_it_is_due(tmp_path):
    game = _game(tmp_path, "")
    state = _position(game, THREE)
    assert "play red_1 uno" not in state.legal_actions()
    with pytest.raises(unodsl.IllegalAction, match="UNO is called when playing your next-to-last card"):
        state.apply("play red_1 uno")


@pytest.mark.parametrize("fast", [True, False])
def test_a_false_call_costs_its_cards_at_once(tmp_path, fast):
    game = _game(tmp_path, "uno: {false_call: 2}\n", fast)
    state = _position(game, THREE, draw_pile=["blue_1", "blue_2"])
    assert "play red_1 uno" in state.legal_actions()
    start = len(state.events)
    state.apply("play red_1 uno")
    assert state.events[start:start + 4] == [Event(E.PLAYED, 0, cards=("red_1",)), Event(E.CALLED_UNO, 0),
                                             Event(E.FALSE_CALL, 0, count=2),
                                             Event(E.DREW, 0, count=2, cards=("blue_1", "blue_2"))]
    assert [len(h) for h in state.hands] == [4, 2, 2] and state.current_player == 1
    assert state.uno_called[0] is False
    # In words, named by the variant's call.
    lines = narrate(state.events[start:], 1, game)
    assert "p0's UNO call is false: p0 draws 2" in " / ".join(lines), lines


def test_a_due_call_is_no_false_call_and_the_last_card_carries_none(tmp_path):
    game = _game(tmp_path, "uno: {false_call: 2, call: Mau}\n")
    state = _position(game, TWO)
    state.apply("play red_1 uno")
    assert [len(h) for h in state.hands] == [1, 2, 2] and not any(e.kind == E.FALSE_CALL for e in state.events)
    state = _position(game, [["red_1"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]])
    assert "play red_1 uno" not in state.legal_actions()
    assert "Mau" in narrate([Event(E.CALLED_UNO, 0)], 1, game)[0]


@pytest.mark.parametrize("fast", [True, False])
def test_a_false_call_effect_runs_after_the_card_with_the_caller_as_self(tmp_path, fast):
    game = _game(tmp_path, "uno:\n  false_call: |\n    self draws 1\n    next draws 1\n", fast)
    hands = [["red_draw_two", "red_2", "red_3"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]]
    state = _position(game, hands, draw_pile=["blue_1", "blue_2", "blue_3", "blue_4"])
    start = len(state.events)
    state.apply("play red_draw_two uno")
    drew = [(e.player, e.cards) for e in state.events[start:] if e.kind == E.DREW]
    # The Draw Two first (p1 draws two), then the penalty: p0 draws one, then p0's next (p1) one.
    assert drew == [(1, ("blue_1", "blue_2")), (0, ("blue_3",)), (1, ("blue_4",))]
    assert state.current_player == 2


def test_the_false_call_effect_has_no_catcher(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Calls\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    "uno: {false_call: catcher draws 1}\n", encoding="utf-8")
    result = check_file(str(path), root="/")
    assert [d.code for d in result.diagnostics] == ["E509"]
    assert "uno.catch.if (the player who would accuse)" in result.diagnostics[0].message


def test_a_misspelt_key_gets_a_located_did_you_mean(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Calls\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    "uno:\n  catch: {wrongg: 2}\n", encoding="utf-8")
    result = check_file(str(path), root="/")
    headers = [d.header() for d in result.diagnostics]
    assert len(headers) == 1 and ":5:" in headers[0] and "wrong" in headers[0] and "did you mean" in headers[0], headers


# --- who may catch, how often

@pytest.mark.parametrize("fast", [True, False])
def test_catch_if_reads_the_catcher_beside_the_accused(tmp_path, fast):
    game = _game(tmp_path, "uno:\n  catch: {if: catcher == next}\n", fast)
    state = _position(game, TWO)
    state.apply("play red_1")
    assert state.decision == "catch" and state.current_player == 1
    assert state.legal_actions() == ["catch 0", "pass"]
    state.apply("pass")
    # The player after next may not catch p0 and is not asked; p0 may still call late, then p1 begins.
    assert state.current_player == 0 and state.legal_actions() == ["uno", "pass"]
    state.apply("pass")
    assert state.decision == "turn" and state.current_player == 1


def test_a_limit_of_one_per_round_stops_a_second_catch(tmp_path):
    game = _game(tmp_path, "uno:\n  catch: {limit: round}\n")
    state = _position(game, [["red_1", "red_2", "red_3"], ["red_4", "green_2", "green_3"],
                             ["yellow_1", "yellow_2", "yellow_3"]], draw_pile=["blue_1", "blue_2", "blue_3"])
    state.apply("play red_1")                       # p0 holds two: no call due
    state.apply("play red_4")                       # p1 holds two
    state.apply("draw")                             # p2 cannot play yellow on red
    assert state.current_player == 0
    state.apply("play red_2")                       # p0 at one without calling
    assert state.decision == "catch" and state.legal_actions() == ["catch 0", "pass"]
    state.apply("catch 0")
    assert state.accusations == [0, 1, 0] and len(state.hands[0]) == 3
    # p0 is no longer vulnerable: the window closes (p1 has made its one accusation this round).
    assert state.decision == "turn"


def test_a_limit_of_one_per_round_is_not_asked_again(tmp_path):
    game = _game(tmp_path, "uno:\n  catch: {limit: round}\n")
    state = _position(game, TWO, draw_pile=["blue_1", "blue_2"])
    state.accusations[1] = 1                        # p1 accused earlier this round
    state.apply("play red_1")
    assert state.decision == "catch" and state.current_player == 2     # p1 is not asked


# --- wrong accusations

@pytest.mark.parametrize("fast", [True, False])
def test_accusing_a_player_who_called_costs_the_accuser(tmp_path, fast):
    game = _game(tmp_path, "uno:\n  catch: {wrong: 2}\n", fast)
    state = _position(game, TWO, draw_pile=["blue_1", "blue_2"])
    state.apply("play red_1 uno")
    assert state.decision == "catch" and state.callers == [0]
    assert state.legal_actions() == ["catch 0", "catch 2", "pass"]
    start = len(state.events)
    state.apply("catch 0")
    assert state.events[start:start + 2] == [Event(E.ACCUSED_WRONGLY, 0, 1, 2),
                                             Event(E.DREW, 1, count=2, cards=("blue_1", "blue_2"))]
    assert [len(h) for h in state.hands] == [1, 4, 2]
    # The wrong accuser's part of the window is over: p2 is asked next.
    assert state.decision == "catch" and state.current_player == 2
    lines = narrate(state.events[start:], 2, game)
    assert lines[0].startswith("p1 accuses p0 wrongly: p1 draws 2"), lines
    state.apply("pass")
    assert state.decision == "catch" and state.current_player == 0      # p0 may accuse too, then p1 begins
    state.apply("pass")
    assert state.decision == "turn" and state.current_player == 1 and state.callers == []


def test_a_wrong_accusation_effect_runs_with_the_accuser_as_self(tmp_path):
    game = _game(tmp_path, "uno:\n  catch:\n    wrong: |\n      self draws 1\n      skip self\n")
    state = _position(game, TWO, draw_pile=["blue_1"])
    state.apply("play red_1 uno")
    state.apply("catch 0")
    assert [len(h) for h in state.hands] == [1, 3, 2]


def test_catching_a_vulnerable_player_is_still_a_catch(tmp_path):
    game = _game(tmp_path, "uno:\n  catch: {wrong: 2}\n")
    state = _position(game, TWO, draw_pile=["blue_1", "blue_2"])
    state.apply("play red_1")
    state.apply("catch 0")
    assert [len(h) for h in state.hands] == [3, 2, 2] and state.events[-3].kind == E.CAUGHT


# --- bots, both modes, saves, the action space

@pytest.mark.parametrize("seed", range(6))
def test_both_modes_play_the_same_games(seed):
    fast = unodsl.load(ACCUSATIONS, fast=True)
    reference = Game(fast.variant, fast=False)
    play_both_modes(fast, reference, 3 + seed % 3, seed)


def test_the_heuristic_bots_call_correctly_and_never_accuse_wrongly():
    game = unodsl.load(ACCUSATIONS)
    bot = HeuristicBot(__import__("random").Random(1))
    calls = catches = 0
    for seed in range(12):
        state = game.new_game(3, seed=seed, record=True)
        while not state.is_over:
            state.apply_id(bot.act(state))
        kinds = Counter(e.kind for e in state.events)
        assert kinds[E.FALSE_CALL] == 0 and kinds[E.ACCUSED_WRONGLY] == 0
        calls += kinds[E.CALLED_UNO]
        catches += kinds[E.CAUGHT]
    assert calls > 0


def test_a_save_in_the_window_keeps_callers_and_accusations(tmp_path):
    game = _game(tmp_path, "uno:\n  catch: {wrong: 2, limit: round}\n")
    state = _position(game, TWO, draw_pile=["blue_1", "blue_2"])
    state.apply("play red_1 uno")
    data = json.loads(state.to_json())
    assert data["callers"] == [0] and data["accusations"] == [0, 0, 0]
    loaded = State.from_json(game, state.to_json())
    assert loaded.callers == [0] and loaded.legal_actions() == state.legal_actions()
    loaded.apply("catch 0")
    assert loaded.accusations == [0, 1, 0]
    # A variant without accusations saves neither field, as before.
    classic = unodsl.load(str(REPO / "variants" / "classic.yaml"))
    assert not {"callers", "accusations"} & set(json.loads(classic.new_game(3, seed=1).to_json()))


def test_the_action_space_stays_classic(tmp_path):
    classic = unodsl.load(str(REPO / "variants" / "classic.yaml"))
    game = unodsl.load(ACCUSATIONS)
    assert game.num_actions == classic.num_actions
    assert game.action_from_string("catch 2") == classic.action_from_string("catch 2")


def test_the_rulebook_says_the_calls_and_accusations(tmp_path):
    game = unodsl.load(ACCUSATIONS)
    text = render_rulebook(game)
    assert "a call when the play does not leave you one card is a false call: you draw 2 cards" in text
    assert "A player may catch another only when the catcher is the player after the accused player." in text
    assert "is wrong: the accuser draws 2 cards" in text


def test_the_rulebook_says_a_catcher_compared_in_the_penalty(tmp_path):
    """`catcher` as a value (`catcher == next`) had no English: the rulebook failed on it."""
    game = _game(tmp_path, "uno:\n  penalty: |\n    if catcher == next:\n      self draws 4\n    else:\n"
                           "      self draws 2\n")
    assert "the catcher is the player after the caught player" in render_rulebook(game)


@pytest.mark.parametrize("limit, asked_next", [("none", 0), ("window", 1)])
def test_a_limit_of_one_per_window_passes_the_window_on(tmp_path, limit, asked_next):
    game = _game(tmp_path, f"uno:\n  catch: {{limit: {limit}}}\n")
    state = _position(game, [["red_1"], ["green_1"], ["red_2", "red_3", "red_4"]], turn=2)
    state.vulnerable[:] = [0, 1]                    # two players at one card without calling
    state.apply("play red_2")
    assert state.current_player == 0 and state.legal_actions() == ["uno", "catch 1", "pass"]
    state.apply("catch 1")
    # Without a limit p0 stays first in the window (to call late); once per window, p1 is asked next.
    assert state.decision == "catch" and state.current_player == asked_next


# --- the call with the last card (uno.out)

OUT = str(REPO / "variants" / "house-rules" / "uno-out.yaml")
LAST = [["red_1"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]]


@pytest.mark.parametrize("fast", [True, False])
def test_a_forgotten_out_call_costs_its_cards_and_the_player_plays_on(tmp_path, fast):
    game = _game(tmp_path, "uno:\n  out: {call: Last card, penalty: 2}\n", fast)
    state = _position(game, LAST, draw_pile=["blue_1", "blue_2"])
    assert state.legal_actions() == ["play red_1", "play red_1 uno", "draw"]
    start = len(state.events)
    state.apply("play red_1")
    assert state.events[start:start + 3] == [Event(E.PLAYED, 0, cards=("red_1",)), Event(E.FORGOT_OUT, 0, count=2),
                                             Event(E.DREW, 0, count=2, cards=("blue_1", "blue_2"))]
    assert not state.is_over and state.hands[0] == [game.card_index["blue_1"], game.card_index["blue_2"]]
    assert state.current_player == 1 and state.decision == "turn"
    lines = narrate(state.events_for(1, start), 1, game)
    assert "p0 plays their last card without calling Last card: p0 draws 2" in lines, lines


@pytest.mark.parametrize("fast", [True, False])
def test_the_out_call_goes_out(tmp_path, fast):
    game = _game(tmp_path, "uno:\n  out: {call: Last card}\n", fast)
    state = _position(game, LAST)
    start = len(state.events)
    state.apply("play red_1 uno")
    assert state.is_over and state.events[start + 1] == Event(E.CALLED_OUT, 0)
    assert not any(e.kind == E.CALLED_UNO for e in state.events[start:])
    assert narrate(state.events[start:], 1, game)[1] == "p0 calls Last card"


def test_without_uno_out_the_last_card_carries_no_call(tmp_path):
    game = _game(tmp_path, "")
    state = _position(game, LAST)
    with pytest.raises(unodsl.IllegalAction, match="UNO is called when playing your next-to-last card"):
        state.apply("play red_1 uno")


def test_the_out_penalty_runs_before_the_card_with_the_card_bound(tmp_path):
    game = _game(tmp_path, "uno:\n  out:\n    penalty: |\n      if card is action:\n"
                           "          self draws 1\n      next draws 1\n")
    state = _position(game, [["red_draw_two"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]],
                      draw_pile=["blue_1", "blue_2", "blue_3", "blue_4"])
    start = len(state.events)
    state.apply("play red_draw_two")
    drew = [(e.player, e.cards) for e in state.events[start:] if e.kind == E.DREW]
    # The penalty first (p0 one card, p1 one), then the Draw Two (p1 two): p0 holds a card, so is not out.
    assert drew == [(0, ("blue_1",)), (1, ("blue_2",)), (1, ("blue_3", "blue_4"))]
    assert not state.is_over and state.current_player == 2


def test_a_penalty_of_no_card_goes_out_anyway(tmp_path):
    game = _game(tmp_path, "uno:\n  out: {penalty: 0}\n")
    state = _position(game, LAST)
    state.apply("play red_1")
    assert state.is_over and state.winner == 0


def test_uno_disabled_has_no_out_call(tmp_path):
    game = _game(tmp_path, "uno:\n  enabled: false\n  out: {penalty: 2}\n")
    state = _position(game, LAST)
    assert state.legal_actions() == ["play red_1", "draw"]
    state.apply("play red_1")
    assert state.is_over


def test_the_out_penalty_has_no_catcher(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Calls\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    "uno:\n  out: {penalty: catcher draws 1}\n", encoding="utf-8")
    result = check_file(str(path), root="/")
    assert [(d.code, d.line) for d in result.diagnostics] == [("E509", 5)]


def test_a_misspelt_out_key_gets_a_located_did_you_mean(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Calls\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    "uno:\n  out: {penalti: 2}\n", encoding="utf-8")
    headers = [d.header() for d in check_file(str(path), root="/").diagnostics]
    assert len(headers) == 1 and ":5:" in headers[0] and "did you mean 'penalty'" in headers[0], headers


@pytest.mark.parametrize("seed", range(6))
def test_out_calls_play_the_same_games_in_both_modes(seed):
    fast = unodsl.load(OUT, fast=True)
    for rulings in ({}, {"last_card_caught_only": True}):
        fast = Game(fast.variant, rulings=rulings, fast=True)
        play_both_modes(fast, Game(fast.variant, rulings=rulings, fast=False), 2 + seed % 3, seed)


def test_the_heuristic_bots_make_the_out_call():
    game = unodsl.load(OUT)
    bot = HeuristicBot(__import__("random").Random(1))
    outs = 0
    for seed in range(8):
        state = game.new_game(3, seed=seed, record=True)
        while not state.is_over:
            state.apply_id(bot.act(state))
        kinds = Counter(e.kind for e in state.events)
        assert kinds[E.FORGOT_OUT] == 0
        outs += kinds[E.CALLED_OUT]
    assert outs > 0


def test_a_save_inside_the_caught_only_penalty_loads_and_plays_on(tmp_path):
    game = Game(unodsl.load(OUT).variant, rulings={"last_card_caught_only": True})
    state = _position(game, LAST, draw_pile=["blue_1", "blue_2"])
    state.apply("play red_1")
    assert state.decision == "option" and state.current_player == 1
    loaded = State.from_json(game, state.to_json())
    assert loaded.legal_actions() == ["option catch", "option let_go"]
    loaded.apply("option catch")
    assert [len(h) for h in loaded.hands] == [2, 2, 2] and loaded.current_player == 1


def test_the_rulebook_says_the_out_call_and_the_action_space_stays_classic():
    game = unodsl.load(OUT)
    text = render_rulebook(game)
    assert 'When you play your last card, call "Last card!". If you do not, you draw 2 cards at once' in text
    # The out call is classic's `play X uno`; only the ruling's choice adds its two options.
    assert game.num_actions == unodsl.load(str(REPO / "variants" / "classic.yaml")).num_actions + 2


# --- a false call outside a play (uno.false_call in the catch window)

@pytest.mark.parametrize("fast", [True, False])
def test_a_false_call_in_the_catch_window_costs_and_ends_the_callers_part(tmp_path, fast):
    game = _game(tmp_path, "uno: {false_call: 2}\n", fast)
    state = _position(game, [["red_1", "red_2"], ["green_1", "green_2", "green_3"], ["yellow_1", "yellow_2"]],
                      draw_pile=["blue_1", "blue_2"])
    state.apply("play red_1")                       # p0 at one card without calling: the catch window opens
    assert state.current_player == 1 and state.legal_actions() == ["uno", "catch 0", "pass"]
    start = len(state.events)
    state.apply("uno")                              # p1 holds three: not due, a false call
    assert state.events[start:start + 3] == [Event(E.CALLED_UNO, 1), Event(E.FALSE_CALL, 1, count=2),
                                             Event(E.DREW, 1, count=2, cards=("blue_1", "blue_2"))]
    assert [len(h) for h in state.hands] == [1, 5, 2]
    assert "p1's UNO call is false: p1 draws 2" in " / ".join(narrate(state.events[start:], 2, game))
    # p1's part of the window is over: p2 is asked, and p0 (still vulnerable) may yet call late.
    assert state.current_player == 2 and state.legal_actions() == ["uno", "catch 0", "pass"]
    state.apply("pass")
    assert state.current_player == 0 and state.legal_actions() == ["uno", "pass"]
    state.apply("uno")                              # due: a late call, no false call
    assert state.decision == "turn" and state.current_player == 1 and state.uno_called[0]


def test_without_false_call_no_call_is_offered_to_a_player_not_due(tmp_path):
    game = _game(tmp_path, "")
    state = _position(game, [["red_1", "red_2"], ["green_1", "green_2", "green_3"], ["yellow_1", "yellow_2"]])
    state.apply("play red_1")
    assert state.current_player == 1 and state.legal_actions() == ["catch 0", "pass"]


def test_the_heuristic_bot_never_calls_falsely_in_the_window(tmp_path):
    game = _game(tmp_path, "uno: {false_call: 2}\n")
    bot = HeuristicBot(__import__("random").Random(1))
    for seed in range(8):
        state = game.new_game(3, seed=seed, record=True)
        while not state.is_over:
            state.apply_id(bot.act(state))
        assert not any(e.kind == E.FALSE_CALL for e in state.events)

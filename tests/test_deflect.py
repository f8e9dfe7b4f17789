"""Cards that turn a pending draw stack away (`on_stack`, `turn the stack away to P`): the bot, the words.

The rules themselves are No Mercy's scenarios (variants/scenarios/no-mercy.yaml, ruling stack_deflect),
played in both modes by test_scenarios.py; test_modes.py plays No Mercy with the ruling on both ways.
"""

from __future__ import annotations

import random

import pytest

from unodsl.agents.simple import HeuristicBot
from unodsl.check import check_file
from unodsl.engine import events as E
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate
from unodsl.scenarios.given import build_state

NO_MERCY = "variants/no-mercy.yaml"


@pytest.fixture(scope="module", params=[True, False], ids=["fast", "reference"])
def deflecting(request):
    return check_file(NO_MERCY, None, {"stack_deflect": True}, request.param).game


def _facing(game, hands):
    """A position where seat 0 has played a red Draw Two on seat 1 (the stack is 1's to answer)."""
    state = build_state(game, {"given": {"hands": hands, "top": "red_5", "turn": 0}})
    state.events = []
    state.apply("play red_draw_two")
    return state


def test_the_bot_turns_the_stack_away_when_it_cannot_answer(deflecting):
    state = _facing(deflecting, [["red_draw_two", "red_1", "red_2"], ["red_reverse", "blue_1", "blue_2"],
                                 ["green_1", "green_2", "green_3"]])
    assert state.legal_actions() == ["play red_reverse", "draw"]
    state.apply_id(HeuristicBot(random.Random(0)).act(state))
    assert (state.current_player, state.stack, state.stack_victim) == (0, 2, 0)


def test_the_bot_answers_with_a_draw_card_before_turning_the_stack_away(deflecting):
    state = _facing(deflecting, [["red_draw_two", "red_1", "red_2"], ["red_skip", "blue_draw_two", "blue_2"],
                                 ["green_1", "green_2", "green_3"]])
    action = HeuristicBot(random.Random(0)).act(state)
    assert deflecting.action_to_string(action) == "play blue_draw_two"


def test_the_bot_keeps_a_wild_draw_card_and_turns_the_stack_away(deflecting):
    state = _facing(deflecting, [["red_draw_two", "red_1", "red_2"], ["red_skip", "wild_draw_six", "blue_2"],
                                 ["green_1", "green_2", "green_3"]])
    assert deflecting.action_to_string(HeuristicBot(random.Random(0)).act(state)) == "play red_skip"


def test_the_event_and_its_words(deflecting):
    state = _facing(deflecting, [["red_draw_two", "red_1", "red_2"], ["red_skip", "blue_1", "blue_2"],
                                 ["green_1", "green_2", "green_3"]])
    state.apply("play red_skip")
    passed = [e for e in state.events if e.kind == E.STACK_PASSED]
    assert [(e.player, e.other, e.count) for e in passed] == [(1, 2, 2)]
    assert "p1 turns the stack of 2 away to p2" in narrate(state.events, -1)
    assert "you turn the stack of 2 away to p2" in narrate(state.events, 1)


def test_the_rulebook_says_what_a_card_does_on_a_stack_only_with_the_ruling_on(deflecting):
    on = render_rulebook(deflecting)
    off = render_rulebook(check_file(NO_MERCY).game)
    assert "A player facing a draw stack may play it" in on
    assert "The next player faces the whole draw stack instead" in on
    assert "A player facing a draw stack may play it" not in off

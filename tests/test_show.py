"""`show hand of P to G` (issue 29, item 8): the cards shown enter what each seat of G may see: its
observation, its events and narration, the worlds its search bot samples, the RL resampler's states, the
save; in both modes. Which seats see it is in the scenarios too (tests/scenarios/seating.yaml).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from unodsl.agents.view import SeatView
from unodsl.agents.worlds import Knowledge, WorldSampler
from unodsl.check import check_file
from unodsl.engine import Game, State
from unodsl.rl import resample_hidden
from unodsl.rulebook.narration import hands_seen, narrate

VARIANT = """\
unodsl: 1
name: Show (unit test)
extends: classic
cards:
  skip:
    on_play: |
      show hand of next to all
      skip next
  wild:
    on_play: |
      choose color
      show hand of self to next of next
"""

HANDS = [["red_skip", "red_2", "red_3"], ["blue_1", "blue_2", "wild"], ["green_2", "green_3"], ["yellow_1", "red_7"]]


def _check(tmp_path, text: str):
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return check_file(str(path))


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def game(request, tmp_path):
    result = _check(tmp_path, VARIANT)
    assert [d.header() for d in result.diagnostics] == []
    return Game(result.game.variant, fast=request.param)


def _position(game, hands=HANDS, record=True) -> State:
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), "red_5"])
    return game.position(hands, sorted(rest.elements()), ["red_5"], dealer=len(hands) - 1, turn=0, record=record)


def test_the_hand_shown_enters_the_observation_of_each_seat_shown_and_no_other(game):
    state = _position(game)
    state.apply("play red_skip")
    shown = sorted(HANDS[1])
    for seat in (0, 2, 3):
        assert state.observation(seat)["revealed"] == {"1": shown}
    assert state.observation(1)["revealed"] == {}


def test_the_seats_shown_see_the_cards_in_their_events_the_others_only_that_it_was_shown(game):
    state = _position(game, [["wild", "red_2"], ["blue_1"], ["green_2", "green_3"], ["yellow_1", "red_7"]])
    state.apply("play wild")
    state.apply("color red")                         # then shown to next of next: seat 2
    assert "you show your hand to p2: Red 2" in narrate(state.events_for(0), 0, game)
    assert "p0 shows their hand to you: Red 2" in narrate(state.events_for(2), 2, game)
    told = narrate(state.events_for(1), 1, game)
    assert "p0 shows their hand to p2" in told and not any("Red 2" in line for line in told)
    assert hands_seen(state.events_for(2), 2) == {0: 0} and hands_seen(state.events_for(1), 1) == {}
    assert state.observation(2)["revealed"] == {"0": ["red_2"]} and state.observation(1)["revealed"] == {}


def test_a_search_bot_shown_a_hand_deals_its_worlds_with_it(game):
    state = _position(game)
    state.apply("play red_skip")                     # seat 1 is skipped: seat 2 decides, having seen seat 1's hand
    view = SeatView(state)
    assert view.seat == 2
    know = Knowledge()
    know.update(view)
    sampler = WorldSampler(view, know)
    rng = random.Random(4)
    for _ in range(20):
        world = sampler.sample(rng)
        assert Counter(world.hands[1]) == Counter(state.hands[1])
    # the RL resampler keeps it too
    for seed in range(10):
        redealt = resample_hidden(game, state, 2, random.Random(seed))
        assert Counter(redealt.hands[1]) == Counter(state.hands[1])


def test_a_save_keeps_what_was_shown(game):
    state = _position(game, record=False)
    state.apply("play red_skip")
    loaded = State.from_json(game, state.to_json())
    assert loaded.observation(3)["revealed"] == state.observation(3)["revealed"] != {}
    assert json.loads(state.to_json())["revealed"]["3"] == {"1": sorted(HANDS[1])}


def test_showing_to_a_number_is_e501(tmp_path):
    result = _check(tmp_path, VARIANT.replace("show hand of self to next of next", "show hand of self to 3"))
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("E501", "expected a player or a group to show the hand to, got a number")]

"""Sets (turn.sets): several cards played in one turn; the `set` decision, its look-ahead, saves and bounds.

The house rules' own rules are in their scenario files (variants/scenarios/house-rules-doubles.yaml,
-sum-play.yaml); tests/test_modes.py plays them in both modes. Here: what the scenarios cannot show.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path

import pytest

from unodsl.agents.bots import make_bot
from unodsl.agents.simple import HeuristicBot
from unodsl.check import load
from unodsl.engine.errors import InvalidState
from unodsl.engine.game import Game
from unodsl.engine.sets import SEARCH_BUDGET, SetState
from unodsl.engine.state import State
from unodsl.rulebook.narration import narrate

REPO = Path(__file__).resolve().parent.parent
DOUBLES = str(REPO / "variants" / "house-rules" / "doubles.yaml")
SUM_PLAY = str(REPO / "variants" / "house-rules" / "sum-play.yaml")
CLASSIC = str(REPO / "variants" / "classic.yaml")


def _game(path: str, fast: bool) -> Game:
    return Game(load(path, "/" if path.startswith("/tmp") else None).variant, fast=fast)


def _variant(tmp_path, sets: str) -> str:
    (tmp_path / "v.yaml").write_text(f"unodsl: 1\nname: Sets test\nextends: {CLASSIC}\nturn:\n  sets: {sets}\n",
                                     encoding="utf-8")
    return str(tmp_path / "v.yaml")


def _at(g, hands, top, draw=(), **kw):
    placed = Counter(g.card_index[c] for cards in [*hands, [top], draw] for c in cards)
    rest = list((Counter(g.deck) - placed).elements())
    return g.position(hands, list(draw) + rest, [top], dealer=len(hands) - 1, turn=0, **kw)


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def fast(request):
    return request.param


def test_only_a_variant_with_sets_plays_set_states(fast):
    assert type(_game(DOUBLES, fast).new_game(3, seed=1)) is SetState
    assert type(_game(DOUBLES, fast).new_game(3, seed=1, record=True)) is SetState
    classic = _game(CLASSIC, fast)
    assert classic.sets is None and not isinstance(classic.new_game(3, seed=1), SetState)


def test_a_classic_save_holds_no_set_field():
    st = _game(CLASSIC, True).new_game(3, seed=4)
    assert "set_play" not in json.loads(st.to_json())


def test_a_state_saved_in_the_middle_of_a_set_goes_on_identically(fast):
    g = _game(DOUBLES, fast)
    st = _at(g, [["red_5", "blue_5", "green_5", "red_7"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]], "red_3")
    st.apply("play red_5")
    assert st.decision == "set" and st.set_play == [1, 5, g.card_index["red_5"], g.card_index["red_3"]]
    saved = st.to_json()
    again = State.from_json(g, saved)
    assert type(again) is SetState and again.set_play == st.set_play
    assert again.legal_actions() == st.legal_actions() == ["play green_5", "play blue_5", "done"]
    for s in (st, again, st.clone()):
        s.apply("play green_5")
    assert st.to_json() == again.to_json()
    assert st.set_play == [2, 10, g.card_index["red_5"], g.card_index["red_3"]]


def test_a_save_that_asks_for_a_set_is_refused_without_one():
    g = _game(DOUBLES, True)
    st = _at(g, [["red_5", "blue_5", "red_7"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]], "red_3")
    st.apply("play red_5")
    data = json.loads(st.to_json())
    data["set_play"] = []
    with pytest.raises(InvalidState, match="set_play.*asks to go on with a set"):
        State.from_json(g, json.dumps(data))
    classic = _game(CLASSIC, True)
    plain = json.loads(classic.new_game(3, seed=2).to_json())
    plain["pending"] = ["set", plain["pending"][1]]
    with pytest.raises(InvalidState, match="no sets"):
        State.from_json(classic, json.dumps(plain))


def test_the_docs_run_needs_its_third_card(tmp_path, fast):
    path = _variant(tmp_path, "{max: 3, continue: 'card is number and card.number == top.number + 1 and "
                              "card.color == set.first.color', finish: set.size == 3}")
    g = _game(path, fast)
    hands = [["red_4", "red_5", "red_6", "blue_9", "blue_8"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]]
    st = _at(g, hands, "red_3")
    st.apply("play red_4")
    assert st.legal_actions() == ["play red_5", "done"]
    st.apply("play red_5")
    assert st.legal_actions() == ["play red_6"]              # a run of two may not end
    without = _at(g, [["red_4", "red_5", "blue_9"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]], "red_3")
    without.apply("play red_4")
    assert without.decision == "turn" and without.current_player == 1     # nothing could finish it


def test_the_look_ahead_is_bounded(tmp_path, fast):
    # A set that can never finish, over a hand of many distinct cards: every branch is searched, up to the budget.
    g = _game(_variant(tmp_path, "{max: 6, continue: 'true', finish: 'false'}"), fast)
    hand = [f"{c}_{n}" for c in ("red", "blue", "green", "yellow") for n in range(1, 10)]
    st = _at(g, [hand, ["green_0", "blue_0"], ["yellow_0", "red_skip"]], "red_0")
    began = time.perf_counter()
    st.apply("play red_1")
    assert time.perf_counter() - began < 2.0
    assert st.decision == "turn" and st.current_player == 1
    assert SEARCH_BUDGET == 2000


def test_a_recorded_set_is_narrated(fast):
    g = _game(DOUBLES, fast)
    st = _at(g, [["red_5", "blue_5", "red_7", "red_9"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]], "red_3",
             record=True)
    st.apply("play red_5")
    st.apply("play blue_5")
    lines = narrate(st.events_for(1), 1)
    assert "p0 plays Red 5" in lines[-3] and "p0 plays Blue 5" in lines[-2]
    assert lines[-1] == "p0's set of 2 cards is done"


def test_every_bot_finishes_games_with_sets():
    for path in (DOUBLES, SUM_PLAY):
        g = _game(path, True)
        asked = Counter()
        for name in ("random", "heuristic", "pimc:2", "ismcts:8"):
            bots = [make_bot(name, random.Random(1)), make_bot("heuristic", random.Random(2))]
            st = g.new_game(2, seed=3)
            while not st.is_over:
                if st.decision == "set":
                    asked[st.current_player] += 1
                st.apply_id(bots[st.current_player].act(st))
            assert st.winner is not None or st.stalled
        assert asked[0] and asked[1], asked          # each bot was asked to go on with a set


def test_the_heuristic_goes_on_with_a_set():
    g = _game(SUM_PLAY, True)
    st = _at(g, [["red_3", "blue_4", "green_5", "yellow_9"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]],
             "red_7")
    st.apply("play red_3")
    assert g.action_to_string(HeuristicBot(random.Random(0)).act(st)) == "play blue_4"

"""Named piles: `piles:`, `move`, `takes`, `puts` and `count(PILE)`; saved, cloned, observed and hidden.

A face-up pile is public like the discard pile; a face-down one shows its size only, in the
observation, in a bot's view and in the worlds the search bots sample.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from unodsl.agents.view import SeatView, public_state
from unodsl.agents.worlds import Knowledge, WorldSampler
from unodsl.check import load
from unodsl.rulebook.narration import narrate
from unodsl.engine.game import Game
from unodsl.engine.state import State

REPO = Path(__file__).resolve().parent.parent
PIGGY = str(REPO / "variants" / "house-rules" / "piggy-bank.yaml")
PILES = """\
unodsl: 1
name: Piles test
extends: {classic}
piles:
  bank: {{face: down}}
  pot: {{face: up}}
cards:
  skip:
    on_play: |
      skip next
      move 2 cards from draw to pot
      move 1 card from discard to bank
      move 1 card from pot to discard
  reverse:
    on_play: |
      reverse
      if count(pot) > 0 and top of pot.number != 3:
          self takes 1 card from pot
  draw_two:
    on_play: |
      next draws top of bank.number + 1 and loses turn
"""


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def piles(request, tmp_path):
    (tmp_path / "v.yaml").write_text(PILES.format(classic=REPO / "variants" / "classic.yaml"), encoding="utf-8")
    return Game(load(str(tmp_path / "v.yaml"), str(tmp_path.anchor)).variant, fast=request.param)


def _at(g, hands, top, below=(), draw=(), piles=None, **kw):
    """A position: these hands, discard pile (`below` then `top`), draw pile top first, the rest under it."""
    placed = Counter(g.card_index[c] for cards in [*hands, [top], below, draw, *(piles or {}).values()]
                     for c in cards)
    rest = list((Counter(g.deck) - placed).elements())
    return g.position(hands, list(draw) + rest, [*below, top], dealer=len(hands) - 1, turn=0, piles=piles, **kw)


def test_move_keeps_the_discard_top_and_fills_piles_in_order(piles):
    st = _at(piles, [["red_skip", "blue_5", "blue_6"], ["red_1", "red_2"]], "red_9", below=["green_4"],
             draw=["yellow_1", "yellow_2"])
    st.apply("play red_skip")
    g = piles
    # Two from the draw pile onto the pot (yellow_2 last, on top); the card under the top card
    # of the discard pile (the 9) to the bank; the pot's top back under the Skip, which stays on top.
    assert [g.card_names[k] for k in st.piles[1]] == ["yellow_1"]
    assert [g.card_names[k] for k in st.piles[0]] == ["red_9"]
    assert [g.card_names[k] for k in st.discard] == ["green_4", "yellow_2", "red_skip"]
    assert st.current_color == "red"


def test_take_and_count(piles):
    st = _at(piles, [["red_reverse", "blue_5"], ["red_1", "red_2"]], "red_9", piles={"pot": ["green_1"]})
    st.apply("play red_reverse")
    assert st.hand(0) == ["blue_5", "green_1"] and st.piles[1] == []
    st = _at(piles, [["red_reverse", "blue_5"], ["red_1", "red_2"]], "red_9")
    st.apply("play red_reverse")                  # count(pot) is 0: nothing taken
    assert st.hand(0) == ["blue_5"]
    st = _at(piles, [["red_reverse", "blue_5"], ["red_1", "red_2"]], "red_9", piles={"pot": ["green_1", "blue_3"]})
    st.apply("play red_reverse")                  # the pot's top card is a 3: nothing taken
    assert st.hand(0) == ["blue_5"] and len(st.piles[1]) == 2


def test_the_top_card_of_a_pile_is_read_whatever_its_face(piles):
    st = _at(piles, [["red_draw_two", "blue_5"], ["red_1", "red_2"]], "red_9", piles={"bank": ["green_7", "blue_2"]})
    st.apply("play red_draw_two")
    assert st.hand_size(1) == 2 + 3               # the bank's top card is a 2: 2 + 1 cards
    st = _at(piles, [["red_draw_two", "blue_5"], ["red_1", "red_2"]], "red_9")
    st.apply("play red_draw_two")
    assert st.hand_size(1) == 2                   # an empty bank reads -1: -1 + 1 = 0 cards


def test_a_face_down_pile_shows_its_size_only():
    g = load(PIGGY)
    st = _at(g, [["red_skip", "blue_5", "green_7"], ["red_1", "red_2", "red_3"]], "red_9",
             piles={"bank": ["yellow_1", "yellow_2"]})
    assert st.observation(1)["piles"] == {"bank": 2}
    st.apply("play red_skip")
    assert st.decision == "put" and set(st.legal_actions()) == {"put blue_5", "put green_7"}
    pub = public_state(st, 1)
    assert pub["piles"] == [2] and "yellow_1" not in str(pub)


def test_sampled_worlds_deal_the_hidden_bank_with_the_other_unseen_cards():
    g = load(PIGGY)
    st = _at(g, [["red_1", "blue_5", "green_7"], ["red_2", "red_3", "red_4"]], "red_9",
             piles={"bank": ["yellow_1", "yellow_2", "wild"]})
    view = SeatView(st)
    knowledge = Knowledge()
    knowledge.update(view)
    sampler = WorldSampler(view, knowledge)
    rng = random.Random(1)
    banks = set()
    for _ in range(30):
        world = sampler.sample(rng)
        assert len(world.piles[0]) == 3 and world.hands[0] == st.hands[0]
        assert Counter(k for zone in (*world.hands, world.draw_pile, world.discard, *world.piles) for k in zone) \
            == Counter(g.deck)
        banks.add(tuple(sorted(world.piles[0])))
    assert len(banks) > 20                         # the bank is not the real one in every world


@pytest.mark.parametrize("fast", [True, False])
def test_a_put_decision_is_saved_and_cloned(fast):
    g = Game(load(PIGGY).variant, fast=fast)
    rng = random.Random(3)
    st = g.new_game(4, seed=5)
    while not (st.decision == "put" and any(st.piles)):      # a put, with something in the bank already
        actions = st.legal_action_ids()
        st.apply_id(actions[int(rng.random() * len(actions))])
        if st.over:
            st = g.new_game(4, seed=rng.randrange(1000))
    before = [list(p) for p in st.piles]
    action = st.legal_action_ids()[0]
    put = g.action_to_string(action).split()[1]
    for other in (State.from_json(g, st.to_json()), st.clone()):
        assert other.pending == st.pending and other.piles == st.piles
        other.apply_id(action)
        assert [g.card_names[k] for k in other.piles[0]] == [g.card_names[k] for k in before[0]] + [put]
    assert st.piles == before                              # the copies are independent


def test_events_say_what_each_seat_may_see():
    g = load(PIGGY)
    st = g.position([["red_skip", "blue_5", "green_7"], ["red_1", "red_2", "red_3"]],
                    list((Counter(g.deck) - Counter(g.card_index[c] for c in
                          ["red_skip", "blue_5", "green_7", "red_1", "red_2", "red_3", "red_9"])).elements()),
                    ["red_9"], dealer=1, turn=0, record=True)
    st.apply("play red_skip")
    st.apply("put green_7")
    mine, theirs = narrate(st.events_for(0), 0, g), narrate(st.events_for(1), 1, g)
    assert any("put 1 card on the bank pile" in line and "Green 7" in line for line in mine)
    assert any("puts 1 card on the bank pile" in line for line in theirs)
    assert not any("Green 7" in line for line in theirs)


def test_random_games_keep_every_card_in_both_modes():
    for fast in (True, False):
        g = Game(load(PIGGY).variant, fast=fast)
        for seed in range(15):
            st = g.new_game(3, seed=seed, match=True)
            st.play_out()
            assert st.over
            assert Counter(k for zone in (*st.hands, st.draw_pile, st.discard, *st.piles) for k in zone) \
                == Counter(g.deck)

"""Two-sided cards (UNO Flip!): what each seat sees of the faces turned away, the side saved and
loaded, the flip event and its narration, and one-sided variants left as they were."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import unodsl
from unodsl.agents.view import public_state
from unodsl.engine import events as E
from unodsl.engine.savefile import InvalidState

FLIP = "variants/flip.yaml"


@pytest.fixture(scope="module")
def game():
    return unodsl.load(FLIP)


def placed(game, hands, draw_top, discard, side=0, **options):
    """Game.position with the cards not given under the draw pile, in deck order."""
    rest = Counter(game.deck_up(game.side_index(side)))
    rest.subtract(game.card_index[c] for zone in (*hands, draw_top, discard) for c in zone)
    return game.position(hands, list(draw_top) + sorted(rest.elements()), discard, side=side, **options)


def flipped_position(game):
    """Seat 0 is to play its red Flip, with known hands and draw pile."""
    return placed(game, [["red_flip", "green_4", "green_6"], ["blue_1", "blue_2"], ["yellow_3"]],
                  ["green_9", "red_7"], ["red_2"], dealer=2, record=True)


def test_each_seat_sees_the_other_face_of_the_other_hands_and_of_the_draw_pile_top(game):
    state = flipped_position(game)
    obs = state.observation(0)
    assert obs["side"] == "light"
    assert obs["hand"] == ["green_4", "green_6", "red_flip"]
    assert obs["backs"] == {"1": ["purple_1", "purple_2"], "2": ["teal_3"]}
    assert obs["draw_pile_back"] == "orange_9"
    state.apply("play red_flip")
    obs = state.observation(1)
    assert obs["side"] == "dark" and obs["top"] == "pink_dark_flip" and obs["color"] == "pink"
    assert obs["hand"] == ["purple_1", "purple_2"]
    assert obs["backs"] == {"0": ["green_4", "green_6"], "2": ["yellow_3"]}
    assert obs["draw_pile_back"] == "green_9"


def test_a_one_sided_variant_observes_and_saves_as_before():
    state = unodsl.load("variants/classic.yaml").new_game(3, seed=4)
    assert not {"side", "backs", "draw_pile_back"} & set(state.observation(0))
    assert "side" not in json.loads(state.to_json())


def test_the_flip_is_an_event_and_the_terminal_tells_it(game):
    from unodsl.cli.terminal import narrate
    state = flipped_position(game)
    state.apply("play red_flip")
    turned = [e for e in state.events if e.kind == E.TURNED_OVER]
    assert turned == [E.Event(E.TURNED_OVER, 0, count=1, cards=("pink_dark_flip",), name="dark")]
    assert any("all cards turned over: the dark side is up, and the top card is now Pink Flip" in line
               for line in narrate(turned, 1, game))


def test_the_side_up_is_saved_and_loaded(game):
    state = flipped_position(game)
    state.apply("play red_flip")
    text = state.to_json()
    assert json.loads(text)["side"] == 1
    again = type(state).from_json(game, text)
    assert again.side == 1 and again.to_json() == text
    assert again.legal_actions() == state.legal_actions()


def test_a_save_whose_cards_are_not_the_side_it_names_is_refused(game):
    state = flipped_position(game)
    data = json.loads(state.to_json())
    data["side"] = 1                                 # the cards are the light faces
    with pytest.raises(InvalidState, match="do not hold the deck"):
        type(state).from_json(game, json.dumps(data))
    data["side"] = 2
    with pytest.raises(InvalidState, match="field 'side' is 2, not a side of this deck"):
        type(state).from_json(game, json.dumps(data))


def test_a_position_names_its_cards_by_the_side_up(game):
    with pytest.raises(ValueError, match="unknown side 'drak'"):
        game.position([["pink_1"], ["teal_1"]], [], ["pink_2"], dealer=1, side="drak")
    with pytest.raises(ValueError, match="is not placed|more often"):
        game.position([["red_1"], ["teal_1"]], [], ["pink_2"], dealer=1, side="dark")


def test_the_public_state_shows_the_backs_and_hides_the_rest_of_the_draw_pile(game):
    state = flipped_position(game)
    public = public_state(state, 1)
    assert public["hands"] == [3, ["blue_1", "blue_2"], 1]
    assert public["backs"] == {"0": ["orange_4", "orange_6", "pink_dark_flip"], "2": ["teal_3"]}
    assert public["draw_pile"] == len(state.draw_pile) and public["draw_pile_back"] == "orange_9"


def test_a_world_keeps_every_card_whose_other_face_shows(game):
    from unodsl.agents.view import SeatView
    from unodsl.agents.worlds import Knowledge, WorldSampler
    state = flipped_position(game)
    state.apply("play red_flip")
    view = SeatView(state)
    know = Knowledge()
    know.update(view)
    sampler = WorldSampler(view, know)
    rng = random.Random(1)
    tops = set()
    for _ in range(5):
        world = sampler.sample(rng)
        assert world.side == 1
        assert [sorted(h) for h in world.hands] == [sorted(h) for h in state.hands]
        assert world.draw_pile[-1] == state.draw_pile[-1]
        tops.add(tuple(world.draw_pile[:-1]))
    assert len(tops) > 1                             # the rest of the draw pile is dealt again


def test_the_color_choice_offers_the_side_up_colors_only(game):
    state = placed(game, [["dark_wild", "pink_1"], ["teal_1", "teal_2"]], [], ["pink_2"], dealer=1, side="dark")
    state.apply("play dark_wild")
    assert state.legal_actions() == ["color pink", "color teal", "color orange", "color purple"]


@pytest.mark.parametrize("seed", range(3))
def test_whole_games_flip_and_every_zone_stays_on_the_side_up(game, seed):
    state = game.new_game(4, seed=seed)
    rng = random.Random(seed)
    sides = set()
    g = state.g
    while not state.is_over:
        state.apply(rng.choice(state.legal_action_ids()))
        sides.add(state.side)
        up = g.variant.sides[state.side]
        zones = [*state.hands, state.draw_pile, state.discard]
        assert all(g.variant.cards[g.k_type_id[k]].side == up for zone in zones for k in zone)
    assert sides == {0, 1}


WILD_BACK = """\
unodsl: 1
name: A Flip with a wild back
players: {min: 2, max: 4}
colors: [red, blue, pink, teal]
sides: {light: [red, blue], dark: [pink, teal]}
cards:
  number: {numbers: {"1-9": 3}, points: face, back: dark_number}
  flip: {per_color: 2, points: 20, back: dark_wild, on_play: flip all cards}
  dark_number: {side: dark, numbers: {"1-9": 3}, points: face}
  dark_wild: {side: dark, per_color: 2, wild: true, points: 40, on_play: flip all cards}
"""


def test_a_wild_face_turned_up_by_a_flip_lets_its_player_name_the_color(tmp_path):
    path = tmp_path / "wild-back.yaml"
    path.write_text(WILD_BACK, encoding="utf-8")
    game = unodsl.load(str(path))
    state = placed(game, [["red_flip", "red_1", "red_2"], ["blue_1", "blue_2"]], [], ["red_3"], dealer=1)
    state.apply("play red_flip")
    assert (state.side, state.top_card, state.current_color) == (1, "pink_dark_wild", None)
    assert state.current_player == 0 and state.legal_actions() == ["color pink", "color teal"]
    state.apply("color teal")
    assert state.current_color == "teal" and state.current_player == 1

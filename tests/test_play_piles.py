"""Playable piles (`piles: NAME: {face: up, playable: true}`): piles played on beside the discard pile, each
with its own top card and color; a play names its pile (`play red_7 on beside`); `top`, `current` and `under`
in an effect read the pile last played on; saved, observed, narrated, in the RL action space; both modes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lockstep import play_both_modes
from unodsl.check import check_file, load
from unodsl.engine.errors import IllegalAction, InvalidState
from unodsl.engine.game import Game
from unodsl.engine.state import State
from unodsl.rl.actions import ActionTable
from unodsl.rl.observation import ObservationEncoder
from unodsl.rulebook.narration import narrate, screen_lines

REPO = Path(__file__).resolve().parent.parent
TWIN = str(REPO / "variants" / "house-rules" / "twin-piles.yaml")
EFFECTS = """\
unodsl: 1
name: Play piles test
extends: {classic}
piles:
  beside: {{face: up, playable: true}}
  bank: {{face: down}}
cards:
  skip:
    on_play: |
      skip next
      if under.color == green and current == top.color:
          next draws 2
"""


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def twin(request):
    return Game(load(TWIN).variant, fast=request.param)


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def effects(request, tmp_path):
    (tmp_path / "v.yaml").write_text(EFFECTS.format(classic=REPO / "variants" / "classic.yaml"), encoding="utf-8")
    return Game(load(str(tmp_path / "v.yaml"), str(tmp_path.anchor)).variant, fast=request.param)


def _at(g, hands, top, beside=(), draw=(), **kw):
    """A position: these hands, `top` on the discard pile, `beside` on the beside pile (bottom up)."""
    placed = Counter(g.card_index[c] for cards in [*hands, [top], beside, draw] for c in cards)
    rest = list((Counter(g.deck) - placed).elements())
    return g.position(hands, list(draw) + rest, [top], dealer=len(hands) - 1, turn=0,
                      piles={"beside": list(beside)}, **kw)


def _names(g, cards):
    return [g.card_names[k] for k in cards]


def test_each_pile_matches_its_own_top_card_and_the_play_names_the_pile(twin):
    st = _at(twin, [["red_7", "blue_3", "green_1"], ["red_1", "red_2"]], "red_9", beside=["blue_8"])
    legal = st.legal_actions()
    assert "play red_7" in legal and "play blue_3 on beside" in legal
    assert "play blue_3" not in legal and "play red_7 on beside" not in legal
    assert "play green_1" not in legal and "play green_1 on beside" not in legal
    st.apply("play blue_3 on beside")
    assert _names(twin, st.piles[0]) == ["blue_8", "blue_3"] and _names(twin, st.discard) == ["red_9"]
    assert st.observation(1)["play_piles"] == {"beside": {"top": "blue_3", "color": "blue"}}
    assert st.current_color == "red" and st.current_player == 1
    with pytest.raises(IllegalAction, match="red_2 does not match blue_3 on the beside pile"):
        st.apply("play red_2 on beside")


def test_an_empty_playable_pile_takes_any_card(twin):
    st = _at(twin, [["green_1", "blue_3"], ["red_1", "red_2"]], "red_9")
    assert {"play green_1 on beside", "play blue_3 on beside"} <= set(st.legal_actions())
    assert "play green_1" not in st.legal_actions()


def test_a_wild_on_a_playable_pile_names_that_piles_color(twin):
    st = _at(twin, [["wild", "blue_3", "green_1"], ["yellow_1", "red_2"]], "red_9", beside=["blue_8"])
    st.apply("play wild on beside")
    st.apply("color yellow")
    assert st.current_color == "red"                            # the discard pile's color is its own
    assert st.observation(1)["play_piles"]["beside"] == {"top": "wild", "color": "yellow"}
    assert st.legal_actions() == ["play red_2", "play red_2 uno", "draw", "play yellow_1 on beside",
                                  "play yellow_1 uno on beside"]


def test_top_current_and_under_read_the_pile_played_on(effects):
    hands = [["green_skip", "blue_3", "blue_4"], ["red_1", "red_2"], ["red_3", "red_4"]]
    on_beside = _at(effects, hands, "red_9", beside=["green_8"])
    on_beside.apply("play green_skip on beside")           # under: green_8; current: green, as top's color
    assert len(on_beside.hands[1]) == 4
    on_discard = _at(effects, hands, "green_9", beside=["red_8"])
    on_discard.apply("play green_skip")
    assert len(on_discard.hands[1]) == 4
    on_red = _at(effects, hands, "green_9", beside=["red_skip"])
    on_red.apply("play green_skip on beside")              # under the skip: red_skip, not the discard's green_9
    assert len(on_red.hands[1]) == 2


def test_the_draw_pile_is_refilled_from_every_pile_played_on_each_keeping_its_top(twin):
    st = _at(twin, [["red_1", "blue_3"], ["red_2", "green_2"]], "red_9", beside=["blue_8", "blue_9"])
    st.discard[0:0] = st.draw_pile[:3]                       # three cards under the discard pile's top card
    del st.draw_pile[:]
    st.apply("draw")
    assert _names(twin, st.discard) == ["red_9"] and _names(twin, st.piles[0]) == ["blue_9"]
    assert len(st.draw_pile) == 3 and st.reshuffles == 1     # four gathered, one drawn


def test_a_classic_game_keeps_its_action_ids():
    classic = Game(load(str(REPO / "variants" / "classic.yaml")).variant)
    assert classic.play_piles == () and classic.A_PLAY_ON == classic.num_actions
    twin = Game(load(TWIN).variant)
    k = twin.num_kinds
    # `put K` (a declared pile), then `play K [uno] on beside`, appended
    assert twin.num_actions == classic.num_actions + k + 2 * k
    assert twin.action_from_string("play red_7") == classic.action_from_string("play red_7")
    assert twin.action_from_string("play red_7 on discard") == twin.action_from_string("play red_7")
    for text in ("play red_7 on beside", "play red_7 uno on beside"):
        assert twin.action_to_string(twin.action_from_string(text)) == text
    with pytest.raises(IllegalAction):
        classic.action_from_string("play red_7 on beside")


def test_the_pile_in_play_and_the_colors_are_saved_and_checked(twin):
    st = _at(twin, [["wild", "blue_3", "green_1"], ["yellow_1", "red_2"]], "red_9", beside=["blue_8"])
    st.apply("play wild on beside")
    saved = st.to_json()
    back = State.from_json(twin, saved)
    assert back.on_pile == 0 and back.pending == st.pending
    back.apply("color green")
    assert back.pile_colors == [twin.variant.colors.index("green")] and back.color == twin.variant.colors.index("red")
    bad = json.loads(saved)
    bad["on_pile"] = 3
    with pytest.raises(InvalidState, match="on_pile"):
        State.from_json(twin, json.dumps(bad))


def test_a_play_on_a_pile_is_told_with_its_pile():
    g = Game(load(TWIN).variant)
    st = _at(g, [["blue_3", "green_1"], ["red_1", "red_2"]], "red_9", beside=["blue_8"], record=True)
    st.apply("play blue_3 on beside")
    assert "p0 plays Blue 3 on the beside pile" in narrate(st.events_for(1), 1, g)
    screen = "\n".join(screen_lines(g, st.observation(1), [], st.legal_actions()))
    assert "the beside pile: top card: Blue 3   color: blue" in screen


def test_a_face_down_playable_pile_and_one_with_sets_are_refused(tmp_path):
    base = REPO / "variants" / "classic.yaml"
    down = tmp_path / "down.yaml"
    down.write_text(f"unodsl: 1\nname: D\nextends: {base}\npiles:\n  beside: {{face: down, playable: true}}\n")
    assert [d.code for d in check_file(str(down), root=str(tmp_path.anchor)).errors] == ["E326"]
    sets = tmp_path / "sets.yaml"
    sets.write_text(f"unodsl: 1\nname: S\nextends: {base}\npiles:\n  beside: {{face: up, playable: true}}\n"
                    "turn:\n  sets: {max: 3, continue: 'card.number == first.number'}\n")
    assert "E326" in [d.code for d in check_file(str(sets), root=str(tmp_path.anchor)).errors]


@pytest.mark.parametrize("seed", range(6))
def test_both_modes_play_the_same_games(seed):
    variant = load(TWIN).variant
    fast, reference = Game(variant), Game(variant, fast=False)
    assert fast.state_class is State                # the fast mode hands every play-pile game to State
    play_both_modes(fast, reference, 2 + seed % 3, seed)


def test_the_rl_action_table_and_observation_hold_the_pile_plays():
    g = Game(load(TWIN).variant)
    table = ActionTable(g, 3)
    assert "play red_7 on beside" in table.labels and "play red_7 uno on beside" in table.labels
    encoder = ObservationEncoder(g, 3)
    names = [f.name for f in encoder.fields]
    assert {"play_pile_tops", "play_pile_colors", "pile_in_play"} <= set(names)
    st = g.new_game(3, seed=2)
    while not st.is_over:                           # every legal action has an RL id; the vector encodes
        seat = st.current_player
        mask = table.mask(seat, st.legal_action_ids())
        assert mask.sum() == len(st.legal_action_ids())
        encoder.encode(st, seat)
        st.apply_id(st.legal_action_ids()[0])


def test_a_draw_stack_made_on_a_playable_pile_is_answered_there(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: S\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
                    f"include: [{TWIN}, {REPO / 'variants' / 'house-rules' / 'stacking-mattel.yaml'}]\n")
    g = Game(load(str(path), "/").variant)
    st = _at(g, [["blue_draw_two", "green_1", "green_2"], ["red_draw_two", "red_2"], ["red_3", "red_4"]], "yellow_9",
             beside=["blue_8"])
    st.apply("play blue_draw_two on beside")
    assert st.decision == "stack" and "play red_draw_two" in st.legal_actions()
    st.apply("play red_draw_two")
    assert _names(g, st.piles[0])[-1] == "red_draw_two" and _names(g, st.discard) == ["yellow_9"]
    assert len(st.hands[2]) == 6                    # no card to answer with: the third player draws four

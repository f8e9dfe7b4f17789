"""Declared variables (state: / player_state:) and the seat expressions: what effects read and set, in both modes.

Each case builds a small variant on classic, sets up a position through `Game.position`
and checks the values through the public API (`State.variable`, the observation, the
events, save files), once with the fast paths and once without.
"""

from __future__ import annotations

import json
from pathlib import Path
from collections import Counter

import pytest

import unodsl
from unodsl.agents.view import SeatView, public_state
from unodsl.check import check_file
from unodsl.cli.terminal import narrate, render_view
from unodsl.engine import Game, State, VariableError
from unodsl.engine import events as E
from unodsl.effects.check import Context
from unodsl.effects.parse import parse
from unodsl.engine.ops import OP_FLAGS, OPS
from unodsl.engine.program import Program
from unodsl.model.variant import Text
from unodsl.rulebook.english import describe_effect

VARIANT = """\
unodsl: 1
name: Variables (test)
extends: classic
state:
  pressure: {type: int, initial: 1, min: 0, max: 3}
  mood: {type: enum, values: [calm, angry], reset: match}
  secret: {type: int, visibility: hidden}
  last: {type: card_type}
player_state:
  shield: {type: bool, visibility: private}
  luck: {type: color, initial: red}
rulings:
  lucky_color: {value: blue, type: color}
cards:
  draw_two:
    on_play: |
      set pressure = pressure + 5
      set secret = secret + 1
      set shield of next = true
      set last = card.type
      next draws 2 and loses turn
  skip:
    on_play: |
      set mood = "angry"
      set luck = rule.lucky_color
      skip next
  reverse:
    restriction: not shield
    restriction_check: strict
    on_play: |
      reverse
      if players == 2 and rule.two_player_reverse_is_skip:
          skip next
turn:
  may_draw_if: pressure < 3
"""


@pytest.fixture(scope="module", params=[True, False], ids=["fast", "reference"])
def game(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("vars") / "v.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    result = check_file(str(path))
    assert [d.header() for d in result.diagnostics] == []
    return Game(result.game.variant, fast=request.param)


def position(game, hands, top="red_5", turn=0, record=True, **kw) -> State:
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), top])
    return game.position(hands, sorted(rest.elements()), [top], dealer=(turn - 1) % len(hands), turn=turn,
                         record=record, **kw)


HANDS = [["red_draw_two", "red_skip", "red_1"], ["blue_reverse", "green_2"], ["yellow_3", "yellow_4"]]


def test_variables_start_at_their_initial_values(game):
    state = position(game, HANDS)
    assert state.variable("pressure") == 1 and state.variable("mood") == "calm" and state.variable("last") is None
    assert [state.variable("shield", q) for q in range(3)] == [False] * 3
    assert [state.variable("luck", q) for q in range(3)] == ["red"] * 3


def test_set_changes_a_global_clamped_to_its_max_and_a_player_value(game):
    state = position(game, HANDS)
    state.apply("play red_draw_two")
    assert state.variable("pressure") == 3                       # 1 + 5, held to max 3
    assert state.variable("secret") == 1
    assert state.variable("last") == "draw_two"
    assert [state.variable("shield", q) for q in range(3)] == [False, True, False]


def test_a_per_player_variable_without_of_is_selfs(game):
    state = position(game, HANDS)
    state.apply("play red_skip")
    assert [state.variable("luck", q) for q in range(3)] == ["blue", "red", "red"]
    assert state.variable("mood") == "angry"


def test_a_restriction_and_the_may_draw_rule_read_variables(game):
    assert "play blue_reverse" in position(game, HANDS, top="blue_5", turn=1).legal_actions()
    shielded = position(game, HANDS, top="blue_5", turn=1, variables={"shield": [False, True, False]})
    assert "play blue_reverse" not in shielded.legal_actions()
    assert "draw" in position(game, HANDS, variables={"pressure": 0}).legal_actions()
    assert "draw" not in position(game, HANDS, variables={"pressure": 3}).legal_actions()


def test_a_new_round_resets_round_variables_and_keeps_match_ones(game):
    state = position(game, [["red_1"], ["green_2", "green_3"], ["yellow_3"]], match=True,
                     variables={"pressure": 3, "mood": "angry", "shield": [True, True, True]})
    state.apply("play red_1")
    assert state.round == 2 and not state.over
    assert state.variable("pressure") == 1 and state.variable("shield", 1) is False
    assert state.variable("mood") == "angry"


def test_a_position_refuses_a_bad_value(game):
    with pytest.raises(VariableError) as err:
        position(game, HANDS, variables={"pressure": 9})
    assert err.value.name == "pressure"
    with pytest.raises(VariableError):
        position(game, HANDS, variables={"shield": [True]})
    with pytest.raises(VariableError, match="unknown variable 'presure'"):
        position(game, HANDS, variables={"presure": 1})


def test_values_survive_clone_and_save(game):
    state = position(game, HANDS, record=False)
    state.apply("play red_draw_two")
    copy = state.clone()
    copy.apply_id(copy.legal_action_ids()[0])
    assert state.variable("shield", 1) is True
    loaded = State.from_json(game, state.to_json())
    assert loaded.to_json() == state.to_json()
    assert loaded.variable("pressure") == 3 and loaded.variable("shield", 1) is True


def test_only_a_variant_with_variables_saves_them(game):
    """A variant without declared variables saves what it saved before they existed; one with them must."""
    from unodsl.check import load
    from unodsl.engine import InvalidState
    classic = load(str(Path(__file__).resolve().parent.parent / "variants" / "classic.yaml"))
    saved = json.loads(classic.new_game(2, seed=3).to_json())
    assert "vars" not in saved and "pvars" not in saved
    data = json.loads(position(game, HANDS, record=False).to_json())
    del data["vars"], data["pvars"]
    with pytest.raises(InvalidState, match="missing fields: vars, pvars"):
        State.from_json(game, json.dumps(data))


def test_a_tampered_variable_is_refused(game):
    from unodsl.engine import InvalidState
    data = json.loads(position(game, HANDS, record=False).to_json())
    data["pvars"][0][1] = "pink"
    with pytest.raises(InvalidState, match=r"pvars\[0\]\[1\]"):
        State.from_json(game, json.dumps(data))


def test_each_seat_sees_public_values_and_only_its_own_private_ones(game):
    state = position(game, HANDS)
    state.apply("play red_draw_two")
    obs = state.observation(1)
    assert obs["state"] == {"pressure": 3, "mood": "calm", "last": "draw_two"}      # not the hidden `secret`
    assert obs["player_state"]["shield"] == [None, True, None]
    assert state.observation(2)["player_state"]["shield"] == [None, None, False]
    assert obs["player_state"]["luck"] == ["red", "red", "red"]


def test_set_events_are_seen_by_who_may_see_the_value(game):
    state = position(game, HANDS)
    state.apply("play red_draw_two")
    def sets(seat):
        return [(e.kind, e.name, e.player, e.value) for e in state.events_for(seat) if e.kind in (E.SET, E.SET_PRIVATELY)]
    assert ("set", "pressure", -1, 3) in sets(0)
    assert ("set privately", "shield", 1, True) in sets(1)
    assert all(name not in ("shield", "secret") for _, name, _, _ in sets(0) + sets(2))
    assert any("pressure is now 3" in line for line in narrate(state.events_for(2), 2))
    assert any("your shield is now yes" in line for line in narrate(state.events_for(1), 1))


def test_the_terminal_shows_the_values_the_seat_may_see(game):
    state = position(game, HANDS)
    state.apply("play red_draw_two")
    obs = state.observation(2)
    text = "\n".join(line.plain for line in render_view(game, obs, [], state.legal_actions()))
    assert "state: pressure 3, mood calm, last draw_two" in text
    assert "shield: you no" in text and "p1" not in text.split("shield:")[1].split("\n")[0]


def test_the_public_state_and_the_seat_view_hide_other_seats_private_values(game):
    a = position(game, HANDS, record=False, variables={"shield": [False, True, False], "secret": 5})
    b = position(game, HANDS, record=False, variables={"shield": [False, False, True], "secret": 0})
    assert public_state(a, 0) == public_state(b, 0)
    assert SeatView(a).variables == SeatView(b).variables
    assert public_state(a, 1) != public_state(b, 1)


# --- seats, %, direction and color rulings


def holds(game, state, text: str, seat: int) -> bool:
    """Whether condition `text` holds with `seat` as self, compiled as the variant's own conditions are."""
    program = Program(game, OPS, OP_FLAGS)
    tree, diags = parse(Text(text), "condition")
    predicate = program.compile_condition(tree, Context("condition"))
    assert not diags and not program.checker.diags, (text, diags, program.checker.diags)
    return predicate.fn(state, list(game.seat_frames[seat]))


def seat_of(game, state, text: str, seat: int) -> int:
    """The seat a player expression names, found by comparing it with every possible dealer."""
    found = []
    for q in range(state.n):
        state.dealer = q
        if holds(game, state, f"{text} == dealer", seat):
            found.append(q)
    assert len(found) == 1, (text, found)
    return found[0]


FOUR = [["red_1", "red_2"], ["green_2", "green_3"], ["yellow_3", "yellow_4"], ["blue_1", "blue_2"]]


def test_left_and_right_follow_the_seating_whatever_the_direction(game):
    for direction in (1, -1):
        state = position(game, FOUR, direction=direction)
        assert seat_of(game, state, "left of self", 0) == 1
        assert seat_of(game, state, "right of self", 0) == 3
        assert seat_of(game, state, "left of right of next", 0) == (0 + direction) % 4
        assert holds(game, state, f"direction == {direction}", 0)


def test_left_of_names_a_seat_out_of_the_round_and_previous_of_passes_it_over(game):
    # Teams: seat 2 is out of cards while its partner, seat 0, plays on (in classic the round would be over).
    game = Game(unodsl.load("variants/teams.yaml").variant, fast=game.fast)
    hands = [h[:] for h in FOUR]
    hands[2] = []
    rest = Counter(game.deck) - Counter(game.card_index[c] for c in [*sum(hands, []), "red_5"])
    state = game.position(hands, sorted(rest.elements()), ["red_5"], dealer=3, turn=1)
    assert seat_of(game, state, "left of self", 1) == 2            # out of cards, still the seat to the left
    assert seat_of(game, state, "next", 1) == 3
    assert seat_of(game, state, "previous of next", 1) == 1
    assert seat_of(game, state, "previous of left of left of self", 1) == 1     # seat 3's previous passes 2


def test_modulo_is_pythons_and_by_zero_gives_zero(game):
    state = position(game, FOUR)
    assert holds(game, state, "7 % 3 == 1 and -1 % 4 == 3 and 5 % 0 == 0", 0)
    assert holds(game, state, "(hand(self) - 3) % 4 == 3 and hand(self) % (hand(next) - 2) == 0", 0)


def test_a_color_ruling_compares_with_the_current_color(game, tmp_path):
    blue = position(game, FOUR, top="blue_5")
    red = position(game, FOUR, top="red_5")
    assert holds(game, blue, "rule.lucky_color == current color", 0)
    assert not holds(game, red, "rule.lucky_color == current color", 0)
    green = Game(game.variant, rulings={"lucky_color": "green"}, fast=game.fast)
    assert holds(green, position(green, FOUR, top="green_5"), "current color == rule.lucky_color", 0)


def test_the_rulebook_says_set_and_the_seats(game):
    def english(text):
        return describe_effect(game, parse(Text(text))[0])
    assert english("set pressure = pressure + 1") == "The pressure becomes the pressure plus 1."
    assert english("set shield of next = true") == "The next player's shield becomes true."
    assert english("set luck = rule.lucky_color") == "Your luck becomes blue."
    assert english("if shield and direction == -1: left of previous of next draws 1") == (
        "If your shield is true and the direction of play (1 as dealt, -1 reversed) is -1, the player in the "
        "seat to the left of the player before the next player draws 1 card.")
    assert english("right of self draws (hand(self) % 3)") == (
        "The player in the seat to the right of you draws as many cards as the number of cards in your hand "
        "modulo 3.")


def test_the_rulebook_lists_the_variables_and_only_where_there_are_some():
    from unodsl.check import load
    from unodsl.rulebook.document import render_rulebook
    page = render_rulebook(load("variants/house-rules/pressure.yaml"))
    assert "| Shield | each player | yes or no | no | its player only | round |" in page
    assert "What the game keeps track of" not in render_rulebook(load("variants/classic.yaml"))

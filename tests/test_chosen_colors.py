"""A color chosen as a value (issue 29): `let NAME = choose color`, `let NAME = P chooses color`.

A `color` decision whose answer goes into the frame's local NAME, never into the color in play; the choice
is said aloud (event `chose color`). Scenarios: tests/scenarios/chosen-colors.yaml, on the test variant
tests/scenarios/variants/chosen-colors.yaml; No Mercy's Wild Color Roulette is written with it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.effects import layout as D
from unodsl.engine import events as E
from unodsl.engine.game import Game
from unodsl.engine.savefile import dump_state, load_state
from unodsl.rl.actions import capabilities
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate
from unodsl.scenarios.given import build_state

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
CHOSEN = REPO / "tests" / "scenarios" / "variants" / "chosen-colors.yaml"
HANDS = [["red_skip", "red_2"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]]


def _variant(tmp_path, effect: str, key: str = "skip"):
    path = tmp_path / "v.yaml"
    body = "".join(f"      {line}\n" for line in effect.splitlines())
    path.write_text(f"unodsl: 1\nname: t\nextends: classic\ncards:\n  {key}:\n    on_play: |\n{body}",
                    encoding="utf-8")
    return check_file(str(path))


@pytest.fixture(scope="module", params=[True, False], ids=["fast", "reference"])
def game(request):
    return Game(unodsl.load(str(CHOSEN)).variant, fast=request.param)


def _asked(game):
    """The test variant's Skip played by seat 0: seat 1 is asked a color, as a value."""
    state = build_state(game, {"given": {"hands": HANDS, "top": "red_5", "turn": 0,
                                         "draw_pile": ["blue_1", "yellow_3", "green_4"]}})
    state.apply("play red_skip")
    return state


def test_the_player_named_is_asked_a_color_decision_and_the_color_in_play_stays(game):
    state = _asked(game)
    assert state.decision == D.COLOR and state.current_player == 1 and len(state.pending) == 3
    assert state.legal_actions() == ["color red", "color yellow", "color green", "color blue"]
    state.apply("color yellow")
    assert state.color == game.variant.colors.index("red")
    assert sorted(state.hand(1)) == ["blue_1", "green_1", "green_2", "yellow_3"]


def test_a_paused_value_choice_saves_loads_and_its_shape_is_checked(game):
    state = _asked(game)
    text = dump_state(state)
    loaded = load_state(game, text)
    assert loaded.pending == state.pending and loaded.legal_actions() == state.legal_actions()
    for s in (state, loaded):
        s.apply("color blue")
    assert dump_state(loaded) == dump_state(state)
    short = json.loads(text)
    short["pending"] = short["pending"][:2]         # the color in play: not what this effect asks here
    with pytest.raises(unodsl.InvalidState, match="asks for no 'color' decision"):
        load_state(game, json.dumps(short))
    wrong_slot = json.loads(text)
    wrong_slot["pending"][2] = D.F_LOCALS + 5
    with pytest.raises(unodsl.InvalidState):
        load_state(game, json.dumps(wrong_slot))
    too_long = json.loads(text)
    too_long["pending"].append(0)
    with pytest.raises(unodsl.InvalidState, match="2 or 3 entries"):
        load_state(game, json.dumps(too_long))


def test_a_color_decision_of_the_color_in_play_refuses_a_slot(game):
    """The test variant's Reverse asks for a value; classic's Wild asks for the color in play."""
    state = build_state(game, {"given": {"hands": [["wild", "red_2"], ["green_1"], ["yellow_1"]],
                                         "top": "red_5", "turn": 0}})
    state.apply("play wild")
    text = json.loads(dump_state(state))
    assert len(text["pending"]) == 2
    text["pending"].append(D.F_LOCALS)
    with pytest.raises(unodsl.InvalidState):
        load_state(game, json.dumps(text))


def test_the_choice_is_said_aloud_to_every_seat_and_narrated():
    game = Game(unodsl.load(str(CHOSEN)).variant)
    for seed in range(200):
        state = game.new_game(3, seed=seed, record=True)
        rng = random.Random(seed)
        while not state.over and not (state.decision == D.COLOR and len(state.pending) == 3):
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
        if not state.over:
            break
    chooser, color = state.current_player, state.color
    start = len(state.events)
    state.apply("color green")
    for seat in range(3):
        chose = [e for e in state.events_for(seat, start) if e.kind == E.CHOSE_COLOR]
        assert [(e.player, e.color) for e in chose] == [(chooser, "green")]
        assert not any(e.kind == E.COLOR for e in state.events_for(seat, start))
    words = narrate(state.events_for(chooser, start), chooser, game)
    assert any("green (the color in play stays)" in line for line in words), words
    if state.frames:                                # the reverse sets it afterwards; the skip never does
        assert state.color == color


def test_an_eliminated_chooser_names_no_color(tmp_path):
    result = _variant(tmp_path, "let v = next\neliminate v\nlet c = v chooses color\n"
                                "self draws count(cards of next where card.color == c)")
    assert not result.diagnostics
    state = build_state(result.game, {"given": {"hands": [["red_skip", "red_2", "red_3"], ["green_1"],
                                                          ["wild", "yellow_2"]], "top": "red_5", "turn": 0}})
    state.apply("play red_skip")
    # no color: as `card.color` of a wild, it is equal only to a wild's (none) color
    assert state.decision == D.TURN and [len(h) for h in state.hands] == [3, 0, 2]


def test_both_modes_play_the_same_games():
    fast, reference = Game(unodsl.load(str(CHOSEN)).variant), Game(unodsl.load(str(CHOSEN)).variant, fast=False)
    for seed in range(8):
        play_both_modes(fast, reference, 2 + seed % 3, seed)


@pytest.mark.parametrize("effect, code, words", [
    ("let n = 3\nlet c = n chooses color\nset color c", "E501", "player"),
    ("let c = nxt chooses color\nset color c", "E502", "next"),
    ("if next chooses color == red:\n    skip next", "E504", "let NAME = P chooses color"),
    ("if choose color == red:\n    skip next", "E504", "let NAME = choose color"),
    ("let c = choose color\nnext draws c", "E501", "color"),
])
def test_a_wrong_chosen_color_is_located(tmp_path, effect, code, words):
    diags = _variant(tmp_path, effect).diagnostics
    assert diags and diags[0].code == code, diags
    assert words in diags[0].message and diags[0].line >= 7 and diags[0].column > 1


def test_round_on_end_refuses_a_chosen_color(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\nround:\n  on_end: |\n"
                    "    let c = dealer chooses color\n", encoding="utf-8")
    assert [d.code for d in check_file(str(path)).diagnostics] == ["E514"]


def test_the_rulebook_names_the_chooser_and_keeps_the_color_in_play():
    text = render_rulebook(unodsl.load(str(CHOSEN)))
    assert "The next player names a color, the wanted color; the color in play does not change." in text


def test_the_rl_action_table_has_colors_for_a_value_choice_alone(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\ncards:\n  wild:\n    on_play: nothing\n    on_start: nothing\n"
                    "  wild_draw_four:\n    on_play: |\n      let c = next chooses color\n"
                    "      next draws until drawn.color == c\n", encoding="utf-8")
    only_value = check_file(str(path))
    assert only_value.game is not None                 # a warning only: the ruling of the start card unused
    assert capabilities(only_value.game).colors


def test_the_prompt_of_a_value_choice_says_the_color_in_play_stays(game):
    """The seat naming a color as a value is told so (its view's `color_value`); a wild's color is the new one."""
    from unodsl.engine.observation import seat_view
    from unodsl.rulebook.narration import decision_help, screen_lines
    state = _asked(game)
    view = seat_view(state, 1)
    assert view["color_value"] is True and "color_value" not in seat_view(state, 0)
    screen = screen_lines(game, view, [], state.legal_actions())
    assert "decision: color (name a color; the color in play stays)" in screen
    wild = build_state(game, {"given": {"hands": [["wild", "red_2"], ["green_1"], ["yellow_1"]], "top": "red_5",
                                        "turn": 0}})
    wild.apply("play wild")
    assert wild.decision == D.COLOR and "color_value" not in seat_view(wild, 0)
    assert "decision: color (choose the new color)" in screen_lines(game, seat_view(wild, 0), [], wild.legal_actions())
    assert decision_help(D.COLOR) == "choose the new color"

"""Number choices (issue 29 item 5): `let NAME = P chooses number from A to B`, and the sealed
`G secretly choose number from A to B into VAR` (bids: each member's number kept in a per-player variable,
every number shown at once). Scenarios: tests/scenarios/bids.yaml, on tests/scenarios/variants/bids.yaml.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import unodsl
from unodsl.agents.bots import BOTS, make_bot
from unodsl.agents.view import public_state
from unodsl.check import check_file
from unodsl.effects import layout as D
from unodsl.engine import events as E
from unodsl.engine.game import Game
from unodsl.engine.savefile import dump_state, load_state
from unodsl.rl.actions import action_table
from unodsl.rl.resample import resample_hidden
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate
from unodsl.scenarios.given import build_state

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
BIDS = REPO / "tests" / "scenarios" / "variants" / "bids.yaml"
HANDS = [["red_skip", "red_reverse", "red_2"], ["green_1", "green_2"], ["yellow_1", "yellow_2"]]


def _variant(tmp_path, effect: str, extra: str = ""):
    path = tmp_path / "v.yaml"
    body = "".join(f"      {line}\n" for line in effect.splitlines())
    path.write_text(f"unodsl: 1\nname: t\nextends: classic\n{extra}cards:\n  skip:\n    on_play: |\n{body}",
                    encoding="utf-8")
    return check_file(str(path))


@pytest.fixture(scope="module", params=[True, False], ids=["fast", "reference"])
def game(request):
    return Game(unodsl.load(str(BIDS)).variant, fast=request.param)


def _start(game, card: str):
    state = build_state(game, {"given": {"hands": HANDS, "top": "red_5", "turn": 0}})
    state.apply(f"play {card}")
    return state


def _sealed(state) -> bool:
    if state.over or state.decision != D.NUMBER:
        return False
    fr = state.frames[-1]
    return state.g.code_records[fr[D.F_CODE]].local_kinds[state.pending[2] - D.F_LOCALS] == D.SEALED_NUMBER


# --- the public number choice

def test_the_player_named_is_asked_a_number_in_the_range_and_it_is_said_aloud(game):
    state = _start(game, "red_skip")
    assert state.decision == D.NUMBER and state.current_player == 1
    assert state.legal_actions() == ["number 1", "number 2", "number 3"]
    state.apply("number 2")
    assert [len(h) for h in state.hands] == [2, 4, 2]


def test_the_number_chosen_is_an_event_every_seat_sees_and_narration_says():
    game = Game(unodsl.load(str(BIDS)).variant)
    state = game.new_game(3, seed=1, record=True)
    rng = random.Random(1)
    while not state.over and not any(e.kind == E.CHOSE_NUMBER for e in state.events):
        legal = state.legal_action_ids()
        state.apply_id(legal[rng.randrange(len(legal))])
    chose = [e for e in state.events if e.kind == E.CHOSE_NUMBER][0]
    for seat in range(3):
        assert chose in state.events_for(seat)
    assert any(f"the number {chose.count}" in line for line in narrate(state.events_for(0), 0, game))


def test_a_lone_number_is_taken_without_asking_and_a_computed_bound_is_held(game):
    state = build_state(game, {"given": {"hands": [["red_draw_two", "red_2", "red_3"], ["green_1", "green_2"],
                                                   ["yellow_1", "yellow_2"]], "top": "red_5", "turn": 0}})
    state.apply("play red_draw_two")
    assert [len(h) for h in state.hands] == [2, 4, 2]          # `from 2 to 2`: 2 drawn, nobody asked
    assert state.decision == D.NUMBER and state.legal_actions() == ["number 0", "number 1", "number 2"]


def test_an_eliminated_or_missing_chooser_takes_the_lowest_number(tmp_path):
    result = _variant(tmp_path, "let v = next\neliminate v\nlet n = v chooses number from 2 to 5\nself draws n")
    assert not result.diagnostics, result.diagnostics
    state = build_state(result.game, {"given": {"hands": HANDS, "top": "red_5", "turn": 0}})
    state.apply("play red_skip")
    assert state.decision == D.TURN and len(state.hands[0]) == 2 + 2


def test_classic_keeps_its_actions_and_a_variant_has_one_per_number_last():
    classic = Game(unodsl.load(str(REPO / "variants" / "classic.yaml")).variant)
    assert classic.number_top == -1 and classic.num_actions == classic.A_NUMBER == 3109
    assert not any(label.startswith("number") for label in action_table(classic, 4).labels)
    game = Game(unodsl.load(str(BIDS)).variant)
    # the draw two's `from 0 to hand(self)` is computed: numbers up to 100
    assert game.A_NUMBER == classic.num_actions and game.number_top == 100 and game.num_actions == 3109 + 101
    assert game.action_to_string(game.A_NUMBER + 7) == "number 7" and game.action_from_string("number 7") == game.A_NUMBER + 7
    labels = action_table(game, 3).labels
    assert list(labels[-101:]) == [f"number {n}" for n in range(101)]


def test_the_actions_go_up_to_the_largest_bound_written(tmp_path):
    result = _variant(tmp_path, "let n = choose number from 1 to 4\nnext draws n")
    assert result.game.number_top == 4 and result.game.num_actions == 3109 + 5
    with pytest.raises(unodsl.IllegalAction):
        result.game.action_from_string("number 5")


# --- the sealed number choice

def test_each_member_bids_in_turn_and_the_bids_go_into_the_variable(game):
    state = _start(game, "red_reverse")
    asked = []
    for n in (1, 3, 3):
        assert _sealed(state)
        asked.append(state.current_player)
        state.apply(f"number {n}")
    assert asked == [0, 2, 1]
    assert [state.variable("bid", p) for p in range(3)] == [1, 3, 3]
    assert [len(h) for h in state.hands] == [2, 5, 5]


def test_a_seat_sees_its_own_bid_only_until_all_are_shown(game):
    state = _start(game, "red_reverse")
    state.apply("number 4")
    assert [4, -1, -1] in json.loads(state.to_json())["frames"][-1]
    assert [4, -1, -1] in public_state(state, 0)["frames"][-1]
    assert [-1, -1, -1] in public_state(state, 2)["frames"][-1]
    assert [4, -1, -1] not in public_state(state, 2)["frames"][-1]
    assert state.variable("bid", 0) == 0                      # not in the variable before the reveal


def test_the_events_hide_each_bid_until_one_event_shows_them_all():
    game = Game(unodsl.load(str(BIDS)).variant)
    state = build_state(game, {"given": {"hands": HANDS, "top": "red_5", "turn": 0}})
    state.events, state.log = [], []                         # recorded, as new_game(record=True) does
    state.apply("play red_reverse")
    for n in (2, 0, 4):
        state.apply(f"number {n}")
    secret = [e for e in state.events if e.kind == E.NUMBER_SECRETLY]
    shown = [e for e in state.events if e.kind == E.NUMBERS_SHOWN]
    assert [(e.player, e.count) for e in secret] == [(0, 2), (2, 0), (1, 4)]
    assert len(shown) == 1 and shown[0].value == (2, 4, 0) and shown[0].name == "bid"
    for seat in range(3):
        seen = [e for e in state.events_for(seat) if e.kind == E.NUMBER_SECRETLY]
        assert [e.count for e in seen] == [e.count if e.player == seat else -1 for e in secret]
        assert not any(e.kind == E.CHOSE_NUMBER for e in state.events_for(seat))
        assert [e for e in state.events_for(seat) if e.kind == E.NUMBERS_SHOWN] == shown
    words = narrate(state.events_for(1), 1, game)
    assert any("a number secretly" in line for line in words)
    assert any("the secret numbers are shown (bid)" in line for line in words)


def test_a_state_paused_in_a_number_choice_saves_and_loads(game):
    state = _start(game, "red_skip")
    loaded = load_state(game, dump_state(state))
    assert loaded.pending == state.pending and loaded.legal_actions() == ["number 1", "number 2", "number 3"]
    bad = json.loads(dump_state(state))
    bad["pending"][4] = 101                                   # beyond the variant's numbers
    with pytest.raises(unodsl.InvalidState):
        load_state(game, json.dumps(bad))
    bad["pending"][3:5] = [2, 2]                              # one number offered is never asked
    with pytest.raises(unodsl.InvalidState, match="two or more"):
        load_state(game, json.dumps(bad))


def test_a_state_paused_in_a_sealed_bid_saves_loads_and_a_tampered_bid_is_refused(game):
    state = _start(game, "red_reverse")
    state.apply("number 3")
    text = dump_state(state)
    loaded = load_state(game, text)
    assert loaded.current_player == 2 and loaded.legal_actions() == state.legal_actions()
    for s in (state, loaded):
        s.apply("number 1")
        s.apply("number 0")
    assert dump_state(loaded) == dump_state(state)
    data = json.loads(text)
    picks = next(i for i, local in enumerate(data["frames"][-1]) if local == [3, -1, -1])
    bad = json.loads(text)
    bad["frames"][-1][picks] = [5, -1, -1]                    # out of the choice's range 0..4
    with pytest.raises(unodsl.InvalidState, match="sealed number"):
        load_state(game, json.dumps(bad))
    bad = json.loads(text)
    bad["pending"][1] = 1                                     # seat 1 is not the first still to choose
    with pytest.raises(unodsl.InvalidState, match="sealed number"):
        load_state(game, json.dumps(bad))


def test_a_resampled_world_draws_the_other_seats_bids_again(game):
    state = _start(game, "red_reverse")
    state.apply("number 3")                                   # seat 0's bid, secret from seat 2
    rng = random.Random(3)
    seen = set()
    for _ in range(40):
        world = resample_hidden(game, state, 2, rng)
        picks = next(local for local in world.frames[-1] if isinstance(local, list) and len(local) == 3
                     and local[1:] == [-1, -1])
        seen.add(picks[0])
        assert world.current_player == 2
    assert seen == {0, 1, 2, 3, 4}
    assert [3, -1, -1] in resample_hidden(game, state, 0, rng).frames[-1]


def test_a_sealed_bid_in_a_loop_begins_again_each_pass(tmp_path):
    result = _variant(tmp_path, "repeat 2:\n    all secretly choose number from 0 to 2 into bid\n    self draws 1",
                      "player_state:\n  bid: {type: int, max: 1}\n")
    assert not result.diagnostics, result.diagnostics
    state = build_state(result.game, {"given": {"hands": HANDS, "top": "red_5", "turn": 0}})
    state.apply("play red_skip")
    asked = 0
    while _sealed(state):
        asked += 1
        state.apply("number 2")
    assert asked == 6 and [state.variable("bid", p) for p in range(3)] == [1, 1, 1]     # clamped to max


# --- both modes, bots

def test_both_modes_play_the_same_games():
    fast, reference = Game(unodsl.load(str(BIDS)).variant), Game(unodsl.load(str(BIDS)).variant, fast=False)
    for seed in range(6):
        play_both_modes(fast, reference, 2 + seed % 3, seed)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_answers_number_decisions_legally(name):
    game = unodsl.load(str(BIDS))
    spec = {"pimc": "pimc:2", "ismcts": "ismcts:6", "cheat": "cheat:2"}.get(name, name)
    answered = 0
    for seed in range(4):
        state = game.new_game(3, seed=seed)
        bots = [make_bot(spec, random.Random(seed * 10 + seat)) for seat in range(3)]
        steps = 0
        while not state.is_over and steps < 400:
            answered += state.decision == D.NUMBER
            state.apply(bots[state.current_player].act(state))     # apply() refuses an illegal action
            steps += 1
        if answered >= 3:
            break
    assert answered >= 3


# --- the check, the rulebook

@pytest.mark.parametrize("effect, code, words", [
    ("let n = choose number from 0 to 101", "E560", "0 to 100, not 101"),
    ("let n = choose number from -2 to 3", "E560", "not -2"),
    ("let n = choose number from 5 to 2", "E560", "lower bound first"),
    ("let n = next chooses number from 1 to red", "E501", "number"),
    ("let n = nxt chooses number from 1 to 2", "E502", "next"),
    ("next draws choose number from 1 to 3", "E504", "choose number"),
    ("all secretly choose number from 0 to 3 into bed", "E502", "did you mean 'bid'"),
    ("all secretly choose number from 0 to 3 into secret", "E561", "public int"),
    ("all secretly choose number from 0 to 3 into heat", "E521", "global"),
])
def test_a_wrong_number_choice_is_located(tmp_path, effect, code, words):
    extra = ("state:\n  heat: {type: int}\nplayer_state:\n  bid: {type: int}\n"
             "  secret: {type: int, visibility: private}\n")
    diags = _variant(tmp_path, effect, extra).diagnostics
    assert diags and diags[0].code == code, diags
    assert words in diags[0].message and diags[0].line >= 10 and diags[0].column > 1


def test_round_on_end_and_functions_refuse_number_choices(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\nplayer_state:\n  bid: {type: int}\nround:\n  on_end: |\n"
                    "    let n = choose number from 0 to 3\n    all secretly choose number from 0 to 3 into bid\n",
                    encoding="utf-8")
    assert [d.code for d in check_file(str(path)).diagnostics] == ["E514", "E514"]


def test_the_rulebook_says_both_choices(tmp_path):
    assert "chooses a number from 1 to 3" in render_rulebook(unodsl.load(str(BIDS)))
    result = _variant(tmp_path, "all secretly choose number from 0 to 4 into bid\nself draws bid",
                      "player_state:\n  bid: {type: int}\n")
    assert not result.diagnostics, result.diagnostics
    text = render_rulebook(unodsl.load(str(tmp_path / "v.yaml")))
    assert "Each of all players, in turn, secretly chooses a number from 0 to 4" in text or \
        "secretly chooses a number from 0 to 4" in text
    assert "shown together, each becoming its player's bid" in text


# --- the front ends

def test_the_terminal_answers_number_decisions_by_choice_number_or_action():
    import io
    from unodsl.cli.terminal import _resolve, play_terminal
    game = unodsl.load(str(BIDS))
    state = _start(game, "red_reverse")
    legal = state.legal_actions()
    assert _resolve(state, "3", legal) == "number 2" and _resolve(state, "number 4", legal) == "number 4"
    out = io.StringIO()
    played = play_terminal(game, 3, 0, "random", 2, False, stdin=io.StringIO("1\n" * 5000), stdout=out)
    assert played.is_over
    text = out.getvalue()
    assert "decision: number (choose a number" in text and "  1) number 0" in text
    assert "chooses a number secretly" in text and "the secret numbers are shown (bid)" in text


def test_pettingzoo_asks_each_member_of_a_sealed_bid_with_number_actions():
    rl = pytest.importorskip("unodsl.rl")
    pytest.importorskip("pettingzoo")
    env = rl.env(BIDS, num_players=3)
    asked = set()
    for seed in range(40):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = [int(i) for i in obs["action_mask"].nonzero()[0]]
            if _sealed(env.state):
                assert agent == env.possible_agents[env.state.current_player]
                assert all(env.actions.label(i).startswith("number ") for i in legal)
                asked.add(env.state.current_player)
            env.step(rng.choice(legal))
        if len(asked) == 3:
            break
    assert asked == {0, 1, 2}


def test_a_web_room_offers_number_buttons_and_hides_another_seats_bid():
    rooms = pytest.importorskip("unodsl.web.rooms")
    room = rooms.Room("ABCDEF", unodsl.load(str(BIDS)), 3, seed=4, grace=30, clock=lambda: 0.0)
    seats = [room.join(name) for name in ("Ann", "Bob", "Cy")]
    rng = random.Random(1)
    for _ in range(3000):
        if room.state.is_over or _sealed(room.state):
            break
        seat = room.seats[room.state.current_player]
        room.act(seat, rng.choice(room.view(seat)["choices"]), room.version)
    assert _sealed(room.state)
    chooser = room.seats[room.state.current_player]
    view = room.view(chooser)
    assert view["help"] == "choose a number (number N)" and all(c.startswith("number ") for c in view["choices"])
    room.act(chooser, view["choices"][-1], room.version)
    other = seats[(chooser.number + 1) % 3]
    said = " ".join(str(line) for line in room.view(other)["log"][-3:])
    assert "a number secretly" in said and view["choices"][-1] not in said

"""Decisions beyond the player on turn (issue 29 item 5): a player other than the effect's owner is asked.

`let NAME = P chooses player G` asks P, not `self`; the seat asked is `current_player`, which every
interface reads (scenarios in tests/scenarios/decisions.yaml; the variant tests/scenarios/variants/decisions.yaml).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.effects import layout as D
from unodsl.agents.view import public_state
from unodsl.engine import events as E
from unodsl.engine.game import Game
from unodsl.engine.savefile import dump_state, load_state
from unodsl.rl.actions import capabilities
from unodsl.rulebook.document import render_rulebook
from unodsl.rulebook.narration import narrate
from unodsl.scenarios.given import build_state

from lockstep import play_both_modes

REPO = Path(__file__).resolve().parent.parent
DECISIONS = REPO / "tests" / "scenarios" / "variants" / "decisions.yaml"
HANDS = [["red_skip", "red_2", "red_3"], ["green_1", "green_2"], ["yellow_1", "yellow_2"], ["blue_1", "blue_2"]]


def _variant(tmp_path, effect: str):
    path = tmp_path / "v.yaml"
    body = "".join(f"      {line}\n" for line in effect.splitlines())
    path.write_text(f"unodsl: 1\nname: t\nextends: classic\ncards:\n  skip:\n    on_play: |\n{body}",
                    encoding="utf-8")
    return check_file(str(path))


@pytest.fixture(scope="module", params=[True, False], ids=["fast", "reference"])
def game(request):
    return Game(unodsl.load(str(DECISIONS)).variant, fast=request.param)


def _skip_played(game):
    state = build_state(game, {"given": {"hands": HANDS, "top": "red_5", "turn": 0}})
    state.apply("play red_skip")
    return state


def test_the_player_named_is_asked_not_the_effects_owner(game):
    state = _skip_played(game)
    assert state.decision == D.TARGET and state.current_player == 1
    assert state.frames[-1][D.F_SELF] == 0                       # the effect is still seat 0's
    assert state.legal_actions() == ["target 0", "target 2", "target 3"]
    assert "legal_actions" in state.observation(1) and "legal_actions" not in state.observation(0)
    state.apply("target 3")
    assert [len(h) for h in state.hands] == [2, 2, 2, 4] and state.current_player == 1


def test_a_state_paused_on_another_players_choice_saves_and_loads(game):
    state = _skip_played(game)
    loaded = load_state(game, dump_state(state))
    assert loaded.current_player == 1 and loaded.legal_actions() == state.legal_actions()
    for s in (state, loaded):
        s.apply("target 2")
    assert dump_state(loaded) == dump_state(state)


def test_an_eliminated_or_missing_chooser_chooses_nobody(tmp_path):
    result = _variant(tmp_path, "let v = next\neliminate v\nlet t = v chooses player all\nt draws 5")
    assert not result.diagnostics
    state = build_state(result.game, {"given": {"hands": HANDS, "top": "red_5", "turn": 0}})
    state.apply("play red_skip")
    assert state.decision == D.TURN and [len(h) for h in state.hands] == [2, 0, 2, 2]


def test_both_modes_play_the_same_games():
    fast, reference = Game(unodsl.load(str(DECISIONS)).variant), Game(unodsl.load(str(DECISIONS)).variant, fast=False)
    for seed in range(6):
        play_both_modes(fast, reference, 3 + seed % 2, seed)


@pytest.mark.parametrize("effect, code, words", [
    ("let n = 3\nlet t = n chooses player others\nt draws 1", "E501", "player"),
    ("let t = nxt chooses player others\nt draws 1", "E502", "next"),
    ("let t = next chooses player 2\nt draws 1", "E401", "others"),
    ("if next chooses player others == self:\n    skip next", "E504", "let NAME = P chooses player GROUP"),
])
def test_a_wrong_chooser_or_group_is_located(tmp_path, effect, code, words):
    diags = _variant(tmp_path, effect).diagnostics
    assert diags and diags[0].code == code, diags
    assert words in diags[0].message and diags[0].line >= 7 and diags[0].column > 1


def test_the_rulebook_names_the_chooser():
    text = render_rulebook(unodsl.load(str(DECISIONS)))
    assert "The next player chooses a player from" in text


def test_the_rl_action_table_offers_the_chooser_themselves(tmp_path):
    """`others` is every player but `self`: a chooser other than self may be among them (target +0)."""
    asked = _variant(tmp_path, "let t = next chooses player others\nt draws 1").game
    own = unodsl.load("variants/house-rules/seven-o.yaml")
    assert capabilities(asked).target_self and not capabilities(own).target_self


def test_pettingzoo_asks_the_seat_that_chooses():
    rl = pytest.importorskip("unodsl.rl")
    pytest.importorskip("pettingzoo")
    env = rl.env(DECISIONS, num_players=4)
    asked = 0
    for seed in range(30):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            st = env.state
            if st.decision == D.TARGET and st.current_player != st.frames[-1][D.F_SELF]:
                assert agent == env.possible_agents[st.current_player]
                assert all((env.observe(a)["action_mask"].sum() > 0) == (a == agent) for a in env.agents)
                asked += 1
            legal = [int(i) for i in obs["action_mask"].nonzero()[0]]
            env.step(rng.choice(legal))
        if asked >= 3:
            break
    assert asked >= 3


# --- sealed choices: `let NAME = G secretly choose player H` ---------------------------------------------

VOTE = [["wild", "red_2", "red_3"], ["green_1", "green_2"], ["yellow_1", "yellow_2"], ["blue_1", "blue_2"]]


def _vote(game):
    """The test variant's Wild played by seat 0: after the color, every seat secretly points at another."""
    state = build_state(game, {"given": {"hands": VOTE, "top": "red_5", "turn": 0}})
    state.apply("play wild")
    state.apply("color red")
    return state


def _sealed(state) -> bool:
    """Whether the pending decision is a sealed choice's."""
    if state.over or state.decision != D.TARGET:
        return False
    fr = state.frames[-1]
    return state.g.code_records[fr[D.F_CODE]].local_kinds[state.pending[2] - D.F_LOCALS] == D.SEALED


def test_each_member_is_asked_in_turn_never_for_themselves_and_the_most_chosen_draw(game):
    state = _vote(game)
    for seat, answer in ((0, 2), (1, 2), (2, 0), (3, 2)):
        assert _sealed(state) and state.current_player == seat
        assert f"target {seat}" not in state.legal_actions() and len(state.legal_actions()) == 3
        state.apply(f"target {answer}")
    assert [len(h) for h in state.hands] == [2, 2, 4, 2] and state.decision == D.TURN and state.current_player == 1


def test_on_a_tie_every_player_chosen_most_is_in_the_group(game):
    state = _vote(game)
    for answer in (1, 0, 1, 0):
        state.apply(f"target {answer}")
    assert [len(h) for h in state.hands] == [4, 4, 2, 2]


def test_a_seat_sees_its_own_secret_choice_only_until_all_are_shown(game):
    state = _vote(game)
    state.apply("target 3")
    view = public_state(state, 2)
    picks = [local for local in view["frames"][-1] if isinstance(local, list) and len(local) == 4 and -1 in local]
    assert picks == [[-1, -1, -1, -1]]                     # seat 0's choice is not seat 2's to see
    assert [3, -1, -1, -1] in public_state(state, 0)["frames"][-1]
    assert [3, -1, -1, -1] in json.loads(state.to_json())["frames"][-1]


def test_the_events_hide_each_choice_until_one_event_shows_them_all():
    game = Game(unodsl.load(str(DECISIONS)).variant)
    for seed in range(300):
        state = game.new_game(4, seed=seed, record=True)
        rng = random.Random(seed)
        while not state.over and not _sealed(state):
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
        if not state.over:
            break
    start, members = len(state.events), []
    while _sealed(state):
        members.append(state.current_player)
        state.apply_id(state.legal_action_ids()[0])
    chose = [e for e in state.events[start:] if e.kind == E.CHOSE_SECRETLY]
    shown = [e for e in state.events[start:] if e.kind == E.CHOICES_SHOWN]
    assert [e.player for e in chose] == members and len(shown) == 1
    assert [shown[0].value[e.player] for e in chose] == [e.count for e in chose]
    for seat in range(4):
        seen = [e for e in state.events_for(seat, start) if e.kind == E.CHOSE_SECRETLY]
        assert [e.count for e in seen] == [e.count if e.player == seat else -1 for e in chose]
        assert not any(e.kind == E.TARGET for e in state.events_for(seat, start))
        assert [e for e in state.events_for(seat, start) if e.kind == E.CHOICES_SHOWN] == shown
    words = narrate(state.events_for(1, start), 1, game)
    assert any("secretly" in line for line in words) and any("the secret choices are shown" in line for line in words)


def test_a_state_paused_inside_a_sealed_choice_saves_loads_and_is_checked(game):
    state = _vote(game)
    state.apply("target 2")
    text = dump_state(state)
    loaded = load_state(game, text)
    assert loaded.current_player == 1 and loaded.legal_actions() == state.legal_actions()
    for s in (state, loaded):
        for answer in (2, 0, 2):
            s.apply(f"target {answer}")
    assert dump_state(loaded) == dump_state(state)
    bad = json.loads(text)
    bad["pending"][1] = 3                                  # seat 3 is not the first still to choose
    with pytest.raises(unodsl.InvalidState, match="sealed choice"):
        load_state(game, json.dumps(bad))


def test_a_sealed_choice_in_a_loop_begins_again_each_pass(tmp_path):
    result = _variant(tmp_path, "repeat 2:\n    let v = all secretly choose player others\n"
                                "    for each p in v:\n        p draws 1")
    assert not result.diagnostics
    state = build_state(result.game, {"given": {"hands": HANDS[:3], "top": "red_5", "turn": 0}})
    state.apply("play red_skip")
    asked = []
    while _sealed(state):
        asked.append(state.current_player)
        state.apply(state.legal_actions()[0])
    # others of seat 0: seats 1 and 2; seat 0 is offered both, each of them one (taken without asking)
    assert asked == [0, 0] and sum(len(h) for h in state.hands) == 2 + 2 + 2 + 2


def test_both_modes_play_the_same_sealed_games():
    fast, reference = Game(unodsl.load(str(DECISIONS)).variant), Game(unodsl.load(str(DECISIONS)).variant, fast=False)
    for seed in range(6, 12):
        play_both_modes(fast, reference, 2 + seed % 3, seed)


@pytest.mark.parametrize("effect, code, words", [
    ("let v = all secretly choose player cards of self where card is wild", "E501", "group"),
    ("let v = all secretly choose player others where player != nxt", "E502", "next"),
    ("let v = all secretly choose player others\nv draws 1", "E501", "player"),
    ("let v = all secretly choose player next", "E401", "others"),
])
def test_a_wrong_sealed_choice_is_located(tmp_path, effect, code, words):
    diags = _variant(tmp_path, effect).diagnostics
    assert diags and diags[0].code == code, diags
    assert words in diags[0].message and diags[0].line >= 7 and diags[0].column > 1


def test_round_on_end_refuses_a_sealed_choice(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\nround:\n  on_end: |\n"
                    "    let v = all secretly choose player all\n", encoding="utf-8")
    assert [d.code for d in check_file(str(path)).diagnostics] == ["E514"]


def test_the_rulebook_says_the_sealed_choice():
    text = render_rulebook(unodsl.load(str(DECISIONS)))
    assert "secretly chooses a player from" in text and "shown together" in text


def test_the_rl_action_table_has_targets_for_a_sealed_choice_even_in_a_procedure(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\nprocedures:\n  vote:\n    body: |\n"
                    "      let v = all secretly choose player all\n      for each p in v:\n          p draws 1\n"
                    "cards:\n  skip:\n    on_play: do vote()\n", encoding="utf-8")
    result = check_file(str(path))
    assert not result.diagnostics, result.diagnostics
    caps = capabilities(result.game)
    assert caps.targets and not caps.target_self


def test_pettingzoo_asks_each_member_of_a_sealed_choice():
    rl = pytest.importorskip("unodsl.rl")
    pytest.importorskip("pettingzoo")
    env = rl.env(DECISIONS, num_players=3)
    asked = set()
    for seed in range(40):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if _sealed(env.state):
                assert agent == env.possible_agents[env.state.current_player]
                asked.add(env.state.current_player)
            legal = [int(i) for i in obs["action_mask"].nonzero()[0]]
            env.step(rng.choice(legal))
        if len(asked) == 3:
            break
    assert asked == {0, 1, 2}


def test_a_resampled_world_chooses_the_other_seats_secret_choices_again(game):
    from unodsl.rl.resample import resample_hidden
    state = _vote(game)
    state.apply("target 3")                                # seat 0's choice, secret from seat 1
    rng = random.Random(5)
    seen = set()
    for _ in range(30):
        world = resample_hidden(game, state, 1, rng)
        picks = next(local for local in world.frames[-1] if isinstance(local, list) and len(local) == 4 and -1 in local)
        seen.add(picks[0])
        assert picks[1:] == [-1, -1, -1] and world.current_player == 1
    assert seen == {1, 2, 3}
    mine = resample_hidden(game, state, 0, rng)
    assert [3, -1, -1, -1] in mine.frames[-1]


def test_the_rl_action_table_reads_the_decisions_of_procedures_and_on_stack_effects(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("unodsl: 1\nname: t\nextends: classic\nprocedures:\n  pick:\n    body: |\n"
                    "      let t = choose player others\n      t draws 1\n"
                    "cards:\n  skip:\n    on_play: do pick()\n", encoding="utf-8")
    result = check_file(str(path))
    assert not result.diagnostics, result.diagnostics
    assert capabilities(result.game).targets                # a `choose player` run only through a procedure

"""Decisions beyond the player on turn (issue 29 item 5): a player other than the effect's owner is asked.

`let NAME = P chooses player G` asks P, not `self`; the seat asked is `current_player`, which every
interface reads (scenarios in tests/scenarios/decisions.yaml; the variant tests/scenarios/variants/decisions.yaml).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import unodsl
from unodsl.check import check_file
from unodsl.effects import layout as D
from unodsl.engine.game import Game
from unodsl.engine.savefile import dump_state, load_state
from unodsl.rl.actions import capabilities
from unodsl.rulebook.document import render_rulebook
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

"""The PettingZoo Parallel environment: it passes PettingZoo's parallel_api_test and plays the AEC env's game."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test  # noqa: E402

import unodsl.rl  # noqa: E402
from unodsl.rl import IllegalActionError  # noqa: E402


@pytest.mark.parametrize("variant, players", [("classic", 2), ("classic", 4), ("no-mercy", 3), ("teams", 4),
                                              ("seven-o", 3), ("flip", 2)])
def test_the_parallel_api_test_passes(variant, players):
    parallel_api_test(unodsl.rl.parallel_env(variant, num_players=players, max_turns=150), num_cycles=3000)


def test_it_plays_the_aec_game_action_for_action():
    """The same seed and the same choices: the same states, rewards and ends, in the two APIs."""
    par = unodsl.rl.parallel_env("classic", num_players=3)
    aec = unodsl.rl.env("classic", num_players=3)
    obs, infos = par.reset(seed=5)
    aec.reset(seed=5)
    rng = np.random.default_rng(1)
    steps = 0
    while par.agents:
        agent = par.agent_to_act
        assert agent == aec.agent_selection
        masks = {a: obs[a]["action_mask"] for a in par.agents}
        assert [a for a, m in masks.items() if m.any()] == [agent]            # only the agent to act has a mask
        assert np.array_equal(obs[agent]["observation"], aec.observe(agent)["observation"])
        assert infos[agent]["legal_actions"] == aec.infos[agent]["legal_actions"]
        action = int(rng.choice(np.flatnonzero(masks[agent])))
        actions = {a: (action if a == agent else 0) for a in par.agents}     # the others' values are ignored
        obs, rewards, terms, truncs, infos = par.step(actions)
        aec.step(action)
        steps += 1
        assert par.state.to_json() == aec.state.to_json()
    assert steps > 10 and par.state.is_over
    assert rewards == {a: aec.rewards[a] for a in aec.possible_agents} and sum(rewards.values()) == 0
    assert all(terms.values())
    with pytest.raises(IllegalActionError):
        par.step({})


def test_a_missing_or_illegal_action_of_the_agent_to_act_is_refused():
    par = unodsl.rl.parallel_env("classic", num_players=2)
    obs, _ = par.reset(seed=3)
    agent = par.agent_to_act
    with pytest.raises(IllegalActionError, match="hold none for it"):
        par.step({a: 0 for a in par.agents if a != agent})
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    before = par.state.to_json()
    with pytest.raises(IllegalActionError):
        par.step({agent: illegal})
    assert par.state.to_json() == before


def test_it_is_registered_with_pettingzoo():
    from pettingzoo import make
    env = make("parallel", unodsl.rl.PARALLEL_ENV_ID, variant="classic", num_players=2)
    assert isinstance(env, unodsl.rl.ParallelUnoEnv)

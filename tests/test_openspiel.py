"""unodsl.rl.openspiel: a variant as an OpenSpiel game, checked by OpenSpiel's own random simulation test."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

from unodsl.rl import openspiel as uno_spiel  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("variant, n", [("classic", 2), ("classic", 4), ("house-rules/seven-o", 3),
                                        ("all-wild-grogu", 2), ("teams", 4)])
def test_random_sim_test_passes(variant, n):
    path = REPO / "variants" / f"{variant}.yaml"
    name = uno_spiel.register(path, num_players=n, short_name=f"python_unodsl_sim_{variant.replace('/', '_')}_{n}")
    game = pyspiel.load_game(name)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_observation_tensor_is_the_env_vector_and_legal_actions_match_the_engine():
    import unodsl.rl as rl
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, short_name="python_unodsl_tensor")
    game = pyspiel.load_game(name)
    env = rl.env(REPO / "variants/classic.yaml", num_players=2)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(60):
        if state.is_terminal():
            break
        p = state.current_player()
        for seat in range(2):
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32),
                                  env.encoder.encode(state.state, seat))
        assert state.legal_actions() == sorted(env.actions.from_engine(e, p) for e in state.state.legal_action_ids())
        state.apply_action(rng.choice(state.legal_actions()))


def test_resampler_keeps_what_the_player_sees():
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, short_name="python_unodsl_resample")
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    resample = uno_spiel.resampler(seed=3)
    rng = random.Random(2)
    changed = 0
    for _ in range(40):
        if state.is_terminal():
            break
        p = state.current_player()
        other = resample(state, p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.observation_string(p) == state.observation_string(p)
        assert other.legal_actions() == state.legal_actions()
        changed += other.state.hand(1 - p) != state.state.hand(1 - p)
        state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 10


def test_an_ismcts_bot_plays_a_game():
    from open_spiel.python.algorithms import ismcts, mcts
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, max_turns=40, short_name="python_unodsl_ismcts")
    game = pyspiel.load_game(name)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), uct_c=2.0,
                           max_simulations=10, random_state=np.random.RandomState(0), use_observation_string=True)
    bot.set_resampler(uno_spiel.resampler(seed=0))
    state = game.new_initial_state()
    rng = random.Random(0)
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            moves += 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert moves > 5
    assert sum(state.returns()) == 0.0

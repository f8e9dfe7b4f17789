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
    assert game.get_type().provides_information_state_tensor and game.get_type().provides_information_state_string
    # The information state: the observation vector, then two numbers for each step the game may last.
    assert game.information_state_tensor_size() == game.observation_tensor_size() + 2 * game.max_game_length()
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


@pytest.mark.parametrize("by_observation", [True, False], ids=["observation-string", "information-state"])
def test_an_ismcts_bot_plays_a_game(by_observation):
    """OpenSpiel's ISMCTS plays seat 0 with our resampler, keying its tree by the observation string or by
    the information-state string."""
    from open_spiel.python.algorithms import ismcts, mcts
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, max_turns=40 if by_observation else 30,
                              short_name=f"python_unodsl_ismcts_{'obs' if by_observation else 'info'}")
    game = pyspiel.load_game(name)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), uct_c=2.0,
                           max_simulations=10 if by_observation else 8, random_state=np.random.RandomState(0),
                           use_observation_string=by_observation)
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


# --- information states


def random_states(name, variant="classic", n=2, steps=120, seed=5, **kwargs):
    """Yield the states along a random game of a freshly registered table."""
    uno_spiel.register(REPO / "variants" / f"{variant}.yaml", n, short_name=name, **kwargs)
    state = pyspiel.load_game(name).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


def history_rows(state, player):
    game = state.get_game()
    return np.asarray(state.information_state_tensor(player))[game.observation_tensor_size():].reshape(-1, 2)


@pytest.mark.parametrize("variant, n", [("classic", 2), ("classic", 4), ("house-rules/uno-at-two", 3)])
def test_the_information_state_is_the_same_for_every_deal_of_the_unseen_cards(variant, n):
    resample = uno_spiel.resampler(seed=4)
    checked = changed = 0
    for state in random_states(f"python_unodsl_info_{n}_{variant.replace('/', '_')}", variant, n):
        for player in range(n):
            other = resample(state, player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.information_state_string(player) == state.information_state_string(player)
            changed += any(other.state.hand(q) != state.state.hand(q) for q in range(n) if q != player)
            checked += 1
    assert checked > 100 and changed > 20        # the resampling did deal other cards (not once a hand is shown)


def test_the_information_state_differs_when_the_players_own_history_does():
    for state in random_states("python_unodsl_info_own", steps=40):
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        a, b = state.child(legal[0]), state.child(legal[1])
        assert a.information_state_tensor(p) != b.information_state_tensor(p)
        assert a.information_state_string(p) != b.information_state_string(p)
        step = len(state.history())
        assert history_rows(a, p)[step].tolist() == [1, legal[0] + 1]       # offset 0 (itself), RL id + 1
        assert history_rows(b, p)[step].tolist() == [1, legal[1] + 1]
        assert not history_rows(a, p)[step + 1:].any()


def test_another_seats_private_action_is_hidden_and_its_own_is_not():
    """A kept card says it was playable: only the keeper knows it kept one (the engine's KEPT event)."""
    kept = 0
    for seed in range(6):
        for state in random_states(f"python_unodsl_info_keep_{seed}", seed=seed, steps=200):
            if state.state.decision != "drawn" or "keep" not in [state.action_to_string(a)
                                                                  for a in state.legal_actions()]:
                continue
            p = state.current_player()
            keep = next(a for a in state.legal_actions() if state.action_to_string(a) == "keep")
            after = state.child(keep)
            step = len(state.history())
            assert history_rows(after, p)[step].tolist() == [1, keep + 1]
            assert history_rows(after, 1 - p)[step].tolist() == [2, state.get_game().num_distinct_actions() + 1]
            assert f"p{p}:keep" in after.information_state_string(p)
            assert f"p{p}:?" in after.information_state_string(1 - p)
            kept += 1
            break
    assert kept >= 2


def test_a_state_ends_at_the_declared_game_length():
    name = "python_unodsl_info_length"
    uno_spiel.register(REPO / "variants/classic.yaml", 2, max_turns=1, short_name=name)
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.history()) <= game.max_game_length() == 8


def test_the_observer_follows_the_observation_type():
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, short_name="python_unodsl_observers")
    game = pyspiel.load_game(name)
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    seen = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    assert info.tensor.size == game.information_state_tensor_size() > seen.tensor.size == game.observation_tensor_size()
    state = game.new_initial_state()
    for action in (0, 0, 0):
        state.apply_action(state.legal_actions()[action])
    info.set_from(state, 1)
    seen.set_from(state, 1)
    assert info.tensor.tolist() == state.information_state_tensor(1)
    assert seen.tensor.tolist() == state.observation_tensor(1)
    assert info.string_from(state, 1) == state.information_state_string(1)
    assert info.string_from(state, 1).startswith(seen.string_from(state, 1) + " | history p")

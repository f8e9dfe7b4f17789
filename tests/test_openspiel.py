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
EXPLICIT, SAMPLED = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC, pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


def chance_step(state, rng):
    """At a chance node, apply an outcome drawn by its probability."""
    outcomes, chances = zip(*state.chance_outcomes())
    state.apply_action(rng.choices(outcomes, chances)[0])


def to_decision(state, rng):
    """Apply chance outcomes until a player decides (or the game ends); return the state."""
    while state.is_chance_node():
        chance_step(state, rng)
    return state


def random_step(state, rng):
    """One random legal action of the player to act, then the chance outcomes it brings."""
    state.apply_action(rng.choice(state.legal_actions()))
    to_decision(state, rng)


@pytest.mark.parametrize("variant, n, chance", [
    ("classic", 2, "explicit"), ("classic", 4, "explicit"), ("house-rules/seven-o", 3, "explicit"),
    ("all-wild-grogu", 2, "explicit"), ("teams", 4, "explicit"), ("flip", 2, "explicit"), ("no-mercy", 3, "explicit"),
    ("house-rules/wild-roulette", 2, "explicit"), ("uno-attack", 3, "explicit"), ("classic", 2, "sampled")])
def test_random_sim_test_passes(variant, n, chance):
    path = REPO / "variants" / f"{variant}.yaml"
    name = uno_spiel.register(path, num_players=n, chance=chance,
                              short_name=f"python_unodsl_sim_{variant.replace('/', '_')}_{n}_{chance}")
    game = pyspiel.load_game(name)
    assert game.get_type().chance_mode == (EXPLICIT if chance == "explicit" else SAMPLED)
    assert game.get_type().provides_information_state_tensor and game.get_type().provides_information_state_string
    # The information state: the observation vector, then two numbers for each step players may take.
    assert game.information_state_tensor_size() == game.observation_tensor_size() + 2 * 8 * 1000
    # With chance nodes the history decides a state, and OpenSpiel's serialization round trip runs too;
    # a sampled game would need the game's own generator state, which a Python game cannot give.
    pyspiel.random_sim_test(game, num_sims=3, serialize=chance == "explicit", verbose=False)


def test_the_first_chance_node_deals_each_card_as_likely_as_its_share_and_says_which():
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, short_name="python_unodsl_chance_first")
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    engine = uno_spiel.load_game(REPO / "variants/classic.yaml")
    deck = {k: engine.deck.count(k) for k in set(engine.deck)}
    assert state.is_chance_node() and str(state) == "dealing"
    assert state.chance_outcomes() == [(k, deck[k] / len(engine.deck)) for k in sorted(deck)]
    assert game.max_chance_outcomes() == engine.num_kinds + 10
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, engine.card_index["red_7"]) == "chance: red_7"
    assert state.observation_tensor(0) == [0.0] * game.observation_tensor_size()      # nothing dealt yet


def test_an_explicit_state_is_a_function_of_its_history():
    """What OpenSpiel's serialization assumes: the same actions and outcomes from a new state give the same state."""
    name = uno_spiel.register(REPO / "variants/classic.yaml", 3, short_name="python_unodsl_chance_history")
    game = pyspiel.load_game(name)
    rng = random.Random(3)
    state = to_decision(game.new_initial_state(), rng)
    for _ in range(80):
        if state.is_terminal():
            break
        random_step(state, rng)
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again.state.to_json() == state.state.to_json()
    assert [again.information_state_string(p) for p in range(3)] == [state.information_state_string(p) for p in range(3)]
    assert game.new_initial_state().child(state.history()[0]).history() == state.history()[:1]


@pytest.mark.parametrize("chance", ["explicit", "sampled"])
def test_a_state_pickles_and_serializes(chance):
    import pickle
    name = uno_spiel.register(REPO / "variants/flip.yaml", 3, chance=chance, short_name=f"python_unodsl_pickle_{chance}")
    game = pyspiel.load_game(name)
    rng = random.Random(4)
    state = to_decision(game.new_initial_state(), rng)
    for _ in range(50):
        random_step(state, rng)
    assert not state.is_terminal()
    for copy in (pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize())):
        assert copy.history() == state.history() and copy.state.to_json() == state.state.to_json()
        assert [copy.information_state_string(p) for p in range(3)] == [state.information_state_string(p) for p in range(3)]
        # The copy plays on as the state does.
        action = rng.choice(state.legal_actions())
        mine, theirs = (to_decision(s.child(action), random.Random(9)) for s in (state, copy))
        assert mine.state.to_json() == theirs.state.to_json()


def test_the_sampled_games_deals_do_not_depend_on_copies_made():
    """OpenSpiel copies a Python state through a new initial state: that one must not take a seed (the
    k-th round dealt gets the k-th seed, however many copies were made)."""
    def second_deal(name, copies):
        uno_spiel.register(REPO / "variants/classic.yaml", 2, chance="sampled", short_name=name)
        game = pyspiel.load_game(name)
        first = game.new_initial_state()
        first.current_player()                  # the round is dealt when first looked at
        kept = [first.clone() for _ in range(copies)]
        assert all(copy.state.to_json() == first.state.to_json() for copy in kept)
        return game.new_initial_state().state.to_json()
    assert second_deal("python_unodsl_deals_a", 0) == second_deal("python_unodsl_deals_b", 5)


def test_observation_tensor_is_the_env_vector_and_legal_actions_match_the_engine():
    import unodsl.rl as rl
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, short_name="python_unodsl_tensor")
    game = pyspiel.load_game(name)
    env = rl.env(REPO / "variants/classic.yaml", num_players=2)
    rng = random.Random(1)
    state = to_decision(game.new_initial_state(), rng)
    for _ in range(60):
        if state.is_terminal():
            break
        p = state.current_player()
        for seat in range(2):
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32),
                                  env.encoder.encode(state.state, seat))
        assert state.legal_actions() == sorted(env.actions.from_engine(e, p) for e in state.state.legal_action_ids())
        random_step(state, rng)


@pytest.mark.parametrize("chance", ["explicit", "sampled"])
def test_resampler_keeps_what_the_player_sees(chance):
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, chance=chance, short_name=f"python_unodsl_resample_{chance}")
    game = pyspiel.load_game(name)
    resample = uno_spiel.resampler(seed=3)
    rng = random.Random(2)
    state = to_decision(game.new_initial_state(), rng)
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
        # The copy plays on: with chance nodes, its draw pile is unresolved again.
        random_step(other, random.Random(p))
        random_step(state, rng)
    assert changed > 10


@pytest.mark.parametrize("by_observation, chance", [(True, "explicit"), (False, "explicit"), (True, "sampled")],
                         ids=["observation-string", "information-state", "observation-string-sampled"])
def test_an_ismcts_bot_plays_a_game(by_observation, chance):
    """OpenSpiel's ISMCTS plays seat 0 with our resampler, keying its tree by the observation string or by
    the information-state string."""
    from open_spiel.python.algorithms import ismcts, mcts
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, max_turns=40 if by_observation else 30, chance=chance,
                              short_name=f"python_unodsl_ismcts_{'obs' if by_observation else 'info'}_{chance}")
    game = pyspiel.load_game(name)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), uct_c=2.0,
                           max_simulations=10 if by_observation else 8, random_state=np.random.RandomState(0),
                           use_observation_string=by_observation)
    bot.set_resampler(uno_spiel.resampler(seed=0))
    state = game.new_initial_state()
    rng = random.Random(0)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            continue
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
    rng = random.Random(seed)
    state = to_decision(pyspiel.load_game(name).new_initial_state(), rng)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        random_step(state, rng)


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
        step = len(state.steps)                                             # players' steps so far
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
            step = len(state.steps)
            assert history_rows(after, p)[step].tolist() == [1, keep + 1]
            assert history_rows(after, 1 - p)[step].tolist() == [2, state.get_game().num_distinct_actions() + 1]
            assert f"p{p}:keep" in after.information_state_string(p)
            assert f"p{p}:?" in after.information_state_string(1 - p)
            kept += 1
            break
    assert kept >= 2


@pytest.mark.parametrize("chance", ["explicit", "sampled"])
def test_a_state_ends_at_the_declared_game_length(chance):
    name = f"python_unodsl_info_length_{chance}"
    uno_spiel.register(REPO / "variants/classic.yaml", 2, max_turns=1, short_name=name, chance=chance)
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    for _ in range(20):
        state = to_decision(game.new_initial_state(), rng)
        while not state.is_terminal():
            random_step(state, rng)
        assert len(state.steps) <= 8 and len(state.history()) <= game.max_game_length()
    # Players' 8 steps (a turn), and with chance nodes as many chance outcomes plus the deal's.
    assert game.max_game_length() == (8 if chance == "sampled" else 2 * 8 + 108 + 20 * 2)


def test_the_observer_follows_the_observation_type():
    name = uno_spiel.register(REPO / "variants/classic.yaml", 2, short_name="python_unodsl_observers")
    game = pyspiel.load_game(name)
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    seen = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    assert info.tensor.size == game.information_state_tensor_size() > seen.tensor.size == game.observation_tensor_size()
    rng = random.Random(0)
    state = to_decision(game.new_initial_state(), rng)
    for _ in range(3):
        random_step(state, rng)
    info.set_from(state, 1)
    seen.set_from(state, 1)
    assert info.tensor.tolist() == state.information_state_tensor(1)
    assert seen.tensor.tolist() == state.observation_tensor(1)
    assert info.string_from(state, 1) == state.information_state_string(1)
    assert info.string_from(state, 1).startswith(seen.string_from(state, 1) + " | history p")

"""The RL observation encoder (unodsl.rl.ObservationEncoder) against its specification: the plain,
field-by-field reading of `State.observation(seat)`.

The encoder keeps per seat the vector it last made and rewrites only what changed, reading the
State's own lists; these tests hold it equal to the plain reading along random games of every
shipped variant at 2 and 4 players, with and without full_state, in the ways environments use it:
every seat at every step, only the seat to act (bigger changes between two encodes), and one
encoder for two games stepped in turn (each encode differs from the last in everything).
Run in both modes (UNODSL_FAST=0 for the reference engine) by the gate.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

import unodsl.rl as rl  # noqa: E402
from unodsl.rl.actions import LegalIds  # noqa: E402

from test_rl import REPO, game, tables  # noqa: E402


def reference_encode(encoder, state, seat):
    """The observation vector built field by field from `state.observation(seat)`, plainly."""
    obs = state.observation(seat)
    n, k = encoder.n, encoder.game.num_kinds
    o = encoder.offset
    ci, ki = encoder.color_index, encoder.card_index
    v = np.zeros(encoder.size, np.float32)
    for name in obs["hand"]:
        v[o["hand"] + ki[name]] += 1
    if obs["top"]:
        v[o["top"] + ki[obs["top"]]] = 1
    v[o["color"] + ci.get(obs["color"], len(ci))] = 1
    v[o["lock"] + ci.get(obs["lock"], len(ci))] = 1
    v[o["stack"]] = obs["stack"]
    v[o["direction"]] = obs["direction"]
    sizes, called, out = obs["hand_sizes"], obs["uno_called"], obs["eliminated"]
    for i in range(n):
        q = (seat + i) % n
        if i:
            v[o["hand_sizes"] + i - 1] = sizes[q]
        v[o["uno_called"] + i] = called[q]
        v[o["eliminated"] + i] = out[q]
    cur = obs["current_player"]
    if cur >= 0:
        v[o["acting"] + (cur - seat) % n] = 1
    if obs["decision"] in encoder.decision_index:
        v[o["decision"] + encoder.decision_index[obs["decision"]]] = 1
    v[o["draw_pile"]] = obs["draw_pile"]
    v[o["discard_pile"]] = obs["discard_pile"]
    for name in obs["discard"]:
        v[o["discard"] + ki[name]] += 1
    if "drawn" in obs:
        v[o["drawn"] + ki[obs["drawn"]]] = 1
    for q, cards in obs["revealed"].items():
        rel = (int(q) - seat) % n
        if rel == 0:                # one's own hand is in `hand` already
            continue
        base = o["revealed"] + (rel - 1) * k
        for name in cards:
            v[base + ki[name]] += 1
    if "side" in obs:                   # a two-sided deck
        v[o["side"]] = obs["side"] == encoder.game.variant.sides[1]
        for q, cards in obs["backs"].items():
            base = o["backs"] + ((int(q) - seat) % n - 1) * k
            for name in cards:
                v[base + ki[name]] += 1
        if obs["draw_pile_back"]:
            v[o["draw_pile_back"] + ki[obs["draw_pile_back"]]] = 1
    v[o["turn"]] = min(obs["turn"], encoder.high[o["turn"]])
    if encoder.full_state:
        for i in range(1, n):
            base = o["hidden_hands"] + (i - 1) * k
            for name in state.hand((seat + i) % n):
                v[base + ki[name]] += 1
    return v


def assert_encodes(encoder, state, seats, where):
    for seat in seats:
        fast = encoder.encode(state, seat)
        assert fast.dtype == np.float32 and fast.shape == (encoder.size,)
        expected = reference_encode(encoder, state, seat)
        if not np.array_equal(fast, expected):
            wrong = [f.name for f in encoder.fields if not np.array_equal(fast[f.start:f.start + f.size],
                                                                          expected[f.start:f.start + f.size])]
            pytest.fail(f"{where}, seat {seat}: fields {', '.join(wrong)} differ")


def step(state, rng):
    state.apply_id(rng.choice(state.legal_action_ids()))


@pytest.mark.parametrize("path, n", tables())
def test_the_encoder_equals_the_plain_reading_of_the_observation(path, n):
    g = game(path)
    rng = random.Random(3)
    for full_state in (False, True):
        # Every seat at every step.
        encoder = rl.ObservationEncoder(g, n, full_state=full_state)
        state = g.new_game(players=n, seed=1)
        for i in range(300):
            assert_encodes(encoder, state, range(n), f"every seat, step {i}")
            if state.is_over:
                break
            step(state, rng)
        # Only the seat to act, as the AEC environment observes.
        encoder = rl.ObservationEncoder(g, n, full_state=full_state)
        for seed in (2, 3):
            state = g.new_game(players=n, seed=seed)
            for i in range(300):
                if state.is_over:
                    assert_encodes(encoder, state, range(n), f"game {seed} over")
                    break
                assert_encodes(encoder, state, [state.current_player], f"acting seat, game {seed} step {i}")
                step(state, rng)
        # One encoder, two games in turn.
        encoder = rl.ObservationEncoder(g, n, full_state=full_state)
        pair = [g.new_game(players=n, seed=4), g.new_game(players=n, seed=5)]
        for i in range(200):
            for state in pair:
                assert_encodes(encoder, state, range(n), f"two games, step {i}")
                if not state.is_over:
                    step(state, rng)


def test_each_vector_is_a_new_array():
    g = game("variants/classic.yaml")
    encoder = rl.ObservationEncoder(g, 2)
    state = g.new_game(players=2, seed=1)
    first = encoder.encode(state, 0)
    kept = first.copy()
    first[:] = 99
    assert np.array_equal(encoder.encode(state, 0), kept)
    state.apply_id(state.legal_action_ids()[0])
    encoder.encode(state, 0)
    assert (first == 99).all()


def test_legal_ids_are_asked_again_after_a_move_or_for_another_state():
    g = game("variants/classic.yaml")
    legal = LegalIds()
    state = g.new_game(players=2, seed=1)
    ids = legal(state)
    assert ids == state.legal_action_ids() and legal(state) is ids
    state.apply_id(ids[0])
    assert legal(state) == state.legal_action_ids() and legal(state) is not ids
    other = state.clone()
    assert legal(other) == other.legal_action_ids() and legal.state is other


def test_the_env_observes_a_state_put_in_place_of_its_own():
    """The invariance test swaps env.state for a resampled one: mask and vector follow the new state."""
    env = rl.env(REPO / "variants/classic.yaml", num_players=2)
    env.reset(seed=5)
    agent = env.agent_selection
    seen = env.observe(agent)
    other = env.game.new_game(players=2, seed=77)
    real, env.state = env.state, other
    swapped = env.observe(env.possible_agents[other.current_player])
    seat = other.current_player
    assert np.array_equal(swapped["observation"], reference_encode(env.encoder, other, seat))
    assert sorted(np.flatnonzero(swapped["action_mask"])) == sorted(
        env.actions.rl_of[seat][e] for e in other.legal_action_ids())
    env.state = real
    again = env.observe(agent)
    assert np.array_equal(again["observation"], seen["observation"])
    assert np.array_equal(again["action_mask"], seen["action_mask"])

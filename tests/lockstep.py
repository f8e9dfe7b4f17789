"""Both engine modes in lockstep: shared by the tests of features the fast mode must hand over for."""

from __future__ import annotations

import random


def play_both_modes(fast, reference, players: int, seed: int, **options):
    """Play seed at `players` in both modes: a uniform random policy applied to both, step by step (the same
    legal actions at every step, the same saved state at the end), then each game's own rollout (the same
    history and saved state). `options` go to the fast mode's first new_game (record=False: no events).
    Returns the rollout's finished state of the fast mode."""
    a, b = fast.new_game(players, seed=seed, **options), reference.new_game(players, seed=seed)
    rng = random.Random(seed)
    while not a.is_over:
        actions = a.legal_action_ids()
        assert actions == b.legal_action_ids()
        action = actions[rng.randrange(len(actions))]
        a.apply_id(action)
        b.apply_id(action)
    assert b.is_over and a.to_json() == b.to_json()
    a, b = fast.new_game(players, seed=seed), reference.new_game(players, seed=seed)
    a.play_out()
    b.play_out()
    assert a.history == b.history and a.to_json() == b.to_json()
    return a

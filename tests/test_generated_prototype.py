"""The generated-module prototype (benchmarks/generated_prototype.py) plays the reference mode's games.

Each seed is played out twice from a new game, by the prototype and by the reference mode's
rollout (Game(fast=False), every decision listed), from the same draws: the histories and the
saved states at the end must be the same. Games at 2, 3 and 4 players, so that a two-player
Reverse (a skip) and refills of the draw pile come up; a match plays several rounds.
"""

from __future__ import annotations

import glob
import random

import pytest

import unodsl
from unodsl.engine import Game
from unodsl.runs.simulate import game_seed

from bench_scripts import bench_module

P = bench_module("generated_prototype")


def _same_game(fast, reference, play_out, players: int, seed: int) -> None:
    """Play seed out with `play_out` and with the reference mode's rollout: the same history and saved state."""
    a, b = fast.new_game(players, seed=seed), reference.new_game(players, seed=seed)
    play_out(a, random.Random(seed).random)
    b.play_out(random.Random(seed).random)
    assert a.history == b.history and a.to_json() == b.to_json(), f"{players} players, seed {seed}"


@pytest.fixture(scope="module")
def games():
    fast = unodsl.load("benchmarks/reference-rules.yaml", fast=True)     # the fast mode's tables, in either mode
    return fast, Game(fast.variant, fast.ruling_overrides, fast=False), P.compile_for(fast)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_prototype_plays_the_reference_modes_games(games, players):
    fast, reference, play_out = games
    for index in range(25):
        seed = game_seed(players, index)
        a, b = fast.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        play_out(a, random.Random(seed).random)
        b.play_out(random.Random(seed).random)
        assert a.history == b.history, f"{players} players, seed {seed}"
        assert a.to_json() == b.to_json(), f"{players} players, seed {seed}"


def test_the_prototype_plays_a_match_and_from_the_games_own_generator(games):
    fast, reference, play_out = games
    for index in range(4):
        seed = game_seed(4, 100 + index)
        a, b = fast.new_game(4, seed=seed, match=True), reference.new_game(4, seed=seed, match=True)
        play_out(a, a.rng.random)
        b.play_out()
        assert a.round > 1 and a.history == b.history and a.to_json() == b.to_json()


def test_the_prototype_refuses_what_it_does_not_specialise():
    with pytest.raises(P.NotCovered):
        P.source_for(unodsl.load("variants/no-mercy.yaml", fast=True))         # stacking


def test_the_prototype_compiled_by_cython_plays_the_same_games(games, tmp_path):
    """The optional compiled tier: the same module through Cython and the C compiler (skipped without them)."""
    pytest.importorskip("Cython")
    fast, reference, _ = games
    try:
        play_out = P.compile_native(fast, str(tmp_path))
    except (OSError, RuntimeError) as error:          # no C compiler: nothing to test here
        pytest.skip(f"cannot build the compiled module: {error}")
    for index in range(6):
        seed = game_seed(3, index)
        a, b = fast.new_game(3, seed=seed), reference.new_game(3, seed=seed)
        play_out(a, random.Random(seed).random)
        b.play_out(random.Random(seed).random)
        assert a.history == b.history and a.to_json() == b.to_json(), f"seed {seed}"


@pytest.mark.parametrize("from_bodies", [False, True])
def test_the_prototype_plays_classic_with_uno_calls(from_bodies):
    """Classic has UNO calls: a play doubled with a call, a forgotten call handed to the catch window; with
    from_bodies, Draw Two and Skip run their effects made from ops.penalty's and ops.skip's own bodies."""
    fast = unodsl.load("variants/classic.yaml", fast=True)
    reference = Game(fast.variant, fast.ruling_overrides, fast=False)
    if from_bodies:
        assert "st.skip[p_" in P.source_for(fast, from_bodies=True)
    play_out = P.compile_for(fast, from_bodies)
    for players in (2, 4):
        for index in range(10):
            _same_game(fast, reference, play_out, players, game_seed(players, index))


CASES = sorted(glob.glob("variants/*.yaml")) + sorted(glob.glob("variants/house-rules/*.yaml"))


@pytest.mark.parametrize("path", CASES)
def test_the_prototype_plays_every_shipped_variant_it_covers(path):
    """Every shipped variant and house rule whose turn the prototype specialises, at every player count it
    allows: the effects it does not inline are handed to the reference body, and the game is the same."""
    fast = unodsl.load(path, fast=True)
    try:
        play_out = P.compile_for(fast)
    except P.NotCovered as reason:
        pytest.skip(f"not specialised: {reason}")
    reference = Game(fast.variant, fast.ruling_overrides, fast=False)
    v = fast.variant
    for players in list(v.allowed_players or range(v.min_players, v.max_players + 1))[:4]:
        for index in range(3):
            _same_game(fast, reference, play_out, players, game_seed(players, index))

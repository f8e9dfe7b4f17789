"""unodsl and the hand-written reference engine agree where their rules coincide.

The same number of seeded 4-player games is played by both implementations with
a uniform random policy:

* unodsl on benchmarks/reference-rules.yaml (classic without UNO calls, random
  dealer, 10,000-turn cap) through `simulate.run_range` with random bots: every
  decision is uniform over `legal_action_ids()`, i.e. over the distinct playable
  cards plus "draw" on a turn, play/keep after a draw, the 4 colours, and
  challenge/accept;
* benchmarks/reference_engine.py, whose random policy is the same (see its header).

The random streams differ, so games are compared as samples, not one by one:
the mean turns per game (two-sample z-test), the win rate of the first player
(the dealer's left; Wilson 95% intervals must overlap) and the mean reshuffles
per game (two-sample z-test).  Seeds are fixed, so the outcome is deterministic.

Counting turns alike: the reference engine counts a turn per decision of the
player whose turn it is (a play, or a draw perhaps followed by playing the
drawn card), not colour choices, challenges, forced draws or skipped players;
unodsl's `total_turns` counts turns begun, which is the same except that a game
stopped at the cap has begun one more turn (cap + 1) than the reference engine's
cap.  So unodsl's count is clipped to the cap and a stalled game has no winner,
as in the reference engine.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from bench_scripts import bench_module

import unodsl
from unodsl.runs.intervals import wilson
from unodsl.runs.simulate import run_range

ROOT = Path(__file__).resolve().parents[1]
E = bench_module("reference_engine")

RULES = ROOT / "benchmarks" / "reference-rules.yaml"
GAMES = 600
PLAYERS = 4
SEED = 2024
Z_LIMIT = 3.29            # two-sided 0.1%: a deterministic test should not fail on a fluke


def _mean_var(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return mean, sum((v - mean) ** 2 for v in values) / (n - 1)


def _z(a: list[float], b: list[float]) -> float:
    """Two-sample z statistic of the difference of means (unequal variances)."""
    (ma, va), (mb, vb) = _mean_var(a), _mean_var(b)
    return (ma - mb) / math.sqrt(va / len(a) + vb / len(b))


@pytest.fixture(scope="module")
def samples() -> dict:
    """Play the games once for all the comparisons: per game (turns, first player won, reshuffles)."""
    game = unodsl.load(str(RULES))
    cap = game.variant.max_turns
    assert cap == E.MAX_TURNS, "reference-rules.yaml must stop games where the reference engine does"
    ours = []

    def record(index, state):
        winner = None if state.stalled else state.winner
        first = (state.dealer + 1) % PLAYERS
        ours.append((min(state.total_turns, cap), winner == first, state.reshuffles))

    run_range(game, PLAYERS, SEED, 0, GAMES, ["random"], on_game=record)
    theirs = []
    for seed in E.game_seeds(GAMES, SEED):
        state = E.new_game(PLAYERS, seed)
        first = (state.dealer + 1) % PLAYERS
        E.advance(state, E.MAX_TURNS)
        theirs.append((state.turns, state.winner == first, state.reshuffles))
    return {"unodsl": ours, "reference": theirs}


def test_the_rules_file_is_classic_without_uno_calls():
    game = unodsl.load(str(RULES))
    v = game.variant
    assert not v.uno_enabled and v.dealer == "random" and v.hand_size == E.HAND_SIZE
    assert len(game.deck) == len(E.DECK)


def test_mean_turns_per_game_agree(samples):
    ours = [t for t, _, _ in samples["unodsl"]]
    theirs = [t for t, _, _ in samples["reference"]]
    z = _z(ours, theirs)
    assert abs(z) < Z_LIMIT, (f"mean turns per game: unodsl {sum(ours) / GAMES:.1f}, "
                              f"reference {sum(theirs) / GAMES:.1f}, z = {z:.2f}")


def test_first_player_win_rates_agree(samples):
    ours = sum(w for _, w, _ in samples["unodsl"])
    theirs = sum(w for _, w, _ in samples["reference"])
    (a_low, a_high), (b_low, b_high) = wilson(ours, GAMES), wilson(theirs, GAMES)
    assert a_low <= b_high and b_low <= a_high, (
        f"first player's win rate: unodsl {ours / GAMES:.3f} [{a_low:.3f}, {a_high:.3f}], "
        f"reference {theirs / GAMES:.3f} [{b_low:.3f}, {b_high:.3f}]")


def test_mean_reshuffles_per_game_agree(samples):
    ours = [r for _, _, r in samples["unodsl"]]
    theirs = [r for _, _, r in samples["reference"]]
    z = _z(ours, theirs)
    assert abs(z) < Z_LIMIT, (f"reshuffles per game: unodsl {sum(ours) / GAMES:.2f}, "
                              f"reference {sum(theirs) / GAMES:.2f}, z = {z:.2f}")


def test_no_game_is_stopped_by_the_cap(samples):
    # Both caps are 10,000 turns; random games are ~800 turns long, so a stall would be a bug.
    assert max(t for t, _, _ in samples["unodsl"]) < E.MAX_TURNS
    assert max(t for t, _, _ in samples["reference"]) < E.MAX_TURNS

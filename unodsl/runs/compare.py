"""Paired A/B comparison: two rule sets played on the same seeds, each figure's difference with its interval.

Game i of both sides is seeded from (seed, i) alone, so both start from the same
shuffle and deal and the bots draw from generators in the same state. Where the rules
agree the games agree, so their difference has far less variance than that of two
independent runs: the paired interval of a difference is narrower, and the
number of games a difference needs to be known shrinks by the square of the
ratio of the widths (reported as `games_saved`). The sums are exact, so a run split over
processes (`workers`) or Ray tasks (ray_backend.compare_on_ray) gives the same comparison.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .metrics import PER_GAME, SCALE, Moments, play_measured
from .pool import chunks, ignore_sigint, run_pool
from .seeds import game_seed

Z95 = 1.959963984540054


def _moments() -> dict:
    return {name: Moments(scale=SCALE.get(name, 1)) for name, _ in PER_GAME}


@dataclass
class Comparison:
    """Running sums of both sides and of their game-by-game differences, for every figure of PER_GAME."""

    a: dict = field(default_factory=lambda: _moments())
    b: dict = field(default_factory=lambda: _moments())
    diff: dict = field(default_factory=lambda: _moments())
    games: int = 0

    def add(self, figures_a: dict, figures_b: dict) -> None:
        """Fold in game i of both sides."""
        self.games += 1
        for name, _ in PER_GAME:
            x, y = figures_a[name], figures_b[name]
            if x is not None:
                self.a[name].add(x)
            if y is not None:
                self.b[name].add(y)
            if x is not None and y is not None:
                self.diff[name].add(x - y)

    def merge(self, other: "Comparison") -> None:
        self.games += other.games
        for side, theirs in ((self.a, other.a), (self.b, other.b), (self.diff, other.diff)):
            for name, moments in theirs.items():
                side[name].merge(moments)

    def summary(self) -> list[dict]:
        """For every figure: both means, the difference A - B, its paired and unpaired 95% intervals."""
        rows = []
        for name, words in PER_GAME:
            a, b, d = self.a[name], self.b[name], self.diff[name]
            paired = Z95 * d.sd / math.sqrt(d.n) if d.n else 0.0
            unpaired = (Z95 * math.sqrt(a.sd ** 2 / a.n + b.sd ** 2 / b.n)) if a.n and b.n else 0.0
            rows.append({
                "figure": name, "words": words, "a": a.mean, "b": b.mean, "difference": d.mean,
                "ci95": [d.mean - paired, d.mean + paired], "paired_games": d.n,
                "unpaired_ci95": [a.mean - b.mean - unpaired, a.mean - b.mean + unpaired],
                # Games an unpaired comparison needs for the paired interval's width: (unpaired / paired)^2.
                "games_saved": (unpaired / paired) ** 2 if paired > 0 else None,
                "significant": d.n > 1 and (d.mean - paired > 0 or d.mean + paired < 0),
            })
        return rows


def compare_games(game_a, game_b, games: int, players: int, seed: int, bots: list[str],
                  match: bool = False, start: int = 0, progress=None, stop: list | None = None) -> Comparison:
    """Play games start..start+games-1 of both Games on the same seeds and return the comparison."""
    result = Comparison()
    for index in range(start, start + games):
        if stop:
            break
        s = game_seed(seed, index)
        _, figures_a = play_measured(game_a, players, s, bots, match)
        _, figures_b = play_measured(game_b, players, s, bots, match)
        result.add(figures_a, figures_b)
        if progress:
            progress(result.games)
    return result


# --- processes ----------------------------------------------------------------

# What a worker loads a side from: (path, root, rulings, texts), as check.load takes them.
_worker_games: tuple | None = None


def _init_worker(sides: tuple) -> None:
    """Worker start: leave Ctrl-C to the parent and load both sides once (a forked worker has them)."""
    ignore_sigint()
    global _worker_games
    if _worker_games is None:
        from ..check import load
        _worker_games = tuple(load(path, root, rulings, texts=texts) for path, root, rulings, texts in sides)


def _work(job) -> Comparison:
    players, seed, start, stop, bots, match = job
    game_a, game_b = _worker_games
    return compare_games(game_a, game_b, stop - start, players, seed, bots, match, start)


def compare(sides: tuple, games: int, players: int, seed: int, bots: list[str], workers: int = 1,
            match: bool = False, progress=None, stop: list | None = None, loaded: tuple | None = None) -> Comparison:
    """Compare the two `sides` ((path, root, rulings, texts) each) on `games` shared seeds, on `workers` processes.

    `loaded`: both Games compiled already (one process uses them; forked workers inherit them).
    Any worker count gives the same comparison.
    """
    import multiprocessing
    global _worker_games
    if loaded is None:
        from ..check import load
        loaded = tuple(load(path, root, rulings, texts=texts) for path, root, rulings, texts in sides)
    if workers <= 1 or games == 1:
        return compare_games(*loaded, games, players, seed, bots, match,
                             progress=progress, stop=stop)
    total = Comparison()
    jobs = [(players, seed, first, last, bots, match) for first, last in chunks(games, workers)]
    try:
        _worker_games = loaded if multiprocessing.get_start_method() == "fork" else None
        run_pool(_work, jobs, workers, _init_worker, (sides,), total.merge,
                 (lambda: progress(total.games)) if progress else None, stop)
    finally:
        _worker_games = None
    return total

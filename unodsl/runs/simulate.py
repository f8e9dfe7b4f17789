"""Bot simulations with streaming statistics: constant memory, identical results for any worker count.

Game i of a run with seed S is seeded from (S, i) alone, and statistics are sums
and histograms, so splitting the games over processes cannot change the result.
"""

from __future__ import annotations

import gc
import math
from collections import Counter
from dataclasses import dataclass, field

from ..agents.bots import make_bot
from ..engine import Game


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded with `seed`."""
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9) % (2**63)


@dataclass
class Stats:
    """Running totals of a simulation; mergeable and small."""

    players: int
    games: int = 0
    turns: Counter = field(default_factory=Counter)     # turns per game -> number of games
    wins: list = field(default_factory=list)
    points: list = field(default_factory=list)
    no_winner: int = 0
    reshuffles: int = 0
    stalls: int = 0
    rounds: int = 0
    interrupted: bool = False                          # the run was stopped before all games were played

    def __post_init__(self):
        if not self.wins:
            self.wins = [0] * self.players
            self.points = [0] * self.players

    def add(self, state) -> None:
        """Record one finished game."""
        self.games += 1
        self.turns[state.total_turns] += 1
        if state.winner is None:
            self.no_winner += 1
        else:
            self.wins[state.winner] += 1
        for seat, score in enumerate(state.scores):
            self.points[seat] += score
        self.reshuffles += state.reshuffles
        self.stalls += bool(state.stalled)
        self.rounds += state.round

    def merge(self, other: "Stats") -> None:
        """Fold another Stats into this one."""
        self.games += other.games
        self.turns.update(other.turns)
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.points = [a + b for a, b in zip(self.points, other.points)]
        self.no_winner += other.no_winner
        self.reshuffles += other.reshuffles
        self.stalls += other.stalls
        self.rounds += other.rounds

    def summary(self) -> dict:
        """The figures a user reads: turns, win rates with 95% intervals, points, reshuffles, stalls."""
        n = self.games
        turns = _percentiles(self.turns, n)
        seats = []
        for seat in range(self.players):
            low, high = wilson(self.wins[seat], n)
            seats.append({"seat": seat, "wins": self.wins[seat], "win_rate": self.wins[seat] / n if n else 0.0,
                          "ci95": [low, high], "mean_points": self.points[seat] / n if n else 0.0})
        return {
            "games": n,
            "players": self.players,
            "turns": turns,
            "seats": seats,
            "no_winner": self.no_winner,
            "reshuffles": {"total": self.reshuffles, "per_game": self.reshuffles / n if n else 0.0},
            "stalls": self.stalls,
            "rounds_per_game": self.rounds / n if n else 0.0,
        }


def _percentiles(hist: Counter, n: int) -> dict:
    if not n:
        return {"mean": 0.0, "median": 0, "p95": 0, "max": 0}
    total = sum(t * c for t, c in hist.items())
    ordered = sorted(hist.items())

    def rank(q: float) -> int:
        target = max(1, math.ceil(q * n))
        seen = 0
        for value, count in ordered:
            seen += count
            if seen >= target:
                return value
        return ordered[-1][0]
    return {"mean": total / n, "median": rank(0.5), "p95": rank(0.95), "max": ordered[-1][0]}


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score 95% confidence interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not make it 5e-17.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def play_one(game: Game, players: int, seed: int, bots: list[str], match: bool = False):
    """Play one game with bots and return the finished state."""
    state = game.new_game(players, seed=seed, match=match)
    rng = state.rng         # one generator per game, seeded once: the deal, then the bots' choices and reshuffles
    if all(b == "random" for b in bots):
        # The hot path: one RNG, integer actions, no per-decision dispatch.
        state.play_out(rng.random)
        return state
    agents = [make_bot(bots[i % len(bots)], rng) for i in range(players)]
    while not state.over:
        state.apply_id(agents[state.current_player].act(state))
    return state


def run_range(game: Game, players: int, seed: int, start: int, stop: int, bots: list[str],
              match: bool = False, on_game=None) -> Stats:
    """Play games start..stop-1 and return their statistics.

    The cycle collector is off while the games are played. The engine and the bots
    make no reference cycles (tests/test_engine.py holds them to it), so reference
    counting frees every game; the collector would only walk the heap, over and
    over, as each game's state outlives a few of its young-generation passes: that
    took up to a fifth of the time of short games (All Wild). It is switched back on
    afterwards, if it was on.
    """
    stats = Stats(players)
    collecting = gc.isenabled()
    gc.disable()
    try:
        for index in range(start, stop):
            state = play_one(game, players, game_seed(seed, index), bots, match)
            stats.add(state)
            if on_game is not None:
                on_game(index, state)
    finally:
        if collecting:
            gc.enable()
    return stats


# --- processes ----------------------------------------------------------------

class _StopRun(Exception):
    """Raised between two games once a stop was requested."""


_worker_game: Game | None = None


def _init_worker(path: str, root: str | None, rulings: dict | None) -> None:
    """Worker start: leave Ctrl-C to the parent (which stops the pool) and load the variant once.

    A forked worker inherits the parent's compiled game and loads nothing.
    """
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _worker_game
    if _worker_game is None:
        from ..check import load
        _worker_game = load(path, root, rulings)


def _work(args) -> Stats:
    players, seed, start, stop, bots, match = args
    return run_range(_worker_game, players, seed, start, stop, bots, match)


def simulate(path: str, games: int, players: int, seed: int, bots: list[str], workers: int = 1,
             match: bool = False, root: str | None = None, rulings: dict | None = None,
             progress=None, game: Game | None = None, stop: list | None = None) -> Stats:
    """Simulate `games` bot games of the variant at `path` and return their statistics.

    `progress(done)` is called as games finish. A run stops between two games when
    `stop` (a list a signal handler appends to) becomes non-empty, or on
    KeyboardInterrupt; the statistics then cover the finished games and
    `interrupted` is set.
    """
    stop = stop if stop is not None else []
    if workers <= 1 or games == 1:
        if game is None:
            from ..check import load
            game = load(path, root, rulings)
        total = _serial(game, games, players, seed, bots, match, progress, stop)
    else:
        total = _parallel(path, root, rulings, games, players, seed, bots, workers, match, progress, stop, game)
    total.interrupted = bool(stop)
    return total


def _serial(game, games, players, seed, bots, match, progress, stop: list) -> Stats:
    total = Stats(players)

    def on_game(index, state):
        total.add(state)
        if progress:
            progress(total.games)
        if stop:
            raise _StopRun()

    try:
        if not stop:
            run_range(game, players, seed, 0, games, bots, match, on_game=on_game)
    except (_StopRun, KeyboardInterrupt):
        stop.append("interrupted")
    return total


def _chunks(games: int, workers: int, largest: int = 100):
    """Game ranges for the pool: up to `largest` games, shrinking towards the end.

    Chunks big enough that passing results back costs little next to playing them,
    small enough that a Ctrl-C or the progress bar is never long in coming; the last
    ones small, so that the workers run out of games at about the same time.
    """
    start = 0
    while start < games:
        size = max(1, min(largest, (games - start) // (workers * 4)))
        yield start, min(games, start + size)
        start += size


def _parallel(path, root, rulings, games, players, seed, bots, workers, match, progress, stop: list,
              game: Game | None = None) -> Stats:
    """Small chunks over a process pool; once stopped, the workers end at once."""
    import multiprocessing
    global _worker_game
    total = Stats(players)
    ranges = list(_chunks(games, workers))
    jobs = ((players, seed, first, last, bots, match) for first, last in ranges)
    remaining = len(ranges)
    pool = None
    try:
        if stop:
            return total
        # Forked workers start with the parent's memory: hand them the game compiled already.
        _worker_game = game if multiprocessing.get_start_method() == "fork" else None
        pool = multiprocessing.Pool(workers, initializer=_init_worker, initargs=(path, root, rulings))
        results = pool.imap_unordered(_work, jobs)
        while remaining and not stop:
            try:
                part = results.next(timeout=0.1)
            except multiprocessing.TimeoutError:
                continue
            total.merge(part)       # sums and histograms: the order chunks finish in does not matter
            remaining -= 1
            if progress:
                progress(total.games)
    except KeyboardInterrupt:
        stop.append("interrupted")
    finally:
        if pool is not None:
            if stop:
                pool.terminate()
            else:
                pool.close()
            pool.join()
        _worker_game = None
    return total

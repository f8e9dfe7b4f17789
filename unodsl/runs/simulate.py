"""Bot simulations with streaming statistics: constant memory, identical results for any worker count.

Game i of a run with seed S is seeded from (S, i) alone, and statistics are sums
and histograms, so splitting the games over processes cannot change the result.
"""

from __future__ import annotations

import gc
from collections import Counter
from dataclasses import dataclass, field

from ..agents.seats import game_over, wants_events
from ..engine import Game
from .intervals import percentiles, wilson
from .metrics import Report, measure_game
from .pool import chunks, ignore_sigint, run_pool
from .seeds import game_seed, seat_bots
from .studies import NO_STUDIES, Plan


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
    report: Report | None = None                       # the designer's figures, when asked for (metrics.py)
    rows: list = field(default_factory=list)           # with keep_rows: (game, its values) of every game

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
        if other.report is not None:
            if self.report is None:
                self.report = Report(other.report.players, other.report.teams)
            self.report.merge(other.report)

    def summary(self) -> dict:
        """The figures a user reads: turns, win rates with 95% intervals, points, reshuffles, stalls."""
        n = self.games
        turns = percentiles(self.turns, n)
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
            **({"report": self.report.summary()} if self.report is not None else {}),
        }


def play_one(game: Game, players: int, seed: int, bots: list[str], match: bool = False):
    """Play one game with bots and return the finished state (the bots' generators: seeds.seat_bots)."""
    state = game.new_game(players, seed=seed, match=match, record=wants_events(bots))
    if all(b == "random" for b in bots):
        # The hot path: the engine's own generator, integer actions, no per-decision dispatch.
        state.play_out(state.rng.random)
        return state
    agents = seat_bots(state, bots)
    while not state.over:
        state.apply_id(agents[state.current_player].act(state))
    game_over(agents, state)
    return state


def teams_of(game: Game, players: int) -> int:
    """The number of teams at a table of `players` (1: every player for themselves)."""
    size = game.variant.team_size
    return players // size if size > 1 else 1


def run_range(game: Game, players: int, seed: int, start: int, stop: int, bots: list[str],
              match: bool = False, on_game=None, measure: bool = False, into: Stats | None = None,
              plan: Plan = NO_STUDIES, keep_rows: bool = False) -> Stats:
    """Play games start..stop-1 and return their statistics.

    The cycle collector is off while the games are played. The engine and the bots
    make no reference cycles (tests/test_engine.py holds them to it), so reference
    counting frees every game; the collector would only walk the heap, over and
    over, as each game's state outlives a few of its young-generation passes: that
    took up to a fifth of the time of short games (All Wild). It is switched back on
    afterwards, if it was on.

    With `measure`, every game is played decision by decision and its figures go to
    `stats.report` (the same games: the bots draw from the same generators). `into`: the
    Stats to add to (each game is in it before `on_game` is called). `plan`: the studies (studies.py) that
    games below `plan.games` also play, with `measure`; `keep_rows`: keep every measured game's values in
    `stats.rows` (the --save table).
    """
    stats = into if into is not None else Stats(players)
    if measure and stats.report is None:
        stats.report = Report(players, teams_of(game, players), ladder=plan.ladder if plan.games else ())
    restrictions = plan.restrictions(game) if measure and plan.games else ()
    collecting = gc.isenabled()
    gc.disable()
    try:
        for index in range(start, stop):
            if measure:
                state, figures, values, study = measure_game(game, players, seed, index, bots, match, plan,
                                                             restrictions)
                stats.report.add(figures, state, values, study)
                if keep_rows:
                    stats.rows.append((index, values, study and study[1]))
            else:
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


def _init_worker(path: str, root: str | None, rulings: dict | None, texts: dict | None = None) -> None:
    """Worker start: leave Ctrl-C to the parent and load the variant once.

    A forked worker inherits the parent's compiled game and loads nothing.
    """
    ignore_sigint()
    global _worker_game
    if _worker_game is None:
        from ..check import load
        _worker_game = load(path, root, rulings, texts=texts)


def _work(args) -> Stats:
    players, seed, start, stop, bots, match, measure, plan, keep_rows = args
    return run_range(_worker_game, players, seed, start, stop, bots, match, measure=measure, plan=plan,
                     keep_rows=keep_rows)


def simulate(path: str, games: int, players: int, seed: int, bots: list[str], workers: int = 1,
             match: bool = False, root: str | None = None, rulings: dict | None = None,
             progress=None, game: Game | None = None, stop: list | None = None, measure: bool = False,
             texts: dict | None = None, plan: Plan = NO_STUDIES, on_rows=None) -> Stats:
    """Simulate `games` bot games of the variant at `path` and return their statistics.

    `progress(done)` is called as games finish. A run stops between two games when
    `stop` (a list a signal handler appends to) becomes non-empty, or on
    KeyboardInterrupt; the statistics then cover the finished games and
    `interrupted` is set. With `measure`, `report` holds the designer's figures (metrics.py), and those of
    the studies `plan` names (studies.py); `on_rows(rows)` is called, in this process, with every measured
    game's values (Stats.rows) as chunks of games finish, and the result keeps none of them.
    Any worker count gives the same statistics (and so does ray_backend.run_on_ray).
    `texts`: unsaved files (see check_file).
    """
    stop = stop if stop is not None else []
    if workers <= 1 or games == 1:
        if game is None:
            from ..check import load
            game = load(path, root, rulings, texts=texts)
        total = _serial(game, games, players, seed, bots, match, progress, stop, measure, plan, on_rows)
    else:
        total = _parallel(path, root, rulings, games, players, seed, bots, workers, match, progress, stop, game,
                          measure, texts, plan, on_rows)
    total.interrupted = bool(stop)
    return total


def _serial(game, games, players, seed, bots, match, progress, stop: list, measure: bool = False,
            plan: Plan = NO_STUDIES, on_rows=None) -> Stats:
    total = Stats(players)

    def on_game(index, state):
        if progress:
            progress(total.games)
        if stop:
            raise _StopRun()

    try:
        # With on_rows, in chunks: each chunk's rows are handed on and dropped, so memory stays flat.
        for first, last in chunks(games, 1) if on_rows is not None else [(0, games)]:
            if stop:
                break
            try:
                run_range(game, players, seed, first, last, bots, match, on_game=on_game, measure=measure,
                          into=total, plan=plan, keep_rows=on_rows is not None)
            finally:
                if on_rows is not None:
                    on_rows(total.rows)
                    total.rows = []
    except (_StopRun, KeyboardInterrupt):
        stop.append("interrupted")
    return total


def _parallel(path, root, rulings, games, players, seed, bots, workers, match, progress, stop: list,
              game: Game | None = None, measure: bool = False, texts: dict | None = None,
              plan: Plan = NO_STUDIES, on_rows=None) -> Stats:
    """Small chunks over a process pool (pool.py); once stopped, the workers end at once."""
    import multiprocessing
    global _worker_game
    total = Stats(players)
    keep = on_rows is not None
    jobs = [(players, seed, first, last, bots, match, measure, plan, keep) for first, last in chunks(games, workers)]

    def fold(part: Stats) -> None:
        if keep:
            on_rows(part.rows)
            part.rows = []
        total.merge(part)
    try:
        # Forked workers start with the parent's memory: hand them the game compiled already.
        _worker_game = game if multiprocessing.get_start_method() == "fork" else None
        run_pool(_work, jobs, workers, _init_worker, (path, root, rulings, texts), fold,
                 (lambda: progress(total.games)) if progress else None, stop)
    finally:
        _worker_game = None
    return total

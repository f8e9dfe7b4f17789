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
from collections import Counter
from dataclasses import dataclass, field

from .metrics import FIGURES, Moments, dynamic_figure, measure_game
from .pool import chunks, ignore_sigint, run_pool
from .studies import NO_STUDIES, Plan, check_restriction, fit_ladder, luck_value

Z95 = 1.959963984540054
LUCK_SCALE = 10**9
# The order of the rows: the fixed figures, then those made per seat, position, card type and study.
_ORDER = ("seat_won:", "position_won:", "plays:", "skill:", "restricted:", "luck")


def _absent(name: str):
    """A side's value of a figure it does not have: a card type it has not is played 0 times, and forbidding it
    changes nothing (restricted play 0); anything else is unknown."""
    return 0 if name.startswith(("plays:", "restricted:")) else None


def row_order(name: str) -> tuple:
    """The sort key of a figure's row: the fixed figures in FIGURES' order, then the dynamic ones by group."""
    fixed = [f.name for f in FIGURES]
    if name in fixed:
        return (0, fixed.index(name), "")
    group = next(i for i, prefix in enumerate(_ORDER) if name.startswith(prefix))
    what = name.partition(":")[2]
    return (1 + group, int(what) if what.isdigit() else 0, what)


def _moments(name: str) -> Moments:
    return Moments(scale=dynamic_figure(name).scale)


@dataclass
class Comparison:
    """Running sums of both sides and of their game-by-game differences, for every per-game figure."""

    a: dict = field(default_factory=dict)
    b: dict = field(default_factory=dict)
    diff: dict = field(default_factory=dict)
    games: int = 0
    luck: Counter = field(default_factory=Counter)     # (seating, sides, winner side in A, in B) -> games
    ladder: tuple = ()
    rows: list = field(default_factory=list)           # with keep_rows: (game, values A, values B, luck A, luck B)

    def add(self, values_a: dict, values_b: dict, luck_a: tuple | None = None, luck_b: tuple | None = None) -> None:
        """Fold in game i of both sides: every figure's value by name (metrics.game_values and the studies')."""
        self.games += 1
        for name in (*values_a, *(n for n in values_b if n not in values_a)):
            x, y = values_a.get(name, _absent(name)), values_b.get(name, _absent(name))
            if name not in self.diff:
                self.a[name], self.b[name], self.diff[name] = _moments(name), _moments(name), _moments(name)
            if x is not None:
                self.a[name].add(x)
            if y is not None:
                self.b[name].add(y)
            if x is not None and y is not None:
                self.diff[name].add(x - y)
        if luck_a is not None and luck_b is not None:
            self.luck[(*luck_a, luck_b[2])] += 1

    def merge(self, other: "Comparison") -> None:
        self.games += other.games
        self.ladder = self.ladder or other.ladder
        for side, theirs in ((self.a, other.a), (self.b, other.b), (self.diff, other.diff)):
            for name, moments in theirs.items():
                side.setdefault(name, Moments(scale=moments.scale)).merge(moments)
        self.luck.update(other.luck)

    def summary(self) -> list[dict]:
        """For every figure: both means, the difference A - B, its paired and unpaired 95% intervals."""
        rows = []
        sides = {name: (self.a[name], self.b[name], self.diff[name]) for name in self.diff}
        if self.luck:
            sides["luck"] = self._luck()
        for name in sorted(sides, key=row_order):
            a, b, d = sides[name]
            figure = dynamic_figure(name)
            paired = Z95 * d.sd / math.sqrt(d.n) if d.n else 0.0
            unpaired = (Z95 * math.sqrt(a.sd ** 2 / a.n + b.sd ** 2 / b.n)) if a.n and b.n else 0.0
            rows.append({
                "figure": name, "words": figure.words, "unit": figure.unit,
                "a": a.mean, "b": b.mean, "difference": d.mean,
                "ci95": [d.mean - paired, d.mean + paired], "paired_games": d.n,
                "unpaired_ci95": [a.mean - b.mean - unpaired, a.mean - b.mean + unpaired],
                # Games an unpaired comparison needs for the paired interval's width: (unpaired / paired)^2.
                "games_saved": (unpaired / paired) ** 2 if paired > 1e-9 else None,
                "significant": d.n > 1 and (d.mean - paired > 0 or d.mean + paired < 0),
            })
        return rows

    def _luck(self) -> tuple:
        """Luck against skill on both sides: each side's ladder fitted to its own games, then each game's share
        of the outcome explained (studies.luck_value), differenced game by game."""
        fits = []
        for side in (2, 3):
            records = Counter()
            for key, games in self.luck.items():
                records[(key[0], key[1], key[side])] += games
            fits.append(fit_ladder(records, self.ladder)["theta"])
        a, b, d = Moments(scale=LUCK_SCALE), Moments(scale=LUCK_SCALE), Moments(scale=LUCK_SCALE)
        for (seating, sides, win_a, win_b), games in sorted(self.luck.items()):
            x = luck_value(fits[0], (seating, sides, win_a))
            y = luck_value(fits[1], (seating, sides, win_b))
            x = None if x is None else round(x * LUCK_SCALE)
            y = None if y is None else round(y * LUCK_SCALE)
            for moments, value in ((a, x), (b, y), (d, None if x is None or y is None else x - y)):
                if value is not None:
                    moments.add_sums(games, games * value, games * value * value)
        return a, b, d


def compare_games(game_a, game_b, games: int, players: int, seed: int, bots: list[str],
                  match: bool = False, start: int = 0, progress=None, stop: list | None = None,
                  plan: Plan = NO_STUDIES, keep_rows: bool = False) -> Comparison:
    """Play games start..start+games-1 of both Games on the same seeds (and the studies of those below
    plan.games) and return the comparison; with `keep_rows`, every game's values too (`rows`)."""
    result = Comparison(ladder=plan.ladder if plan.games else ())
    restrictions = (plan.restrictions(game_a), plan.restrictions(game_b)) if plan.games else ((), ())
    if plan.games and plan.restrict is None:
        # Every restriction either side offers, on both: one that means nothing on a side changes nothing there.
        common = tuple(dict.fromkeys((*restrictions[0], *restrictions[1])))
        restrictions = tuple(tuple(r for r in common if check_restriction(g, r) is None) for g in (game_a, game_b))
    for index in range(start, start + games):
        if stop:
            break
        _, _, values_a, study_a = measure_game(game_a, players, seed, index, bots, match, plan, restrictions[0])
        _, _, values_b, study_b = measure_game(game_b, players, seed, index, bots, match, plan, restrictions[1])
        luck_a, luck_b = study_a and study_a[1], study_b and study_b[1]
        result.add(values_a, values_b, luck_a, luck_b)
        if keep_rows:
            result.rows.append((index, values_a, values_b, luck_a, luck_b))
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
    players, seed, start, stop, bots, match, plan, keep_rows = job
    game_a, game_b = _worker_games
    return compare_games(game_a, game_b, stop - start, players, seed, bots, match, start, plan=plan,
                         keep_rows=keep_rows)


def compare(sides: tuple, games: int, players: int, seed: int, bots: list[str], workers: int = 1,
            match: bool = False, progress=None, stop: list | None = None, loaded: tuple | None = None,
            plan: Plan = NO_STUDIES, on_rows=None) -> Comparison:
    """Compare the two `sides` ((path, root, rulings, texts) each) on `games` shared seeds, on `workers` processes.

    `loaded`: both Games compiled already (one process uses them; forked workers inherit them).
    `on_rows(rows)`: called with each chunk's games (Comparison.rows), as they finish, in this process; the
    result keeps none of them. Any worker count gives the same comparison.
    """
    import multiprocessing
    global _worker_games
    if loaded is None:
        from ..check import load
        loaded = tuple(load(path, root, rulings, texts=texts) for path, root, rulings, texts in sides)
    total = Comparison(ladder=plan.ladder if plan.games else ())
    keep = on_rows is not None

    def fold(part: Comparison) -> None:
        if keep:
            on_rows(part.rows)
            part.rows = []
        total.merge(part)
    if workers <= 1 or games == 1:
        stop = stop if stop is not None else []
        for first, last in chunks(games, 1) if keep else [(0, games)]:
            done = total.games
            fold(compare_games(*loaded, last - first, players, seed, bots, match, first,
                               (lambda n: progress(done + n)) if progress else None, stop, plan, keep))
            if stop:
                break
        return total
    jobs = [(players, seed, first, last, bots, match, plan, keep) for first, last in chunks(games, workers)]
    try:
        _worker_games = loaded if multiprocessing.get_start_method() == "fork" else None
        run_pool(_work, jobs, workers, _init_worker, (sides,), fold,
                 (lambda: progress(total.games)) if progress else None, stop)
    finally:
        _worker_games = None
    return total

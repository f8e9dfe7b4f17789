"""Ratings from game records: the Bradley-Terry model (Plackett-Luce's top-1 form for tables of more than two)
fitted by choix, on an Elo scale pinned at an anchor, with 95% intervals by the bootstrap over deals.

A game is one observation: its winner chose among the entrants at the table (`choix.ilsr_top1`, the
maximum-likelihood estimate by iterative Luce spectral ranking, its chain's rates started at a small
`alpha` so that an entrant that never won or never lost still has a finite rating; 50 times faster here
than the scipy fit, and equal to it where every entrant both won and lost). Strengths are turned into points as Elo does (400 points: ten to one odds) and shifted so
that the anchor (by default `heuristic`) is at its rating exactly. The intervals come from refitting on
deals drawn with replacement: every game of a deal (all its tables and rotations) is kept together, so the
pairing of the deals is kept in the intervals. Games without a winner (the turn limit) are left out.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass

SCALE = 400 / math.log(10)              # Elo points per unit of Bradley-Terry strength
PRIOR = 0.01                            # I-LSR's regularising rate (alpha)
DEFAULT_ANCHOR = ("heuristic", 1000.0)


@dataclass
class Rating:
    """One entrant's line of the table."""

    name: str
    rating: float
    low: float
    high: float
    games: int
    wins: int
    anchor: bool = False

    def as_dict(self) -> dict:
        return {"name": self.name, "rating": round(self.rating, 1), "ci95": [round(self.low, 1), round(self.high, 1)],
                "games": self.games, "wins": self.wins, "anchor": self.anchor}


def _observations(records: list[dict], index: dict[str, int]) -> list[tuple[int, tuple[int, ...]]]:
    out = []
    for r in records:
        if r["winner"] is None:
            continue
        seats = r["seats"]
        winner = seats[r["winner"]]
        out.append((index[winner], tuple(index[s] for q, s in enumerate(seats) if q != r["winner"])))
    return out


def _fit(n: int, data: list, anchor: int, anchor_rating: float) -> list[float]:
    import choix
    import numpy as np
    if not data:
        return [anchor_rating] * n
    params = choix.ilsr_top1(n, data, alpha=PRIOR)
    params = np.asarray(params) - params[anchor]
    return [anchor_rating + SCALE * float(p) for p in params]


def rate(records: list[dict], names: list[str], *, anchor: tuple[str, float] = DEFAULT_ANCHOR,
         bootstrap: int = 200, seed: int = 0) -> list[Rating]:
    """Every entrant of `names` rated from `records` (ladder results), best first, with 95% intervals."""
    if anchor[0] not in names:
        raise ValueError(f"the anchor '{anchor[0]}' is not an entrant (entrants: {', '.join(names)})")
    index = {name: i for i, name in enumerate(names)}
    records = [r for r in records if all(s in index for s in r["seats"])]
    a = index[anchor[0]]
    point = _fit(len(names), _observations(records, index), a, anchor[1])
    by_deal: dict[int, list[dict]] = defaultdict(list)
    for r in records:
        by_deal[r["deal"]].append(r)
    deals = sorted(by_deal)
    draws: list[list[float]] = []
    rng = random.Random(seed)
    for _ in range(bootstrap if len(deals) > 1 else 0):
        sample = [r for _ in deals for r in by_deal[deals[rng.randrange(len(deals))]]]
        draws.append(_fit(len(names), _observations(sample, index), a, anchor[1]))
    games = defaultdict(int)
    wins = defaultdict(int)
    for r in records:
        for q, s in enumerate(r["seats"]):
            games[s] += 1
            wins[s] += r["winner"] == q
    out = []
    for i, name in enumerate(names):
        if draws:
            column = sorted(d[i] for d in draws)
            low, high = _quantile(column, 0.025), _quantile(column, 0.975)
        else:
            low = high = point[i]
        out.append(Rating(name, point[i], low, high, games[name], wins[name], name == anchor[0]))
    return sorted(out, key=lambda r: -r.rating)


def _quantile(ordered: list[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    below = int(math.floor(position))
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def pair_table(records: list[dict]) -> list[dict]:
    """At tables of two: each pair's games and the first's wins, for the table under the ratings."""
    pairs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        if len(r["seats"]) != 2:
            continue
        first, second = r["table"]
        pairs[(first, second)][0] += 1
        if r["winner"] is not None and r["seats"][r["winner"]] == first:
            pairs[(first, second)][1] += 1
    return [{"first": a, "second": b, "games": n, "first_wins": w} for (a, b), (n, w) in pairs.items()]


def format_table(ratings: list[Rating], *, games: int, no_winner: int) -> list[str]:
    """The ladder as a text table: rank, entrant, rating, 95% interval, games, wins."""
    rows = [("rank", "entrant", "rating", "95% interval", "games", "wins", "win rate")]
    for rank, r in enumerate(ratings, start=1):
        rows.append((str(rank), r.name + (" (anchor)" if r.anchor else ""), f"{r.rating:.0f}",
                     f"[{r.low:.0f}, {r.high:.0f}]", str(r.games), str(r.wins),
                     f"{r.wins / r.games:.1%}" if r.games else "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) if i in (1, 3) else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
             .rstrip() for row in rows]
    lines.append(f"{games} games" + (f", {no_winner} without a winner (left out)" if no_winner else ""))
    return lines


def plot(ratings: list[Rating], path: str, title: str) -> None:
    """The ratings as points with their 95% intervals, best at the top, anchors apart in color; a PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    shown = list(reversed(ratings))
    fig, ax = plt.subplots(figsize=(7.5, 0.55 * len(shown) + 1.6), dpi=120)
    for y, r in enumerate(shown):
        builtin = r.name.split(":")[0] in _builtin_names()
        color = "#4c72b0" if builtin else "#dd8452"
        ax.errorbar(r.rating, y, xerr=[[r.rating - r.low], [r.high - r.rating]], fmt="o", color=color,
                    capsize=4, markersize=6)
        ax.annotate(f"{r.rating:.0f}", (r.rating, y), textcoords="offset points", xytext=(0, 7),
                    ha="center", fontsize=8)
    ax.set_yticks(range(len(shown)), [r.name + (" (anchor)" if r.anchor else "") for r in shown])
    ax.set_xlabel("rating (Elo scale; 95% bootstrap interval over deals; blue: built-in bots)")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax.set_ylim(-0.7, len(shown) - 0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _builtin_names() -> set[str]:
    from ..agents.bots import BOTS
    return set(BOTS)

"""Perfect-information Monte Carlo: try every legal action in K sampled worlds, keep the best."""

from __future__ import annotations

import math
import random

from .rollout import roll_out
from .search import SearchBot, non_negative, policy, positive_int


class PimcBot(SearchBot):
    """Determinized Monte Carlo (PIMC): K worlds are dealt; in each, every legal action is applied to
    a copy and rolled out. The best mean is played if it beats the heuristic bot's choice by more
    than `guard` standard errors of their paired difference; else the heuristic's choice.

    Every action meets the same K worlds and, in each, the same rollout draws (common random
    numbers), so the comparison is between actions, not between lucky deals. The guard is
    there because a rollout's result is mostly luck: with 30 worlds the means of four actions
    differ by noise more than by play, and the bare best mean plays close to at random
    (measured in docs/bots.md). Cost: K times the number of legal actions rollouts per decision.
    """

    name = "pimc"
    OPTIONS = {"worlds": positive_int, "rollout": policy, "guard": non_negative}

    def __init__(self, rng, worlds: int = 30, rollout: str = "heuristic", guard: float = 1.64):
        super().__init__(rng, rollout)
        self.worlds = worlds
        self.guard = guard

    def search(self, view, sampler) -> int:
        legal, seat, rng = view.legal, view.seat, self.rng
        results = [[] for _ in legal]
        for _ in range(self.worlds):
            world = sampler.sample(rng)
            draws = rng.getrandbits(64)
            for i, action in enumerate(legal):
                trial = world.clone()
                trial.apply_id(action)
                results[i].append(roll_out(trial, self.rollout, random.Random(draws).random)[seat])
        self.rollouts += self.worlds * len(legal)
        best = max(range(len(legal)), key=lambda i: sum(results[i]))
        if not self.guard:
            return legal[best]
        default = legal.index(self.fallback(view))
        return legal[best] if significant(results[best], results[default], self.guard) else legal[default]


def significant(better: list[float], base: list[float], z: float) -> bool:
    """Whether `better` beats `base`, paired sample by sample, by more than z standard errors."""
    n = len(better)
    diffs = [a - b for a, b in zip(better, base)]
    mean = sum(diffs) / n
    if mean <= 0 or n < 2:
        return False
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return var == 0 or mean > z * math.sqrt(var / n)

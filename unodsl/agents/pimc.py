"""Perfect-information Monte Carlo: try every legal action in K sampled worlds, keep the best mean."""

from __future__ import annotations

import random

from .rollout import roll_out
from .search import SearchBot, policy, positive_int


class PimcBot(SearchBot):
    """Determinized Monte Carlo (PIMC): K worlds are dealt; in each, every legal action is applied to
    a copy and rolled out; the action with the highest total reward is played (ties: the first).

    Every action meets the same K worlds and, in each, the same rollout draws (common random
    numbers), so the comparison is between actions, not between lucky deals. The cost is
    K times the number of legal actions rollouts per decision.
    """

    name = "pimc"
    OPTIONS = {"worlds": positive_int, "rollout": policy}

    def __init__(self, rng, worlds: int = 30, rollout: str = "greedy"):
        super().__init__(rng, rollout)
        self.worlds = worlds

    def search(self, view, sampler) -> int:
        legal, seat, rng = view.legal, view.seat, self.rng
        totals = [0.0] * len(legal)
        for _ in range(self.worlds):
            world = sampler.sample(rng)
            draws = rng.getrandbits(64)
            for i, action in enumerate(legal):
                trial = world.clone()
                trial.apply_id(action)
                totals[i] += roll_out(trial, self.rollout, random.Random(draws).random)[seat]
        self.rollouts += self.worlds * len(legal)
        return legal[max(range(len(legal)), key=totals.__getitem__)]


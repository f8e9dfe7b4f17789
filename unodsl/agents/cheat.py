"""The cheat: an analytics upper bound that sees every card. Never a player to sit down with."""

from __future__ import annotations

import random

from .rollout import roll_out
from .search import policy, positive_int
from .view import Bot


class CheatBot(Bot):
    """PIMC on the real state: every legal action is rolled out K times from the true hands and
    draw pile (the engine's generator reseeded for each rollout).

    It reads what no player may see, so it is only a yardstick: how much a bot could gain
    from perfect information. It is never a default, and tests/test_agents.py shows the
    leak test catching it.
    """

    name = "cheat"
    OPTIONS = {"worlds": positive_int, "rollout": policy}

    def __init__(self, rng, worlds: int = 30, rollout: str = "heuristic"):
        super().__init__(rng)
        self.worlds = worlds
        self.rollout = rollout
        self.rollouts = 0

    def act(self, state) -> int:
        """Return the id of the action to take, from the whole state."""
        legal = state.legal_action_ids()
        if len(legal) == 1:
            return legal[0]
        seat, rng = state.current_player, self.rng
        totals = [0.0] * len(legal)
        for _ in range(self.worlds):
            engine_seed, draws = rng.getrandbits(64), rng.getrandbits(64)
            for i, action in enumerate(legal):
                trial = state.clone()
                trial.rng = random.Random(engine_seed)
                trial.log = trial.events = None      # a search trial records nothing
                trial.apply_id(action)
                totals[i] += roll_out(trial, self.rollout, random.Random(draws).random)[seat]
        self.rollouts += self.worlds * len(legal)
        return legal[max(range(len(legal)), key=totals.__getitem__)]

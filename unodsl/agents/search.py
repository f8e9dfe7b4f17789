"""What the search bots share: knowledge kept per seat, a world sampler per decision, options."""

from __future__ import annotations

from ..effects import layout as D
from .rollout import POLICIES
from .simple import HeuristicBot
from .view import Bot, SeatView
from .worlds import Knowledge, WorldSampler


def positive_int(text: str) -> int:
    """An option that counts something: a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise ValueError("must be at least 1")
    return value


def non_negative(text: str) -> float:
    """An option that weighs something: a number of at least 0."""
    value = float(text)
    if not value >= 0:                       # NaN too
        raise ValueError("must be a number of at least 0")
    return value


def policy(text: str) -> str:
    """A rollout policy's name."""
    if text not in POLICIES:
        raise ValueError(f"choose from {', '.join(POLICIES)}")
    return text


class SearchBot(Bot):
    """A bot that rolls out worlds dealt by a `WorldSampler`, never the real state.

    It keeps a `Knowledge` per seat it plays (what it was shown and what it gave), updated at
    each of its decisions with more than one legal action, so one bot may play several seats.
    `rollouts` counts the rollouts played, for the benchmarks.
    """

    def __init__(self, rng, rollout: str = "heuristic"):
        super().__init__(rng)
        self.rollout = rollout
        self.knowledge: dict[int, Knowledge] = {}
        self.rollouts = 0

    def decide(self, view: SeatView) -> int:
        if len(view.legal) == 1:
            return view.legal[0]
        knowledge = self.knowledge.setdefault(view.seat, Knowledge())
        knowledge.update(view)
        action = self.search(view, WorldSampler(view, knowledge))
        pending = view.public["pending"]
        if view.decision == D.GIVE and pending[3] >= 0:          # a gift to a seat: it now holds the card
            knowledge.gave(pending[3], action - view.game.A_GIVE)
        return action

    def fallback(self, view: SeatView) -> int:
        """The heuristic bot's choice: what a search plays unless it finds better with confidence."""
        return HeuristicBot(self.rng).decide(view)

    def search(self, view: SeatView, sampler: WorldSampler) -> int:
        """Return one of `view.legal`, chosen by rolling out worlds from `sampler`."""
        raise NotImplementedError

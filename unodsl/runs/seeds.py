"""Where every random draw of a run comes from: game i from (seed, i), each bot from (seed, i, seat).

A bot with a generator of its own draws the same numbers whatever the engine draws (a
reshuffle, a random effect) and whatever the other seats' bots draw, so changing one seat's
bot, or a rule that shuffles more often, leaves the other bots' streams as they were.
"""

from __future__ import annotations

import random

from ..agents.bots import make_bot


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded with `seed`."""
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9) % (2**63)


class SeatRandom:
    """A `random.Random(seed)` made the first time it is used: the draws are that generator's.

    Seeding a Mersenne Twister costs about as much as a tenth of a heuristic game of Classic,
    and the heuristic bot never draws: four generators a game made up front slowed plain
    simulation by 7%. Each method is looked up on the real generator once, then found on this
    object as an attribute.
    """

    def __init__(self, seed: int):
        self._seed = seed

    def __getattr__(self, name: str):              # a name not looked up yet: the real generator's
        rng = self.__dict__.get("_rng")
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        value = getattr(rng, name)
        if callable(value):
            setattr(self, name, value)              # a bound method of the generator: the same each time
        return value


def seat_rng(engine_seed: int, seat: int) -> SeatRandom:
    """The generator of the bot in `seat` of the game whose engine is seeded `engine_seed`."""
    return SeatRandom(game_seed(engine_seed, seat))


def seat_bots(state, bots: list[str]) -> list:
    """The bots of a new game, `bots` seated in turn, each with its own generator (`seat_rng`).

    When every seat is `random`, they all draw from the engine's own generator instead: that is
    the game `State.play_out` plays, the fast path of plain simulation, so a measured run plays
    the same games as a plain one.
    """
    if all(b == "random" for b in bots):
        return [make_bot("random", state.rng) for _ in range(state.n)]
    return [make_bot(bots[seat % len(bots)], seat_rng(state.seed, seat)) for seat in range(state.n)]

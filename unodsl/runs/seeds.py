"""Where every random draw of a run comes from: game i from (seed, i), each seat from (game's seed, seat).

A bot with a generator of its own draws the same numbers whatever the engine draws (a
reshuffle, a random effect) and whatever the other seats' bots draw, so changing one seat's
bot, or a rule that shuffles more often, leaves the other bots' streams as they were. The
seeding lives with the seats (agents/seats.py), so that every front end seeds a seat alike.
"""

from __future__ import annotations

from ..agents.seats import SeatRandom, game_seed, seat_all, seat_rng

__all__ = ["SeatRandom", "game_seed", "seat_bots", "seat_rng"]


def seat_bots(state, bots: list[str]) -> list:
    """The seats of a new game, `bots` (seat specs) seated in turn, each with its own generator (`seat_rng`).

    When every seat is `random`, they all draw from the engine's own generator instead: that is
    the game `State.play_out` plays, the fast path of plain simulation, so a measured run plays
    the same games as a plain one.
    """
    return seat_all(state, bots)

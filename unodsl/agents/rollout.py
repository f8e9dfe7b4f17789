"""Rollouts: play a world to its end with a default policy, and what the end is worth to each seat.

Three policies. `heuristic`, the default, lets the heuristic bot play every seat: it is
deterministic, so two actions tried in the same world differ only by what the action
changed, and the search compares them with little noise; it is also the likeliest model of
an opponent that plays sensibly. `random` is `State.play_out`: uniform over the legal
actions, the engine's fastest loop. `greedy` plays a card whenever it may (uniformly among
the plays) and is uniform at every other decision. Uniform players draw when they could
play, so a uniform game of classic lasts about 1,300 decisions at 2 players, a greedy one
about 85: greedy rollouts are 7x cheaper there than uniform ones.
"""

from __future__ import annotations

from ..engine.observation import hand_sizes
from .simple import HeuristicBot

POLICIES = ("greedy", "random", "heuristic")

# A rollout that reaches this many decisions stops and is scored by hand sizes (a Teams game
# of uniform players can run to many thousands).
MAX_DECISIONS = 3000


def rewards(state, n: int, start_scores: list | None = None) -> list[float]:
    """What the end of a rollout is worth to each seat, from 0 to 1.

    A finished game: 1 to each seat of the winner's team, 0 to the others. A match rollout
    stops at the end of its round (`start_scores` the scores it began with) and gives each
    seat its team's share of the points the round scored. A rollout cut short gives the
    seats with the fewest cards an equal share.
    """
    if start_scores is not None:
        gained = [now - then for now, then in zip(state.scores, start_scores)]
        total = sum(gained)
        if total > 0:
            return [sum(gained[q] for q in range(n) if state.same_team(p, q)) / total for p in range(n)]
    if state.over:
        w = state.winner
        return [0.0] * n if w is None else [1.0 if state.same_team(p, w) else 0.0 for p in range(n)]
    sizes = hand_sizes(state)
    low = min(sizes)
    leaders = [p for p in range(n) if sizes[p] == low]
    return [sum(1.0 for q in leaders if state.same_team(p, q)) / len(leaders) for p in range(n)]


def roll_out(world, policy: str, rand) -> list[float]:
    """Play `world` on with `policy`, drawing from `rand`, and return each seat's reward."""
    if policy == "heuristic":
        return _heuristic_roll_out(world, rand)
    n = world.n
    match = world.match
    if policy == "random" and not match:
        world.play_out(rand)
        return rewards(world, n)
    start = list(world.scores) if match else None
    first_round = world.round
    plays = 2 * world.g.num_kinds          # action ids below this play a card (with or without UNO)
    greedy = policy == "greedy"
    for _ in range(MAX_DECISIONS):
        if world.over or world.round != first_round:
            break
        legal = world.legal_action_ids()
        if greedy and len(legal) > 1 and legal[0] < plays:
            cards = [a for a in legal if a < plays]
            world.apply_id(cards[int(rand() * len(cards))])
        else:
            world.apply_id(legal[int(rand() * len(legal))])
    return rewards(world, n, start)


class _Draws:
    """A `random.Random` stand-in for the heuristic bot inside a rollout: its `random` is `rand`."""

    __slots__ = ("random",)

    def __init__(self, rand):
        self.random = rand


def _heuristic_roll_out(world, rand) -> list[float]:
    bot = HeuristicBot(_Draws(rand))
    start = list(world.scores) if world.match else None
    first_round = world.round
    for _ in range(MAX_DECISIONS):
        if world.over or world.round != first_round:
            break
        world.apply_id(bot.act(world))
    return rewards(world, world.n, start)

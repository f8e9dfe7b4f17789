"""Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012)."""

from __future__ import annotations

import math

from .rollout import rewards, roll_out
from .search import SearchBot, non_negative, policy, positive_int


class Node:
    """The actions taken so far from the root (by any seat): visits, reward to the seat that chose it, availability."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self):
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


class IsmctsBot(SearchBot):
    """SO-ISMCTS: one tree over the observer's information set, a fresh world for every iteration.

    Each iteration deals a world, walks the tree along the actions legal in that world (UCB1
    with availability counts: an action's exploration term counts the iterations it was legal
    in, not its parent's visits), adds one node, rolls the rest out, and credits each node with
    the reward of the seat that chose its action. Plays the root action visited most.
    """

    name = "ismcts"
    OPTIONS = {"iterations": positive_int, "c": non_negative, "rollout": policy, "guard": non_negative}

    def __init__(self, rng, iterations: int = 200, c: float = 0.7, rollout: str = "heuristic", guard: float = 1.64):
        super().__init__(rng, rollout)
        self.iterations = iterations
        self.c = c
        self.guard = guard

    def search(self, view, sampler) -> int:
        rng, c, policy_name = self.rng, self.c, self.rollout
        rand = rng.random
        log, sqrt = math.log, math.sqrt
        root = Node()
        for _ in range(self.iterations):
            world = sampler.sample(rng)
            first_round, start = world.round, (list(world.scores) if world.match else None)
            node, path = root, []
            while not world.over and world.round == first_round:
                legal = world.legal_action_ids()
                seat = world.current_player
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    action = untried[int(rand() * len(untried))]
                    children[action] = Node()
                for a in legal:
                    child = children.get(a)
                    if child is not None:
                        child.available += 1
                if not untried:
                    action = max(legal, key=lambda a: _ucb(children[a], c, log, sqrt))
                node = children[action]
                path.append((node, seat))
                world.apply_id(action)
                if untried:
                    break
            if world.over or world.round != first_round:
                reward = rewards(world, world.n, start)
            else:
                reward = roll_out(world, policy_name, rand)
            for node, seat in path:
                node.visits += 1
                node.total += reward[seat]
        self.rollouts += self.iterations
        children = root.children
        best = max(view.legal, key=lambda a: children[a].visits if a in children else -1)
        if not self.guard:
            return best
        default = self.fallback(view)
        if default not in children or best == default:
            return best
        return best if _beats(children[best], children[default], self.guard) else default


def _ucb(node: Node, c: float, log, sqrt) -> float:
    return node.total / node.visits + c * sqrt(log(node.available) / node.visits)


def _beats(node: Node, other: Node, z: float) -> bool:
    """Whether node's mean reward beats other's by more than z standard errors (rewards in 0..1)."""
    a, b = node.total / node.visits, other.total / other.visits
    error = math.sqrt(max(a * (1 - a), 1e-9) / node.visits + max(b * (1 - b), 1e-9) / other.visits)
    return a - b > z * error

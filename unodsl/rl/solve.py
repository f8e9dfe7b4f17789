"""Tiny variants solved exactly: the OpenSpiel game of a variant, its tree copied once, then OpenSpiel's CFR+.

`solve(path)` registers the variant as an OpenSpiel game through `unodsl.rl.openspiel` (chance nodes
for every card dealt and drawn), walks its whole tree once into arrays (`GameTree`), and registers that
copy as an OpenSpiel game of its own (`python_unodsl_tree_*`), whose states are a node number: the
same game, every step a look-up instead of an engine step. OpenSpiel's CFR+ (`cfr.CFRPlusSolver`) and
NashConv (`exploitability.nash_conv`) run on the copy. The built-in bots are read off the same walk: at
every decision each bot is asked what it plays (the expert with its memory of the path, as in a game),
and its choices become a tabular policy whose NashConv says how far it is from an equilibrium.

Only a tiny variant has a tree a machine can hold: `max_nodes` stops the walk with a clear error.
docs/solve.md shows the shipped one (`variants/tiny.yaml`) and its numbers.
"""

from __future__ import annotations

import copy
import random
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import pyspiel

from ..agents.bots import make_bot
from . import openspiel as uno_spiel

CHANCE, TERMINAL = -1, -2


class TooLarge(Exception):
    """The variant's game tree has more nodes than allowed: it is not a tiny variant."""


@dataclass
class GameTree:
    """Every history of a game as a node: who acts, the actions and the children, chance odds, returns."""

    players: int
    player: list = field(default_factory=list)        # node -> the seat to act, CHANCE or TERMINAL
    actions: list = field(default_factory=list)       # node -> legal actions (chance: outcomes)
    children: list = field(default_factory=list)      # node -> child node of each action
    odds: list = field(default_factory=list)          # node -> chance probabilities (chance nodes)
    returns: list = field(default_factory=list)       # node -> returns (terminal nodes)
    info: list = field(default_factory=list)          # node -> the information state string of each seat
    first: list = field(default_factory=list)         # node -> the seat of the path's first decision (-1 before)
    bots: dict = field(default_factory=dict)          # bot name -> {info state: {action: probability}}
    mixed: dict = field(default_factory=dict)         # bot name -> information states it played two ways
    labels: dict = field(default_factory=dict)        # (node, action) -> the action's words

    @property
    def size(self) -> int:
        return len(self.player)

    def information_sets(self) -> int:
        return len({self.info[n][self.player[n]] for n in range(self.size) if self.player[n] >= 0})


def build_tree(game, bots: tuple = ("random", "heuristic", "expert"), max_nodes: int = 2_000_000) -> GameTree:
    """Walk the registered OpenSpiel `game` (unodsl.rl.openspiel) depth first into a GameTree, asking each of
    `bots` what it would play at every decision (a random bot: every legal action alike)."""
    tree = GameTree(game.num_players())
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        root = game.new_initial_state()
        agents = {name: [make_bot(name, random.Random(seat)) for seat in range(tree.players)]
                  for name in bots if name != "random"}
        for name in bots:
            tree.bots[name], tree.mixed[name] = {}, set()
        _walk(tree, root, agents, -1, max_nodes)
    finally:
        sys.setrecursionlimit(limit)
    return tree


def _walk(tree: GameTree, state, agents: dict, first: int, max_nodes: int) -> int:
    node = tree.size
    if node >= max_nodes:
        raise TooLarge(f"the game tree has more than {max_nodes:,} nodes: not a tiny variant")
    tree.player.append(TERMINAL)
    tree.actions.append(())
    tree.children.append(())
    tree.odds.append(())
    tree.returns.append(())
    tree.info.append(())
    tree.first.append(first)
    if state.is_terminal():
        tree.returns[node] = tuple(state.returns())
        return node
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        tree.player[node] = CHANCE
        tree.actions[node] = tuple(a for a, _ in outcomes)
        tree.odds[node] = tuple(p for _, p in outcomes)
        tree.children[node] = tuple(_walk(tree, state.child(a), agents, first, max_nodes) for a, _ in outcomes)
        return node
    seat = state.current_player()
    legal = state.legal_actions()
    tree.player[node] = seat
    tree.actions[node] = tuple(legal)
    tree.info[node] = tuple(state.information_state_string(p) for p in range(tree.players))
    for a in legal:
        tree.labels[(node, a)] = state.action_to_string(seat, a)
    key = tree.info[node][seat]
    chosen = {"random": {a: 1 / len(legal) for a in legal}} if "random" in tree.bots else {}
    after = {}
    table = state.get_game().rules.table
    for name, seats in agents.items():
        mine = [_fork(bot) for bot in seats]                # this path's bots: their memory goes down with it
        engine_action = mine[seat].act(state.state)
        chosen[name] = {table.rl_of[seat][engine_action]: 1.0}
        after[name] = mine
    for name, probabilities in chosen.items():
        known = tree.bots[name].setdefault(key, probabilities)
        if known != probabilities:
            tree.mixed[name].add(key)
    tree.children[node] = tuple(_walk(tree, state.child(a), after or agents, seat if first < 0 else first, max_nodes)
                                for a in legal)
    return node


def _fork(bot):
    """A copy of `bot` whose memory (the expert's beliefs) is its own; the rest (tables, the game) is shared."""
    twin = copy.copy(bot)
    if hasattr(bot, "lacks"):
        twin.lacks = copy.deepcopy(bot.lacks)
    return twin


def register_tree(tree: GameTree, name: str, long_name: str, max_chance: int, distinct_actions: int) -> str:
    """Register `tree` as an OpenSpiel game called `name`; return the name for pyspiel.load_game."""
    depth = _depth(tree)
    game_type = pyspiel.GameType(
        short_name=name, long_name=long_name, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=tree.players, min_num_players=tree.players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=distinct_actions, max_chance_outcomes=max_chance,
                            num_players=tree.players, min_utility=-float(tree.players - 1),
                            max_utility=float(tree.players - 1), utility_sum=0.0, max_game_length=depth)

    class TreeState(pyspiel.State):
        """A node of the tree."""

        def __init__(self, game):
            super().__init__(game)
            self.node = 0

        def current_player(self):
            who = tree.player[self.node]
            return {CHANCE: pyspiel.PlayerId.CHANCE, TERMINAL: pyspiel.PlayerId.TERMINAL}.get(who, who)

        def _legal_actions(self, player):
            return list(tree.actions[self.node])

        def chance_outcomes(self):
            return list(zip(tree.actions[self.node], tree.odds[self.node]))

        def _apply_action(self, action):
            self.node = tree.children[self.node][tree.actions[self.node].index(action)]

        def _action_to_string(self, player, action):
            return tree.labels.get((self.node, action), f"chance {action}")

        def is_terminal(self):
            return tree.player[self.node] == TERMINAL

        def returns(self):
            return list(tree.returns[self.node]) if self.is_terminal() else [0.0] * tree.players

        def information_state_string(self, player=None):
            player = self.current_player() if player is None else player
            return tree.info[self.node][player]

        def __str__(self):
            return f"node {self.node}"

    class TreeGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})

        def new_initial_state(self):
            return TreeState(self)

    pyspiel.register_game(game_type, TreeGame)
    return name


def _depth(tree: GameTree) -> int:
    depth = [0] * tree.size
    for node in range(tree.size - 1, -1, -1):           # children are numbered after their parent
        if tree.children[node]:
            depth[node] = 1 + max(depth[c] for c in tree.children[node])
    return depth[0] if depth else 0


def values(tree: GameTree, policy_of) -> tuple[list[float], float]:
    """The expected returns of every seat when each plays `policy_of(node) -> {action: probability}`, and the
    expected return of the seat that makes the game's first decision."""
    def visit(node: int) -> tuple[np.ndarray, float]:
        who = tree.player[node]
        if who == TERMINAL:
            returns = np.array(tree.returns[node])
            first = tree.first[node]
            return returns, (returns[first] if first >= 0 else 0.0)
        if who == CHANCE:
            probabilities = tree.odds[node]
        else:
            chosen = policy_of(node)
            probabilities = [chosen.get(a, 0.0) for a in tree.actions[node]]
        total, first_total = np.zeros(tree.players), 0.0
        for p, child in zip(probabilities, tree.children[node]):
            if p > 0:
                v, f = visit(child)
                total += p * v
                first_total += p * f
        return total, first_total
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        total, first = visit(0)
    finally:
        sys.setrecursionlimit(limit)
    return list(total), first


def solve(variant_path: str, iterations: int = 200, bots: tuple = ("random", "heuristic", "expert"),
          max_nodes: int = 2_000_000, players: int = 2, max_turns: int | None = None, progress=None) -> dict:
    """Solve a tiny variant with OpenSpiel's CFR+: its value, the first player's advantage at equilibrium, and
    the NashConv of the solution and of each bot. Raises TooLarge for a tree past `max_nodes`."""
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import cfr, exploitability
    started = time.perf_counter()
    engine = uno_spiel.load_game(variant_path)
    turns = max_turns or engine.variant.max_turns
    stem = f"{abs(hash((str(variant_path), players, turns))):x}"
    registered = uno_spiel.register(variant_path, players, max_turns=turns + 1,
                                    short_name=f"python_unodsl_solve_{stem}")
    source = pyspiel.load_game(registered)
    tree = build_tree(source, bots, max_nodes)
    walked = time.perf_counter()
    name = register_tree(tree, f"python_unodsl_tree_{stem}", f"unodsl tree of {engine.variant.name}",
                         source.max_chance_outcomes(), source.num_distinct_actions())
    game = pyspiel.load_game(name)
    solver = cfr.CFRPlusSolver(game)
    curve = []
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if progress:
            progress(i, iterations)
        if i in (10, 100, 1000) or i == iterations:
            nash_conv = exploitability.nash_conv(game, solver.average_policy())
            curve.append({"iterations": i, "nash_conv": float(nash_conv)})
    average = solver.average_policy()
    solved = time.perf_counter()

    value, first = values(tree, _cached(tree, average))
    rows = []
    for bot, table in tree.bots.items():
        tabular = policy_lib.TabularPolicy(game)
        for key, probabilities in table.items():
            row = tabular.policy_for_key(key)
            row[:] = 0.0
            for action, p in probabilities.items():
                row[action] = p
        bot_value, bot_first = values(tree, lambda node, t=table: t[tree.info[node][tree.player[node]]])
        rows.append({"bot": bot, "nash_conv": float(exploitability.nash_conv(game, tabular)),
                     "value_seat_0": float(bot_value[0]),
                     "first_player_win_rate": float(bot_first + 1) / 2 if players == 2 else None,
                     "information_states_played_two_ways": len(tree.mixed[bot])})
    return {
        "variant": engine.variant.name, "players": players, "max_turns": turns,
        "nodes": tree.size, "information_sets": tree.information_sets(), "iterations": iterations,
        "nash_conv": curve[-1]["nash_conv"], "convergence": curve,
        "value": [float(v) for v in value], "first_player_return": float(first),
        # Two players, zero-sum wins: a return r is a win rate (r + 1) / 2.
        "first_player_win_rate": (first + 1) / 2 if players == 2 else None,
        "first_player_advantage": (first + 1) / 2 - 0.5 if players == 2 else None,
        "bots": rows,
        "seconds": {"walk": walked - started, "solve": solved - walked, "total": time.perf_counter() - started},
    }


def _cached(tree: GameTree, pol):
    """policy_of(node) for a TabularPolicy, read once per information state."""
    seen: dict = {}

    def policy_of(node: int) -> dict:
        key = tree.info[node][tree.player[node]]
        found = seen.get(key)
        if found is None:
            row = pol.policy_for_key(key)
            found = seen[key] = {a: float(row[a]) for a in tree.actions[node]}
        return found
    return policy_of

"""Bots: a uniform random player and a sensible heuristic player.

Bots see only what the player may know: their own hand, hand sizes, the top card
and current color, public flags (UNO calls, the stack) and the legal actions.
They work on integer action ids so simulations stay fast.
"""

from __future__ import annotations

import random

from ..effects import layout as D
from ..engine import State


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def act(self, state: State) -> int:
        """Return the id of the action to take."""
        legal = state.legal_action_ids()
        return legal[int(self.rng.random() * len(legal))]


class HeuristicBot:
    """Sheds high points, keeps wilds for need, names its best color, calls and catches UNO."""

    name = "heuristic"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def act(self, state: State) -> int:
        """Return the id of the action to take."""
        legal = state.legal_action_ids()
        if len(legal) == 1:
            return legal[0]
        g = state.g
        p = state.current_player
        kind = state.decision
        hand = state.hands[p]
        if kind in (D.TURN, D.DRAWN, D.STACK, D.FORCED, D.JUMP):
            plays = [a for a in legal if a < 2 * g.num_kinds]
            if not plays:
                return legal[0] if kind == D.STACK or g.A_DRAW not in legal else g.A_DRAW
            return max(plays, key=lambda a: self._play_value(state, p, a))
        if kind == D.COLOR:
            counts = [0] * len(g.variant.colors)
            for k in hand:
                if g.k_color[k] >= 0:
                    counts[g.k_color[k]] += 1
            return g.A_COLOR + max(range(len(counts)), key=lambda c: (counts[c], -c))
        if kind == D.TARGET:
            # Aim at the opponent closest to going out (fewest cards), never a partner.
            targets = [a - g.A_TARGET for a in legal]
            foes = [q for q in targets if not state.same_team(q, p)] or targets
            return g.A_TARGET + min(foes, key=lambda q: (len(state.hands[q]), q))
        if kind == D.CHALLENGE:
            # A big hand is more likely to hold the color: challenge then.
            challenged = state.frames[-1][D.F_SELF] if state.frames else -1
            likely = challenged >= 0 and len(state.hands[challenged]) >= 5
            return g.A_CHALLENGE if likely else g.A_ACCEPT
        if kind == D.GIVE:
            return max(legal, key=lambda a: (g.k_points[a - g.A_GIVE], a))
        if kind == D.TRADE:
            best, best_gain = g.A_DONE, 0
            for a in legal:
                if a == g.A_DONE:
                    continue
                mine, theirs = divmod(a - g.A_TRADE, g.num_kinds)
                gain = g.k_points[theirs] - g.k_points[mine]
                if gain > best_gain:
                    best, best_gain = a, gain
            return best
        if kind == D.CATCH:
            catches = [a for a in legal if g.A_CATCH <= a < g.A_GIVE]
            return catches[0] if catches else (g.A_UNO if g.A_UNO in legal else g.A_PASS)
        if kind == D.UNO:
            return g.A_UNO
        return legal[0]

    def _play_value(self, state: State, p: int, action: int) -> tuple:
        g = state.g
        k = action % g.num_kinds
        calls_uno = action >= g.num_kinds
        wild = g.k_wild[k]
        # Keep wilds unless the hand is nearly gone; otherwise shed the most points first.
        return (calls_uno, not wild or len(state.hands[p]) <= 2, g.k_draw[k], g.k_points[k], -k)


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, rng: random.Random):
    """Create a bot by name ('random' or 'heuristic')."""
    try:
        return BOTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown bot '{name}' (choose from {', '.join(BOTS)})") from None

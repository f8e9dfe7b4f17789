"""The two bots without search: uniform random, and the heuristic every search bot rolls out with.

Both decide from a `SeatView` (agents/view.py): the legal action ids, their own hand and
what is public. They work on integer action ids so simulations stay fast.
"""

from __future__ import annotations


from ..effects import layout as D
from .view import Bot, SeatView



def due_call(g, action: int, size: int) -> bool:
    """Whether `action` is a play carrying the UNO call that is due from a hand of `size` cards (with
    uno.false_call, a call goes with any play, and one not due costs; with uno.out, the last card carries one)."""
    return action >= g.num_kinds and (size == g.uno_hand or (size == 1 and g.out_calls))

class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"

    def act(self, state) -> int:
        """Return the id of the action to take (the legal actions are all it reads)."""
        legal = state.legal_action_ids()
        return legal[int(self.rng.random() * len(legal))]

    def decide(self, view: SeatView) -> int:
        legal = view.legal
        return legal[int(self.rng.random() * len(legal))]


class HeuristicBot(Bot):
    """Sheds high points, keeps wilds for need, names its best color, calls and catches UNO.

    Plays: an UNO call first, then a non-wild (a wild once two cards or fewer are left), then
    the biggest draw penalty, then the most points. Draws only with nothing to play (a stack
    is answered when it can be: by a draw card, the same order ranking one above a card that
    turns the stack away, on_stack, unless it is a wild kept for need). Names the colour it
    holds most of; aims at the opponent with the fewest cards; challenges a hand of five or
    more (more likely to hold the colour); gives away its highest card; trades for the biggest
    gain in points; catches when it can; of a choice's options, takes the first one offered in
    the order the effect lists them; goes on with a set (turn.sets) while a card may go on it,
    choosing the card as it would for a play.
    """

    name = "heuristic"

    def act(self, state) -> int:
        """Return the id of the action to take; a forced one without building the view."""
        legal = state.legal_action_ids()
        return legal[0] if len(legal) == 1 else self.decide(SeatView(state, legal))

    def decide(self, view: SeatView) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        g = view.game
        kind = view.decision
        if kind in (D.TURN, D.DRAWN, D.STACK, D.FORCED, D.JUMP, D.SET):
            plays = [a for a in legal if a < 2 * g.num_kinds]
            if not plays:
                return legal[0] if kind == D.STACK or g.A_DRAW not in legal else g.A_DRAW
            few = len(view.hand) <= 2
            size = len(view.hand)
            return max(plays, key=lambda a: self._play_value(g, few, a, size))
        if kind == D.COLOR:
            counts = [0] * len(g.variant.colors)
            for k in view.hand:
                if g.k_color[k] >= 0:
                    counts[g.k_color[k]] += 1
            # Among the colors it may name (a two-sided deck: the side up's).
            return g.A_COLOR + max((a - g.A_COLOR for a in legal), key=lambda c: (counts[c], -c))
        if kind == D.TARGET:
            # Aim at the opponent closest to going out (fewest cards), never a partner.
            targets = [a - g.A_TARGET for a in legal]
            foes = [q for q in targets if q not in view.teammates] or targets
            sizes = view.hand_sizes
            return g.A_TARGET + min(foes, key=lambda q: (sizes[q], q))
        if kind == D.CHALLENGE:
            # A big hand is more likely to hold the color: challenge then.
            challenged = view.played_by()
            likely = challenged >= 0 and view.hand_sizes[challenged] >= 5
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
            if g.catch_rules:
                # uno.catch.wrong offers every opponent: accuse only a player who is vulnerable (public).
                vulnerable = view.public["vulnerable"]
                catches = [a for a in catches if a - g.A_CATCH in vulnerable]
            if catches:
                return catches[0]
            # Call late for oneself or a partner, never falsely (uno.false_call offers a call to everyone asked).
            vulnerable = view.public["vulnerable"]
            due = view.seat in vulnerable or (g.variant.uno_partner_may_call
                                              and any(v in view.teammates for v in vulnerable))
            return g.A_UNO if g.A_UNO in legal and due else g.A_PASS
        if kind == D.UNO:
            return g.A_UNO
        if kind == D.OPTION:
            return view.options_offered()[0]
        if kind == D.WINDOW:
            return legal[-1]            # a declared window (windows:) is there to be used: invoke it, not pass
        return legal[0]

    @staticmethod
    def _play_value(g, few: bool, action: int, size: int) -> tuple:
        k = action % g.num_kinds
        calls_uno = due_call(g, action, size)
        # Keep wilds unless the hand is nearly gone; otherwise shed the most points first.
        return (calls_uno, not g.k_wild[k] or few, g.k_draw[k], g.k_points[k], -k, -action)    # no false call

"""Sets (turn.sets): several cards played in one turn, one at a time, each resolving as it is played.

A set begins with a card played on one's turn (from the `turn` decision: not a drawn card, a
stack answer or a jump-in). Once that card's effects are done and settled, the player may go on
with a card for which the variant's `continue` condition holds (`play X`, `play X uno`) or stop
(`done`), in the decision `set`; a set of two or more cards may stop only where `finish` holds,
so a card is offered only if the set can still be finished with it: a search over the hand,
bounded by the set's `max` length and by SEARCH_BUDGET tests. The set's conditions read only the
cards, the color and the set (the checker holds them to that, E540), so the search asks them of a
probe, never of the state.

Only a variant with sets plays SetStates (Game.state_class, in both modes): every other variant's
State and FastState, their action tables, layouts and saves are as they were. SetState takes none
of FastState's paths; Game.plain is off for it, so every play ends in `after_play`.
"""

from __future__ import annotations

from collections import Counter

from ..effects import layout as D
from . import events as E
from .flow import CONTINUE_SET, END_TURN
from .moves import APPLY, LEGAL
from .state import State

# The most condition tests one offer of a set decision may make while looking ahead for a way to
# finish the set; a card whose completion is not found within them is not offered.
SEARCH_BUDGET = 2000


class SetRules:
    """A variant's compiled turn.sets: the longest set, and its two conditions (closures, or None)."""

    __slots__ = ("max", "may_continue", "may_finish")

    def __init__(self, longest: int, may_continue, may_finish):
        self.max = longest
        self.may_continue = may_continue      # fn(probe, frame) -> bool, frame[F_CARD] the candidate
        self.may_finish = may_finish          # None: a set may end after any card


class _Probe:
    """What a set condition can read of a state: the top card, the color and the set, set by the search."""

    __slots__ = ("g", "discard", "color", "set_play")

    def __init__(self, g):
        self.g = g
        self.discard = [-1]
        self.color = -1
        self.set_play = [0, 0, -1, -1]


class SetState(State):
    """State with sets: the `set` decision between the cards of one turn (see the module's docstring)."""

    __slots__ = ()

    def apply_id(self, action: int) -> None:
        """As State's; a card played on one's turn begins a set."""
        if self.pending[0] == D.TURN and action != self.g.A_DRAW:
            g = self.g
            k = action % g.num_kinds
            self.set_play = [1, max(g.k_number[k], 0), k, self.discard[-1] if self.discard else -1]
        State.apply_id(self, action)

    def after_play(self) -> None:
        """A play's effects are done: settle, then go on with the set if one is being played."""
        self.settle(CONTINUE_SET if self.set_play else END_TURN)

    def go_on(self, then: str) -> None:
        if then == CONTINUE_SET:
            self._offer_set()
        else:
            State.go_on(self, then)

    def _offer_set(self) -> None:
        """Ask the player on turn to go on with the set when a card may go on it; else the set and the turn end.

        A set whose cards' effects left it unable to finish (a hand swapped away, say) ends there too.
        """
        p = self.current
        if self.hands[p] and not self.eliminated[p] and self._continuations(p):
            self.pending = (D.SET, p)
            return
        self._end_set(p)

    def _end_set(self, p: int) -> None:
        if self.events is not None and self.set_play[0] > 1:
            self.events.append(E.Event(E.SET_ENDED, p, count=self.set_play[0]))
        self.set_play = []
        self.end_turn()

    def _may_stop(self) -> bool:
        """Whether the set may end now: one card is a play as any other; a longer set must meet `finish`."""
        rules = self.g.sets
        if self.set_play[0] < 2 or rules.may_finish is None:
            return True
        probe = self._probe()
        return bool(rules.may_finish(probe, self.g.seat_frames[self.current]))

    def _probe(self) -> _Probe:
        probe = _Probe(self.g)
        probe.discard = [self.discard[-1]]
        probe.color = self.color
        probe.set_play = list(self.set_play)
        return probe

    def _continuations(self, p: int) -> list[int]:
        """The kinds of p's hand that may go on the set now, each with a way to finish it (sorted)."""
        g, rules = self.g, self.g.sets
        size, total, first, base = self.set_play
        if size >= rules.max:
            return []
        held = Counter(self.hands[p])
        strict = g.strict_kinds
        frame = [-1, 0, p, -1, True, False]
        budget = [SEARCH_BUDGET]
        out = []
        for k in sorted(held):
            if k in strict and not g.restriction[g.k_type[k]](self, [D.JUDGING, 0, p, k, True, False]):
                continue
            if self._extends(held, k, size, total, first, base, self.discard[-1], self.color, frame, budget):
                out.append(k)
        return out

    def _extends(self, held: Counter, k: int, size: int, total: int, first: int, base: int, top: int,
                 color: int, frame: list, budget: list) -> bool:
        """Whether k may go on the set (size, total, first, base; top card and color) and the set then finish.

        The look-ahead reads a wild as leaving the color as it was (its player names one later).
        """
        g, rules = self.g, self.g.sets
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        probe = _Probe(g)
        probe.discard[0], probe.color, probe.set_play = top, color, [size, total, first, base]
        frame[D.F_CARD] = k
        if not rules.may_continue(probe, frame):
            return False
        size, total = size + 1, total + max(g.k_number[k], 0)
        color = g.k_color[k] if g.k_color[k] >= 0 else color
        if rules.may_finish is None:
            return True
        probe.discard[0], probe.color, probe.set_play = k, color, [size, total, first, base]
        budget[0] -= 1
        if rules.may_finish(probe, frame):
            return True
        if size >= rules.max:
            return False
        held[k] -= 1
        try:
            return any(self._extends(held, n, size, total, first, base, k, color, frame, budget)
                       for n in sorted(held) if held[n] > 0)
        finally:
            held[k] += 1

    def why_illegal(self, action: int) -> str:
        g = self.g
        if self.pending[0] != D.SET:
            return State.why_illegal(self, action)
        p = self.pending[1]
        if action == g.A_DONE:
            return "this set may not end yet (turn.sets' finish does not hold)"
        if action < 2 * g.num_kinds:
            k = action % g.num_kinds
            if k not in self.hands[p]:
                return f"player {p} does not hold {g.card_names[k]}"
            if action >= g.num_kinds and not self.may_call(p):
                left = g.variant.uno_at
                return f"UNO is called with the play that leaves you {left} card{'s' if left != 1 else ''}"
            return f"{g.card_names[k]} may not go on this set (turn.sets' continue), or the set could not finish"
        return f"go on with the set (play a card) or end it (done), player {p}"

    def _legal_set(self) -> list[int]:
        """Go on with the set: every card that may (doubled with an UNO call where the play leaves uno.at
        cards); then `done`, where the set may end."""
        p = self.pending[1]
        actions = self.uno_variants(p, self._continuations(p))
        if self._may_stop():
            actions.append(self.g.A_DONE)
        return actions

    def _apply_set(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        g = self.g
        if a == g.A_DONE:
            self._end_set(p)
            return
        k = a % g.num_kinds
        size, total, first, base = self.set_play
        self.set_play = [size + 1, total + max(g.k_number[k], 0), first, base]
        self.play(p, k, a >= g.num_kinds)


LEGAL[D.SET] = SetState._legal_set
APPLY[D.SET] = SetState._apply_set

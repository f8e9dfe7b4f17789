"""The fast paths: FastState specialises State's rules for their common cases, proven equal to them.

Each specialisation is selected by a Game flag or by the Game's choice of FastState, and all
are off with Game(fast=False) (the reference mode, which plays plain States).
"""

from __future__ import annotations

from operator import not_

from ..effects import layout as D
from . import playable
from .flow import END_TURN
from .generated import rollout_of
from .moves import LEGAL
from .state import State


def hand_over(cls) -> dict:
    """The bodies of the State class `cls` that the generated rollout hands over to, by the names it calls them
    (engine/generated.py names nothing of the State's own)."""
    return {"play": cls.play, "draw": cls.draw_cards, "draw_one": cls.draw_one, "frame": cls.new_frame,
            "next_turn": cls.next_turn, "after_play": cls.after_play, "turn_draw": cls.draw_for_turn,
            "end_turn": cls.end_turn, "pick_trade": cls.pick_trade, "pick_kinds": cls.pick_kinds,
            "listed": State.play_out, "legal_action_ids": cls.legal_action_ids, "apply_id": cls.apply_id,
            "judge_strict": playable.judge_strict, "active_count": cls.active_count}


class FastState(State):
    """State with the fast paths: each method here specialises the rule of State's method of the
    same name for its common case, and hands every other case to it.

    A Game made with fast=True (the default) plays FastStates, one made with fast=False plain
    States: the reference mode. Two of these paths are taken where the Game's tables (made by
    the compile step) say so: a turn's simple draw (Game.simple_draw) and guarded draw events
    (Game.after_draw_guard). Two more stay inline in State's flow, where an override would cost
    a call on every card that does not qualify (+1.5 to 2% instructions per decision, measured):
    plain cards (Game.plain, in play) and straight effects (Game.straight, in discard_played);
    those tables are all false in the reference mode. The effect compiler's fused hand-size
    tests follow Game.fast too.
    tests/test_modes.py plays every shipped variant and house rule both ways and requires the
    same actions, states and results at every step.
    """

    __slots__ = ()

    def legal_action_ids(self) -> list[int]:
        """As State's; a turn (four decisions in five in classic) is answered inline, as _legal_turn does."""
        if self.over:
            return []
        kind, p = self.pending[0], self.pending[1]
        if kind != D.TURN:
            return LEGAL[kind](self)
        g = self.g
        hand = self.hands[p]
        if self.lock_owner < 0 and not g.strict_kinds:
            # The common case, kept tight: one table row says what matches the top card.
            ok = g.playable_after[self.color + 1][self.discard[-1]]
            plays = sorted(set(hand) if ok is None else ok.intersection(hand))
        else:
            plays = playable.kinds(self, p)
        if len(hand) == g.uno_hand:                     # uno_variants, inline on the hottest path
            actions = plays + list(map(g.num_kinds.__add__, plays))       # map: no cell, as for the helpers
        else:
            actions = plays
        if not plays or g.may_always_draw or g.may_draw_if(self, g.seat_frames[p]):
            actions.append(g.A_DRAW)
        return actions

    def play_out(self, rand=None) -> None:
        """As State's, the same game from the same draws, played by the module generated from the Game's
        rules (engine/generated.py)."""
        rollout = self.g.rollout
        if rollout is None:
            rollout = rollout_of(self.g, hand_over(type(self)))
        rollout(self, rand or self.rng.random)

    def is_playable(self, p: int, k: int) -> bool:
        """As State's, read from the table when no lock and no strict restriction is in the way."""
        g = self.g
        if self.lock_owner < 0 and k not in g.strict_kinds:
            ok = g.playable_after[self.color + 1][self.discard[-1]]
            return ok is None or k in ok
        return State.is_playable(self, p, k)

    def holds_playable(self, p: int, judging: bool = False) -> bool:
        """As State's (`P holds playable`), read from the table when no lock, no playable pile and no strict
        restriction is in the way: whether the hand meets the top card's row, without listing the kinds."""
        g = self.g
        if p >= 0 and self.lock_owner < 0 and not g.strict_kinds and not g.play_piles and self.discard:
            ok = g.playable_after[self.color + 1][self.discard[-1]]
            return bool(self.hands[p]) if ok is None else not ok.isdisjoint(self.hands[p])
        return State.holds_playable(self, p, judging)

    def draw_for_turn(self, p: int) -> None:
        """As State's: one card (Game.simple_draw: no_playable draw_one, no draw event, the drawn card
        not forbidden) with no lock: nobody can go out, so the drawn card is judged right here, as
        _offer_drawn does."""
        g = self.g
        if not g.simple_draw or self.lock_owner >= 0:
            State.draw_for_turn(self, p)
            return
        k = self.draw_pile.pop() if self.draw_pile else self.draw_one()
        if k < 0:
            self.end_turn()
            return
        self.hands[p].append(k)
        self.steps += 1
        self.uno_called[p] = False
        self.drawn_this_turn = k
        ok = g.playable_after[self.color + 1][self.discard[-1]]
        if (ok is None or k in ok) and (k not in g.strict_kinds or self.is_playable(p, k)):
            self.pending = (D.DRAWN, p, k)
        else:
            self.end_turn()

    def after_draw_event(self, p: int) -> None:
        """As State's, but not pushed when the event's guard (Game.after_draw_guard) says it would do nothing.

        Its frame would run right after the op that drew, before anything a condition can read
        has changed (ops.penalty adds a skip, draw_for_turn notes the drawn card: neither is
        readable), so the guard gives the same answer here as at the top of the frame. A frame
        not pushed still counts the one step its test would have taken (none for an event that
        compiles to no op at all, such as `nothing`: the reference mode's frame takes no step).
        """
        g = self.g
        guard = g.after_draw_guard
        # Past the turn's budget the frame is pushed all the same: the reference mode stalls at that push.
        if guard is None or self.past_budget() or guard(self, g.seat_frames[p]):
            State.after_draw_event(self, p)
        elif g.codes[g.after_draw][0]:
            self.steps += 1

    def end_turn(self) -> None:
        """As State's: with nothing to skip or hand over, the next seat is the neighbour in play, and with
        no window to open and no jump-in, their turn begins inline (what _begin_turn would do)."""
        if (self.next_exact < 0 and self.turn_from < 0 and self.lock_owner < 0
                and self.skip == self.g.no_skips[self.n]):
            seat = (self.current + self.direction) % self.n         # the neighbour, unless out of play
            if not self.hands[seat] or self.eliminated[seat]:
                seat = self.advance()
        else:
            seat = self.advance()
        if (not self.vulnerable and not self.uno_askers and not self.stack and not self.skip_stack
                and self.turns < self.g.plain_turns):
            self.next_player = self.current = seat
            self.turns += 1
            self.total_turns += 1
            self.drawn_this_turn = -1
            self.played_by = -1
            self.steps = 0
            self.pending = self.g.turn_of[seat]
            return
        self.next_turn(seat)

    def eliminate_by_rule(self) -> None:
        """As State's, once some hand holds Game.eliminate_from cards or more: below that size round.eliminate_when
        cannot hold (its table by the own hand size says so), and an empty hand is never tested."""
        at = self.g.eliminate_from
        for hand in self.hands:
            if len(hand) >= at:
                State.eliminate_by_rule(self)
                return

    def after_play(self) -> None:
        """As State's, with settle's common cases inline: the hottest path."""
        if self.g.eliminate_when is not None:
            self.eliminate_by_rule()
        if self.g.win_when is not None and self.won_by_rule():
            return
        if all(self.hands):
            if True in self.out:
                self.out = [False] * self.n
            self.end_turn()
        elif self.out == list(map(not_, self.hands)):
            self.end_turn()
        else:
            State.settle_outs(self, END_TURN)

    def settle(self, then: str) -> None:
        """As State's, round.eliminate_when tested the same; then two cases go straight on, as after_outs would:

        - every hand holds cards: nobody is out, and nobody is eliminated (an eliminated player's hand is
          emptied, and ops give them no cards), so the round goes on;
        - the hands that are empty are those that were at the last settle (`out` is what it left: not hand,
          seat by seat): nobody went out or was eliminated since, and that settle went on, so this one
          would too (what ends a round, a player or team out or too few left, reads nothing else that
          could have changed: a player eliminated while out of cards held none before either).
        """
        if self.g.eliminate_when is not None:
            self.eliminate_by_rule()
        if self.g.win_when is not None and self.won_by_rule():
            return
        if all(self.hands):
            if True in self.out:
                self.out = [False] * self.n
            self.go_on(then)
        elif self.out == list(map(not_, self.hands)):
            self.go_on(then)
        else:
            State.settle_outs(self, then)


class FastHookState(FastState):
    """FastState for a variant with a turn_end hook (events.turn_end): each turn's end runs the hook, as State's
    does (Flow.end_turn), and then hands the turn on FastState's way. Variants without the hook keep
    FastState's end_turn, which pays no test for it."""

    __slots__ = ()

    end_turn = State.end_turn
    hand_off = FastState.end_turn


class FastOpenState(FastState):
    """FastState for a variant without a start card (start.card: false): while the discard pile is empty (the
    round's first play to come), a turn's legal actions, a drawn card's playability and a turn's draw are
    State's, which read no top card; a rollout is State's (the same game: FastState's is proven equal to it)."""

    __slots__ = ()

    def legal_action_ids(self) -> list[int]:
        if self.discard:
            return FastState.legal_action_ids(self)
        return State.legal_action_ids(self)

    play_out = State.play_out

    def is_playable(self, p: int, k: int) -> bool:
        if self.discard:
            return FastState.is_playable(self, p, k)
        return State.is_playable(self, p, k)

    def draw_for_turn(self, p: int) -> None:
        if self.discard:
            FastState.draw_for_turn(self, p)
        else:
            State.draw_for_turn(self, p)


class FastOpenHookState(FastOpenState):
    """FastOpenState with a turn_end hook (as FastHookState)."""

    __slots__ = ()

    end_turn = State.end_turn
    hand_off = FastState.end_turn

"""The fast paths: FastState specialises State's rules for their common cases, proven equal to them.

Each specialisation is selected by a Game flag or by the Game's choice of FastState, and all
are off with Game(fast=False) (the reference mode, which plays plain States).
"""

from __future__ import annotations

from operator import not_

from ..effects import layout as D
from .flow import END_TURN
from .moves import APPLY, LEGAL
from .state import State


class FastState(State):
    """State with the fast paths: each method here specialises the rule of State's method of the
    same name for its common case, and hands every other case to it.

    A Game made with fast=True (the default) plays FastStates, one made with fast=False plain
    States: the reference mode. Two of these paths are taken where the Game's tables (made by
    the compile step) say so: a turn's simple draw (Game.simple_draw) and guarded draw events
    (Game.after_draw_guard). Two more stay inline in State's flow, where an override would cost
    a call on every card that does not qualify (+1.5 to 2% instructions per decision, measured):
    plain cards (Game.plain, in _play) and straight effects (Game.straight, in _discard_played);
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
            plays = self._playable_kinds(p)
        if len(hand) == g.uno_hand:                     # _uno_variants, inline on the hottest path
            actions = plays + list(map(g.num_kinds.__add__, plays))       # map: no cell, as for the helpers
        else:
            actions = plays
        if not plays or g.may_always_draw or g.may_draw_if(self, g.seat_frames[p]):
            actions.append(g.A_DRAW)
        return actions

    def play_out(self, rand=None) -> None:
        """As State's, the same game from the same draws: turns, drawn cards, targets, gifts and
        trades are answered without the list (their legal actions are counted and only the chosen
        one is made); colours, challenges and UNO calls come from tables made once."""
        rand = rand or self.rng.random
        g = self.g
        if self.log is not None:                 # a recorded game: apply_id writes each action to the log
            State.play_out(self, rand)
            return
        playable_after, seat_frames, may_draw_if = g.playable_after, g.seat_frames, g.may_draw_if
        may_always_draw, may_keep, uno_hand = g.may_always_draw, g.may_keep_drawn, g.uno_hand
        # A may-draw rule `hand(next) OP c` (All Wild's): its answer for every hand size, read here in place.
        next_answers = g.may_draw_next_answers
        strict, k, draw, keep = g.strict_kinds, g.num_kinds, g.A_DRAW, g.A_KEEP
        history = self.history
        fixed, legal, apply = g.fixed_actions, LEGAL, APPLY
        turn, drawn, trade, target, give = D.TURN, D.DRAWN, D.TRADE, D.TARGET, D.GIVE
        while not self.over:
            pending = self.pending
            kind = pending[0]
            if kind == turn and self.lock_owner < 0:
                # A turn, as legal_action_ids lists it: the playable kinds (doubled with an UNO call
                # when the play leaves uno.at cards), then the draw.
                p = pending[1]
                hand = self.hands[p]
                ok = playable_after[self.color + 1][self.discard[-1]]
                plays = set(hand) if ok is None else ok.intersection(hand)
                if not strict or strict.isdisjoint(plays):    # else a restricted card: the general way, below
                    m = len(plays)
                    n = 2 * m if len(hand) == uno_hand else m
                    if not m or may_always_draw:
                        i = int(rand() * (n + 1))
                    else:
                        seat = (p + self.direction) % self.n
                        if next_answers is not None and self.hands[seat] and not self.eliminated[seat]:
                            may_draw = next_answers[len(self.hands[seat])]     # the condition's test, in place
                        else:
                            may_draw = may_draw_if(self, seat_frames[p])
                        i = int(rand() * (n + 1)) if may_draw else int(rand() * n)
                    self.pending = None
                    if i == n:
                        history.append(draw)
                        self._turn_draw(p)
                        continue
                    card = sorted(plays)[i % m]
                    history.append(card if i < m else card + k)
                    self._play(p, card, i >= m)
                    continue
            elif kind == drawn:
                # The card just drawn: play it (with an UNO call if the play leaves uno.at cards), or keep it.
                _, p, card = pending
                n = 2 if len(self.hands[p]) == uno_hand else 1
                i = int(rand() * (n + 1)) if may_keep else int(rand() * n)
                self.pending = None
                if i == n:
                    history.append(keep)
                    self._end_turn()
                else:
                    history.append(card + i * k)
                    self._play(p, card, i == 1)
                continue
            elif kind != turn:
                if kind == trade:                # pairs of cards: counted and picked, not listed
                    action = self._pick_trade(rand)
                elif kind == target:             # the candidates are in the decision (_legal_target)
                    seats = pending[3]
                    action = g.A_TARGET + seats[int(rand() * len(seats))]
                elif kind == give:               # one of the giver's kinds (_legal_give)
                    kinds = self._pick_kinds(pending[1])
                    action = g.A_GIVE + kinds[int(rand() * len(kinds))]
                else:
                    actions = fixed.get(kind) or legal[kind](self)
                    action = actions[int(rand() * len(actions))]
                history.append(action)
                apply[kind](self, action)
                continue
            # A turn under a color lock, or with a restricted card playable.
            actions = self.legal_action_ids()
            self.apply_id(actions[int(rand() * len(actions))])

    def _is_playable(self, p: int, k: int) -> bool:
        """As State's, read from the table when no lock and no strict restriction is in the way."""
        g = self.g
        if self.lock_owner < 0 and k not in g.strict_kinds:
            ok = g.playable_after[self.color + 1][self.discard[-1]]
            return ok is None or k in ok
        return State._is_playable(self, p, k)

    def holds_playable(self, p: int, judging: bool = False) -> bool:
        """As State's (`P holds playable`), read from the table when no lock, no playable pile and no strict
        restriction is in the way: whether the hand meets the top card's row, without listing the kinds."""
        g = self.g
        if p >= 0 and self.lock_owner < 0 and not g.strict_kinds and not g.play_piles and self.discard:
            ok = g.playable_after[self.color + 1][self.discard[-1]]
            return bool(self.hands[p]) if ok is None else not ok.isdisjoint(self.hands[p])
        return State.holds_playable(self, p, judging)

    def _turn_draw(self, p: int) -> None:
        """As State's: one card (Game.simple_draw: no_playable draw_one, no draw event, the drawn card
        not forbidden) with no lock: nobody can go out, so the drawn card is judged right here, as
        _offer_drawn does."""
        g = self.g
        if not g.simple_draw or self.lock_owner >= 0:
            State._turn_draw(self, p)
            return
        k = self.draw_pile.pop() if self.draw_pile else self._draw_one()
        if k < 0:
            self._end_turn()
            return
        self.hands[p].append(k)
        self.steps += 1
        self.uno_called[p] = False
        self.drawn_this_turn = k
        ok = g.playable_after[self.color + 1][self.discard[-1]]
        if (ok is None or k in ok) and (k not in g.strict_kinds or self._is_playable(p, k)):
            self.pending = (D.DRAWN, p, k)
        else:
            self._end_turn()

    def _after_draw_event(self, p: int) -> None:
        """As State's, but not pushed when the event's guard (Game.after_draw_guard) says it would do nothing.

        Its frame would run right after the op that drew, before anything a condition can read
        has changed (ops.penalty adds a skip, _turn_draw notes the drawn card: neither is
        readable), so the guard gives the same answer here as at the top of the frame. A frame
        not pushed still counts the one step its test would have taken (none for an event that
        compiles to no op at all, such as `nothing`: the reference mode's frame takes no step).
        """
        g = self.g
        guard = g.after_draw_guard
        # Past the turn's budget the frame is pushed all the same: the reference mode stalls at that push.
        if guard is None or self._past_budget() or guard(self, g.seat_frames[p]):
            State._after_draw_event(self, p)
        elif g.codes[g.after_draw][0]:
            self.steps += 1

    def _end_turn(self) -> None:
        """As State's: with nothing to skip or hand over, the next seat is the neighbour in play, and with
        no window to open and no jump-in, their turn begins inline (what _begin_turn would do)."""
        if (self.next_exact < 0 and self.turn_from < 0 and self.lock_owner < 0
                and self.skip == self.g.no_skips[self.n]):
            seat = (self.current + self.direction) % self.n         # the neighbour, unless out of play
            if not self.hands[seat] or self.eliminated[seat]:
                seat = self._advance()
        else:
            seat = self._advance()
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
        self._next_turn(seat)

    def _eliminate_by_rule(self) -> None:
        """As State's, once some hand holds Game.eliminate_from cards or more: below that size round.eliminate_when
        cannot hold (its table by the own hand size says so), and an empty hand is never tested."""
        at = self.g.eliminate_from
        for hand in self.hands:
            if len(hand) >= at:
                State._eliminate_by_rule(self)
                return

    def _after_play(self) -> None:
        """As State's, with _settle's common cases inline: the hottest path."""
        if self.g.eliminate_when is not None:
            self._eliminate_by_rule()
        if self.g.win_when is not None and self._won_by_rule():
            return
        if all(self.hands):
            if True in self.out:
                self.out = [False] * self.n
            self._end_turn()
        elif self.out == list(map(not_, self.hands)):
            self._end_turn()
        else:
            State._settle_outs(self, END_TURN)

    def _settle(self, then: str) -> None:
        """As State's, round.eliminate_when tested the same; then two cases go straight on, as _after_outs would:

        - every hand holds cards: nobody is out, and nobody is eliminated (an eliminated player's hand is
          emptied, and ops give them no cards), so the round goes on;
        - the hands that are empty are those that were at the last settle (`out` is what it left: not hand,
          seat by seat): nobody went out or was eliminated since, and that settle went on, so this one
          would too (what ends a round, a player or team out or too few left, reads nothing else that
          could have changed: a player eliminated while out of cards held none before either).
        """
        if self.g.eliminate_when is not None:
            self._eliminate_by_rule()
        if self.g.win_when is not None and self._won_by_rule():
            return
        if all(self.hands):
            if True in self.out:
                self.out = [False] * self.n
            self._go_on(then)
        elif self.out == list(map(not_, self.hands)):
            self._go_on(then)
        else:
            State._settle_outs(self, then)


class FastHookState(FastState):
    """FastState for a variant with a turn_end hook (events.turn_end): each turn's end runs the hook, as State's
    does (Flow._end_turn), and then hands the turn on FastState's way. Variants without the hook keep
    FastState's _end_turn, which pays no test for it."""

    __slots__ = ()

    _end_turn = State._end_turn
    _hand_off = FastState._end_turn


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

    def _is_playable(self, p: int, k: int) -> bool:
        if self.discard:
            return FastState._is_playable(self, p, k)
        return State._is_playable(self, p, k)

    def _turn_draw(self, p: int) -> None:
        if self.discard:
            FastState._turn_draw(self, p)
        else:
            State._turn_draw(self, p)


class FastOpenHookState(FastOpenState):
    """FastOpenState with a turn_end hook (as FastHookState)."""

    __slots__ = ()

    _end_turn = State._end_turn
    _hand_off = FastState._end_turn

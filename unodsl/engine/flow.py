"""Turn flow: a round's start, a turn's play or draw, settling who is out, the windows between turns.

Every resolution (a play, a turn's draw, a drawn stack, an UNO penalty) ends in `settle`;
`State.after` and `State.then` say, as data, how play goes on once the effects it started
are done, so a decision taken inside them resumes there (VM.resume).
"""

from __future__ import annotations

import operator
from dataclasses import replace

from ..effects import layout as D
from ..model.variant import Dealer, RolesGiven
from . import events as E
from . import playable
from .ops import draw, draw_until_playable, eliminate
from .seats import finished_team, must_call, teams_in_play, with_cards

# What `State.after` says follows once the open effects finish (VM.resume reads it).
AFTER_SETUP, AFTER_PLAY, AFTER_DRAW, AFTER_OUTS, AFTER_WINDOW = "setup", "play", "draw", "outs", "window"
AFTER_TURN_START, AFTER_TURN_END = "turn_start", "turn_end"     # the turn hooks (events.turn_start, turn_end)
# What follows once a resolution has settled (who is out, whether the round is over): `State.then`.
END_TURN, OFFER_DRAWN, WINDOWS = "end_turn", "offer_drawn", "windows"
OFFER_TURN, HAND_OFF = "offer_turn", "hand_off"     # after turn_start: the turn is offered; after turn_end: next
CONTINUE_SET = "continue_set"        # a set is being played (turn.sets): offer its next card (engine/sets.py)


class Flow:
    """State's turn flow, from the deal to the round's end (Scoring takes it from there)."""

    __slots__ = ()

    def new_round(self, first: bool) -> None:
        """Deal a round and begin it (its set-up effects, then play).

        A round can end in its own set-up (a deal effect that leaves one player, say), and a match
        then asks for the next round from inside this call: that round is dealt here, after this one
        returns, so that a long run of such rounds is a loop, not a recursion (`dealing`: 1 inside
        this call, 2 once another round is asked for).
        """
        if self.dealing:
            self.dealing = 2
            return
        self.dealing = 1
        try:
            while True:
                self._deal(first)
                self.start_round()
                if self.dealing == 1:
                    return
                self.dealing, first = 1, False
        finally:
            self.dealing = 0

    def _deal(self, first: bool) -> None:
        """Choose the dealer, shuffle and deal: the hands, the start card and the round's fresh fields."""
        g, n = self.g, self.n
        v = g.variant
        self.round += 1
        if first:
            if v.roles:
                self._give_roles()
            if v.dealer is Dealer.HIGH_CARD:
                self.dealer = self._high_card_dealer()
            elif v.dealer is Dealer.SEAT_0:
                self.dealer = 0
            else:
                self.dealer = self.randrange(n)
        else:
            self.dealer = (self.dealer + 1) % n
        self.draw_pile = deck = list(g.deck) * v.packs_for(n)     # deck.packs: a larger table may play more
        start = v.start_card                            # start.card: false turns up no start card
        filled, pile_deals = {}, ()
        if g.pile_seat:                                 # the variant's own piles (a variant without any pays nothing)
            # Piles dealt as a round starts (a pile's deal:), a pile of each player only for the seats at the
            # table, a pile of each role only for the roles held there.
            dealt_to = [slot for slot, seat in enumerate(g.pile_seat) if seat < n
                        and (g.pile_role[slot] < 0 or g.pile_role[slot] in self.roles)]
            # Piles filled by a condition (where:) take their cards first, as they are set aside before the deal.
            fills = [slot for slot in dealt_to if g.pile_fill[slot] is not None]
            if fills:
                filled = self._fill_piles(deck, fills, v.hand_size * n + start)
            pile_deals = [(slot, g.pile_deal[slot]) for slot in dealt_to
                          if g.pile_deal[slot] and g.pile_fill[slot] is None]
        self.shuffle_cards(deck, v.hand_size * n + start + sum(count for _, count in pile_deals))  # hands, start, piles
        # One card at a time from the top (the end of the list), starting left of the dealer.
        dealt = deck[:-v.hand_size * n - 1:-1] if v.hand_size else []
        del deck[len(deck) - len(dealt):]
        self.hands = [[] for _ in range(n)]
        for i in range(n):
            self.hands[(self.dealer + 1 + i) % n] = dealt[i::n]
        starter = deck.pop() if start else -1
        self.discard = [starter] if start else []
        self.color = g.k_color[starter] if start else -1
        self.direction = 1
        self.side = 0                       # a two-sided deck is dealt first side up
        self.reset_variables(first)
        self.reset_round_fields()
        for slot, cards in filled.items():
            self.piles[slot] = cards
        for slot, count in pile_deals:                  # after the start card, from the top, fewer if it runs out
            dealt = deck[:-count - 1:-1]
            del deck[len(deck) - len(dealt):]
            self.piles[slot] = dealt
        if self.events is not None:
            self.events.append(E.Event(E.ROUND_DEALT, self.dealer, count=self.round,
                                       cards=(g.card_names[starter],) if start else ()))

    def _fill_piles(self, deck: list, slots: list, needed: int) -> dict:
        """The piles filled from the deck by their `where:` (Game.pile_fill, the kinds that meet it), by slot.

        For each declared pile in turn, its kinds still in the deck are shuffled and the top ones dealt round
        its piles one at a time (each seat's from the left of the dealer, each role's, each of an array):
        `deal: N` each, or with no deal all of them; never so many that the deck cannot keep the `needed` cards
        (the hands and the start card).
        The rest go back into the deck, which is shuffled for the hands after.
        """
        g = self.g
        spare = len(deck) - needed
        out: dict[int, list] = {slot: [] for slot in slots}
        groups: dict[int, list] = {}                 # one declared pile's slots share its table of kinds
        for slot in slots:
            groups.setdefault(id(g.pile_fill[slot]), []).append(slot)
        for group in groups.values():
            if g.pile_seat[group[0]] >= 0:           # the players' piles: from the left of the dealer, as the hands
                group.sort(key=lambda slot: (g.pile_seat[slot] - self.dealer - 1) % self.n)
            kinds = g.pile_fill[group[0]]
            meeting = [card for card in deck if card in kinds]
            each = g.pile_deal[group[0]]
            want = min(len(meeting), max(spare, 0), each * len(group) if each else len(meeting))
            if not want:
                continue
            deck[:] = [card for card in deck if card not in kinds]
            self.shuffle_cards(meeting, want)
            for i, card in enumerate(reversed(meeting[len(meeting) - want:])):     # the top card first
                out[group[i % len(group)]].append(card)
            del meeting[len(meeting) - want:]
            deck += meeting
            spare -= want
        return out

    def start_round(self) -> None:
        """The dealt round begins: the deal's effect (an opening pass), then the start card's, then play."""
        g = self.g
        # Frames run last-pushed first.
        if self.discard:                            # no start card (start.card: false), no start effect
            starter = self.discard[-1]
            start = g.on_start[g.k_type[starter]]
            if start >= 0:
                self.push(start, self.dealer, starter, True, False)
        if g.on_deal >= 0:
            self.push(g.on_deal, self.dealer, -1, True, False)
        if self.run() and not self.over:
            self.after_setup()

    def _give_roles(self) -> None:
        """The seats' roles as the match begins: by seat (as State starts them), or those roles seated at random."""
        roles = self.roles
        if self.g.variant.roles_given is RolesGiven.RANDOM:
            for i in range(len(roles) - 1, 0, -1):
                j = self.randrange(i + 1)
                roles[i], roles[j] = roles[j], roles[i]
        if self.events is not None:
            names = list(self.g.variant.roles)
            for p, role in enumerate(roles):
                self.events.append(E.Event(E.ROLE, p, name=names[role]))

    def _high_card_dealer(self) -> int:
        """Each player turns a card; the highest number deals (symbols count 0); ties turn again."""
        g = self.g
        contenders = list(range(self.n))
        for _ in range(20):
            deck = list(g.deck)
            self.shuffle_cards(deck, len(contenders))
            values = {p: max(g.k_number[deck.pop()], 0) for p in contenders}
            best = max(values.values())
            contenders = [p for p in contenders if values[p] == best]
            if len(contenders) == 1:
                break
        return contenders[0]

    def after_setup(self) -> None:
        """The round's set-up effects are done: settle like any resolution, then the first turn begins."""
        self.turn_from = self.dealer if self.turn_from < 0 else self.turn_from
        # The set-up is no turn: no turn_end hook runs for the dealer (a hand-off without the hook is end_turn).
        self.settle(HAND_OFF if self.g.turn_end >= 0 else END_TURN)

    def end_turn(self) -> None:
        """The turn is over: its turn_end hook, if any; then the next player begins, after the UNO-call and catch
        windows if any are open."""
        if self.g.turn_end >= 0:
            self._turn_end_hook()
            return
        self.next_turn(self.advance())

    def hand_off(self) -> None:
        """The turn and its turn_end hook are over: the next player begins (FastHookState: FastState's way)."""
        self.next_turn(self.advance())

    def _turn_end_hook(self) -> None:
        """events.turn_end for the player whose turn ends (not for one eliminated), settled as any resolution;
        then the hand-off."""
        p = self.current
        if self.eliminated[p]:
            self.hand_off()
            return
        if self.events is not None:
            self.events.append(E.Event(E.HOOK, p, name="turn_end"))
        self.after = AFTER_TURN_END
        self.push(self.g.turn_end, p, -1, True, False)
        if not self.run() or self.over:
            return
        self._hook_done()
        self.settle(HAND_OFF)

    def _hook_done(self) -> None:
        """A hook ran to its end at once: its event is kept only if something happened after it."""
        if self.events is not None and self.events[-1].kind == E.HOOK:
            self.events.pop()

    def next_turn(self, seat: int) -> None:
        """`seat` plays next: open the windows first if a player must call UNO or may be caught."""
        self.next_player = seat
        if self.vulnerable or self.uno_askers or self.callers or self.g.windows:     # open_windows keeps only the hands
            # still at UNO, and offers the declared windows (windows:)
            self.open_windows()
        else:
            self._begin_turn(seat)

    def advance(self) -> int:
        """The seat that plays next: an exact hand-off, or the next seat in play not skipped."""
        n, d = self.n, self.direction
        skip = self.skip
        seat = self.next_exact
        if seat >= 0 and (self.eliminated[seat] or not self.hands[seat]):
            self.turn_from, seat = seat, -1     # a player not in play never acts: the turn goes on after them
        if seat >= 0:
            if seat == self.lock_owner:
                self.lock_owner = -1
        else:
            seat = self.turn_from if self.turn_from >= 0 else self.current
            hands, eliminated, lock_owner = self.hands, self.eliminated, self.lock_owner
            for _ in range(2 * n + 1):
                seat = (seat + d) % n
                if seat == lock_owner:
                    self.lock_owner = lock_owner = -1    # the lock ends when play reaches its owner (ruling 3.2)
                if eliminated[seat] or not hands[seat]:
                    continue
                if skip[seat]:
                    skip[seat] = 0
                    if self.lost_turns[seat]:
                        self.lost_turns[seat] -= 1      # stacking.skips: one of the turns lost after this one
                    if self.events is not None:
                        self.events.append(E.Event(E.SKIPPED, seat))
                    continue
                break
        self.next_exact = -1
        self.turn_from = -1
        if skip != self.g.no_skips[n]:
            skip[:] = [0] * n
        if self.g.skip_kinds is not None:
            lost = self.lost_turns
            for q in range(n):
                if lost[q]:
                    skip[q] = 1             # more turns to lose (stacking.skips): the flag stays up until they are
        return seat

    def open_windows(self) -> None:
        """Between turns: UNO calls for hands changed by effects, then the catch window."""
        if self.uno_askers:
            self.uno_askers = must_call(self.uno_askers, self.hands, self.g.uno_left)
        if self.uno_askers:
            self.pending = (D.UNO, self.uno_askers[0])
            return
        if self.vulnerable:
            # Only a hand still at UNO is caught: one may have grown since (a draw, a penalty's effects).
            self.vulnerable = must_call(self.vulnerable, self.hands, self.g.uno_left)
        if self.vulnerable or self.callers:         # callers: accusations may be wrong (uno.catch.wrong)
            if self.window_kind != D.CATCH:
                first = self.next_player
                order = [first, *self.players_from(first, False)]
                if self.g.variant.uno_partner_may_call and self.g.variant.team_size > 1:
                    partners = list(map(self.partner_of, self.vulnerable))
                    order = [q for q in partners if q >= 0] + order
                self.window = order
                self.window_kind = D.CATCH
            while self.window:
                q = self.window[0]
                if not self.eliminated[q] and self.may_catch(q):
                    self.pending = (D.CATCH, q)
                    return
                self.window.pop(0)
            self.vulnerable = []          # the next player begins: no more catching (rule 1.6.3)
            self.callers = []
        self.window = []
        self.window_kind = ""
        if self.g.windows and self._offer_window():
            return
        seat = self.next_player
        if self.eliminated[seat] or not self.hands[seat]:
            # Put out of play during the windows (a penalty's draw event): the turn goes on after them.
            self.turn_from = seat
            seat = self.next_player = self.advance()
        self._begin_turn(seat)

    def _offer_window(self) -> bool:
        """The declared windows (windows:), in file order, after the UNO calls and the catch window: each member of
        a window's `who` still in the round, in turn order from the next player, is offered it once while its
        `when` holds for them (tested as they would be asked). True says a decision is pending; False, every
        window has been offered, and the next turn may begin."""
        windows = self.g.windows
        w = self.window_at
        if w < 0:
            w, self.offered = 0, self._window_members(0)
        while True:
            test = windows[w][2]
            offered = self.offered
            while offered:
                q = offered[0]
                if self.in_play(q) and (test is None or test(self, self.g.seat_frames[q])):
                    self.window_at = w
                    self.pending = (D.WINDOW, q)
                    return True
                offered.pop(0)
            w += 1
            if w == len(windows):
                self.window_at = -1
                return False
            self.offered = self._window_members(w)

    def _window_members(self, w: int) -> list[int]:
        """Who window w is offered to at this hand-off, in turn order from the next player: `all`, `others` (but
        the player whose turn ends) or `opponents` (others not of their team)."""
        first, ending = self.next_player, self.current
        order = [first, *self.players_from(first, False)]      # in_play is tested as each is asked
        who = self.g.windows[w][1]
        if who == "all":
            return order
        if who == "others":
            return [q for q in order if q != ending]
        return [q for q in order if q != ending and not self.same_team(q, ending)]

    def _begin_turn(self, p: int) -> None:
        """p's turn begins (at the seat `next_player` names).

        A turn can end with no decision at all (its turn_start hook leaves p no cards, say), and the next
        one then begins from inside this call: that turn is begun here, after this one returns, so that a
        long run of such turns is a loop, not a recursion (`beginning`: 1 inside this call, 2 once another
        turn is asked for; the turn cap, round.max_turns, ends the run), as `new_round` does for rounds.
        """
        if self.beginning:
            self.beginning = 2
            return
        self.beginning = 1
        try:
            while True:
                self._start_turn(p)
                if self.beginning == 1:
                    return
                self.beginning, p = 1, self.next_player
        finally:
            self.beginning = 0

    def _start_turn(self, p: int) -> None:
        """_begin_turn's one turn: count it, end a stalled or blocked round, run turn_start, offer the turn."""
        self.current = p
        self.turns += 1
        self.total_turns += 1
        self.drawn_this_turn = -1
        self.played_by = -1
        self.steps = 0
        g = self.g
        if self.skip_stack and self.skip_victim != p:
            self._drop_skip()
        if self.turns > g.max_turns:
            self.end_round(None, stalled=True)
            return
        if g.blocked and not self.stack and self._blocked():
            self.end_round(None, blocked=True)
            return
        if self.events is not None:
            self.events.append(E.Event(E.TURN, p))
        if g.turn_start >= 0:
            # events.turn_start: run and settled before the player acts (then _turn_offered, by go_on).
            if self.events is not None:
                self.events.append(E.Event(E.HOOK, p, name="turn_start"))
            self.after = AFTER_TURN_START
            self.push(g.turn_start, p, -1, True, False)
            if not self.run() or self.over:
                return
            self._hook_done()
            self.settle(OFFER_TURN)
            return
        self._turn_offered(p)

    def _drop_skip(self) -> None:
        """A pending skip (stacking.skips) that did not reach its victim as a turn began (out of play, or a turn
        named elsewhere), or that an answer carried but did not pass on (its card skipped nobody), ends."""
        self.skip_stack = 0
        self.skip_victim = -1

    def _blocked(self) -> bool:
        """round.blocked: the draw pile is empty and cannot be refilled, and no player in the round could play."""
        if self.draw_pile or (self.g.rules.reshuffle and (len(self.discard) > 1
                                                    or any(len(self.piles[i]) > 1 for i in self.g.play_piles))):
            return False
        return not any(playable.kinds(self, q) for q in range(self.n) if self.in_play(q))

    def _turn_offered(self, p: int) -> None:
        """The turn of p, begun (its turn_start hook done): the jump-in window if any, then p's decision.

        A player put out of play by the turn_start hook (eliminated, or out of cards while the round goes
        on) has no turn to play: it ends there, as any turn does.
        """
        g = self.g
        if self.eliminated[p] or not self.hands[p]:
            self.end_turn()
            return
        if not g.jump_in and not self.stack and not self.skip_stack:
            self.pending = g.turn_of[p]
            return
        v = g.variant
        pile = playable.pile_in_play(self)                 # a jump-in goes on the pile in play
        if self.g.jump_in and pile:
            top = pile[-1]
            if v.jump_in_wilds or not self.g.k_wild[top]:
                if not (self.stack or self.skip_stack) or self.g.ruling_value("jump_in_during_stack"):
                    self.window = with_cards(self.players_from(p, False), self.hands)
                    self.window_kind = D.JUMP
                    if self.window:
                        self.pending = (D.JUMP, self.window[0])
                        return
        self.offer_turn(p)

    def offer_turn(self, p: int) -> None:
        if (self.stack and self.stack_victim == p) or (self.skip_stack and self.skip_victim == p):
            self.pending = (D.STACK, p)
        else:
            self.pending = (D.TURN, p)

    def play(self, p: int, k: int, uno: bool, jumped: bool = False) -> None:
        """Move k from p's hand to the pile in play (the discard pile, or the playable pile `on_pile` names) and
        resolve it."""
        g = self.g
        hand = self.hands[p]
        hand.remove(k)
        if g.plain[k] and len(hand) > 1:
            # Fast path (Game.plain, all false in the reference mode): a card without effects or
            # restriction, not the last two: nobody can be out, nothing to resolve.
            self.discard.append(k)
            c = g.k_color[k]
            if c >= 0:
                self.color = c
            self.played_by = p
            if g.eliminate_when is not None:    # round.eliminate_when: the play settles as any (after_play)
                self.after_play()
                return
            self.end_turn()
            return
        self.after = AFTER_PLAY
        if self.discard_played(p, k, uno, jumped) and (not self.run() or self.over):
            return
        self.after_play()

    def discard_played(self, p: int, k: int, uno: bool, jumped: bool, code: int | None = None) -> bool:
        """Put k (already out of p's hand) on the pile: honesty, color, UNO; then start its effect, if any.

        True says an effect was pushed (the caller runs it).
        """
        g = self.g
        hand = self.hands[p]
        t = g.k_type[k]
        honest = True
        check = g.challenge[t]
        if check is not None:
            honest = bool(check(self, [-1, 0, p, k, True, jumped]))
        c = g.k_color[k]
        if self.on_pile < 0:
            self.discard.append(k)
            if c >= 0:
                self.color = c
        else:                                       # a playable pile (`playable: true`): its own top and color
            self.piles[self.on_pile].append(k)
            if c >= 0:
                self.pile_colors[self.on_pile] = c
        self.played_by = p
        pushed = False
        forgot = False
        if not hand and g.out_calls:                # uno.out: the last card carries the out call, or costs
            if not uno:
                before = len(self.frames)
                forgot = self._forgot_out(p)
                pushed = len(self.frames) > before      # the penalty's draw ran an after_draw effect
        elif len(hand) == g.uno_left:
            self.uno_called[p] = uno
            if not uno and p not in self.vulnerable:
                self.vulnerable.append(p)
            elif uno and g.wrong_catches and p not in self.callers:
                self.callers.append(p)          # the catch window opens: accusing them is wrong
        elif uno:                               # a call with a play that does not leave uno.at cards: uno.false_call
            before = len(self.frames)
            self.penalize_false_call(p)
            pushed = len(self.frames) > before
        if code is None:                            # a card played on a stack runs its on_stack (Moves)
            code = g.on_play[t]
        hooked = g.card_played >= 0
        if hooked:
            # events.card_played, pushed first so that it runs once the card's own effect is done; the
            # straight path below is not taken (a frame is open).
            if self.events is not None:
                self.events.append(E.Event(E.HOOK, p, name="card_played", cards=(g.card_names[k],)))
            self.push(g.card_played, p, k, honest, jumped)
        if code >= 0 and (hand or g.resolve_last[t] or forgot):
            if g.straight[code] and not self.frames and not forgot:
                # Fast path (Game.straight, all false in the reference mode): nothing in the effect can
                # pause, push or end the round, so it runs here and now, as run would, without a frame.
                self.run_through(self.new_frame(code, p, k, honest, jumped))
                # Past the turn's budget, the caller's run ends the round as a stall, where the
                # reference mode's does, as this effect's frame ends.
                return self.past_budget()
            self.push(code, p, k, honest, jumped)
            pushed = True
        if forgot:                                  # the penalty's effect runs first, on top of the card's
            self.push(g.out_penalty_code, p, k, True, jumped)
            return True
        return hooked or pushed

    def penalize_false_call(self, p: int) -> None:
        """p called UNO with a play that does not leave uno.at cards: p draws uno.false_call cards now, or its
        effect (self = p) is pushed, to run once the card's own effect is done."""
        g = self.g
        if self.events is not None:
            self.events.append(E.Event(E.FALSE_CALL, p, count=g.variant.uno_false_call))
        if g.false_call_code >= 0:
            self.push(g.false_call_code, p, -1, True, False)
        else:
            draw(self, p, g.variant.uno_false_call)

    def _forgot_out(self, p: int) -> bool:
        """p played their last card without the out call (uno.out): p draws uno.out.penalty cards now, before the
        card's effect (which then resolves as any card's: p is not out); True says its effect is to be pushed
        instead, on top of the card's."""
        g = self.g
        if self.events is not None:
            self.events.append(E.Event(E.FORGOT_OUT, p, count=g.variant.uno_out_penalty))
        if g.out_penalty_code >= 0:
            return True
        draw(self, p, g.variant.uno_out_penalty)
        return False

    def after_play(self) -> None:
        """A play's effects are done: settle, then end the turn."""
        self.settle(END_TURN)

    def settle(self, then: str) -> None:
        """Effects are done: see who went out and whether the round is over; then go on with `then`.

        Every resolution ends here (a play, a turn's draw, a drawn stack, an UNO penalty), so a
        player put out of cards or eliminated by any of them is noticed the same way.
        """
        if self.g.eliminate_when is not None:
            self.eliminate_by_rule()
        if self.g.win_when is not None and self.won_by_rule():
            return
        self.settle_outs(then)

    def settle_outs(self, then: str) -> None:
        """settle once round.eliminate_when is tested: who went out, whether the round is over, then `then`."""
        newly_out = []
        for q in self.players_from(self.played_by if self.played_by >= 0 else self.current, True):
            if not self.hands[q] and not self.out[q]:
                self.out[q] = True
                newly_out.append(q)
                if self.events is not None and not self.eliminated[q]:
                    self.events.append(E.Event(E.WENT_OUT, q))
            elif self.hands[q]:
                self.out[q] = False
        if newly_out:
            if self.g.first_out_ends:
                self.end_round(newly_out[0])
                return
            if self._team_finished():
                return
            if self.g.on_player_out >= 0:
                for q in reversed(newly_out):
                    self.push(self.g.on_player_out, q, -1, True, False)
                self.after = AFTER_OUTS
                self.then = then              # read back by resume if the events pause for a decision
                if not self.run() or self.over:
                    return
        self.after_outs(then)

    def eliminate_by_rule(self) -> None:
        """round.eliminate_when: every player in the round for whom it holds is eliminated, in turn order.

        Tested after every card drawn, taken, given or put, after every statement that moves hands,
        and as each resolution settles, so it sees a hand however it grew (a draw, a swap, a
        rotation, a stack drawn) at once; a player who has just gone out of cards is not tested.
        """
        test, frames = self.g.eliminate_when, self.g.seat_frames
        for q in self.players_from(self.played_by if self.played_by >= 0 else self.current, True):
            if self.hands[q] and test(self, frames[q]):
                eliminate(self, q)
                if self.events is not None:         # the rule, not an effect, knocked them out: say so
                    self.events[-1] = replace(self.events[-1], name="rule")

    def won_by_rule(self) -> bool:
        """round.win_when: the first player in the round, in turn order from the one who played (or is on turn),
        for whom it holds wins the round at once; True when the round ended so.

        Tested as each resolution settles, after round.eliminate_when. A player who went out of cards in the
        same resolution ends the round as usual first (with round.ends_when first_out), so the rule never
        takes a win from the player who emptied their hand."""
        if self.g.first_out_ends and any(not h and not o and not x for h, o, x in
                                         zip(self.hands, self.out, self.eliminated)):
            return False
        test, frames = self.g.win_when, self.g.seat_frames
        for q in self.players_from(self.played_by if self.played_by >= 0 else self.current, True):
            if test(self, frames[q]):
                self.end_round(q, by_rule=True)
                return True
        return False

    def knocked_out(self, p: int) -> bool:
        """Whether round.eliminate_when (the variant has one) holds for p now."""
        return bool(self.g.eliminate_when(self, self.g.seat_frames[p]))

    def cards_moved(self) -> None:
        """Cards changed hands outside a draw: test round.eliminate_when now, if the variant has one."""
        if self.g.eliminate_when is not None:
            self.eliminate_by_rule()

    def after_outs(self, then: str) -> None:
        """The player-out events are done: end the round if it is decided, else go on with `then`."""
        if self._team_finished():
            return
        self.out = list(map(operator.not_, self.hands))
        if self.active_count() <= 1 or self._teams_alive() <= 1:
            alive = [q for q in range(self.n) if self.in_play(q)]     # the last player standing wins
            self.end_round(alive[0] if alive else None)
            return
        self.go_on(then)

    def go_on(self, then: str) -> None:
        """Play goes on after a settled resolution: end the turn, offer the drawn card, or the windows; after a
        turn hook, the turn's decision or the hand-off."""
        if then == END_TURN:
            self.end_turn()
        elif then == OFFER_DRAWN:
            self._offer_drawn()
        elif then == OFFER_TURN:
            self._turn_offered(self.current)
        elif then == HAND_OFF:
            self.hand_off()
        else:
            self.open_windows()

    def _team_finished(self) -> bool:
        """With round_ends team_out: end the round if a whole team is out of cards (its lowest seat wins)."""
        if not self.g.team_out_ends:
            return False
        size = self.g.variant.team_size
        lead = finished_team(self.g.team_tables[self.n][0], self.hands, self.eliminated,
                              self.n // size if size > 1 else self.n)
        if lead < 0:
            return False
        self.end_round(lead)
        return True

    def _teams_alive(self) -> int:
        return teams_in_play(self.g.team_tables[self.n][0], self.hands, self.eliminated)

    def after_draw_action(self) -> None:
        """A turn's draw and its events are done: settle, then offer the drawn card."""
        self.settle(OFFER_DRAWN)

    def _offer_drawn(self) -> None:
        """Offer the card just drawn if it may be played, else end the turn."""
        p, k = self.current, self.drawn_this_turn
        if (k >= 0 and self.g.offers_drawn and k in self.hands[p]
                and self.is_playable(p, k)):
            self.pending = (D.DRAWN, p, k)
            return
        self.end_turn()

    def draw_for_turn(self, p: int) -> None:
        """A turn's draw: turn.draw's effect, else one card or until playable (turn.no_playable); then settle
        and offer the drawn card."""
        g = self.g
        if g.turn_draw >= 0:
            # The effect's own last op names the drawn card (ops.note_drawn), after any decision inside it.
            self.drawn_this_turn = -1
            self.after = AFTER_DRAW
            if g.straight[g.turn_draw] and not self.frames:
                # Fast path (Game.straight, all false in the reference mode): an effect that cannot pause, push
                # or end the round runs here and now, as run would, without a frame (as a straight on_play).
                self.run_through(self.new_frame(g.turn_draw, p, -1, True, False))
                if self.past_budget():
                    self.run()                     # past the turn's budget: the round ends as a stall, as run's
                    return
            else:
                self.push(g.turn_draw, p, -1, True, False)
                if not self.run() or self.over:
                    return
            self.after_draw_action()
            return
        hand = self.hands[p]
        before = len(hand)
        if g.draws_until_playable and not playable.kinds(self, p):
            draw_until_playable(self, p)
        else:
            draw(self, p, 1)
        self.drawn_this_turn = hand[-1] if len(self.hands[p]) > before and self.hands[p] is hand else -1
        self.after = AFTER_DRAW
        if self.frames:
            if not self.run() or self.over:
                return
        self.after_draw_action()

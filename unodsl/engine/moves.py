"""Moves: for each kind of decision, its legal actions and how an action is applied.

A turn's legal actions are `_legal_turn`'s and a turn's action is applied by State.apply_id
itself; every other decision kind has a `_legal_*` and an `_apply_*` here, listed in LEGAL
and APPLY by kind.
"""

from __future__ import annotations

from ..effects import layout as D
from . import playable
from .flow import AFTER_PLAY, AFTER_WINDOW, WINDOWS
from .ops import draw, lose_turns, place_card


class Moves:
    """State's decisions, one `_legal_*` and one `_apply_*` per kind."""

    __slots__ = ()

    def uno_variants(self, p: int, kinds: list[int]) -> list[int]:
        """Play actions for sorted `kinds`, doubled with 'play X uno' where the play may carry the call (may_call).

        Sorted still: every 'play X uno' id is above every 'play X' id.
        """
        if self.may_call(p):
            return kinds + list(map(self.g.num_kinds.__add__, kinds))
        return kinds

    def may_call(self, p: int) -> bool:
        """Whether p's next play may carry the call: it leaves uno.at cards, or with uno.false_call any but the
        last card, or with uno.out the last card (what uno_variants doubles)."""
        g = self.g
        size = len(self.hands[p])
        return size == g.uno_hand or (g.false_calls and size > 1) or (size == 1 and g.out_calls)

    def _legal_turn(self) -> list[int]:
        """A turn: every playable kind (doubled with an UNO call when the play leaves uno.at cards), then `draw`.

        Drawing is legal with nothing to play, or where the variant's may-draw rule allows it.
        """
        p = self.pending[1]
        g = self.g
        if g.play_piles:
            return self._legal_turn_on_piles(p)
        plays = playable.kinds(self, p)
        actions = self.uno_variants(p, plays)
        if not plays or g.may_draw_if(self, g.seat_frames[p]):
            actions.append(g.A_DRAW)
        return actions

    def _legal_turn_on_piles(self, p: int) -> list[int]:
        """A turn with playable piles: the plays on each pile where the card matches it, then `draw` as above."""
        g = self.g
        actions = self._pile_plays(p, None)
        if not actions or g.may_draw_if(self, g.seat_frames[p]):
            actions.append(g.A_DRAW)
        return sorted(actions)

    def _pile_plays(self, p: int, among) -> list[int]:
        """The play actions of p's kinds in `among` (default p's hand) on every pile where they may be played."""
        g = self.g
        actions = self.uno_variants(p, playable.kinds_on(self, p, -1, among))
        for pile in g.play_piles:
            base = g.play_on(pile, 0, False)
            actions += [base + a for a in self.uno_variants(p, playable.kinds_on(self, p, pile, among))]
        return actions

    def _legal_drawn(self) -> list[int]:
        _, p, k = self.pending
        actions = self.uno_variants(p, [k]) if not self.g.play_piles else self._pile_plays(p, [k])
        if self.g.may_keep_drawn:
            actions.append(self.g.A_KEEP)
        return actions

    def _legal_color(self) -> list[int]:
        return list(self.g.color_actions[self.side])

    def _legal_target(self) -> list[int]:
        return [self.g.A_TARGET + q for q in self.pending[3]]

    def _legal_challenge(self) -> list[int]:
        return list(self.g.fixed_actions[D.CHALLENGE])

    def _legal_give(self) -> list[int]:
        base = self.g.A_GIVE
        return [base + k for k in self.pick_kinds(self.pending[1])]

    def pick_kinds(self, p: int) -> list[int]:
        """The kinds of p's cards a pick (give, put) may take: all, or those its `where` accepts. The filter is
        the paused effect's (its Code record's, by its resume pc), so nothing of it is saved state."""
        kinds = sorted(set(self.hands[p]))
        frames = self.frames
        if frames:
            fr = frames[-1]
            keep = self.g.code_records[fr[0]].pick_filter(fr[D.F_PC])
            if keep is not None:
                return [k for k in kinds if keep(self, fr, k)]
        return kinds

    def _legal_trade(self) -> list[int]:
        _, p, other, left = self.pending
        g = self.g
        base, kinds = g.A_TRADE, g.num_kinds
        theirs = sorted(set(self.hands[other]))
        actions = [first + b for a in sorted(set(self.hands[p])) for first in (base + a * kinds,)
                   for b in theirs if b != a]
        actions.append(g.A_DONE)
        return actions

    def pick_trade(self, rand) -> int:
        """`_legal_trade()[int(rand() * n)]` without the list: per kind of mine, a row of theirs but itself."""
        _, p, other, _ = self.pending
        g = self.g
        held = set(self.hands[other])
        theirs = sorted(held)
        mine = sorted(set(self.hands[p]))
        width = len(theirs)
        n = len(mine) * width - len(held.intersection(mine)) + 1
        i = int(rand() * n)
        for a in mine:
            row = width - (a in held)
            if i < row:
                b = theirs[i]
                if b >= a and a in held:        # a itself is left out of its row
                    b = theirs[i + 1]
                return g.A_TRADE + a * g.num_kinds + b
            i -= row
        return g.A_DONE

    def _legal_stack(self) -> list[int]:
        p = self.pending[1]
        if not (self.stack and self.stack_victim == p):     # a pending skip (stacking.skips): answer it or pass
            answers = [k for k in playable.kinds(self, p) if k in self.g.skip_kinds]
            return self.uno_variants(p, answers) + [self.g.A_PASS]
        answers = playable.stack_answers(self, p)
        if self.g.deflectors:
            answers = playable.with_deflectors(self, p, answers)
        return self.uno_variants(p, answers) + [self.g.A_DRAW]

    def _legal_forced(self) -> list[int]:
        _, p, c = self.pending
        if c < 0:                                   # `must play where`: the paused effect's filter
            return self.uno_variants(p, self.pick_kinds(p))
        kinds = sorted({k for k in self.hands[p] if self.g.k_color[k] == c})
        return self.uno_variants(p, kinds)

    def _legal_jump(self) -> list[int]:
        p = self.pending[1]
        top = playable.pile_in_play(self)[-1]               # a jump-in goes on the pile last played on
        actions = self.uno_variants(p, [top]) if top in self.hands[p] else []
        return actions + [self.g.A_PASS]

    def _legal_catch(self) -> list[int]:
        return self._catch_actions(self.pending[1])

    def may_catch(self, q: int) -> bool:
        """Whether q has more than `pass` in the catch window: `len(_catch_actions(q)) > 1`, without the list."""
        if self.g.catch_rules or self.g.false_calls:
            return len(self._catch_actions(q)) > 1
        vulnerable = self.vulnerable
        if q in vulnerable:
            return True
        team = self.g.team_tables[self.n][0]        # without teams, every seat is a team of its own
        tq = team[q]
        for v in vulnerable:
            if team[v] != tq:
                return True
        if self.g.variant.uno_partner_may_call:     # a loop, not any(): self in a generator would make it a cell
            for v in vulnerable:
                if self.partner_of(v) == q:
                    return True
        return False

    def _catch_actions(self, q: int) -> list[int]:
        base = self.g.A_CATCH
        if self.g.catch_rules:
            actions = [base + v for v in self._accusable(q)]
        else:
            actions = [base + v for v in sorted(self.vulnerable) if v != q and not self.same_team(v, q)]
        # A late call is allowed until someone catches you (1.12); a partner may call for you (2.2.10).
        if q in self.vulnerable or (self.g.variant.uno_partner_may_call
                                    and any(self.partner_of(v) == q for v in self.vulnerable)):
            actions.append(self.g.A_UNO)
        elif self.g.false_calls and self.hands[q]:
            actions.append(self.g.A_UNO)        # uno.false_call: a call not due, outside a play, is a false call
        return sorted(actions) + [self.g.A_PASS]

    def _accusable(self, q: int) -> list[int]:
        """The players q may accuse in the catch window by uno.catch, in seat order: the vulnerable ones, or with
        uno.catch.wrong every opponent in play; only where uno.catch.if holds (self = the accused, catcher = q);
        none once q accused this round under `limit: round`. Teammates never accuse each other."""
        g = self.g
        if g.rules.catch_once_per_round and self.accusations[q]:
            return []
        if g.wrong_catches:
            seats = [v for v in range(self.n) if self.hands[v] and not self.eliminated[v]]
        else:
            seats = sorted(self.vulnerable)
        test = g.catch_if
        return [v for v in seats if v != q and not self.same_team(v, q)
                and (test is None or test(self, [-1, 0, v, -1, True, False, q]))]

    def _legal_uno(self) -> list[int]:
        return list(self.g.fixed_actions[D.UNO])

    def _legal_window(self) -> list[int]:
        """A declared window (windows:): invoke it (`option NAME`) or pass."""
        return [self.g.A_PASS, self.g.A_OPTION + self.g.windows[self.window_at][4]]

    def _apply_window(self, a: int) -> None:
        """q passes, or invokes the window: its effect runs with self = q and settles as any resolution (who is out,
        whether the round is over); then the window goes on to its next member."""
        q = self.pending[1]
        self.pending = None
        self.offered.pop(0)
        if a != self.g.A_PASS:
            self.after = AFTER_WINDOW
            self.push(self.g.windows[self.window_at][3], q, -1, True, False)
            if not self.run() or self.over:
                return
            self.settle(WINDOWS)
            return
        self.open_windows()

    def _legal_number(self) -> list[int]:
        base = self.g.A_NUMBER
        return list(range(base + self.pending[3], base + self.pending[4] + 1))

    def _legal_option(self) -> list[int]:
        base = self.g.A_OPTION
        return sorted(base + option for option, _ in self.pending[2])

    def why_illegal(self, action: int) -> str:
        g = self.g
        kind = self.pending[0]
        if g.play_piles and g.A_PLAY_ON <= action < g.num_actions:
            return self._why_not_on_pile(action)
        if action < 2 * g.num_kinds:
            k = action % g.num_kinds
            p = self.pending[1]
            if kind not in (D.TURN, D.DRAWN, D.STACK, D.FORCED, D.JUMP):
                return f"player {p} must decide '{kind}' now, not play a card"
            if k not in self.hands[p]:
                return f"player {p} does not hold {g.card_names[k]}"
            if action >= g.num_kinds and not self.may_call(p):
                if g.variant.uno_at == 1:
                    return "UNO is called when playing your next-to-last card"
                return f"UNO is called when a play leaves you {g.variant.uno_at} cards"
            if kind == D.DRAWN:
                return "after drawing, only the drawn card may be played"
            if kind == D.STACK:
                return f"{g.card_names[k]} does not answer the draw stack of {self.stack}: stack on it or draw it"
            if kind == D.JUMP:
                return f"only a card identical to {self.top_card} may jump in"
            if kind == D.FORCED:
                return f"only a {g.variant.colors[self.pending[2]]} card may be played now"
            if self.lock_owner >= 0:
                return f"only {g.variant.colors[self.lock_color]} cards may be played until the lock ends"
            return self._why_no_match(p, k, -1)
        if action == g.A_DRAW and kind == D.TURN:
            return "you may not draw now"
        return f"not a legal '{kind}' decision for player {self.pending[1]}"

    def _why_no_match(self, p: int, k: int, pile: int) -> str:
        """Why p's card k may not be played on `pile` (-1 the discard pile): no match, or its restriction."""
        g = self.g
        if k in playable.kinds_on(self, p, pile, [k], judge=False):
            return f"{g.card_names[k]} matches, but its restriction does not hold now"
        cards = self.discard if pile < 0 else self.piles[pile]
        color = self.color if pile < 0 else self.pile_colors[pile]
        top = g.card_names[cards[-1]] if cards else "nothing"
        where = "" if pile < 0 else f" on the {g.pile_names[pile]} pile"
        named = g.variant.colors[color] if color >= 0 else "any color"
        return f"{g.card_names[k]} does not match {top}{where} ({named})"

    def _why_not_on_pile(self, action: int) -> str:
        """Why `play K [uno] on PILE` is not legal now."""
        g = self.g
        kind, p = self.pending[0], self.pending[1]
        pile, k, uno = g.played_on(action)
        if kind not in (D.TURN, D.DRAWN):
            return f"player {p} must decide '{kind}' now; only a turn's play or a drawn card's names a pile"
        if k not in self.hands[p]:
            return f"player {p} does not hold {g.card_names[k]}"
        if uno and not self.may_call(p):
            return f"UNO is called when a play leaves you {g.variant.uno_at} card{'s' if g.variant.uno_at != 1 else ''}"
        if kind == D.DRAWN and k != self.pending[2]:
            return "after drawing, only the drawn card may be played"
        if self.lock_owner >= 0:
            return f"only {g.variant.colors[self.lock_color]} cards may be played until the lock ends"
        return self._why_no_match(p, k, pile)

    def _legal_put(self) -> list[int]:
        base = self.g.A_PUT
        return [base + k for k in self.pick_kinds(self.pending[1])]

    def _apply_put(self, a: int) -> None:
        _, p, left, dest = self.pending
        k = a - self.g.A_PUT
        self.hands[p].remove(k)
        place_card(self, k, dest)
        self.cards_moved()
        if left > 1 and self.hands[p] and self.pick_kinds(p):
            self.pending = (D.PUT, p, left - 1, dest)
            return
        self.hand_changed(p)
        self.resume()

    def _apply_drawn(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        if a == self.g.A_KEEP:
            self.end_turn()
            return
        if self.g.play_piles:
            self.on_pile, kind, uno = self.g.played_on(a)
            self.play(p, kind, uno)
            return
        k = self.g.num_kinds
        self.play(p, a % k, a >= k)

    def _apply_color(self, a: int) -> None:
        if len(self.pending) == 3:                  # a color as a value (`let NAME = P chooses color`): into NAME
            self.frames[-1][self.pending[2]] = a - self.g.A_COLOR
        elif self.on_pile < 0:
            self.color = a - self.g.A_COLOR
        else:                                       # the color in play on the playable pile played on
            self.pile_colors[self.on_pile] = a - self.g.A_COLOR
        self.resume()

    def _apply_target(self, a: int) -> None:
        slot = self.pending[2]
        self.frames[-1][slot] = a - self.g.A_TARGET
        self.resume()

    def _apply_challenge(self, a: int) -> None:
        _, victim, guilty, innocent, accepted = self.pending
        fr = self.frames[-1]
        if a == self.g.A_CHALLENGE:
            challenged = fr[D.F_SELF]
            self.revealed.setdefault(victim, {})[challenged] = list(self.hands[challenged])
            fr[D.F_PC] = innocent if fr[D.F_HONEST] else guilty
        else:
            fr[D.F_PC] = accepted
        self.resume()

    def _apply_number(self, a: int) -> None:
        self.frames[-1][self.pending[2]] = a - self.g.A_NUMBER
        self.resume()

    def _apply_option(self, a: int) -> None:
        chosen = a - self.g.A_OPTION
        self.frames[-1][D.F_PC] = next(pc for option, pc in self.pending[2] if option == chosen)
        self.resume()

    def _apply_give(self, a: int) -> None:
        _, giver, left, dest = self.pending
        k = a - self.g.A_GIVE
        self.hands[giver].remove(k)
        if dest >= 0:
            self.hands[dest].append(k)
            self.cards_moved()
        else:
            self.limbo[-1 - dest].append(k)
        # A card given may knock the giver or the taker out (round.eliminate_when): the gift stops there.
        if left > 1 and self.hands[giver] and self.pick_kinds(giver) and not (dest >= 0 and self.eliminated[dest]):
            self.pending = (D.GIVE, giver, left - 1, dest)
            return
        # Hands are judged for UNO once the whole gift has moved; an exchange judges both at its end.
        if dest >= 0:
            for q in (dest, giver):
                if not self.eliminated[q]:
                    self.hand_changed(q)
        self.resume()

    def _apply_trade(self, a: int) -> None:
        _, p, other, left = self.pending
        g = self.g
        if a == g.A_DONE:
            self.resume()
            return
        mine, theirs = divmod(a - g.A_TRADE, g.num_kinds)
        self.hands[p].remove(mine)
        self.hands[other].remove(theirs)
        self.hands[p].append(theirs)
        self.hands[other].append(mine)
        seen = self.revealed.get(p)
        if seen is None:
            seen = self.revealed[p] = {}
        seen[other] = list(self.hands[other])
        self.cards_moved()
        if left > 1 and self.hands[p] and self.hands[other]:
            self.pending = (D.TRADE, p, other, left - 1)
            return
        self.resume()

    def _apply_stack(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        if not (self.stack and self.stack_victim == p):     # a pending skip (stacking.skips)
            turns = self.skip_stack
            self.skip_victim = -1
            if a == self.g.A_PASS:                  # taken: this turn is the first lost, the others to come
                self.skip_stack = 0
                lose_turns(self, p, turns - 1)
                self.played_by = -1
                self.end_turn()
                return
            k = self.g.num_kinds                    # answered: the card's skips pass it on (ops.skip_pending)
            self.play(p, a % k, a >= k)
            return
        if a == self.g.A_DRAW:
            total = self.stack
            self.stack = 0
            self.stack_victim = -1
            self.stack_card = -1
            self.after = AFTER_PLAY
            self.played_by = -1
            draw(self, p, total)               # drawing the stack is the lost turn
            if self.frames and (not self.run() or self.over):
                return
            self.after_play()
            return
        k = self.g.num_kinds
        if self.g.deflectors and playable.deflects(self, p, a % k):
            self._play_on_stack(p, a % k, a >= k)
            return
        self.stack_victim = -1
        self.play(p, a % k, a >= k)

    def _apply_forced(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        k = self.g.num_kinds
        # A forced play happens inside the effect that forced it: its own effect runs on top.
        self.hands[p].remove(a % k)
        self.discard_played(p, a % k, a >= k, False)
        self.resume()

    def _apply_jump(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        if a == self.g.A_PASS:
            self.window.pop(0)
            if self.window:
                self.pending = (D.JUMP, self.window[0])
            else:
                self.window_kind = ""
                self.offer_turn(self.current)
            return
        self.window = []
        self.window_kind = ""
        self.current = p
        k = self.g.num_kinds
        self.play(p, a % k, a >= k, jumped=True)

    def _apply_catch(self, a: int) -> None:
        q = self.pending[1]
        self.pending = None
        g = self.g
        if a == g.A_PASS:
            self.window.pop(0)
        elif a == g.A_UNO:
            called = [v for v in self.vulnerable if v == q or self.partner_of(v) == q]
            if not called:                      # uno.false_call: q is not due to call (nor a partner for one)
                self._called_falsely(q)
                return
            for v in called:
                self.uno_called[v] = True
                if g.wrong_catches and v not in self.callers:
                    self.callers.append(v)
            self.vulnerable = [v for v in self.vulnerable if v not in called]
            self.window.pop(0)
        elif g.catch_rules and (a - g.A_CATCH) not in self.vulnerable:
            self._accused_wrongly(q)
            return
        else:
            caught = a - g.A_CATCH
            self.vulnerable.remove(caught)
            if g.catch_rules:
                self.accusations[q] += 1
                if g.rules.catch_once_per_window:
                    self.window.pop(0)          # q's accusation for this window is made
            self.after = AFTER_WINDOW
            if g.uno_penalty_code >= 0:
                # uno.penalty as an effect: the caught player's, with the catcher in its frame.
                self.push(g.uno_penalty_code, caught, -1, True, False)
                self.frames[-1][D.F_CATCHER] = q
            else:
                draw(self, caught, g.variant.uno_penalty)
            if self.frames and (not self.run() or self.over):
                return
            self.settle(WINDOWS)
            return
        self.open_windows()

    def _called_falsely(self, q: int) -> None:
        """q called UNO in the catch window without being due (uno.false_call): q pays uno.false_call as after a
        play, and q's part of this window is over (so no one calls without end)."""
        self.window.pop(0)
        self.after = AFTER_WINDOW
        self.penalize_false_call(q)
        if self.frames and (not self.run() or self.over):
            return
        self.settle(WINDOWS)

    def _accused_wrongly(self, q: int) -> None:
        """q accused a player who called UNO or is not at uno.at cards (uno.catch.wrong): q draws uno.catch.wrong
        cards, or its effect runs with self = q; q's part of this window is over (so no one accuses without end)."""
        g = self.g
        self.accusations[q] += 1
        self.window.pop(0)
        self.after = AFTER_WINDOW
        if g.wrong_catch_code >= 0:
            self.push(g.wrong_catch_code, q, -1, True, False)
        else:
            draw(self, q, g.variant.uno_wrong_catch)
        if self.frames and (not self.run() or self.over):
            return
        self.settle(WINDOWS)

    def _apply_uno(self, a: int) -> None:
        p = self.pending[1]
        self.pending = None
        self.uno_askers.pop(0)
        if a == self.g.A_UNO:
            self.uno_called[p] = True
            if self.g.wrong_catches and p not in self.callers:
                self.callers.append(p)
            if p in self.vulnerable:                  # calling now also covers an earlier forgotten call
                self.vulnerable.remove(p)
        elif p not in self.vulnerable and len(self.hands[p]) == self.g.uno_left:
            self.vulnerable.append(p)
        self.open_windows()

    def _play_on_stack(self, p: int, k: int, uno: bool) -> None:
        """p plays k on the pending stack: its on_stack effect runs in place of on_play. The stack stays
        p's (stack_victim) until the effect passes it on (ops.pass_stack)."""
        self.hands[p].remove(k)
        self.after = AFTER_PLAY
        code = self.g.on_stack[self.g.k_type[k]]
        if self.discard_played(p, k, uno, False, code) and (not self.run() or self.over):
            return
        self.after_play()
# Legal actions per decision (legal_action_ids answers a turn itself on the fast path), and how each
# decision but a turn is applied (apply_id applies a turn itself).
LEGAL = {
    D.TURN: Moves._legal_turn, D.DRAWN: Moves._legal_drawn, D.COLOR: Moves._legal_color,
    D.TARGET: Moves._legal_target, D.CHALLENGE: Moves._legal_challenge, D.GIVE: Moves._legal_give,
    D.TRADE: Moves._legal_trade, D.STACK: Moves._legal_stack, D.FORCED: Moves._legal_forced,
    D.JUMP: Moves._legal_jump, D.CATCH: Moves._legal_catch, D.UNO: Moves._legal_uno, D.PUT: Moves._legal_put,
    D.OPTION: Moves._legal_option, D.WINDOW: Moves._legal_window, D.NUMBER: Moves._legal_number,
}
APPLY = {
    D.DRAWN: Moves._apply_drawn, D.COLOR: Moves._apply_color,
    D.TARGET: Moves._apply_target, D.CHALLENGE: Moves._apply_challenge, D.GIVE: Moves._apply_give,
    D.TRADE: Moves._apply_trade, D.STACK: Moves._apply_stack, D.FORCED: Moves._apply_forced,
    D.JUMP: Moves._apply_jump, D.CATCH: Moves._apply_catch, D.UNO: Moves._apply_uno, D.PUT: Moves._apply_put,
    D.OPTION: Moves._apply_option, D.WINDOW: Moves._apply_window, D.NUMBER: Moves._apply_number,
}

"""The lowering of statements: one `s_RULE(s, ops)` per statement, appending its ops.

`StatementLowering` is a mixin of `lower._Unit`, whose slots, `call` and `decision` these methods use.
"""

from __future__ import annotations

from . import ast as A
from . import layout as D
from .code import _NEVER, _SELF, Op, Value, _branch, _const, _jump, _slot
from .layout import F_PC, F_SELF
from .types import COLOR, GROUP, INT, MAX_REPEAT, NUMBERS, PLAYER, SEATS


class StatementLowering:
    """The ops of each statement."""

    def block(self, body) -> list[Op]:
        ops: list[Op] = []
        written = self.written
        for stmt in body:
            first = len(ops)
            getattr(self, "s_" + stmt.rule)(stmt, ops)
            # The ops this statement made itself (a nested block's were claimed by its own statements).
            for op in ops[first:]:
                if id(op) not in written:
                    written[id(op)] = (self.source, stmt.span.line, stmt.span.column, stmt.rule)
        return ops

    def s_nothing(self, s, ops):
        pass

    def s_draw(self, s, ops):
        ops.append(self.call("draw", self.expr(s.who), self.expr(s.count)))

    def s_draw_until(self, s, ops):
        ops.append(self.call("draw_until_playable", self.expr(s.who)))

    def s_draw_until_cond(self, s, ops):
        # The condition reads the card just drawn from a cell of its own, which the instruction fills
        # before each test: the test runs inside the instruction, never across a pause.
        who, draw_until = self.expr(s.who).fn, self.low.ops["draw_until"]
        self.drawn = cell = [-1]
        test = self.expr(s.test).fn

        def meets(st, fr, k):
            cell[0] = k
            return test(st, fr)
        meets.sought = self._sought(s.test)

        def op(st, fr, pc):
            draw_until(st, who(st, fr), meets, fr)
            return pc + 1
        ops.append(Op(op, calls="draw_until"))

    def _sought(self, test):
        """What a `draws until` looked for, for its drew event (events.drew): a card of a color when the test
        asks `drawn.color == C` (alone or as the first of an `or`), else the test's tree, to be put in words."""
        first = test.parts[0] if isinstance(test, A.Or) else test
        if (isinstance(first, A.Compare) and first.op == "==" and isinstance(first.left, A.DrawnAttr)
                and first.left.name == "color"):
            color, colors = self.expr(first.right).fn, self.g.variant.colors

            def sought(st, fr):
                c = color(st, fr)
                if not (isinstance(c, int) and 0 <= c < len(colors)):
                    return None, test
                return ("an " if colors[c][:1] in "aeiou" else "a ") + f"{colors[c]} card", test
            return sought
        return lambda st, fr: (None, test)

    def s_draw_to(self, s, ops):
        ops.append(self.call("draw_to", self.expr(s.who), self.expr(s.count)))

    def s_penalty(self, s, ops):
        ops.append(self.call("penalty", self.expr(s.who), self.expr(s.count)))

    def s_skip_one(self, s, ops):
        ops.append(self.call("skip", self.expr(s.who)))

    def s_skip_many(self, s, ops):
        ops.append(self.call("skip_next", _SELF, self.expr(s.count)))

    def s_reverse(self, s, ops):
        ops.append(self.call("reverse"))

    def s_choose_color_self(self, s, ops):
        self._choose_color(_SELF, ops)

    def s_choose_color_by(self, s, ops):
        self._choose_color(self.expr(s.who), ops)

    def _choose_color(self, who: Value, ops):
        if not self.g.variant.colors:
            return                                   # every card is wild and colors do not exist
        chooser, choose = who.fn, self.low.ops["choose_color"]
        ops.append(self.decision("choose_color", lambda st, fr: choose(st, chooser(st, fr)), args=(who,)))

    def s_set_color(self, s, ops):
        ops.append(self.call("set_color", self.expr(s.color)))

    def s_clear_color(self, s, ops):
        ops.append(self.call("clear_color"))

    def s_let(self, s, ops):
        if isinstance(s.value, A.ChoosePlayer):
            # The chooser is read first, then the group (as written: `P chooses player G`).
            who = (_SELF if s.value.chooser is None else self.expr(s.value.chooser)).fn
            group = self.expr(s.value.group).fn
            slot = self.slots[id(s)] = self.new_slot(PLAYER)
            choose = self.low.ops["choose_player"]
            op = self.decision("choose_player", lambda st, fr: choose(st, fr, slot, who(st, fr), group(st, fr)))
            ops.append(op)
            self.lives(slot, op, ops, after=2)      # paused just past it, the frame awaits the answer
            return
        if isinstance(s.value, A.ChooseColorValue):
            # A color as a value: the answer goes into NAME's slot, never into the color in play.
            who = (_SELF if s.value.chooser is None else self.expr(s.value.chooser)).fn
            slot = self.slots[id(s)] = self.new_slot(COLOR)
            choose = self.low.ops["choose_color_value"]
            op = self.decision("choose_color_value", lambda st, fr: choose(st, fr, slot, who(st, fr)))
            ops.append(op)
            self.lives(slot, op, ops, after=2)      # paused just past it, the frame awaits the answer
            return
        if isinstance(s.value, A.ChooseNumber):
            # The chooser is read first, then the bounds (as written: `P chooses number from A to B`).
            who = (_SELF if s.value.chooser is None else self.expr(s.value.chooser)).fn
            low, high = self.expr(s.value.low).fn, self.expr(s.value.high).fn
            slot = self.slots[id(s)] = self.new_slot(INT)
            choose = self.low.ops["choose_number"]
            op = self.decision("choose_number",
                               lambda st, fr: choose(st, fr, slot, who(st, fr), low(st, fr), high(st, fr)))
            ops.append(op)
            self.lives(slot, op, ops, after=2)      # paused just past it, the frame awaits the answer
            return
        fn = self.expr(s.value).fn
        slot = self.slots[id(s)] = self.new_slot(self.checked.types[id(s.value)])

        def assign(st, fr, pc):
            fr[slot] = fn(st, fr)
            return pc + 1
        ops.append(Op(assign))
        self.lives(slot, ops[-1], ops)

    def s_secret_choice(self, s, ops):
        # Its progress lives in four locals: the members still to ask (taken once, with the candidates, as
        # the statement begins), each seat's secret choice, and the answer of the member being asked. The op
        # pauses at itself, so that each answer brings the engine back to it; NAME is set as it ends.
        choosers, candidates = self.expr(s.choosers).fn, self.expr(s.candidates).fn
        queue, offered = self.new_slot(SEATS), self.new_slot(SEATS)
        picks, answer = self.new_slot(D.PICKS), self.new_slot(D.SEALED)
        result = self.slots[id(s)] = self.new_slot(GROUP)
        choose = self.low.ops["choose_secretly"]

        def op(st, fr, pc):
            if fr[queue] is None:                  # the statement begins (again, in a loop)
                fr[queue] = list(choosers(st, fr))
                fr[offered] = list(candidates(st, fr))
                fr[picks] = [-1] * st.n
                fr[answer] = None
            return choose(st, fr, pc, queue, offered, picks, answer, result)
        ops.append(Op(op, calls="choose_secretly", resume=0))
        self.lives(result, ops[-1], ops)

    def s_secret_number(self, s, ops):
        # Its progress lives in five locals, in this order (ops.choose_number_secretly reads them so): the
        # members still to ask and the range (taken once, as the statement begins), each seat's secret number
        # and the answer of the member being asked. The op pauses at itself, so that each answer comes back to it.
        choosers, low, high = self.expr(s.choosers).fn, self.expr(s.low).fn, self.expr(s.high).fn
        queue, lowest, highest = self.new_slot(SEATS), self.new_slot(INT), self.new_slot(INT)
        picks, answer = self.new_slot(D.BIDS), self.new_slot(D.SEALED_NUMBER)
        assert (lowest, highest, picks, answer) == (queue + 1, queue + 2, queue + 3, queue + 4)
        var = self.variable_index(self.checked.refers[id(s)])
        choose = self.low.ops["choose_number_secretly"]

        def op(st, fr, pc):
            if fr[queue] is None:                  # the statement begins (again, in a loop): the op sets the rest
                fr[queue], fr[lowest], fr[highest] = list(choosers(st, fr)), low(st, fr), high(st, fr)
            return choose(st, fr, pc, queue, var)
        ops.append(Op(op, calls="choose_number_secretly", resume=0))

    def s_swap_hands(self, s, ops):
        ops.append(self.call("swap_hands", _SELF, self.expr(s.who)))

    def s_rotate_hands(self, s, ops):
        ops.append(self.call("rotate_hands", _way(s.way)))

    def s_give(self, s, ops):
        giver, n, taker = self.expr(s.giver).fn, self.expr(s.count).fn, self.expr(s.taker).fn
        give = self.low.ops["give"]
        if s.test is None:
            ops.append(self.decision("give", lambda st, fr: give(st, giver(st, fr), n(st, fr), taker(st, fr))))
            return
        keep = self.keep(s)
        if s.otherwise is not None:
            self._pick_else(s, ops, "give", giver, n, keep,
                            lambda st, fr, p, m: give(st, p, m, taker(st, fr)))
            return

        def action(st, fr):
            p = giver(st, fr)
            return give(st, p, min(n(st, fr), _meeting(st, fr, p, keep)), taker(st, fr))
        ops.append(self.decision("give", action))
        self.picks.append((ops[-1], keep, 1))

    def _pick_else(self, s, ops, name, who, n, keep, start) -> None:
        """A pick with `where COND else: ...`: the block runs when none of the picker's cards meets COND;
        else the pick (`start`, which may pause) and the effect goes on after the block."""
        body = self.block(s.otherwise)
        size = len(body)

        def op(st, fr, pc):
            p = who(st, fr)
            m = min(n(st, fr), _meeting(st, fr, p, keep))
            if m <= 0:
                return pc + 1                   # nothing to pick: the else block
            fr[F_PC] = pc + 1 + size
            return D.PAUSE if start(st, fr, p, m) == D.PAUSE else pc + 1 + size
        ops.append(Op(op, calls=name, resume=1 + size))
        self.picks.append((ops[-1], keep, 1 + size))
        ops.extend(body)

    def keep(self, s):
        """`where COND` of a pick as `keep(state, frame, card)`: COND with the card as `card`."""
        self.scans = True
        cell = self.cells[id(s)] = [-1]
        test = self.expr(s.test).fn

        def keep(st, fr, k):
            cell[0] = k
            return test(st, fr)
        return keep

    def s_discard_where(self, s, ops):
        who, keep, discard = self.expr(s.who).fn, self.keep(s), self.low.ops["discard_where"]
        ops.append(Op(lambda st, fr, pc: discard(st, fr, who(st, fr), keep) or pc + 1, calls="discard_where"))

    def s_exchange(self, s, ops):
        a, n, b = self.expr(s.first).fn, self.expr(s.count).fn, self.expr(s.second).fn
        # Both seats and the count are read once, before anyone picks: a pick that empties a hand
        # must not change who `next` is for the rest of the exchange.
        sa, sn, sb = self.new_slot(PLAYER), self.new_slot(INT), self.new_slot(PLAYER)

        def read(st, fr, pc):
            fr[sa], fr[sn], fr[sb] = a(st, fr), n(st, fr), b(st, fr)
            return pc + 1
        # Both pick blind into their own limbo, then the cards cross: a simultaneous exchange.
        pick = self.low.ops["exchange_pick"]
        ops.append(Op(read))
        start = ops[-1]
        ops.append(self.decision("exchange_pick", lambda st, fr: pick(st, fr[sa], fr[sb], fr[sn], 0)))
        ops.append(self.decision("exchange_pick", lambda st, fr: pick(st, fr[sb], fr[sa], fr[sn], 1)))
        ops.append(self.call("exchange_finish", _slot(sa), _slot(sb)))
        for slot in (sa, sn, sb):
            self.lives(slot, start, ops[-1])

    def s_look(self, s, ops):
        ops.append(self.call("look", _SELF, self.expr(s.who)))

    def s_show_hand(self, s, ops):
        to = self.expr(s.to)
        if self.checked.types[id(s.to)] == PLAYER:          # one player: a group of one
            one = to.fn
            to = Value(lambda st, fr: (one(st, fr),))
        ops.append(self.call("show_hand", self.expr(s.who), to))

    def s_trade(self, s, ops):
        who, trade = self.expr(s.who).fn, self.low.ops["trade"]
        ops.append(self.decision("trade", lambda st, fr: trade(st, fr[F_SELF], who(st, fr))))

    # named piles

    def pile(self, name) -> Value:
        """A pile as the pile instructions number it: layout.DRAW_PILE, DISCARD_PILE, or a pile slot's index; `stock
        of P` (A.SeatPile) is P's slot of the pile, found as it runs (layout.NO_PILE when P is no player)."""
        if isinstance(name, A.SeatPile) and self.g.variant.piles[name.name].per_role:     # `armory of captain`
            return _const(self.g.pile_base[name.name] + list(self.g.variant.roles).index(name.who.name))
        if isinstance(name, A.RolePile):            # `armory of role of P`: the slot of P's role, none for nobody
            base, who = self.g.pile_base[name.name], self.expr(name.who).fn

            def role_pile(st, fr):
                role = st.role_of(who(st, fr))
                return base + role if role >= 0 else D.NO_PILE
            return Value(role_pile)
        if isinstance(name, A.SeatPile):
            base, who = self.g.pile_base[name.name], self.expr(name.who).fn

            def seat_pile(st, fr):
                p = who(st, fr)
                return base + p if p >= 0 else D.NO_PILE
            return Value(seat_pile)
        if isinstance(name, A.IndexedPile):         # `lane i`: pile i of the array, from 1; none outside it
            base, count, number = self.g.pile_base[name.name], self.g.variant.piles[name.name].count, self.expr(name.index)
            if number.is_const:
                return _const(base + number.const - 1 if 1 <= number.const <= count else D.NO_PILE)
            number = number.fn

            def indexed_pile(st, fr):
                i = number(st, fr)
                return base + i - 1 if 1 <= i <= count else D.NO_PILE
            return Value(indexed_pile)
        index = {"draw": D.DRAW_PILE, "discard": D.DISCARD_PILE}.get(name)
        return _const(self.g.pile_base[name] if index is None else index)

    def pile_cards(self, name) -> Value:
        """A pile's cards, top last (the draw pile, the discard pile, a pile slot; none for layout.NO_PILE)."""
        pile = self.pile(name)
        if not pile.is_const:
            slot = pile.fn
            return Value(lambda st, fr: st.piles[i] if (i := slot(st, fr)) >= 0 else ())
        index = pile.const
        if index == D.NO_PILE:
            return _const(())
        if index == D.DRAW_PILE:
            return Value(lambda st, fr: st.draw_pile)
        if index == D.DISCARD_PILE:
            return Value(lambda st, fr: st.discard)
        return Value(lambda st, fr: st.piles[index])

    def e_seat_pile(self, e):
        self.scans = True
        return self.pile_cards(e)

    e_indexed_pile = e_seat_pile
    e_role_pile = e_seat_pile

    def s_move(self, s, ops):
        ops.append(self.call("move_cards", self.expr(s.count), self.pile(s.source), self.pile(s.dest)))

    def s_take(self, s, ops):
        if s.test is None:
            ops.append(self.call("take_cards", self.expr(s.who), self.expr(s.count), self.pile(s.pile)))
            return
        who, n, source = self.expr(s.who).fn, self.expr(s.count).fn, self.pile(s.pile).fn
        keep, take = self.keep(s), self.low.ops["take_where"]
        if s.otherwise is None:
            ops.append(Op(lambda st, fr, pc: take(st, fr, who(st, fr), n(st, fr), source(st, fr), keep) or pc + 1,
                          calls="take_where"))
            return
        body = self.block(s.otherwise)
        size = len(body)

        def op(st, fr, pc):
            p = who(st, fr)
            before = len(st.hands[p]) if p >= 0 else 0
            take(st, fr, p, n(st, fr), source(st, fr), keep)
            taken = p >= 0 and len(st.hands[p]) > before
            return pc + 1 + size if taken else pc + 1       # nothing taken: the else block
        ops.append(Op(op, calls="take_where"))
        ops.extend(body)

    def s_take_top(self, s, ops):
        ops.append(self.call("take_pile", self.expr(s.who), self.pile(s.pile), _const(False)))

    def s_take_all(self, s, ops):
        ops.append(self.call("take_pile", self.expr(s.who), self.pile(s.pile), _const(True)))

    def s_put(self, s, ops):
        who, n, dest = self.expr(s.who).fn, self.expr(s.count).fn, self.pile(s.pile).fn
        put = self.low.ops["put_cards"]
        if s.test is None:
            ops.append(self.decision("put_cards", lambda st, fr: put(st, who(st, fr), n(st, fr), dest(st, fr))))
            return
        keep = self.keep(s)
        if s.otherwise is not None:
            self._pick_else(s, ops, "put_cards", who, n, keep, lambda st, fr, p, m: put(st, p, m, dest(st, fr)))
            return

        def action(st, fr):
            p = who(st, fr)
            return put(st, p, min(n(st, fr), _meeting(st, fr, p, keep)), dest(st, fr))
        ops.append(self.decision("put_cards", action))
        self.picks.append((ops[-1], keep, 1))

    def e_pile_count(self, e):
        held = self.checked.refers.get(id(e))
        if held is not None:                         # a group held by a let (check tells it from a pile)
            group = self.named(held).fn
            return Value(lambda st, fr: len(group(st, fr)))
        pile = self.pile(e.pile)
        if not pile.is_const or pile.const == D.NO_PILE:
            cards = self.pile_cards(e.pile).fn
            return Value(lambda st, fr: len(cards(st, fr)))
        pile = pile.const
        if pile == D.DRAW_PILE:
            return Value(lambda st, fr: len(st.draw_pile))
        if pile == D.DISCARD_PILE:
            return Value(lambda st, fr: len(st.discard))
        return Value(lambda st, fr: len(st.piles[pile]))

    def e_pile_top_attr(self, e):
        table, none = self._attribute(e.name)
        pile = self.pile(e.pile)
        if not pile.is_const or pile.const == D.NO_PILE:
            cards = self.pile_cards(e.pile).fn
            return Value(lambda st, fr: table[c[-1]] if (c := cards(st, fr)) else none)
        pile = pile.const
        if pile == D.DRAW_PILE:
            return Value(lambda st, fr: table[st.draw_pile_top()] if st.draw_pile else none)
        if pile == D.DISCARD_PILE:
            return Value(lambda st, fr: table[st.discard[-1]] if st.discard else none)
        return Value(lambda st, fr: table[st.piles[pile][-1]] if st.piles[pile] else none)

    def s_discard_color(self, s, ops):
        ops.append(self.call("discard_color", self.expr(s.who), self.expr(s.color)))

    def s_redeal(self, s, ops):
        ops.append(self.call("redeal", _SELF, _way(s.way)))

    def s_extra_turn(self, s, ops):
        ops.append(self.call("turn_to", _SELF))

    def s_turn_to(self, s, ops):
        ops.append(self.call("turn_to", self.expr(s.who)))

    def s_eliminate(self, s, ops):
        ops.append(self.call("eliminate", self.expr(s.who)))

    def s_lock(self, s, ops):
        ops.append(self.call("lock", self.expr(s.color), self.expr(s.owner)))

    def s_score(self, s, ops):
        ops.append(self.call("score", self.expr(s.who), self.expr(s.count)))

    def s_must_play(self, s, ops):
        self._must_play(s, ops, ())

    def s_must_play_block(self, s, ops):
        self._must_play(s, ops, s.otherwise)

    def _must_play(self, s, ops, otherwise):
        who, color = self.expr(s.who).fn, self.expr(s.color).fn
        body = self.block(otherwise)
        size = len(body)
        must_play = self.low.ops["must_play"]

        def op(st, fr, pc):
            # Resume after the else block once the forced play is done; run it if it cannot be.
            fr[F_PC] = pc + 1 + size
            return must_play(st, who(st, fr), color(st, fr), pc + 1, pc + 1 + size)
        ops.append(Op(op, calls="must_play", resume=1 + size))
        ops.extend(body)

    def s_must_play_where(self, s, ops):
        who, keep = self.expr(s.who).fn, self.keep(s)
        body = self.block(s.otherwise or ())
        size = len(body)
        must_play = self.low.ops["must_play_where"]

        def op(st, fr, pc):
            # As `must play color`: resume after the else block once the forced play is done; run it if none.
            fr[F_PC] = pc + 1 + size
            return must_play(st, fr, who(st, fr), keep, pc + 1, pc + 1 + size)
        ops.append(Op(op, calls="must_play_where", resume=1 + size))
        self.picks.append((ops[-1], keep, 1 + size))
        ops.extend(body)

    def s_flip_again(self, s, ops):
        self._flip(ops, False)

    def s_return_and_flip(self, s, ops):
        self._flip(ops, True)

    def _flip(self, ops, put_back: bool):
        flip_again = self.low.ops["flip_again"]
        ops.append(Op(lambda st, fr, pc: flip_again(st, fr, put_back), calls="flip_again"))

    def s_flip_all(self, s, ops):
        flip = self.low.ops["flip_all"]
        ops.append(self.decision("flip_all", lambda st, fr: flip(st, fr[F_SELF])))

    def s_if_stmt(self, s, ops):
        compiled = [(self.expr(clause.test), self.block(clause.body)) for clause in s.clauses]
        else_body = self.block(s.otherwise) if s.otherwise is not None else []
        # Layout per clause: [test, body..., jump to end]; then the else body.
        size = sum(2 + len(body) for _, body in compiled) + len(else_body)
        at = 0
        for cond, body in compiled:
            ops.append(_branch(cond, 1, 2 + len(body)))
            ops.extend(body)
            at += 1 + len(body)
            ops.append(_jump(size - at))
            at += 1
        ops.extend(else_body)

    def s_for_stmt(self, s, ops):
        array = self.checked.refers.get(id(s.group))
        if isinstance(array, str):                  # `for each i in lane:` the numbers of an array of piles
            numbers = tuple(range(1, self.g.variant.piles[array].count + 1))
            group = _const(numbers).fn
        else:
            group = self.expr(s.group).fn
        list_slot, idx_slot = self.new_slot(NUMBERS if isinstance(array, str) else SEATS), self.new_slot(INT)
        var_slot = self.slots[id(s)] = self.new_slot(INT if isinstance(array, str) else PLAYER)
        body = self.block(s.body)
        size = len(body)

        def init(st, fr, pc):
            fr[list_slot] = list(group(st, fr))
            fr[idx_slot] = 0
            return pc + 1

        def step(st, fr, pc):
            i = fr[idx_slot]
            if i >= len(fr[list_slot]):
                return pc + size + 2
            fr[var_slot] = fr[list_slot][i]
            fr[idx_slot] = i + 1
            return pc + 1
        first, again = Op(init, forward=False), Op(step, forward=False)
        ops.extend((first, again))
        ops.extend(body)
        ops.append(_jump(-(size + 1)))
        self.lives(list_slot, first, ops[-1])
        self.lives(idx_slot, first, ops[-1], len_of=list_slot)
        self.lives(var_slot, again, ops[-1])

    def s_repeat_stmt(self, s, ops):
        count = self.expr(s.count).fn
        counter = self.new_slot(INT)
        body = self.block(s.body)
        size = len(body)

        def init(st, fr, pc):
            fr[counter] = max(0, min(MAX_REPEAT, count(st, fr)))
            return pc + 1

        def step(st, fr, pc):
            if fr[counter] <= 0:
                return pc + size + 2
            fr[counter] -= 1
            return pc + 1
        first = Op(init, forward=False)
        ops.extend((first, Op(step, forward=False)))
        ops.extend(body)
        ops.append(_jump(-(size + 1)))
        self.lives(counter, first, ops[-1], most=MAX_REPEAT)

    def s_challenge(self, s, ops):
        challenger = self.expr(s.who)
        who = challenger.fn
        branches = {branch.kind: self.block(branch.body) for branch in s.branches}
        # Layout: [challenge, guilty..., jump end, innocent..., jump end, accepted..., jump end]
        offsets = []
        at = 1
        for kind in A.BRANCHES:
            offsets.append(at)
            at += len(branches.get(kind, [])) + 1
        end = at
        targets = tuple(offsets)
        challenge = self.low.ops["challenge"]

        def op(st, fr, pc):
            return challenge(st, fr, who(st, fr), pc, targets)
        ops.append(Op(op, calls="challenge", resume=0, args=(challenger, _const(targets))))
        at = 1
        for kind in A.BRANCHES:
            body = branches.get(kind, [])
            ops.extend(body)
            at += len(body)
            ops.append(_jump(end - at))
            at += 1

    def s_choice(self, s, ops):
        who = self.expr(s.who).fn
        bodies = [self.block(option.body) for option in s.options]
        # Layout: [choose, body 1..., jump end, body 2..., jump end, ...]
        options, at = [], 1
        for option, body in zip(s.options, bodies):
            test = None if option.test is None else self.expr(option.test)
            if test is not None and test.is_const:
                test = None if test.const else _NEVER     # a ruling decides it: built in
            options.append((self.g.option_id(option.name), at, test and test.fn))
            at += len(body) + 1
        end, options = at, tuple(options)
        choose = self.low.ops["choose_option"]

        def op(st, fr, pc):
            return choose(st, fr, who(st, fr), pc, options, end)
        ops.append(Op(op, calls="choose_option", resume=0))
        at = 1
        for body in bodies:
            ops.extend(body)
            at += len(body)
            ops.append(_jump(end - at))
            at += 1

    def s_call(self, s, ops):
        body, checked = self.low.procedures[s.name]
        # Each argument is taken once, at the call (as `let` would), into a slot the body reads.
        args, set_by = {}, []
        for arg, param in zip(s.args, checked.params):
            value = self.expr(arg)
            if not value.is_const:
                fn, slot = value.fn, self.new_slot(param.type)

                def assign(st, fr, pc, fn=fn, slot=slot):
                    fr[slot] = fn(st, fr)
                    return pc + 1
                ops.append(Op(assign))
                set_by.append((slot, ops[-1]))
                value = _slot(slot)
            args[id(param)] = value
        caller, source = self.checked, self.source
        self.checked = checked
        self.args.update(args)
        procedure = self.g.variant.procedures[s.name].body
        self.source = procedure if procedure is not None else source    # the body's lines are the procedure's
        ops.extend(self.block(body))
        self.source = source
        for slot, setter in set_by:
            self.lives(slot, setter, ops[-1])
        for key in args:
            del self.args[key]
        self.checked = caller

    def s_pass_stack(self, s, ops):
        ops.append(self.call("pass_stack", _SELF, self.expr(s.who)))

    def s_draw_stack(self, s, ops):
        ops.append(self.call("draw_stack", self.expr(s.who)))


def _meeting(st, fr, p: int, keep) -> int:
    """How many of p's cards meet a pick's condition (each card read counts one step)."""
    if p < 0:
        return 0
    hand = st.hands[p]
    st.steps += len(hand)
    return sum(1 for k in hand if keep(st, fr, k))


def _with_play(st, fr):
    return st.direction


def _against_play(st, fr):
    return -st.direction


# The seat step each way of `rotate hands` and `gather and redeal` goes round (ast.RotateHands.way):
# in seating order whatever the direction of play, or with or against the direction of play as it is then.
_WAYS = {"left": _const(1), "right": _const(-1), "play": Value(_with_play), "against": Value(_against_play),
         None: Value(_with_play)}


def _way(way: str | None) -> Value:
    return _WAYS[way]

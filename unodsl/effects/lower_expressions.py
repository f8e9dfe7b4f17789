"""The lowering of expressions: one `e_RULE(e)` per expression, returning its `Value`.

`ExpressionLowering` is a mixin of `lower._Unit`. Where the Game's fast mode allows
(`Lowering.fused`), some read in place what a generic closure would call for.
"""

from __future__ import annotations

from itertools import accumulate

from . import ast as A
from ..model.cards import attr_kind
from ..model.variables import Variable
from .code import _NEXT, _SELF, Value, _compare_with, _const, _logic, _slot
from . import layout as D
from .fold import CLAMP, COMPARE, clamp, fold
from .layout import F_CARD, F_JUMPED, F_SELF, JUDGING, SET_FIELDS
from .types import COLOR


class ExpressionLowering:
    """The value of each expression."""

    # --- expressions

    def expr(self, e) -> Value:
        if isinstance(e, A.RuleRef) and self.checked.types.get(id(e)) == COLOR:
            return self.color_ruling(e)
        value = fold(e, self.g.ruling_value, self.bound)
        if value is not None:
            return _const(value)
        return getattr(self, "e_" + e.rule)(e)

    def e_rule_ref(self, e):
        # A ruling the folder leaves alone has no value chosen (`value: null`): it reads as none,
        # equal to no word and to no number, as it always did.
        return _const(self.g.ruling_value(e.name))

    def e_current_color(self, e):
        if self.g.play_piles:                   # the color in play on the pile last played on
            return Value(lambda st, fr: st.color if st.on_pile < 0 else st.pile_colors[st.on_pile])
        return Value(lambda st, fr: st.color)

    def e_player_count(self, e):
        return Value(lambda st, fr: st.active_count())

    def e_stack_size(self, e):
        return Value(lambda st, fr: st.stack)

    def e_jumped(self, e):
        return Value(lambda st, fr: bool(fr[F_JUMPED]))

    def e_card_attr(self, e):
        table, none = self._attribute(e.name)
        cell = self.member_cell(e)
        if cell is not None:                    # the card a filter or an aggregate is reading
            return Value(lambda st, fr: table[cell[0]])
        return Value(lambda st, fr: table[fr[F_CARD]] if fr[F_CARD] >= 0 else none)

    def e_top_attr(self, e):
        table, none = self._attribute(e.name)
        if self.g.play_piles:                   # the top card of the pile last played on

            def top_attr(st, fr):
                pile = st.discard if st.on_pile < 0 else st.piles[st.on_pile]
                return table[pile[-1]] if pile else none
            return Value(top_attr)
        return Value(lambda st, fr: table[st.discard[-1]] if st.discard else none)

    def e_top_is(self, e):
        kind, table = e.kind, self.g.k_category
        if self.g.play_piles:

            def top_is(st, fr):
                pile = st.discard if st.on_pile < 0 else st.piles[st.on_pile]
                return bool(pile) and table[pile[-1]] == kind
            return Value(top_is)
        return Value(lambda st, fr: bool(st.discard) and table[st.discard[-1]] == kind)

    def _attribute(self, name: str) -> tuple[list, object]:
        """(the attribute's value by card kind, its value when there is no card) for card.NAME / top.NAME.

        A declared attribute (`attrs:`) reads its type's zero on a card type that does not
        declare it, and when there is no card: 0, false, "" or no color.
        """
        g = self.g
        tables = {"number": g.k_number, "points": g.k_points, "draw": g.k_draw, "color": g.k_color}
        if name in tables:
            return tables[name], -1
        if name in ("type", "kind"):
            return (g.k_type_id if name == "type" else g.k_category), ""
        colors = g.variant.colors
        values = [g.variant.cards[g.type_ids[t]].attrs.get(name) for t in g.k_type]
        # The checker gave the attribute the kind of its first declaration (E318 refuses a second kind).
        kind = next(attr_kind(card.attrs[name], colors) for card in g.variant.cards.values() if name in card.attrs)
        none = {"bool": False, "int": 0, "color": -1, "string": ""}[kind]
        if kind == "color":
            return [colors.index(x) if x in colors else -1 for x in values], none
        return [x if x is not None else none for x in values], none

    def e_drawn_attr(self, e):
        g = self.g
        tables = {"number": g.k_number, "points": g.k_points, "draw": g.k_draw, "color": g.k_color,
                  "type": g.k_type_id, "kind": g.k_category}
        table, cell = tables[e.name], self.drawn
        return Value(lambda st, fr: table[cell[0]])

    def e_drawn_is(self, e):
        kind, table, cell = e.kind, self.g.k_category, self.drawn
        return Value(lambda st, fr: table[cell[0]] == kind)

    def e_hand_size(self, e):
        who = self.expr(e.who)
        if self.low.fused and who.slot is not None:       # hand(self), hand(a local): read the seat in place
            index = who.slot

            def size(st, fr):
                p = fr[index]
                return len(st.hands[p]) if p >= 0 else 0
        elif self.low.fused and isinstance(e.who, A.Next):      # hand(next): one call, not two

            def size(st, fr):
                p = st.next_of(fr[F_SELF])
                return len(st.hands[p]) if p >= 0 else 0
        else:
            who = who.fn

            def size(st, fr):
                p = who(st, fr)
                return len(st.hands[p]) if p >= 0 else 0
        return Value(size)

    def e_hand_points(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.hand_points(who(st, fr)))

    def e_half(self, e):
        n = self.expr(e.value).fn
        return Value(lambda st, fr: n(st, fr) // 2)

    def e_max_hand(self, e):
        group = self.expr(e.group).fn
        return Value(lambda st, fr: max((st.hand_size(p) for p in group(st, fr)), default=0))

    def e_min_hand(self, e):
        group = self.expr(e.group).fn
        return Value(lambda st, fr: min((st.hand_size(p) for p in group(st, fr)), default=0))

    def e_group_count(self, e):
        group = self.expr(e.group).fn
        return Value(lambda st, fr: len(group(st, fr)))

    def e_random_between(self, e):
        self.chance = True
        low, high, draw = self.expr(e.low).fn, self.expr(e.high).fn, self.low.ops["random_number"]
        return Value(lambda st, fr: draw(st, fr, low(st, fr), high(st, fr)))

    def e_random_from(self, e):
        self.chance = True
        spec = self.g.variant.distributions[e.name]
        colors = self.g.variant.colors
        values = spec.values if spec.numeric else tuple(colors.index(v) for v in spec.values)
        cumulative = tuple(accumulate(spec.weights))
        name, colored, pick = e.name, not spec.numeric, self.low.ops["random_pick"]
        return Value(lambda st, fr: pick(st, fr, name, values, cumulative, colored))

    def e_var(self, e):
        return self.named(self.checked.refers[id(e)])

    def named(self, node) -> Value:
        """The value of what a name refers to (check's `refers`): a color, a parameter, a variable or a local."""
        if isinstance(node, int):
            return _const(node)                      # a color
        if id(node) in self.args:
            return self.args[id(node)]               # a procedure's parameter
        if isinstance(node, Variable):
            return self.read_variable(node, _SELF)
        return _slot(self.slots[id(node)])

    def e_comparison(self, e):
        left, right = self.expr(e.left), self.expr(e.right)
        fn = COMPARE[e.op]
        if left.is_const and right.is_const:
            return _const(fn(left.const, right.const))
        if not right.is_const:
            lf, rf = left.fn, right.fn
            return Value(lambda st, fr: fn(lf(st, fr), rf(st, fr)))
        c = right.const
        if self.low.fused and isinstance(e.left, A.HandSize):
            who = self.expr(e.left.who)
            if isinstance(e.left.who, A.Next) or who.slot is not None:
                return self._compare_hand_size(fn, e.left.who, who, c)
        form = ("players", e.op, c) if isinstance(e.left, A.PlayerCount) and isinstance(c, int) else None
        return Value(_compare_with(e.op, left.fn, c), form=form)

    def _compare_hand_size(self, fn, who_node, who: Value, c) -> Value:
        """`hand(next) OP c` or `hand(self) OP c` as one closure: the size is taken in place.

        The answer for every size a hand can have (0 to the deck's size) is worked out once;
        a run looks it up instead of calling the operator. The may-draw condition of All
        Wild (`hand(next) == 1`) runs on every turn.
        """
        answers = tuple(fn(size, c) for size in range(len(self.g.deck) * self.g.max_packs + 1))
        if isinstance(who_node, A.Next):
            def compare(st, fr):
                p = fr[F_SELF]
                if p < 0:
                    return answers[0]
                seat = (p + st.direction) % st.n                # next_of's common case, without the call
                if not st.hands[seat] or st.eliminated[seat]:
                    seat = st.next_of(p)
                    if seat < 0:
                        return answers[0]
                return answers[len(st.hands[seat])]
            self.next_answers[id(compare)] = answers     # State.play_out answers a may-draw rule of this form in place
            return Value(compare)
        index = who.slot

        def compare(st, fr):
            p = fr[index]
            return answers[len(st.hands[p])] if p >= 0 else answers[0]
        if index == F_SELF:
            self.own(compare, answers)
        return Value(compare)

    def own(self, fn, answers) -> None:
        """Note that the closure fn answers by the size of its own player's hand alone (`hand(self)` and
        constants): `answers[size]` (truth values) for every size, what round.eliminate_when's threshold
        is made of (Game.eliminate_from). The closure is held with its table, so its id names it alone."""
        self.own_answers[id(fn)] = (fn, tuple(bool(a) for a in answers))

    def own_table(self, value: Value):
        """The by-own-hand-size table of a lowered value: its closure's (see own), a constant's repeated; else None."""
        if value.is_const:
            return (bool(value.const),) * (len(self.g.deck) * self.g.max_packs + 1)
        entry = self.own_answers.get(id(value.fn))
        return entry[1] if entry is not None and entry[0] is value.fn else None

    def e_binop(self, e):
        lf, rf = self.expr(e.left).fn, self.expr(e.right).fn
        # Every result is held within +-CLAMP (fold.clamp): an unbounded variable doubled in a loop
        # would otherwise grow to thousands of digits, past what a save or a narration can write.
        if e.op == "+":
            def plus(st, fr):
                v = lf(st, fr) + rf(st, fr)
                return v if -CLAMP <= v <= CLAMP else clamp(v)
            return Value(plus)
        if e.op == "-":
            def minus(st, fr):
                v = lf(st, fr) - rf(st, fr)
                return v if -CLAMP <= v <= CLAMP else clamp(v)
            return Value(minus)
        if e.op == "*":
            return Value(lambda st, fr: clamp(lf(st, fr) * rf(st, fr)))
        if e.op == "%":
            def modulo(st, fr):
                d = rf(st, fr)
                return lf(st, fr) % d if d else 0
            return Value(modulo)

        def floordiv(st, fr):
            d = rf(st, fr)
            return lf(st, fr) // d if d else 0
        return Value(floordiv)

    def e_neg(self, e):
        f = self.expr(e.operand).fn
        return Value(lambda st, fr: -f(st, fr))

    def e_not_(self, e):
        operand = self.expr(e.operand)
        f = operand.fn
        value = Value(lambda st, fr: not f(st, fr))
        table = self.own_table(operand)
        if table is not None and not operand.is_const:
            self.own(value.fn, [not a for a in table])
        return value

    def e_and_expr(self, e):
        return self._own_logic([self.expr(part) for part in e.parts], True)

    def e_or_expr(self, e):
        return self._own_logic([self.expr(part) for part in e.parts], False)

    def _own_logic(self, parts: list[Value], is_and: bool) -> Value:
        """`and` / `or` of parts (_logic); one whose every part answers by the own hand size alone does too."""
        value = _logic(parts, is_and)
        if not value.is_const:
            tables = [self.own_table(part) for part in parts]
            if all(table is not None for table in tables):
                combine = all if is_and else any
                self.own(value.fn, [combine(column) for column in zip(*tables)])
        return value

    def e_holds(self, e):
        who = self.expr(e.who).fn
        what = e.what
        g = self.g
        if isinstance(what, A.HoldColor):
            color = self.expr(what.color).fn
            k_color = g.k_color
            return Value(lambda st, fr: any(k_color[k] == color(st, fr) for k in st.hand_of(who(st, fr))))
        if isinstance(what, A.HoldType):
            type_index = g.type_ids.index(what.name)
            k_type = g.k_type
            return Value(lambda st, fr: any(k_type[k] == type_index for k in st.hand_of(who(st, fr))))
        if isinstance(what, A.HoldWild):
            k_wild = g.k_wild
            return Value(lambda st, fr: any(k_wild[k] for k in st.hand_of(who(st, fr))))
        if isinstance(what, A.HoldNumber):
            number = self.expr(what.number).fn
            k_number = g.k_number
            return Value(lambda st, fr: any(k_number[k] == number(st, fr) for k in st.hand_of(who(st, fr))))
        if isinstance(what, A.HoldPlayable):
            # In a strict restriction being judged (frame code JUDGING), by matching only: bounded.
            return Value(lambda st, fr: st.holds_playable(who(st, fr), fr[0] == JUDGING))
        raise TypeError(f"no lowering for the holding '{what.rule}'")

    def e_role_is(self, e):
        who, role = self.expr(e.who).fn, list(self.g.variant.roles).index(e.role)
        return Value(lambda st, fr: st.role_of(who(st, fr)) == role)

    def e_is_out(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.is_out(who(st, fr)))

    def e_is_partner(self, e):
        a, b = self.expr(e.who).fn, self.expr(e.other).fn
        return Value(lambda st, fr: st.same_team(a(st, fr), b(st, fr)) and a(st, fr) != b(st, fr))

    def e_card_is(self, e):
        kind, table = e.kind, self.g.k_category
        cell = self.member_cell(e)
        if cell is not None:
            return Value(lambda st, fr: table[cell[0]] == kind)
        return Value(lambda st, fr: fr[F_CARD] >= 0 and table[fr[F_CARD]] == kind)

    def e_side_is(self, e):
        side = self.g.variant.sides.index(e.side)
        return Value(lambda st, fr: st.side == side)

    # players

    def e_self_(self, e):
        return _SELF

    def e_next_(self, e):
        return _NEXT

    def e_previous(self, e):
        return Value(lambda st, fr: st.previous_of(fr[F_SELF]))

    def e_dealer(self, e):
        return Value(lambda st, fr: st.dealer)

    def e_partner_self(self, e):
        if self.g.variant.team_size != 2 or not self.low.fused:
            return Value(lambda st, fr: st.partner_of(fr[F_SELF]))

        def partner(st, fr):                          # partner_of for teams of two, read in place
            p = fr[F_SELF]
            if p < 0:
                return -1
            q = st.g.team_tables[st.n][1][p]
            return -1 if st.eliminated[q] else q
        return Value(partner)

    def e_partner_of(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.partner_of(who(st, fr)))

    def e_next_of(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.next_of(who(st, fr)))

    def e_next_seat(self, e):
        return Value(lambda st, fr: st.seat_after(fr[F_SELF]))

    def e_seat_after(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.seat_after(who(st, fr)))

    def e_catcher(self, e):
        return _slot(self.catcher)

    def e_most_cards(self, e):
        return Value(lambda st, fr: st.extreme_hand(fr[F_SELF], True))

    def e_fewest_cards(self, e):
        return Value(lambda st, fr: st.extreme_hand(fr[F_SELF], False))

    # groups

    def e_all_players(self, e):
        return Value(lambda st, fr: st.players_from(fr[F_SELF], True))

    def e_others(self, e):
        return Value(lambda st, fr: st.players_from(fr[F_SELF], False))

    def e_opponents(self, e):
        return Value(lambda st, fr: [p for p in st.players_from(fr[F_SELF], False)
                                     if not st.same_team(p, fr[F_SELF])])

    def e_team_of(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.team_members(who(st, fr)))

    def e_all_from(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.players_from(who(st, fr), True))

    def e_others_from(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: [p for p in st.players_from(who(st, fr), True) if p != fr[F_SELF]])

    def e_one_per_team(self, e):
        return Value(lambda st, fr: st.team_leads())

    # declared variables and seats

    def variable_index(self, var: Variable) -> int:
        """Where `var`'s value sits: in State.vars (a global) or in each seat's State.pvars."""
        declared = self.g.variant.player_state if var.per_player else self.g.variant.state
        return list(declared).index(var.name)

    def read_variable(self, var: Variable, who: Value) -> Value:
        i = self.variable_index(var)
        if not var.per_player:
            return Value(lambda st, fr: st.vars[i])
        nobody, who = self.g.pvar_initial[i], who.fn     # nobody's value: the initial one

        def read(st, fr):
            p = who(st, fr)
            return st.pvars[p][i] if p >= 0 else nobody
        return Value(read)

    def e_var_of(self, e):
        return self.read_variable(self.checked.refers[id(e)], self.expr(e.who))

    def s_set_var(self, s, ops):
        var = self.checked.refers[id(s)]
        index = _const(self.variable_index(var))
        if var.per_player:
            ops.append(self.call("set_player_var", _SELF, index, self.expr(s.value)))
        else:
            ops.append(self.call("set_var", index, self.expr(s.value)))

    def s_set_var_of(self, s, ops):
        index = _const(self.variable_index(self.checked.refers[id(s)]))
        ops.append(self.call("set_player_var", self.expr(s.who), index, self.expr(s.value)))

    def color_ruling(self, e):
        """A ruling whose value is a color (`type: color`): its color index, -1 for none."""
        value, colors = self.g.ruling_value(e.name), self.g.variant.colors
        return _const(colors.index(value) if value in colors else -1)

    def e_direction(self, e):
        return Value(lambda st, fr: st.direction)

    def e_previous_of(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.previous_of(who(st, fr)))

    def e_left_of(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.left_of(who(st, fr)))

    def e_right_of(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.right_of(who(st, fr)))

    # --- sets (turn.sets): the set being played is `state.set_play`, [size, sum, first card, card under it]

    def e_set_attr(self, e):
        at = SET_FIELDS.index(e.name)
        return Value(lambda st, fr: st.set_play[at])

    def e_set_card_attr(self, e):
        table, none = self._attribute(e.name)
        at = SET_FIELDS.index(e.card)
        return Value(lambda st, fr: table[st.set_play[at]] if st.set_play[at] >= 0 else none)


class CollectionLowering:
    """Collections as lists (seats in turn order, or card kinds), their filters and aggregates.

    A filter or an aggregate has a cell of its own holding the member being read; `card` and
    `player` inside it read that cell (the checker's `refers` says which one). In an effect, each
    member read counts one step of the turn's budget, as the ops count the cards they move; a
    condition asked outside an effect (a restriction, may_draw_if) counts none, so that asking it
    again changes nothing: its work is bounded by the checker (E544).
    """

    def member_cell(self, e) -> list | None:
        binder = self.checked.refers.get(id(e))
        return self.cells[id(binder)] if binder is not None else None

    def e_each_player(self, e):
        cell = self.member_cell(e)
        return Value(lambda st, fr: cell[0])

    def e_cards_of(self, e):
        self.scans = True
        pile = self.checked.refers.get(id(e))
        if pile is None:
            who = self.expr(e.who).fn
            return Value(lambda st, fr: st.hand_of(who(st, fr)))
        return self.pile_cards(pile)

    def e_group_except(self, e):
        group, who = self.expr(e.group).fn, self.expr(e.who).fn

        def without(st, fr):
            p = who(st, fr)
            return [q for q in group(st, fr) if q != p]
        return Value(without)

    def _reader(self, e, over, value) -> tuple:
        """(the collection's closure, the cell of the member read, the closure read per member)."""
        self.scans = True
        items = self.expr(over).fn
        cell = self.cells[id(e)] = [-1]
        return items, cell, self.expr(value).fn

    def e_filter_where(self, e):
        items, cell, test = self._reader(e, e.members, e.test)
        counts = self.counts

        def where(st, fr):
            members = items(st, fr)
            if counts:
                st.steps += len(members)
            kept = []
            for m in members:
                cell[0] = m
                if test(st, fr):
                    kept.append(m)
            return kept
        return Value(where)

    def e_agg_sum(self, e):
        items, cell, value = self._reader(e, e.over, e.value)
        counts = self.counts

        def total(st, fr):
            members = items(st, fr)
            if counts:
                st.steps += len(members)
            out = 0
            for m in members:
                cell[0] = m
                out += value(st, fr)
            return clamp(out)
        return Value(total)

    def _extreme(most: bool):
        def lower(self, e):
            items, cell, value = self._reader(e, e.over, e.value)
            counts = self.counts

            def extreme(st, fr):
                members = items(st, fr)
                if counts:
                    st.steps += len(members)
                best = None
                for m in members:
                    cell[0] = m
                    v = value(st, fr)
                    if best is None or (v > best if most else v < best):
                        best = v
                return 0 if best is None else best
            return Value(extreme)
        return lower

    e_agg_max, e_agg_min = _extreme(True), _extreme(False)

    def _quantifier(every: bool):
        def lower(self, e):
            items, cell, test = self._reader(e, e.over, e.value)
            counts = self.counts

            def quantify(st, fr):
                members = items(st, fr)
                if counts:
                    st.steps += len(members)
                for m in members:
                    cell[0] = m
                    if bool(test(st, fr)) != every:
                        return not every
                return every
            return Value(quantify)
        return lower

    e_agg_any, e_agg_all = _quantifier(False), _quantifier(True)
    del _extreme, _quantifier


class FunctionLowering:
    """A call of a function (`functions:`): its value inlined here, each parameter a cell of this call
    that the call fills with its argument, worked out once per evaluation (as a procedure's are)."""

    def e_fn_call(self, e):
        value, checked, _, _ = self.low.functions[e.name]
        args = [self.expr(arg).fn for arg in e.args]
        cells = [[None] for _ in args]
        bound = {id(param): Value(lambda st, fr, cell=cell: cell[0]) for param, cell in zip(checked.params, cells)}
        caller = self.checked
        self.checked = checked
        self.args.update(bound)
        try:
            body = self.expr(value).fn
        finally:
            for key in bound:
                del self.args[key]
            self.checked = caller
        if not args:
            return Value(body)

        def call(st, fr):
            values = [arg(st, fr) for arg in args]
            for cell, v in zip(cells, values):
                cell[0] = v
            return body(st, fr)
        return Value(call)


class UnderLowering:
    """`under`: the card under the played one, read from the slot the effect's first op filled."""

    def e_under_attr(self, e):
        table, none = self._attribute(e.name)
        slot = self.under
        return Value(lambda st, fr: table[fr[slot] - 1] if fr[slot] else none)

    def e_under_is(self, e):
        kind, table, slot = e.kind, self.g.k_category, self.under
        return Value(lambda st, fr: bool(fr[slot]) and table[fr[slot] - 1] == kind)

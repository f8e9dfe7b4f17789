"""Checked syntax tree -> engine code: op lists of closures, and the records that say what the code may do.

An effect lowers to a flat list of ops; an op is a closure `op(state, frame, pc) -> pc`
returning the next pc, or PAUSE after it has set up a decision. Expressions lower to
closures `fn(state, frame) -> value`. Nothing is parsed or looked up by name while a
game runs. What the engine needs to know about the code (may it pause, push an effect,
reshape hands, draw; its guard; the may-draw table) is in the records `Code` and
`Predicate`, worked out here from the tree and the instruction set's declared flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import Callable

from . import ast as A
from . import layout as D
from ..model.variant import attr_kind
from .check import COLOR, INT, MAX_REPEAT, PLAYER, SEATS, Checked
from .fold import COMPARE, clamp, fold
from .layout import DRAWS, F_CARD, F_JUMPED, F_LOCALS, F_PC, F_SELF, PAUSES, PUSHES, RESHAPES
from ..model.variables import Variable

_NO_VALUE = object()


@dataclass(frozen=True, slots=True)
class Value:
    """A lowered expression: its closure, and what an op can build in instead of calling it."""

    fn: Callable
    const: object = _NO_VALUE      # the value, when it is constant
    slot: int | None = None        # the frame slot it reads, when it only reads one (self, a local)

    @property
    def is_const(self) -> bool:
        return self.const is not _NO_VALUE


@dataclass(frozen=True, slots=True)
class Op:
    """One lowered op and what it does, for the Code record (the engine runs only `run`)."""

    run: Callable
    calls: str | None = None        # the instruction it runs, if any
    forward: bool = True            # False: a loop's own step or a jump back
    jump: int | None = None         # an unconditional jump: its offset
    test: Value | None = None       # an `if` test: the condition, and the offset taken when false
    if_false: int | None = None


@dataclass(frozen=True, slots=True)
class Code:
    """A lowered effect: the engine's (ops, locals) and the facts its fast paths read."""

    ops: tuple                      # op(state, frame, pc) -> next pc
    nlocals: int
    local_kinds: tuple[str, ...]    # what each local holds (a type, or SEATS): Game.code_locals
    calls: frozenset[str]           # the instructions its ops run
    flags: frozenset[str]           # what those instructions may do (layout.PAUSES, ...)
    loops: bool                     # has a `for each` or `repeat`
    guard: Callable | None          # the test without which it does nothing (None: it may always do something)

    @property
    def can_pause(self) -> bool:
        return PAUSES in self.flags

    @property
    def can_push(self) -> bool:
        return PUSHES in self.flags

    @property
    def can_reshape(self) -> bool:
        """May change hands other than by drawing: a hand may empty and end the round."""
        return RESHAPES in self.flags

    @property
    def can_draw(self) -> bool:
        return DRAWS in self.flags

    def straight(self, allowed: set[str]) -> bool:
        """Whether it runs to its end at once, doing nothing beyond `allowed` (every op a call or a forward jump)."""
        return not self.loops and self.flags <= allowed


@dataclass(frozen=True, slots=True)
class Predicate:
    """A lowered condition: its closure, and what is known of it before it runs."""

    fn: Callable                    # fn(state, frame) -> bool
    constant: bool | None = None    # its value when the variant alone decides it
    next_answers: tuple | None = None   # `hand(next) OP c`: the answer by the next player's hand size


class Lowering:
    """Lowers the checked effects and conditions of one variant against a game's tables and instruction set."""

    def __init__(self, game, ops: dict, flags: dict):
        self.game = game
        self.ops = ops                  # the engine's instruction set: name -> function(state, *args)
        self.flags = flags              # name -> what it may do
        # Fused forms (hand sizes read in place, `hand(x) OP c` from a table): the Game's fast mode only.
        self.fused = getattr(game, "fast", True)
        self.procedures: dict[str, tuple] = {}      # name -> (statements, Checked): the bodies calls inline

    def effect(self, tree: A.Effect, checked: Checked) -> Code:
        unit = _Unit(self, checked)
        ops = unit.prologue()
        ops += unit.block(tree.body)
        ops += unit.epilogue()
        calls = frozenset(op.calls for op in ops if op.calls)
        flags = frozenset(f for name in calls for f in self.flags[name])
        # A guard is tested ahead of the code by the fast path, then again by the code: not one that draws.
        return Code(tuple(op.run for op in ops), unit.nlocals, tuple(unit.slot_kinds), calls, flags,
                    not all(op.forward for op in ops), None if unit.chance else _guard(ops))

    def condition(self, tree: A.Condition, checked: Checked) -> Predicate:
        unit = _Unit(self, checked)
        value = unit.expr(tree.test)
        return Predicate(value.fn, value.const if value.is_const else None, unit.next_answers.get(id(value.fn)))


def _guard(ops: list[Op]):
    """The condition without which code does nothing, or None if it may always do something.

    That is the test of an `if` (without `else`) that holds the whole effect: when it
    is false, the code jumps to its end at once. Code that starts by jumping to its end
    (an `if` on a ruling that is off) has the constant false as its guard.
    """
    if not ops or ops[0].jump == len(ops):
        return _const(False).fn
    if ops[0].if_false == len(ops):
        return ops[0].test.fn
    return None


class _Unit:
    """The lowering of one effect text: its local slots."""

    def __init__(self, lowering: Lowering, checked: Checked):
        self.low = lowering
        self.g = lowering.game
        self.checked = checked
        self.slots: dict[int, int] = {}         # id(Let or ForEach) -> the slot of the name it binds
        self.nlocals = 0
        self.slot_kinds: list[str] = []
        self.next_answers: dict[int, tuple] = {}    # id(closure) -> its table, for `hand(next) OP c`
        self.chance = False                     # draws at random (`random ...`): no test may be made twice
        self.args: dict[int, Value] = {}        # id(Param) -> its argument, while a call's body is lowered
        self.drawn: list[int] | None = None          # the cell `drawn` reads, in a `draws until` condition
        # uno.penalty: the engine puts the catcher in the first local (layout.F_CATCHER) when it pushes the frame.
        self.catcher = self.new_slot(PLAYER) if checked.where == "uno_penalty" else None
        # turn.draw: the drawer's hand size before the effect, to tell the card it drew (epilogue).
        self.before = self.new_slot(INT) if checked.where == "turn_draw" else None

    def new_slot(self, kind: str) -> int:
        """A new local slot holding values of `kind` (an expression type, or SEATS: a `for`'s list)."""
        slot = F_LOCALS + self.nlocals
        self.nlocals += 1
        self.slot_kinds.append(kind)
        return slot

    def call(self, name: str, *args: Value) -> Op:
        """An op that runs the engine's instruction `name` on the values of args."""
        return Op(_call(self.low.ops[name], *args), calls=name)

    def decision(self, name: str, action: Callable) -> Op:
        """An op that runs `action(state, frame)`, a call of instruction `name` that may pause for a decision;
        it resumes (or continues) at the next op."""
        def op(st, fr, pc):
            fr[F_PC] = pc + 1
            return D.PAUSE if action(st, fr) == D.PAUSE else pc + 1
        return Op(op, calls=name)

    def bound(self, var: A.Var):
        """The expression a `let` name stands for (folded where it is constant), or None."""
        node = self.checked.refers.get(id(var))
        if isinstance(node, A.Let) and not isinstance(node.value, A.ChoosePlayer):
            return node.value
        return None

    def prologue(self) -> list[Op]:
        """Ops before the body: turn.draw notes the drawer's hand size."""
        if self.before is None:
            return []
        before = self.before

        def note(st, fr, pc):
            fr[before] = len(st.hands[fr[F_SELF]])
            return pc + 1
        return [Op(note)]

    def epilogue(self) -> list[Op]:
        """Ops after the body: turn.draw names the drawn card, the last one the effect put in the drawer's hand."""
        if self.before is None:
            return []
        return [self.call("note_drawn", _SELF, _slot(self.before))]

    # --- statements

    def block(self, body) -> list[Op]:
        ops: list[Op] = []
        for stmt in body:
            getattr(self, "s_" + stmt.rule)(stmt, ops)
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

        def op(st, fr, pc):
            draw_until(st, who(st, fr), meets, fr)
            return pc + 1
        ops.append(Op(op, calls="draw_until"))

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
        who, choose = who.fn, self.low.ops["choose_color"]
        ops.append(self.decision("choose_color", lambda st, fr: choose(st, who(st, fr))))

    def s_set_color(self, s, ops):
        ops.append(self.call("set_color", self.expr(s.color)))

    def s_let(self, s, ops):
        if isinstance(s.value, A.ChoosePlayer):
            group = self.expr(s.value.group).fn
            slot = self.slots[id(s)] = self.new_slot(PLAYER)
            choose = self.low.ops["choose_player"]
            ops.append(self.decision("choose_player", lambda st, fr: choose(st, fr, slot, group(st, fr))))
            return
        fn = self.expr(s.value).fn
        slot = self.slots[id(s)] = self.new_slot(self.checked.types[id(s.value)])

        def assign(st, fr, pc):
            fr[slot] = fn(st, fr)
            return pc + 1
        ops.append(Op(assign))

    def s_swap_hands(self, s, ops):
        ops.append(self.call("swap_hands", _SELF, self.expr(s.who)))

    def s_rotate_hands(self, s, ops):
        ops.append(self.call("rotate_hands"))

    def s_give(self, s, ops):
        giver, n, taker = self.expr(s.giver).fn, self.expr(s.count).fn, self.expr(s.taker).fn
        give = self.low.ops["give"]
        ops.append(self.decision("give", lambda st, fr: give(st, giver(st, fr), n(st, fr), taker(st, fr))))

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
        ops.append(self.decision("exchange_pick", lambda st, fr: pick(st, fr[sa], fr[sb], fr[sn], 0)))
        ops.append(self.decision("exchange_pick", lambda st, fr: pick(st, fr[sb], fr[sa], fr[sn], 1)))
        ops.append(self.call("exchange_finish", _slot(sa), _slot(sb)))

    def s_look(self, s, ops):
        ops.append(self.call("look", _SELF, self.expr(s.who)))

    def s_trade(self, s, ops):
        who, trade = self.expr(s.who).fn, self.low.ops["trade"]
        ops.append(self.decision("trade", lambda st, fr: trade(st, fr[F_SELF], who(st, fr))))

    # named piles

    def pile(self, name: str) -> Value:
        """A pile as the pile instructions number it: layout.DRAW_PILE, DISCARD_PILE, or a declared pile's index."""
        index = {"draw": D.DRAW_PILE, "discard": D.DISCARD_PILE}.get(name)
        return _const(self.g.pile_names.index(name) if index is None else index)

    def s_move(self, s, ops):
        ops.append(self.call("move_cards", self.expr(s.count), self.pile(s.source), self.pile(s.dest)))

    def s_take(self, s, ops):
        ops.append(self.call("take_cards", self.expr(s.who), self.expr(s.count), self.pile(s.pile)))

    def s_put(self, s, ops):
        who, n, dest = self.expr(s.who).fn, self.expr(s.count).fn, self.pile(s.pile).const
        put = self.low.ops["put_cards"]
        ops.append(self.decision("put_cards", lambda st, fr: put(st, who(st, fr), n(st, fr), dest)))

    def e_pile_count(self, e):
        pile = self.pile(e.pile).const
        if pile == D.DRAW_PILE:
            return Value(lambda st, fr: len(st.draw_pile))
        if pile == D.DISCARD_PILE:
            return Value(lambda st, fr: len(st.discard))
        return Value(lambda st, fr: len(st.piles[pile]))

    def e_pile_top_attr(self, e):
        table, none = self._attribute(e.name)
        pile = self.pile(e.pile).const
        if pile == D.DRAW_PILE:
            return Value(lambda st, fr: table[st.draw_pile[-1]] if st.draw_pile else none)
        if pile == D.DISCARD_PILE:
            return Value(lambda st, fr: table[st.discard[-1]] if st.discard else none)
        return Value(lambda st, fr: table[st.piles[pile][-1]] if st.piles[pile] else none)

    def s_discard_color(self, s, ops):
        ops.append(self.call("discard_color", self.expr(s.who), self.expr(s.color)))

    def s_redeal(self, s, ops):
        ops.append(self.call("redeal", _SELF))

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
        ops.append(Op(op, calls="must_play"))
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
        group = self.expr(s.group).fn
        list_slot, idx_slot = self.new_slot(SEATS), self.new_slot(INT)
        var_slot = self.slots[id(s)] = self.new_slot(PLAYER)
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
        ops.extend((Op(init, forward=False), Op(step, forward=False)))
        ops.extend(body)
        ops.append(_jump(-(size + 1)))

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
        ops.extend((Op(init, forward=False), Op(step, forward=False)))
        ops.extend(body)
        ops.append(_jump(-(size + 1)))

    def s_challenge(self, s, ops):
        who = self.expr(s.who).fn
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
        ops.append(Op(op, calls="challenge"))
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
        ops.append(Op(op, calls="choose_option"))
        at = 1
        for body in bodies:
            ops.extend(body)
            at += len(body)
            ops.append(_jump(end - at))
            at += 1

    def s_call(self, s, ops):
        body, checked = self.low.procedures[s.name]
        # Each argument is taken once, at the call (as `let` would), into a slot the body reads.
        args = {}
        for arg, param in zip(s.args, checked.params):
            value = self.expr(arg)
            if not value.is_const:
                fn, slot = value.fn, self.new_slot(param.type)

                def assign(st, fr, pc, fn=fn, slot=slot):
                    fr[slot] = fn(st, fr)
                    return pc + 1
                ops.append(Op(assign))
                value = _slot(slot)
            args[id(param)] = value
        caller = self.checked
        self.checked = checked
        self.args.update(args)
        ops.extend(self.block(body))
        for key in args:
            del self.args[key]
        self.checked = caller

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
        return Value(lambda st, fr: st.color)

    def e_player_count(self, e):
        return Value(lambda st, fr: st.active_count())

    def e_stack_size(self, e):
        return Value(lambda st, fr: st.stack)

    def e_jumped(self, e):
        return Value(lambda st, fr: bool(fr[F_JUMPED]))

    def e_card_attr(self, e):
        table, none = self._attribute(e.name)
        return Value(lambda st, fr: table[fr[F_CARD]] if fr[F_CARD] >= 0 else none)

    def e_top_attr(self, e):
        table, none = self._attribute(e.name)
        return Value(lambda st, fr: table[st.discard[-1]] if st.discard else none)

    def e_top_is(self, e):
        kind, table = e.kind, self.g.k_category
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
        node = self.checked.refers[id(e)]
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
        return Value(_compare_with(e.op, left.fn, c))

    def _compare_hand_size(self, fn, who_node, who: Value, c) -> Value:
        """`hand(next) OP c` or `hand(self) OP c` as one closure: the size is taken in place.

        The answer for every size a hand can have (0 to the deck's size) is worked out once;
        a run looks it up instead of calling the operator. The may-draw condition of All
        Wild (`hand(next) == 1`) runs on every turn.
        """
        answers = tuple(fn(size, c) for size in range(len(self.g.deck) + 1))
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
        return Value(compare)

    def e_binop(self, e):
        lf, rf = self.expr(e.left).fn, self.expr(e.right).fn
        if e.op == "+":
            return Value(lambda st, fr: lf(st, fr) + rf(st, fr))
        if e.op == "-":
            return Value(lambda st, fr: lf(st, fr) - rf(st, fr))
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
        f = self.expr(e.operand).fn
        return Value(lambda st, fr: not f(st, fr))

    def e_and_expr(self, e):
        return _logic([self.expr(part) for part in e.parts], True)

    def e_or_expr(self, e):
        return _logic([self.expr(part) for part in e.parts], False)

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
            return Value(lambda st, fr: st.holds_playable(who(st, fr)))
        raise TypeError(f"no lowering for the holding '{what.rule}'")

    def e_is_out(self, e):
        who = self.expr(e.who).fn
        return Value(lambda st, fr: st.is_out(who(st, fr)))

    def e_is_partner(self, e):
        a, b = self.expr(e.who).fn, self.expr(e.other).fn
        return Value(lambda st, fr: st.same_team(a(st, fr), b(st, fr)) and a(st, fr) != b(st, fr))

    def e_card_is(self, e):
        kind, table = e.kind, self.g.k_category
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
        at = D.SET_FIELDS.index(e.name)
        return Value(lambda st, fr: st.set_play[at])

    def e_set_card_attr(self, e):
        table, none = self._attribute(e.name)
        at = D.SET_FIELDS.index(e.card)
        return Value(lambda st, fr: table[st.set_play[at]] if st.set_play[at] >= 0 else none)


# --- building blocks ----------------------------------------------------------------------------


def _const(value) -> Value:
    """An expression that always gives `value`.

    A plain function, not an object with __call__: effects call constants at run time
    too (`next draws 2` where the op is generic), and a function call is the cheaper.
    """
    def constant(st, fr):
        return value
    return Value(constant, const=value)


def _slot(index: int) -> Value:
    """An expression that reads one frame slot (self, a local)."""
    def read(st, fr):
        return fr[index]
    return Value(read, slot=index)


_SELF = _slot(F_SELF)      # the player whose card or event this is
_NEVER = _const(False)     # the test of an option a ruling leaves out


def _next(st, fr):
    """The next player after self (`next`)."""
    return st.next_of(fr[F_SELF])


_NEXT = Value(_next)


def _call(method, *args: Value):
    """An op that calls method(state, *values of args) and continues with the next op.

    One function call per op: a constant argument is built in and a frame slot is
    read in place, so `skip next` and `next draws 2` make no call for `2` or for
    the wrapper a generic op would need.
    """
    kinds = ["const" if a.is_const else "slot" if a.slot is not None else "call" for a in args]
    if not args:
        def op(st, fr, pc):
            method(st)
            return pc + 1
    elif kinds == ["const"]:
        value = args[0].const

        def op(st, fr, pc):
            method(st, value)
            return pc + 1
    elif kinds == ["slot"]:
        index = args[0].slot

        def op(st, fr, pc):
            method(st, fr[index])
            return pc + 1
    elif len(args) == 1:
        a = args[0].fn

        def op(st, fr, pc):
            method(st, a(st, fr))
            return pc + 1
    elif len(args) == 2 and kinds[0] == "slot" and kinds[1] == "const":
        index, value = args[0].slot, args[1].const

        def op(st, fr, pc):
            method(st, fr[index], value)
            return pc + 1
    elif len(args) == 2 and kinds[1] == "const":
        a, value = args[0].fn, args[1].const

        def op(st, fr, pc):
            method(st, a(st, fr), value)
            return pc + 1
    elif len(args) == 2 and kinds[0] == "slot":
        index, b = args[0].slot, args[1].fn

        def op(st, fr, pc):
            method(st, fr[index], b(st, fr))
            return pc + 1
    elif len(args) == 2:
        a, b = args[0].fn, args[1].fn

        def op(st, fr, pc):
            method(st, a(st, fr), b(st, fr))
            return pc + 1
    else:
        fns = [a.fn for a in args]

        def op(st, fr, pc):
            method(st, *[f(st, fr) for f in fns])
            return pc + 1
    return op


def _jump(offset: int) -> Op:
    def jump(st, fr, pc):
        return pc + offset
    return Op(jump, forward=offset > 0, jump=offset)


def _branch(cond: Value, if_true: int, if_false: int) -> Op:
    if cond.is_const:
        return _jump(if_true if cond.const else if_false)
    test = cond.fn

    def branch(st, fr, pc):
        return pc + (if_true if test(st, fr) else if_false)
    return Op(branch, test=cond, if_false=if_false)      # an `if` test: both ways lead forward


def _compare_with(op: str, lf, c):
    """`lf OP c` with the constant c built in."""
    if op == "==":
        return lambda st, fr: lf(st, fr) == c
    if op == "!=":
        return lambda st, fr: lf(st, fr) != c
    if op == "<":
        return lambda st, fr: lf(st, fr) < c
    if op == "<=":
        return lambda st, fr: lf(st, fr) <= c
    if op == ">":
        return lambda st, fr: lf(st, fr) > c
    return lambda st, fr: lf(st, fr) >= c


def _logic(parts: list[Value], is_and: bool) -> Value:
    """`and` (is_and) or `or` of lowered conditions, left to right, stopping early.

    Constants that cannot decide the result (true in an `and`, false in an `or`) are
    dropped, and so is everything after one that does (it would never run).
    """
    kept = []
    for part in parts:
        if not part.is_const:
            kept.append(part.fn)
        elif part.const is not is_and:
            if not kept:
                return _const(part.const)
            kept.append(part.fn)
            break
    if not kept:
        return _const(is_and)
    if len(kept) == 1:
        return Value(kept[0])
    if len(kept) == 2:
        a, b = kept
        if is_and:
            return Value(lambda st, fr: a(st, fr) and b(st, fr))
        return Value(lambda st, fr: a(st, fr) or b(st, fr))
    if is_and:
        return Value(lambda st, fr: all(p(st, fr) for p in kept))
    return Value(lambda st, fr: any(p(st, fr) for p in kept))

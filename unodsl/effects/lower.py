"""Checked syntax tree -> engine code: op lists of closures, and the records that say what the code may do.

An effect lowers to a flat list of ops; an op is a closure `op(state, frame, pc) -> pc`
returning the next pc, or PAUSE after it has set up a decision. Expressions lower to
closures `fn(state, frame) -> value`. Nothing is parsed or looked up by name while a
game runs. What the engine needs to know about the code (may it pause, push an effect,
reshape hands, draw; its guard; the may-draw table) is in the records `Code` and
`Predicate`, worked out here from the tree and the instruction set's declared flags.

`_Unit` holds one effect's slots; the statements lower in `lower_statements`, the
expressions in `lower_expressions`, from the records and building blocks of `code`.
"""

from __future__ import annotations

from typing import Callable

from . import ast as A
from . import layout as D
from .code import _SELF, Code, Live, Op, Predicate, Value, Written, _call, _const, _slot, label_of
from .layout import F_LOCALS, F_PC, F_SELF, PAUSES
from .lower_expressions import CollectionLowering, ExpressionLowering, FunctionLowering, UnderLowering
from .lower_statements import StatementLowering
from .types import INT, PLAYER, Checked


class Lowering:
    """Lowers the checked effects and conditions of one variant against a game's tables and instruction set."""

    def __init__(self, game, ops: dict, flags: dict):
        self.game = game
        self.ops = ops                  # the engine's instruction set: name -> function(state, *args)
        self.flags = flags              # name -> what it may do
        # Fused forms (hand sizes read in place, `hand(x) OP c` from a table): the Game's fast mode only.
        self.fused = getattr(game, "fast", True)
        self.procedures: dict[str, tuple] = {}      # name -> (statements, Checked): the bodies calls inline
        self.functions: dict[str, tuple] = {}       # name -> (expression, Checked, type, scan): inlined likewise

    def effect(self, tree: A.Effect, checked: Checked) -> Code:
        unit = _Unit(self, checked)
        unit.source = tree.text
        unit.counts = True                     # a collection read in an effect counts its members as steps
        if any(isinstance(node, (A.UnderAttr, A.UnderIs)) for node in A.walk(tree)):
            unit.under = unit.new_slot(INT)    # the card under the played one, noted as the effect starts
        ops = unit.prologue()
        ops += unit.block(tree.body)
        ops += unit.epilogue()
        if unit.under is not None:
            unit.lives(unit.under, unit.under_op, ops, most=self.game.num_kinds)
        calls = frozenset(op.calls for op in ops if op.calls)
        flags = frozenset(f for name in calls for f in self.flags[name])
        # A guard is tested ahead of the code by the fast path, then again by the code: not one that draws.
        at = {id(op): pc for pc, op in enumerate(ops)}
        picks = tuple((at[id(op)] + past, keep) for op, keep, past in unit.picks)   # the pc a pick resumes at
        return Code(tuple(op.run for op in ops), unit.nlocals, tuple(unit.slot_kinds), calls, flags,
                    not all(op.forward for op in ops), None if unit.chance or unit.scans else _guard(ops),
                    unit.live_ranges(ops), picks, self.pauses(ops), _lines(ops, unit.written), tuple(ops))

    def pauses(self, ops: list) -> tuple:
        """(resume pc, instruction) of each op that may pause: a saved frame paused at pc asks what one of
        them asks (savefile). Every op running a pausing instruction must say where it resumes."""
        pauses = []
        for pc, op in enumerate(ops):
            if op.calls is not None and PAUSES in self.flags[op.calls]:
                if op.resume is None:
                    raise AssertionError(f"the op running '{op.calls}' may pause but says not where it resumes")
                pauses.append((pc + op.resume, op.calls))
        return tuple(pauses)

    def condition(self, tree: A.Condition, checked: Checked) -> Predicate:
        unit = _Unit(self, checked)
        value = unit.expr(tree.test)
        own = None if value.is_const else unit.own_table(value)
        return Predicate(value.fn, value.const if value.is_const else None, unit.next_answers.get(id(value.fn)), own)


def _lines(ops: list[Op], written: dict) -> tuple:
    """Per pc, the Written record of the statement its op came from (None: the prologue's or epilogue's)."""
    lines = []
    for op in ops:
        at = written.get(id(op))
        lines.append(None if at is None else Written(*at, label_of(op, at[3])))
    return tuple(lines)


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


class _Unit(StatementLowering, ExpressionLowering, CollectionLowering, FunctionLowering, UnderLowering):
    """The lowering of one effect text: its local slots."""

    def __init__(self, lowering: Lowering, checked: Checked):
        self.low = lowering
        self.g = lowering.game
        self.checked = checked
        self.slots: dict[int, int] = {}         # id(Let or ForEach) -> the slot of the name it binds
        self.nlocals = 0
        self.slot_kinds: list[str] = []
        self.live: list[tuple] = []             # (slot, setter op, ops after it, scope, most, len_of): see lives()
        self.next_answers: dict[int, tuple] = {}    # id(closure) -> its table, for `hand(next) OP c`
        self.own_answers: dict[int, tuple] = {}     # id(closure) -> (closure, its table by the own hand size)
        self.chance = False                     # draws at random (`random ...`): no test may be made twice
        self.args: dict[int, Value] = {}        # id(Param) -> its argument, while a call's body is lowered
        self.drawn: list[int] | None = None          # the cell `drawn` reads, in a `draws until` condition
        self.cells: dict[int, list] = {}        # id(filter or aggregate) -> the cell of the member it reads
        self.scans = False                      # reads a collection: its guard would count steps twice
        self.counts = False                     # an effect's (not a condition's): member reads count as steps
        self.picks: list[tuple] = []            # (the op of a pick with `where`, its keep(state, frame, card))
        # uno.penalty and uno.catch.if: the engine puts the catcher in the first local (layout.F_CATCHER) of the
        # frame it pushes or tests the condition with.
        self.catcher = self.new_slot(PLAYER) if checked.where in ("uno_penalty", "uno_catch") else None
        # turn.draw: the drawer's hand size before the effect, to tell the card it drew (epilogue).
        self.before = self.new_slot(INT) if checked.where == "turn_draw" else None
        self.prologue_op: Op | None = None         # the op that sets `before`
        self.under: int | None = None             # the slot noting the card under the played one (`under`)
        self.under_op: Op | None = None
        self.source = None                        # the text whose statements are lowered now (a call's: its body)
        self.written: dict[int, tuple] = {}       # id(op) -> (text, line, column, rule) of the statement that made it

    def new_slot(self, kind: str) -> int:
        """A new local slot holding values of `kind` (an expression type, or SEATS: a `for`'s list)."""
        slot = F_LOCALS + self.nlocals
        self.nlocals += 1
        self.slot_kinds.append(kind)
        return slot

    def lives(self, slot: int, setter: Op, scope, after: int = 1, most: int | None = None,
              len_of: int | None = None) -> None:
        """Say that `slot` holds a value from `after` ops past `setter` to the end of `scope` (an op, or a
        block's list of ops, read once the effect is lowered). The code is structured: no jump enters a
        block past its start, so every path to a pc in that range went through `setter`."""
        self.live.append((slot, setter, after, scope, most, len_of))

    def live_ranges(self, ops: list[Op]) -> tuple:
        """The Live records of the effect whose ops (flat, in order) are `ops`."""
        at = {id(op): pc for pc, op in enumerate(ops)}
        live = []
        for slot, setter, after, scope, most, len_of in self.live:
            last = scope[-1] if isinstance(scope, list) else scope
            if id(setter) in at and at[id(setter)] + after <= at[id(last)]:
                live.append(Live(slot, at[id(setter)] + after, at[id(last)], most, len_of))
        if self.catcher is not None and ops:            # the engine sets it when it pushes the frame
            live.append(Live(self.catcher, 0, len(ops) - 1))
        return tuple(sorted(live, key=lambda r: (r.slot, r.first)))

    def call(self, name: str, *args: Value) -> Op:
        """An op that runs the engine's instruction `name` on the values of args."""
        return Op(_call(self.low.ops[name], *args), calls=name, args=args)

    def decision(self, name: str, action: Callable, args: tuple = ()) -> Op:
        """An op that runs `action(state, frame)`, a call of instruction `name` that may pause for a decision;
        it resumes (or continues) at the next op. `args`: the operands it was written with (the chooser), which
        the generated fast mode reads (engine/generated.py)."""
        def op(st, fr, pc):
            fr[F_PC] = pc + 1
            return D.PAUSE if action(st, fr) == D.PAUSE else pc + 1
        return Op(op, calls=name, resume=1, args=args)

    def bound(self, var: A.Var):
        """The expression a `let` name stands for (folded where it is constant), or None."""
        node = self.checked.refers.get(id(var))
        if isinstance(node, A.Let) and not isinstance(node.value, (A.ChoosePlayer, A.ChooseColorValue,
                                                                        A.ChooseNumber)):
            return node.value
        return None

    def prologue(self) -> list[Op]:
        """Ops before the body: turn.draw notes the drawer's hand size; a card reading `under` notes the
        card it was played on (its kind + 1, 0 for none), before the effect moves any card."""
        if self.under is not None:
            under = self.under

            def note_under(st, fr, pc):
                discard = st.discard if st.on_pile < 0 else st.piles[st.on_pile]     # the pile it was played on
                fr[under] = discard[-2] + 1 if len(discard) > 1 else 0
                return pc + 1
            op = Op(note_under)
            self.under_op = op
            return [op]
        if self.before is None:
            return []
        before = self.before

        def note(st, fr, pc):
            fr[before] = len(st.hands[fr[F_SELF]])
            return pc + 1
        self.prologue_op = Op(note)
        return [self.prologue_op]

    def epilogue(self) -> list[Op]:
        """Ops after the body: turn.draw names the drawn card, the last one the effect put in the drawer's hand."""
        if self.before is None:
            return []
        op = self.call("note_drawn", _SELF, _slot(self.before))
        self.lives(self.before, self.prologue_op, op)
        return [op]

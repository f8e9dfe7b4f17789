"""Lowered code: the records the lowering hands the engine (`Code`, `Predicate`) and the pieces it
builds them from (`Value`, `Op`, and the building blocks that make ops and expressions of closures).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .layout import DRAWS, F_SELF, PAUSES, PUSHES, RESHAPES

_NO_VALUE = object()


@dataclass(frozen=True, slots=True)
class Value:
    """A lowered expression: its closure, and what an op can build in instead of calling it."""

    fn: Callable
    const: object = _NO_VALUE      # the value, when it is constant
    slot: int | None = None        # the frame slot it reads, when it only reads one (self, a local)
    form: tuple | None = None      # what a generator may write as source instead (engine/generated.py):
                                   # ("players", OP, c) for `players OP c`

    @property
    def is_const(self) -> bool:
        return self.const is not _NO_VALUE


@dataclass(frozen=True, slots=True)
class Live:
    """Where a local certainly holds a value: in a frame paused at any pc from `first` to `last`.

    The loader refuses a saved frame without it there (a genuine one always has it). `most` bounds
    an INT local (0 to `most`); `len_of`, a `for`'s index, bounds it by the length of that slot's list.
    """

    slot: int
    first: int
    last: int
    most: int | None = None
    len_of: int | None = None


@dataclass(frozen=True, slots=True)
class Written:
    """Where an op came from: the statement (its rule) at (line, column) of an effect or procedure text, and
    what the op does (`label`: the instruction it runs, or what the statement computes or tests)."""

    text: object                    # the model's Text: its source and the YAML node that places it in a file
    line: int
    column: int
    rule: str
    label: str

    def where(self) -> tuple[str, int, int]:
        """(path, line, column) in the file (the effect's own position when the node cannot place it)."""
        node = getattr(self.text, "node", None)
        if node is None:
            return ("<builtin>", self.line, self.column)
        try:
            return (node.path, *node.locate(self.line, self.column))
        except Exception:                       # a position the node cannot map: its value's start
            return (node.path, node.line, node.column)

    def source_line(self) -> str:
        """The statement's line of its text, as written."""
        lines = getattr(self.text, "source", "").splitlines()
        return lines[self.line - 1].strip() if 0 < self.line <= len(lines) else ""


def label_of(op: "Op", rule: str) -> str:
    """What an op does, in a word or two: its instruction, its jump, or what its statement computes."""
    if op.calls is not None:
        return op.calls
    if op.jump is not None:
        return f"jump {op.jump:+d}"
    if op.if_false is not None:
        return f"test, else {op.if_false:+d}"
    return rule.removesuffix("_stmt")


@dataclass(frozen=True, slots=True)
class Op:
    """One lowered op and what it does, for the Code record (the engine runs only `run`)."""

    run: Callable
    calls: str | None = None        # the instruction it runs, if any
    resume: int | None = None       # an op that may pause: the offset from its pc at which its frame resumes
    forward: bool = True            # False: a loop's own step or a jump back
    jump: int | None = None         # an unconditional jump: its offset
    test: Value | None = None       # an `if` test: the condition, and the offset taken when false
    if_true: int | None = None      # ... and the offset taken when true
    if_false: int | None = None
    args: tuple = ()                # a call's operands (Values), as the instruction takes them: what a generator reads


@dataclass(frozen=True, slots=True)
class Code:
    """A lowered effect: the engine's (ops, locals) and the facts its fast paths read."""

    ops: tuple                      # op(state, frame, pc) -> next pc
    nlocals: int
    local_kinds: tuple[str, ...]    # what each local holds (a type, or SEATS)
    calls: frozenset[str]           # the instructions its ops run
    flags: frozenset[str]           # what those instructions may do (layout.PAUSES, ...)
    loops: bool                     # has a `for each` or `repeat`
    guard: Callable | None          # the test without which it does nothing (None: it may always do something)
    live: tuple = ()                # a Live per local certainly set over a range of pcs
    picks: tuple = ()               # (pc, keep): a pick paused to resume at pc offers only the cards
                                    # keep(state, frame, card) accepts (`gives ... where`): pick_filter
    pauses: tuple = ()              # (pc, instruction): a frame that one of its ops paused resumes at pc
                                    # (a save's decision must be one that op asks): pause_names
    lines: tuple = ()               # per pc: the Written it was lowered from (None: the engine's own op)
    records: tuple = ()             # per pc: its Op (what it calls, with which operands): the generated fast
                                    # mode is made from these (engine/generated.py)
    name: str = ""                  # the file's key it was written under ("cards.skip.on_play"), given when
                                    # a Game registers it: `unodsl explain` and a stopped effect's event name it

    def pick_filter(self, pc: int) -> Callable | None:
        """The filter of a pick paused to resume at pc (None: any card)."""
        for at, keep in self.picks:
            if at == pc:
                return keep
        return None

    def pause_names(self, pc: int) -> tuple[str, ...]:
        """The instructions whose paused frame resumes at pc."""
        return tuple(name for at, name in self.pauses if at == pc)

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
    own_answers: tuple | None = None    # reads nothing but hand(self): the answer (true or false) by its size


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
# The two seats an op's operand most often is, by identity: what the generated fast mode reads (engine/generated.py).
SELF_SEAT, NEXT_SEAT = _SELF, _NEXT


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
    return Op(branch, test=cond, if_true=if_true, if_false=if_false)      # an `if` test: both ways lead forward


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
    kept, only = [], None
    for part in parts:
        if not part.is_const:
            kept.append(part.fn)
            only = part
        elif part.const is not is_and:
            if not kept:
                return _const(part.const)
            kept.append(part.fn)
            break
    if not kept:
        return _const(is_and)
    if len(kept) == 1:
        return Value(kept[0], form=only.form)
    if len(kept) == 2:
        a, b = kept
        if is_and:
            return Value(lambda st, fr: a(st, fr) and b(st, fr))
        return Value(lambda st, fr: a(st, fr) or b(st, fr))
    if is_and:
        return Value(lambda st, fr: all(p(st, fr) for p in kept))
    return Value(lambda st, fr: any(p(st, fr) for p in kept))

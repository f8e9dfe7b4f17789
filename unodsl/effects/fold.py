"""Constant folding: the value an expression has every time it runs, when the variant alone decides it.

Literals and rulings are known once a variant is compiled, and so is a name bound by
`let` to such an expression. The lowering builds a constant into the code (`players == 2
and rule.x` with x true runs as `players == 2`; an `if` on a constant is a jump), and the
rulebook says what this variant does rather than what it could do; both ask this folder,
so they cannot disagree. Values are folded as they would be computed at run time
(`*` clamps, `//` and `%` by zero give 0). Expressions have no side effects, so `x and false`
is false without running x.
"""

from __future__ import annotations

import operator
from typing import Callable

from . import ast as A

CLAMP = 10**9              # every sum, difference and product is held within +-CLAMP, at run time as when folded

COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}


def clamp(value: int) -> int:
    """A sum, difference or product as the engine keeps it: within +-CLAMP."""
    return max(-CLAMP, min(CLAMP, value))


def arithmetic(op: str, a: int, b: int) -> int:
    """`a op b` for the language's + - * // %, as at run time."""
    if op == "+":
        return clamp(a + b)
    if op == "-":
        return clamp(a - b)
    if op == "*":
        return clamp(a * b)
    if op == "%":
        return a % b if b else 0          # as Python's: the sign of b, so `(p - 1) % players` is a seat
    return a // b if b else 0


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def fold(expr: A.Node, ruling: Callable[[str], object], bound: Callable[[A.Var], A.Expr | None] | None = None):
    """The value of `expr` (a bool, int or str) when it is constant, else None.

    `ruling(name)` gives a ruling's value; `bound(var)` the expression a `let` name stands
    for (None: it stands for none, or is not a `let` name).
    """
    if isinstance(expr, A.Int):
        return int(expr.digits) if len(expr.digits) <= 9 else None
    if isinstance(expr, A.TrueLit):
        return True
    if isinstance(expr, A.FalseLit):
        return False
    if isinstance(expr, A.String):
        return expr.value
    if isinstance(expr, A.RuleRef):
        value = ruling(expr.name)
        return value if value is None or isinstance(value, (bool, int)) else str(value)
    if isinstance(expr, A.Var):
        target = bound(expr) if bound is not None else None
        return fold(target, ruling, bound) if target is not None else None
    if isinstance(expr, A.Not):
        inner = fold(expr.operand, ruling, bound)
        return (not inner) if isinstance(inner, bool) else None
    if isinstance(expr, (A.And, A.Or)):
        decides = isinstance(expr, A.Or)          # the value that settles it: true in an `or`, false in an `and`
        parts = [fold(part, ruling, bound) for part in expr.parts]
        if any(part is decides for part in parts):
            return decides
        if all(part is (not decides) for part in parts):
            return not decides
        return None
    if isinstance(expr, A.Compare):
        a, b = fold(expr.left, ruling, bound), fold(expr.right, ruling, bound)
        if a is None or b is None or isinstance(a, bool) != isinstance(b, bool):
            return None
        try:
            return COMPARE[expr.op](a, b)
        except TypeError:
            return None
    if isinstance(expr, A.BinOp):
        a, b = fold(expr.left, ruling, bound), fold(expr.right, ruling, bound)
        return arithmetic(expr.op, a, b) if _number(a) and _number(b) else None
    if isinstance(expr, A.Neg):
        a = fold(expr.operand, ruling, bound)
        return -a if _number(a) else None
    return None

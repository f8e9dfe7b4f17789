"""The syntax tree's base classes: spans, nodes, the registry of node classes by grammar rule, the roots."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...model.variant import Text


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node was written within its effect text."""

    line: int
    column: int
    end_line: int
    end_column: int


NO_SPAN = Span(1, 1, 1, 1)     # a node Lark gives no position (none in the grammar today)


@dataclass(frozen=True, slots=True)
class Node:
    """A node of the tree; `span` is not part of its value (equal trees may sit at different places)."""

    rule: ClassVar[str] = ""
    span: Span = field(kw_only=True, compare=False, repr=False)


class Stmt(Node):
    """A statement (its subclasses are dataclasses; this one only groups them)."""

    __slots__ = ()


class Expr(Node):
    """An expression: a number, condition, player, group, color or string."""

    __slots__ = ()


# Grammar rule (or alias) -> its node class; filled in by @_rule, below.
NODES: dict[str, type] = {}


def _rule(name: str):
    """Decorate a node class: a frozen slotted dataclass standing for grammar rule `name`."""
    def make(cls):
        cls.rule = name
        made = dataclass(frozen=True, slots=True)(cls)
        NODES[name] = made
        return made
    return make


# ---- roots ---------------------------------------------------------------------------------------


@_rule("effect")
class Effect(Node):
    body: tuple[Stmt, ...]
    text: Text = field(kw_only=True, compare=False, repr=False)


@_rule("condition")
class Condition(Node):
    test: Expr
    text: Text = field(kw_only=True, compare=False, repr=False)

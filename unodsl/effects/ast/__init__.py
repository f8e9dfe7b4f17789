"""The effect syntax tree: one frozen, slotted node class per grammar rule, each with its source span.

`effects.parse` builds it once from Lark's tree; the checker, the folder, the lowering
and the rulebook read it. Each class names the grammar rule (or alias) it stands for in
`rule`, and the passes over the tree have one method per rule, named after it.

A span is a position within the effect text (1-based lines and columns, as Lark counts
them); a condition's spans are in its own lines, although it is parsed as one line. The
root (Effect, Condition) holds the Text, so `diagnostic_at` can reach the file position.

The classes live in `nodes` (the bases and the roots), `statements` and `expressions`; this
module re-exports them all and holds the registry's views and the walks over a tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ...diagnostics import Diagnostic
from ...model.variant import Text
# The node classes, re-exported: the passes read every one as `A.Name` (`from . import ast as A`).
# Imported in the order the classes were written, which is the order of NODES.
from .nodes import *                  # noqa: F401,F403
from .statements import *             # noqa: F401,F403
from .expressions import *            # noqa: F401,F403
from .nodes import NODES, Condition, Effect, Expr, Node, Stmt
from .statements import BRANCHES, Branch, Clause, Option


# ---- the registry and walking --------------------------------------------------------------------


NODES.update({kind: Branch for kind in BRANCHES})       # the branches of a challenge share one class
STATEMENTS = tuple(sorted(name for name, cls in NODES.items() if issubclass(cls, Stmt)))
EXPRESSIONS = tuple(sorted(name for name, cls in NODES.items() if issubclass(cls, Expr)))


def children(node) -> Iterator[Node]:
    """The nodes directly below `node` (clause tests and bodies, branches, operands), in source order."""
    for name in node._fields:         # the keyword-only fields (span, text, op_span) are not nodes
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Clause):
                    yield item.test
                    yield from item.body
                elif isinstance(item, Option):
                    if item.test is not None:
                        yield item.test
                    yield from item.body
                elif isinstance(item, Node):
                    yield item


def walk(node) -> Iterator[Node]:
    """`node` and every node below it, parents first, without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(children(current))))


@dataclass(frozen=True)
class Syntax:
    """Every effect and condition text of one variant, parsed once (`effects.parse.parse_variant`)."""

    trees: dict[int, Effect | Condition]    # id(Text) -> its tree; a text not here is empty or was refused
    texts: tuple[Text, ...]                 # the texts parsed, held so that their ids stay theirs
    diagnostics: tuple[Diagnostic, ...]     # E4xx, and E405, E510, E513

    def tree(self, text: Text | None):
        """The tree of one of the variant's texts, or None when it has none (absent, empty or refused)."""
        return None if text is None else self.trees.get(id(text))


def diagnostic_at(text: Text, line: int, column: int, code: str, message: str,
                  severity: str = "error") -> Diagnostic:
    """A diagnostic at (line, column) of effect text `text`, placed at its position in the file."""
    node = text.node
    if node is None:
        return Diagnostic("<builtin>", line, column, code, message, severity)
    try:
        fline, fcol = node.locate(line, column)
    except Exception:                           # a position we cannot map: point at the value
        fline, fcol = node.line, node.column
    return Diagnostic(node.path, fline, fcol, code, message, severity)

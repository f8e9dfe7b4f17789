"""Hover: the schema's description of the key under the cursor, or the summary of a shipped name."""

from __future__ import annotations

import re

from ..source import catalog
from .cursor import key_at, parents
from .schema_tree import SchemaTree

_FLOW_ITEM = re.compile(r"[A-Za-z0-9_\-]+")


def hover_text(lines: list[str], line: int, column: int, schema: SchemaTree) -> tuple[str, int, int] | None:
    """(Markdown, start column, end column) for 0-based (`line`, `column`), or None."""
    found = key_at(lines, line, column)
    if found is not None:
        text = schema.description_at(found.path)
        if text:
            return f"**{'.'.join(found.path)}**\n\n{text}", found.start, found.end
        return None
    return _shipped_name(lines, line, column)


def _shipped_name(lines: list[str], line: int, column: int) -> tuple[str, int, int] | None:
    """The summary of the shipped variant or house rule named under the cursor in `extends`/`include`."""
    text = lines[line]
    for match in _FLOW_ITEM.finditer(text):
        if match.start() <= column <= match.end():
            break
    else:
        return None
    name = match.group(0)
    is_link = bool(re.match(r"^[ ]*(?:extends|check_with)[ ]*:[ ]*" + re.escape(name) + r"[ ]*(?:#.*)?$", text)) \
        or bool(re.match(r"^[ ]*include[ ]*:[ ]*\[", text)) \
        or (text.lstrip().startswith("-") and parents(lines, line, len(text) - len(text.lstrip()) + 1)[-1:] == ("include",))
    if not is_link or catalog.path_of(name) is None:
        return None
    entry = next((e for e in catalog.shipped() if e.name == name), None)
    if entry is None:
        return None
    kind = "house rule" if entry.house_rule else "variant"
    return f"**{entry.title}** (shipped {kind} `{name}`)\n\n{entry.summary}", match.start(), match.end()

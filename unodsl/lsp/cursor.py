"""Where the cursor is in a variant file, read from the lines around it.

A document being typed is seldom valid YAML, so this does not parse it: it reads block-style
YAML by indentation, as a person does. From the line under the cursor and the lines above it,
it finds the path of keys to the mapping or value being typed, whether a key or a value is
being typed, and, inside effect text (an inline value or a `|` block), the text before the cursor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..source.schema_tree import ITEM

# How far up to look for a line's parents: a mapping is not thousands of lines long.
MAX_LINES_UP = 5000

# "  - key: rest": indentation, list dashes, the key (plain or quoted), and what follows the colon.
_KEY_LINE = re.compile(r"""^(?P<lead>[ ]*(?:-[ ]+)*)(?P<key>[A-Za-z0-9_][A-Za-z0-9_.\-]*|"[^"\n]*"|'[^'\n]*')[ ]*:(?=[ ]|$)(?P<rest>.*)$""")
_DASHES = re.compile(r"^(?P<lead>[ ]*)(?P<dashes>(?:-(?:[ ]+|$))+)")
_BLOCK_HEADER = re.compile(r"^[|>][0-9+-]{0,2}[ ]*(?:#.*)?$")
_WORD_BEFORE = re.compile(r"[A-Za-z0-9_\-]*$")


@dataclass(frozen=True)
class Context:
    """What is being typed at the cursor.

    `place` is "key" (a key of the mapping at `path`) or "value" (the value at `path`).
    `word` is the part of the word already typed before the cursor; `siblings` the keys the
    mapping already has (for "key"); `before` the value's text before the cursor, for a
    value: the effect text so far, a `|` block's lines dedented.
    """

    path: tuple[str, ...]
    place: str
    word: str
    siblings: frozenset[str] = frozenset()
    before: str = ""


@dataclass(frozen=True)
class KeyAt:
    """A key written on a line: its path from the root and its columns on that line."""

    path: tuple[str, ...]
    start: int
    end: int


def context_at(lines: list[str], line: int, column: int) -> Context | None:
    """The context at 0-based (`line`, `column`) (columns in characters), or None in a comment."""
    if not 0 <= line < len(lines):
        return None
    text = lines[line]
    before = text[:column]
    block = _block_owner(lines, line, column)
    if block is not None:
        header_line, path, content_indent = block
        body = [lines[i] for i in range(header_line + 1, line)] + [before]
        return Context(path, "value", _word(before), before=_dedent(body, content_indent))
    if _in_comment(before):
        return None
    word = _word(before)
    stripped = before[: len(before) - len(word)]
    match = _KEY_LINE.match(before)
    if match is not None:
        key_col = len(match["lead"])
        path = parents(lines, line, key_col) + _dash_steps(match["lead"]) + (_unquote(match["key"]),)
        rest = match["rest"]
        flow = _flow_context(path, rest)
        if flow is not None:
            return flow
        return Context(path, "value", _word(rest), before=_inline_value(rest))
    dashes = _DASHES.match(stripped)
    if stripped.strip() == "" or (dashes is not None and dashes.end() == len(stripped)):
        key_col = len(stripped)
        lead = dashes["lead"] + dashes["dashes"] if dashes is not None else stripped
        base = parents(lines, line, len(dashes["lead"]) if dashes else key_col)
        path = base + _dash_steps(lead)
        if dashes is not None:
            # "- wor": an item being typed; it may become a scalar or the first key of a mapping.
            return Context(path, "value", word, _siblings(lines, line, key_col))
        return Context(path, "key", word, _siblings(lines, line, key_col))
    return None


def key_at(lines: list[str], line: int, column: int) -> KeyAt | None:
    """The key written at 0-based (`line`, `column`), if the cursor is on one."""
    if not 0 <= line < len(lines) or _block_owner(lines, line, column) is not None:
        return None
    match = _KEY_LINE.match(lines[line])
    if match is None:
        return None
    start, end = match.start("key"), match.end("key")
    if not start <= column <= end:
        return None
    path = parents(lines, line, start) + _dash_steps(match["lead"]) + (_unquote(match["key"]),)
    return KeyAt(path, start, end)


def parents(lines: list[str], line: int, column: int) -> tuple[str, ...]:
    """The path of the mapping that holds a key written at `column` of line `line`."""
    path: list[str] = []
    limit = max(0, line - MAX_LINES_UP)
    for i in range(line - 1, limit - 1, -1):
        if column == 0:
            break
        text = lines[i]
        content = text.lstrip(" ")
        if not content or content.startswith("#"):
            continue
        indent = len(text) - len(content)
        if indent >= column:
            continue
        match = _KEY_LINE.match(text)
        if match is not None:
            key_col = len(match["lead"])
            if key_col < column:
                path.append(_unquote(match["key"]))
            # A key on a dash line lies in a list item: the line's dashes are steps too.
            path.extend(reversed(_dash_steps(match["lead"])))
            column = indent
            continue
        dashes = _DASHES.match(text)
        if dashes is not None:
            path.extend(reversed(_dash_steps(dashes["lead"] + dashes["dashes"])))
            column = indent
            continue
        column = indent                       # a line we cannot read: take it as a parent without a name
    return tuple(reversed(path))


def _block_owner(lines: list[str], line: int, column: int) -> tuple[int, tuple[str, ...], int] | None:
    """(header line, path, content indentation) of the `|`/`>` block scalar the cursor is in, or None."""
    text = lines[line]
    content = text.lstrip(" ")
    # The cursor line belongs to a block only if it is indented more than the block's key:
    # for a blank line, the cursor's column says how far it is indented.
    lowest = (len(text) - len(content)) if content.strip() else column
    first_content: int | None = lowest if content.strip() else None
    limit = max(0, line - MAX_LINES_UP)
    for i in range(line - 1, limit - 1, -1):
        above = lines[i]
        body = above.lstrip(" ")
        if not body.strip():
            continue
        indent = len(above) - len(body)
        match = _KEY_LINE.match(above)
        if match is not None and _BLOCK_HEADER.match(match["rest"].strip()):
            key_col = len(match["lead"])
            if lowest > key_col:
                path = parents(lines, i, key_col) + _dash_steps(match["lead"]) + (_unquote(match["key"]),)
                return i, path, first_content if first_content is not None else lowest
            return None
        if indent == 0:
            return None
        lowest = min(lowest, indent)
        first_content = indent
    return None


def _flow_context(path: tuple[str, ...], rest: str) -> Context | None:
    """The context inside a flow collection (`[a, b` or `{key: v`) that `rest` opens, or None."""
    value = rest.lstrip(" ")
    if not value.startswith(("[", "{")):
        return None
    open_: list[tuple[str, int]] = []        # each open bracket, with the path's length where it opened
    segment_start = 0
    quote: str | None = None
    for i, ch in enumerate(value):
        if quote is not None:
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{":
            open_.append((ch, len(path)))
            path = path + ((ITEM,) if ch == "[" else ())
            segment_start = i + 1
        elif ch in "]}" and open_:
            path = path[:open_.pop()[1]]
            segment_start = i + 1
        elif ch == "," and open_:
            bracket, length = open_[-1]
            path = path[:length + (bracket == "[")]
            segment_start = i + 1
        elif ch == ":" and open_ and open_[-1][0] == "{" and len(path) == open_[-1][1]:
            path = path + (_unquote(value[segment_start:i].strip()),)
            segment_start = i + 1
    if not open_:
        return None
    segment = value[segment_start:].lstrip(" ")
    word = _word(segment)
    if open_[-1][0] == "{" and len(path) == open_[-1][1]:
        return Context(path, "key", word, _flow_keys(value))
    return Context(path, "value", word, before=segment.strip("\"'"))


def _flow_keys(value: str) -> frozenset[str]:
    return frozenset(m.group(1) for m in re.finditer(r"[{,]\s*([A-Za-z0-9_]+)\s*:", value))


def _siblings(lines: list[str], line: int, column: int) -> frozenset[str]:
    """The keys written at `column` in the mapping around `line`."""
    found: set[str] = set()
    for step in (-1, 1):
        i = line + step
        while 0 <= i < len(lines) and abs(i - line) <= MAX_LINES_UP:
            text = lines[i]
            body = text.lstrip(" ")
            indent = len(text) - len(body)
            if body.strip() and not body.startswith("#"):
                match = _KEY_LINE.match(text)
                key_col = len(match["lead"]) if match is not None else None
                if key_col == column:
                    found.add(_unquote(match["key"]))
                    if match["lead"].rstrip().endswith("-"):
                        break                 # the first key of this list item
                elif indent < column:
                    break
            i += step
    return frozenset(found)


def _dash_steps(lead: str) -> tuple[str, ...]:
    return (ITEM,) * lead.count("-")


def _word(text: str) -> str:
    return _WORD_BEFORE.search(text).group(0)


def _unquote(key: str) -> str:
    return key[1:-1] if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'" else key


def _inline_value(rest: str) -> str:
    """The text of an inline value before the cursor, without its opening quote."""
    value = rest.lstrip(" ")
    return value[1:] if value[:1] in ("\"", "'") else value


def _dedent(body: list[str], indent: int) -> str:
    return "\n".join(text[indent:] if text[:indent].strip() == "" else text.lstrip(" ") for text in body)


def _in_comment(before: str) -> bool:
    """Whether `before` ends inside a `#` comment (a `#` at the start or after a space, outside quotes)."""
    quote: str | None = None
    for i, ch in enumerate(before):
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in "\"'" and (i == 0 or before[i - 1] in " :[{,"):
            quote = ch
        elif ch == "#" and (i == 0 or before[i - 1] in " \t"):
            return True
    return False

"""A located YAML value (`Node`) and the mapping of a position inside a string's value back to the
file: through quotes, escapes, folded lines and block indentation.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import LINE_BREAK, split_lines

_ESCAPE_WIDTHS = {"x": 4, "u": 6, "U": 10}
_BREAK_CHARS = "\r\n\x85\u2028\u2029"


@dataclass
class Node:
    """A YAML value with the file position it was read from."""

    kind: str
    value: object
    line: int
    column: int
    end_line: int
    end_column: int
    path: str
    key_line: int | None = None
    key_column: int | None = None
    style: str | None = None
    raw: str | None = None

    def to_python(self) -> object:
        """The plain Python value: dicts, lists and scalars, without positions."""
        if self.kind == "map":
            return {key: child.to_python() for key, child in self.value.items()}
        if self.kind == "seq":
            return [child.to_python() for child in self.value]
        return self.value

    def get(self, key: str) -> Node | None:
        """The value under `key` for a mapping, else None."""
        return self.value.get(key) if self.kind == "map" else None

    def locate(self, offset_line: int, offset_col: int) -> tuple[int, int]:
        """Map a 1-based (line, column) inside this string's value to its 1-based file position."""
        if self.kind != "scalar" or not isinstance(self.value, str) or self.raw is None:
            # Not text read from the file: the best we can do is count from the start.
            if offset_line <= 1:
                return self.line, self.column + max(offset_col, 1) - 1
            return self.line + offset_line - 1, max(offset_col, 1)
        offset_line, offset_col = max(offset_line, 1), max(offset_col, 1)
        if self.style == "|":
            return self._locate_literal(offset_line, offset_col)
        index = _value_index(self.value, offset_line, offset_col)
        offsets = _value_offsets(self.value, self.raw, self.style)
        if index < len(offsets):
            offset = offsets[index]
        else:
            offset = offsets[-1] + 1 if offsets else _content_start(self.raw, self.style)
        return _advance(self.line, self.column, self.raw[:offset])

    def _locate_literal(self, offset_line: int, offset_col: int) -> tuple[int, int]:
        """Literal blocks keep one value line per source line, shifted by the block's indentation."""
        content = split_lines(self.raw)[1:]
        indent = _literal_indent(content, self.value.split("\n"))
        return self.line + offset_line, indent + offset_col



def _advance(line: int, column: int, chunk: str) -> tuple[int, int]:
    """The position just after `chunk` when it starts at (line, column)."""
    last = None
    breaks = 0
    for last in LINE_BREAK.finditer(chunk):
        breaks += 1
    if last is None:
        return line, column + len(chunk)
    return line + breaks, len(chunk) - last.end() + 1



def _value_index(value: str, line: int, column: int) -> int:
    """The index in `value` of a 1-based (line, column) counted over its "\\n"-separated lines."""
    lines = value.split("\n")
    line = min(line, len(lines))
    column = min(column, len(lines[line - 1]) + 1)
    return sum(len(text) + 1 for text in lines[: line - 1]) + column - 1


def _content_start(raw: str, style: str | None) -> int:
    """Where a scalar's text begins inside its raw slice (after a quote or block header)."""
    if style in ("'", '"'):
        return 1
    if style in ("|", ">"):
        match = LINE_BREAK.search(raw)
        return match.end() if match else len(raw)
    return 0


def _value_offsets(value: str, raw: str, style: str | None) -> list[int]:
    """For each character of `value`, the offset in `raw` it was read from (nearest when folded)."""
    offsets: list[int] = []
    j = _content_start(raw, style)
    for char in value:
        while j < len(raw):
            if style == '"' and raw[j] == "\\":
                j, found = _skip_escape(raw, j)
                if found is not None:
                    offsets.append(found)
                    break
                continue
            if raw[j] == char:
                offsets.append(j)
                # A quote doubled inside single quotes reads as one quote.
                j += 2 if style == "'" and raw.startswith("''", j) else 1
                break
            j += 1
        else:
            offsets.append(max(len(raw) - 1, 0))
    return offsets


def _skip_escape(raw: str, j: int) -> tuple[int, int | None]:
    """Step over a double-quoted escape at `j`: (next offset, offset of the character it makes or None)."""
    following = raw[j + 1 : j + 2]
    if following and following in _BREAK_CHARS:
        # An escaped line break makes no character; the folded whitespace after it is skipped too.
        j += 3 if raw.startswith("\r\n", j + 1) else 2
        while j < len(raw) and raw[j] in " \t":
            j += 1
        return j, None
    return j + _ESCAPE_WIDTHS.get(following, 2), j


def _literal_indent(content: list[str], value_lines: list[str]) -> int:
    """The indentation a literal block strips, found from its first non-empty line."""
    for source, text in zip(content, value_lines):
        if text:
            return max(len(source) - len(text), 0)
    first = next((source for source in content if source.strip()), "")
    return len(first) - len(first.lstrip(" "))

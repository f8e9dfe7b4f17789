"""Positions in a document: unodsl's (1-based line and column, lines as YAML breaks them) and LSP's.

unodsl counts lines as YAML does (CRLF, CR, LF, NEL, LS, PS) and columns in characters. The
Language Server Protocol counts lines at CRLF, CR and LF only, and columns in code units of
the negotiated encoding (UTF-16 unless the client asked for another). Both meet at a character
offset into the text, so every conversion goes through one.
"""

from __future__ import annotations

import bisect
import re

from ..diagnostics import LINE_BREAK

_LSP_BREAK = re.compile(r"\r\n|\r|\n")


class Text:
    """A document's text with the line starts of both numberings, to convert positions."""

    def __init__(self, source: str, encoding: str = "utf-16"):
        self.source = source
        self.encoding = encoding
        self._yaml_starts = [0] + [m.end() for m in LINE_BREAK.finditer(source)]
        self._lsp_starts = [0] + [m.end() for m in _LSP_BREAK.finditer(source)]

    def offset_of_unodsl(self, line: int, column: int) -> int:
        """The offset of unodsl's 1-based (line, column), clamped to the text."""
        starts = self._yaml_starts
        line = min(max(line, 1), len(starts))
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.source)
        return min(start + max(column, 1) - 1, end)

    def unodsl_position(self, offset: int) -> tuple[int, int]:
        """unodsl's 1-based (line, column) of character `offset`."""
        offset = min(max(offset, 0), len(self.source))
        line = bisect.bisect_right(self._yaml_starts, offset) - 1
        return line + 1, offset - self._yaml_starts[line] + 1

    def offset_of_lsp(self, line: int, character: int) -> int:
        """The offset of an LSP position (0-based line, code units), clamped to its line."""
        starts = self._lsp_starts
        if line < 0:
            return 0
        if line >= len(starts):
            return len(self.source)
        start = starts[line]
        end = self._line_end(line)
        offset, units = start, 0
        while offset < end and units < character:
            units += self._units(self.source[offset])
            offset += 1
        return offset

    def lsp_position(self, offset: int) -> tuple[int, int]:
        """The LSP (0-based line, code units) of character `offset`."""
        offset = min(max(offset, 0), len(self.source))
        line = bisect.bisect_right(self._lsp_starts, offset) - 1
        start = self._lsp_starts[line]
        if start < offset and self.source[offset - 1] == "\r" and offset < len(self.source) \
                and self.source[offset] == "\n":
            offset -= 1                       # between CR and LF: the end of the line
        return line, sum(self._units(ch) for ch in self.source[start:offset])

    def lsp_lines(self) -> list[str]:
        """The text's lines as LSP counts them, without their line breaks."""
        return _LSP_BREAK.split(self.source)

    def lsp_line_of(self, offset: int) -> int:
        """The 0-based LSP line that holds character `offset`."""
        return bisect.bisect_right(self._lsp_starts, min(max(offset, 0), len(self.source))) - 1

    def lsp_line_start(self, line: int) -> int:
        """The offset where LSP line `line` starts."""
        return self._lsp_starts[min(max(line, 0), len(self._lsp_starts) - 1)]

    def _line_end(self, line: int) -> int:
        """The offset where LSP line `line` ends, before its line break."""
        if line + 1 < len(self._lsp_starts):
            end = self._lsp_starts[line + 1] - 1
            if end > 0 and self.source[end - 1:end + 1] == "\r\n":
                end -= 1
            return end
        return len(self.source)

    def _units(self, ch: str) -> int:
        if self.encoding == "utf-8":
            return len(ch.encode("utf-8", "surrogatepass"))
        if self.encoding == "utf-32":
            return 1
        return 2 if ord(ch) > 0xFFFF else 1

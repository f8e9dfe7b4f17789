"""Diagnostics: located problems found in variant files, and ways to show them.

Every stage of unodsl reports problems as `Diagnostic` values instead of
raising, so one run can show all of them at once, sorted by position, as
plain lines, compiler-style snippets with carets, or JSON.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Iterable, Literal, Mapping

Severity = Literal["error", "warning"]

# YAML (and so every position we report) treats these as line breaks; str.splitlines()
# knows more (\v, \f, \x1c...), which would shift line numbers against PyYAML's marks.
LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")

_CARET_INDENT = "    "
_MAX_SHOWN = 100  # longest source excerpt shown under a diagnostic


@dataclass(frozen=True)
class Diagnostic:
    """One problem at a 1-based position in a file, with a stable code like "E112"."""

    path: str
    line: int
    column: int
    code: str
    message: str
    severity: str = "error"
    end_line: int | None = None
    end_column: int | None = None

    def __post_init__(self) -> None:
        # W codes are warnings by definition, so callers cannot get the two out of step.
        if self.code.startswith("W") and self.severity != "warning":
            object.__setattr__(self, "severity", "warning")

    def sort_key(self) -> tuple:
        """The order diagnostics are shown in: by file, then position, then code."""
        return (self.path, self.line, self.column, self.code)

    def to_dict(self) -> dict:
        """A JSON-ready dict with every field."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }

    def header(self) -> str:
        """The one-line form "path:line:col: CODE message", with line breaks and control characters escaped."""
        return f"{one_line(self.path)}:{self.line}:{self.column}: {self.code} {one_line(self.message)}"


def one_line(text: str) -> str:
    """`text` with every character that cannot be printed (a line break, an escape) written as a Python escape.

    A file name may hold a newline; shown as it is, it would split a diagnostic in two
    and break every tool that reads one diagnostic per line. JSON output keeps the text exact.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


class DiagnosticError(Exception):
    """Raised by API functions that must fail; carries the diagnostics that explain why."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(format_text(self.diagnostics) or "unknown error")


def has_errors(diags: Iterable[Diagnostic]) -> bool:
    """Whether any diagnostic is an error rather than a warning."""
    return any(d.severity == "error" for d in diags)


def split_lines(text: str) -> list[str]:
    """Split text into lines the way YAML counts them (CRLF, CR, LF, NEL, LS, PS)."""
    return LINE_BREAK.split(text)


def offset_to_position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) of character `offset` in `text`."""
    line, line_start = 1, 0
    for match in LINE_BREAK.finditer(text, 0, max(offset, 0)):
        line, line_start = line + 1, match.end()
    return line, offset - line_start + 1


def format_text(diags: Iterable[Diagnostic]) -> str:
    """One "path:line:col: CODE message" line per diagnostic, sorted by position."""
    return "\n".join(d.header() for d in sorted(diags, key=Diagnostic.sort_key))


def format_full(diags: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    """Each diagnostic followed by its source line and a caret line, compiler style."""
    lines_by_path = {path: split_lines(text) for path, text in sources.items()}
    blocks = []
    for diag in sorted(diags, key=Diagnostic.sort_key):
        blocks.append(diag.header())
        snippet = _snippet(diag, lines_by_path.get(diag.path))
        blocks.extend(snippet)
    return "\n".join(blocks)


def _snippet(diag: Diagnostic, lines: list[str] | None) -> list[str]:
    """The source line and caret line for one diagnostic, or nothing if the line is unknown or blank."""
    if lines is None or not 1 <= diag.line <= len(lines) or not lines[diag.line - 1].strip():
        return []
    source = lines[diag.line - 1]
    # Tabs are shown as four spaces, so the caret must move by the widened prefix.
    start = len(_visible(source[: max(diag.column - 1, 0)]))
    width = 1
    if diag.end_line in (None, diag.line) and diag.end_column is not None:
        end = len(_visible(source[: max(diag.end_column - 1, 0)]))
        width = max(end - start, 1)
    shown, start, width = _window(_visible(source).rstrip(), start, width)
    return [_CARET_INDENT + shown, _CARET_INDENT + " " * start + "^" + "~" * (width - 1)]


def _window(shown: str, start: int, width: int) -> tuple[str, int, int]:
    """Cut a long line down to the part around the caret, so one diagnostic stays one screen line."""
    if len(shown) <= _MAX_SHOWN:
        return shown, start, width
    left = max(0, min(start - _MAX_SHOWN // 3, len(shown) - _MAX_SHOWN))
    right = left + _MAX_SHOWN
    head = "..." if left > 0 else ""
    tail = "..." if right < len(shown) else ""
    width = max(min(width, right - start), 1)
    return head + shown[left:right] + tail, start - left + len(head), width


def _visible(text: str) -> str:
    """Source text made safe to print on one terminal line."""
    return "".join("    " if ch == "\t" else (ch if ch.isprintable() else "?") for ch in text)


def format_json(diags: Iterable[Diagnostic]) -> str:
    """A JSON list of diagnostic objects, sorted by position."""
    return json.dumps([d.to_dict() for d in sorted(diags, key=Diagnostic.sort_key)], indent=2)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to `word` (ignoring case), or None when nothing is close."""
    word = str(word)
    by_folded: dict[str, str] = {}
    for candidate in map(str, candidates):
        # The word itself is not a typo of itself, so suggesting it would only confuse.
        if candidate != word:
            by_folded.setdefault(candidate.casefold(), candidate)
    folded = word.casefold()
    if folded in by_folded:
        return by_folded[folded]
    matches = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=0.6)
    return by_folded[matches[0]] if matches else None


def suggestion_suffix(word: str, candidates: Iterable[str]) -> str:
    """The text " (did you mean 'x'?)" for the closest candidate, or "" when there is none."""
    match = did_you_mean(word, candidates)
    return f" (did you mean '{match}'?)" if match is not None else ""

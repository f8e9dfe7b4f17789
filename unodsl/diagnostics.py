"""Diagnostics: located problems found in variant files, and ways to show them.

Every stage of unodsl reports problems as `Diagnostic` values instead of
raising, so one run can show all of them at once, sorted by position, as
plain lines, compiler-style snippets with carets, or JSON.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Iterable, Literal, Mapping

Severity = Literal["error", "warning"]

# YAML (and so every position we report) treats these as line breaks; str.splitlines()
# knows more (\v, \f, \x1c...), which would shift line numbers against PyYAML's marks.
LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")

_CARET_INDENT = "    "
_MAX_SHOWN = 100  # longest source excerpt shown under a diagnostic


@dataclass(frozen=True)
class Edit:
    """Replace the text from (line, column) up to, not including, (end_line, end_column) by `text`; 1-based."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str

    def to_dict(self) -> dict:
        return {"line": self.line, "column": self.column, "end_line": self.end_line, "end_column": self.end_column,
                "text": self.text}


@dataclass(frozen=True)
class Fix:
    """How to mend a diagnostic: edits of the diagnostic's file, and a title that says it (`replace 'colr' by 'color'`)."""

    title: str
    edits: tuple[Edit, ...]

    def to_dict(self) -> dict:
        return {"title": self.title, "edits": [edit.to_dict() for edit in self.edits]}


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
    # What `unodsl check --fix` would change; not part of what the diagnostic *is* (equality, hashing).
    fix: Fix | None = field(default=None, compare=False)

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
            "fix": self.fix.to_dict() if self.fix is not None else None,
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


def format_github(diags: Iterable[Diagnostic]) -> str:
    """One GitHub Actions workflow command per diagnostic (`::error file=...,line=...::message`): annotations on a PR."""
    lines = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        kind = "error" if d.severity == "error" else "warning"
        where = f"file={_github_property(d.path)},line={d.line},col={d.column}"
        if d.end_line is not None and d.end_column is not None:
            where += f",endLine={d.end_line},endColumn={d.end_column}"
        lines.append(f"::{kind} {where},title={_github_property(d.code)}::{_github_data(d.code + ' ' + d.message)}")
    return "\n".join(lines)


def _github_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def format_sarif(diags: Iterable[Diagnostic], tool_version: str, rules: Mapping[str, str] | None = None) -> str:
    """A SARIF 2.1.0 log (what code-scanning services read): one result per diagnostic, its fix as a replacement.

    `rules` maps a code to its one-line description (the tool's rule list); paths are given as written.
    """
    ordered = sorted(diags, key=Diagnostic.sort_key)
    codes = sorted({d.code for d in ordered} | set(rules or {}))
    index = {code: i for i, code in enumerate(codes)}
    results = []
    for d in ordered:
        region = {"startLine": d.line, "startColumn": d.column}
        if d.end_line is not None and d.end_column is not None:
            region.update(endLine=d.end_line, endColumn=d.end_column)
        location = {"artifactLocation": {"uri": _sarif_uri(d.path)}, "region": region}
        result = {"ruleId": d.code, "ruleIndex": index[d.code], "level": "error" if d.severity == "error" else "warning",
                  "message": {"text": d.message}, "locations": [{"physicalLocation": location}]}
        if d.fix is not None:
            result["fixes"] = [{"description": {"text": d.fix.title}, "artifactChanges": [{
                "artifactLocation": {"uri": _sarif_uri(d.path)},
                "replacements": [{"deletedRegion": {"startLine": e.line, "startColumn": e.column,
                                                    "endLine": e.end_line, "endColumn": e.end_column},
                                  "insertedContent": {"text": e.text}} for e in d.fix.edits]}]}]
        results.append(result)
    driver = {"name": "unodsl", "version": tool_version,
              "rules": [{"id": code, **({"shortDescription": {"text": rules[code]}} if rules and code in rules else {})}
                        for code in codes]}
    log = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
           "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": results}]}
    return json.dumps(log, indent=2)


def _sarif_uri(path: str) -> str:
    """A path as a SARIF artifact URI: relative paths stay relative (to the folder the check ran in), with `/`."""
    from urllib.parse import quote
    return quote(path.replace("\\", "/"))


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

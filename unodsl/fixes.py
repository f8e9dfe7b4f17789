"""Fixes: the edit a diagnostic carries (`Diagnostic.fix`), found and applied.

A stage that knows the mend attaches it where it reports (E406 turns a folded effect into a `|`
block). Every did-you-mean diagnostic carries one too: `attach_fixes` reads the suggestion the
message already gives (`(did you mean 'color'?)`) and finds, on the diagnostic's line in the file's
text, the one word the suggestion mends; when it cannot say which word that is, it attaches
nothing. `apply_fixes` makes the new text, `unodsl check --fix` writes it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable, Mapping

from .diagnostics import Diagnostic, Edit, Fix, did_you_mean, split_lines

_SUGGESTION = re.compile(r"did you mean '([^'\n]+)'\?")
_QUOTED = re.compile(r"'([^'\n]+)'")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def attach_fixes(diagnostics: Iterable[Diagnostic], texts: Mapping[str, str]) -> list[Diagnostic]:
    """`diagnostics`, each did-you-mean one without a fix given one where its word can be found in `texts`."""
    lines_of: dict[str, list[str]] = {}
    out = []
    for d in diagnostics:
        if d.fix is None and d.path in texts:
            lines = lines_of.get(d.path)
            if lines is None:
                lines = lines_of[d.path] = split_lines(texts[d.path])
            fix = suggestion_fix(d, lines)
            if fix is not None:
                d = replace(d, fix=fix)
        out.append(d)
    return out


def suggestion_fix(d: Diagnostic, lines: list[str]) -> Fix | None:
    """The fix of a did-you-mean diagnostic: its suggestion in place of the misspelt word on its line, or None.

    The word is the one at the diagnostic's column, else a word the message quotes, else the only
    word of the line that the suggestion is a close match of: whichever is a close match of the
    suggestion (so a message that quotes the unexpected token, not the misspelt one, mends the
    misspelt one or nothing).
    """
    found = _SUGGESTION.search(d.message)
    if found is None or not 1 <= d.line <= len(lines):
        return None
    right, line = found.group(1), lines[d.line - 1]
    words = [(m.start() + 1, m.group(0)) for m in _WORD.finditer(line)]
    close = [(column, word) for column, word in words if word != right and did_you_mean(word, [right]) == right]
    quoted = {q for q in _QUOTED.findall(d.message[:found.start()]) if q != right}
    for column, word in close:
        if column == d.column:
            return _replace(d.line, column, word, right)
    chosen = [(column, word) for column, word in close if word in quoted] or close
    if len({column for column, _ in chosen}) == 1:
        column, word = chosen[0]
        return _replace(d.line, column, word, right)
    return None


def _replace(line: int, column: int, wrong: str, right: str) -> Fix:
    return Fix(f"replace '{wrong}' by '{right}'", (Edit(line, column, line, column + len(wrong), right),))


def apply_fixes(text: str, fixes: Iterable[Fix]) -> tuple[str, int]:
    """`text` with the fixes' edits made, and how many fixes were applied.

    A fix whose edits overlap an edit already taken is left out (the next check finds it again).
    """
    lines = split_lines(text)
    starts, offset = [], 0
    for match_line in lines:
        starts.append(offset)
        offset += len(match_line)
        # the break after the line: find its length in the text itself
        if offset < len(text):
            offset += 2 if text.startswith("\r\n", offset) else 1
    taken: list[tuple[int, int, str]] = []
    applied = 0
    for fix in fixes:
        spans = []
        for edit in fix.edits:
            start, end = _offset(starts, lines, edit.line, edit.column), _offset(starts, lines, edit.end_line,
                                                                                  edit.end_column)
            if start is None or end is None or end < start:
                break
            spans.append((start, end, edit.text))
        else:
            if all(end <= s or start >= e for start, end, _ in spans for s, e, _ in taken) and \
                    all(a == b or a[1] <= b[0] or a[0] >= b[1] for a in spans for b in spans):
                taken.extend(spans)
                applied += 1
    for start, end, new in sorted(taken, reverse=True):
        text = text[:start] + new + text[end:]
    return text, applied


def _offset(starts: list[int], lines: list[str], line: int, column: int) -> int | None:
    if not 1 <= line <= len(lines) or not 1 <= column <= len(lines[line - 1]) + 1:
        return None
    return starts[line - 1] + column - 1

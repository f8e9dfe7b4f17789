"""`unodsl check` for the editor's unsaved text: the same pipeline, the same diagnostics.

`check.check_file(path, root, texts=...)` reads the text of each open document (the checked
one and any open file it extends or includes) in place of the file on disk, so every stage
sees the buffer and every position and path is the real one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping

from ..check import CheckResult, check_file
from ..diagnostics import Diagnostic
from ..source.yaml_tree import Node


@dataclass(frozen=True)
class Located:
    """One diagnostic placed in the checked document.

    `diagnostic` is check's own; `line`/`column`/`end_*` are where it shows in this
    document: its own position, or for a problem inside a file reached through `extends`
    or `include`, the position of that link (`elsewhere` then holds the real place).
    """

    diagnostic: Diagnostic
    line: int
    column: int
    end_line: int | None
    end_column: int | None
    elsewhere: Diagnostic | None = None


def check_text(path: str, text: str, open_texts: Mapping[str, str] | None = None,
               root: str | None = None) -> tuple[CheckResult, list[Located]]:
    """Check `text` as the content of `path` (other open documents by path in `open_texts`).

    Returns check's result and its diagnostics placed in this document, in check's order.
    """
    texts = dict(open_texts or {})
    texts[path] = text
    result = check_file(path, root, texts=texts)
    return result, [_locate(d, path, result.links) for d in result.diagnostics]


def _locate(d: Diagnostic, path: str, links: Mapping[str, Node | None]) -> Located:
    if same_file(d.path, path):
        return Located(d, d.line, d.column, d.end_line, d.end_column)
    via = next((node for display, node in links.items() if node is not None and same_file(display, d.path)), None)
    if via is None or not same_file(via.path, path):
        return Located(d, 1, 1, None, None, d)
    return Located(d, via.line, via.column, via.end_line, via.end_column, d)


def _real(path: str) -> str:
    try:
        return os.path.realpath(path)
    except (ValueError, OSError):
        return path


def same_file(a: str, b: str) -> bool:
    """Whether two paths (as check writes them, relative to the working folder or not) name one file."""
    return _real(a) == _real(b)

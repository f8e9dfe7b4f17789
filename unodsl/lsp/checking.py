"""`unodsl check` for the editor's unsaved text: the same pipeline, the same diagnostics.

`check.check_file` reads every file from disk through `source.compose.load_file`. While a
document is checked, that one seam serves the text of each open document instead (the
checked one and any open file it extends or includes), so every stage sees the buffer and
every position and path is the real one. A public API for this would be
`check_file(path, root, texts={path: text})` passed down to `compose_file`; until check.py
grows it, the seam is swapped under a lock for the length of one check.
"""

from __future__ import annotations

import os
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Iterator, Mapping

from ..check import CheckResult, check_file
from ..diagnostics import Diagnostic
from ..source import compose
from ..source.yaml_tree import Node, load_file, load_text

_SEAM = threading.Lock()


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
    texts = {_real(p): t for p, t in (open_texts or {}).items()}
    texts[_real(path)] = text
    with _serving(texts):
        result = check_file(path, root)
        foreign = [d for d in result.diagnostics if not _same(d.path, path)]
        links = compose.compose_file(path, root).links if foreign else {}
    return result, [_locate(d, path, links) for d in result.diagnostics]


def _locate(d: Diagnostic, path: str, links: Mapping[str, Node | None]) -> Located:
    if _same(d.path, path):
        return Located(d, d.line, d.column, d.end_line, d.end_column)
    via = next((node for display, node in links.items() if node is not None and _same(display, d.path)), None)
    if via is None or not _same(via.path, path):
        return Located(d, 1, 1, None, None, d)
    return Located(d, via.line, via.column, via.end_line, via.end_column, d)


@contextmanager
def _serving(texts: Mapping[str, str]) -> Iterator[None]:
    """Make compose read the files in `texts` from there rather than from disk."""

    def load(path: str, **limits):
        text = texts.get(_real(path))
        if text is None:
            return load_file(path, **limits)
        return _load_buffer(path, text)

    with _SEAM:
        saved = compose.load_file
        compose.load_file = load
        try:
            yield
        finally:
            compose.load_file = saved


def _load_buffer(path: str, text: str) -> tuple[Node | None, list[Diagnostic], str]:
    """What `load_file` gives for `path` once `text` is saved there as UTF-8."""
    if "\0" in text or any("\ud800" <= ch <= "\udfff" for ch in text):
        # Bytes that are no UTF-8 text once saved: load_file's own decoding reports them,
        # from a private copy, as it would from the saved file.
        with tempfile.TemporaryDirectory(prefix="unodsl-lsp-") as folder:
            copy = os.path.join(folder, "buffer.yaml")
            with open(copy, "wb") as handle:
                handle.write(text.encode("utf-8", "surrogatepass"))
            root, diags, decoded = load_file(copy)
        return root, [replace(d, path=path) for d in diags], decoded
    root, diags = load_text(text, path)
    return root, diags, text


def _real(path: str) -> str:
    try:
        return os.path.realpath(path)
    except (ValueError, OSError):
        return path


def _same(a: str, b: str) -> bool:
    return _real(a) == _real(b)

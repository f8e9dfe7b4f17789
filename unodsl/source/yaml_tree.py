"""Load a YAML file into a tree of located nodes (the E1xx stage).

The tree is built from PyYAML's event stream rather than `yaml.compose`:
the composer is recursive (a deeply nested file raises RecursionError) and
shares aliased nodes without limit (alias bombs), while walking events lets
us bound depth, alias use and node count as we go, refuse every non-core
tag, and catch duplicate keys. Tags are only ever checked, never acted on,
so loading cannot run code. Every problem becomes a Diagnostic: the
loaders never raise and never hang.
"""

from __future__ import annotations

import os
import stat

from ..diagnostics import Diagnostic, offset_to_position
from .node import Node
from .tree_builder import MAX_NUMBER_CHARS, _Builder

# The loader's public names. MAX_NUMBER_CHARS (tree_builder) is named here with the other limits;
# the node, the event builder and its PyYAML loaders are in node.py and tree_builder.py.
__all__ = ["Node", "load_file", "load_bytes", "load_text",
           "MAX_BYTES", "MAX_DEPTH", "MAX_ALIASES", "MAX_NODES", "MAX_NUMBER_CHARS"]

MAX_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_ALIASES = 100
MAX_NODES = 200_000


def load_file(
    path: str,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    max_aliases: int = MAX_ALIASES,
    max_nodes: int = MAX_NODES,
) -> tuple[Node | None, list[Diagnostic], str]:
    """Read and load a YAML file: (root mapping or None, diagnostics, source text or "")."""
    try:
        path = os.fsdecode(path)
        data, problem = _read_bytes(path, max_bytes)
        if problem is not None:
            return None, [problem], ""
    except Exception as exc:  # noqa: BLE001 - the loader promises never to raise; this keeps that promise
        return None, [Diagnostic(str(path), 1, 1, "E103", f"cannot read file ({type(exc).__name__})")], ""
    return load_bytes(data, path, max_bytes=max_bytes, max_depth=max_depth, max_aliases=max_aliases,
                      max_nodes=max_nodes)


def load_bytes(
    data: bytes,
    path: str,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    max_aliases: int = MAX_ALIASES,
    max_nodes: int = MAX_NODES,
) -> tuple[Node | None, list[Diagnostic], str]:
    """Load the bytes of a file at `path` as load_file would: (root or None, diagnostics, source text or "").

    For text that is not on disk (yet): an editor's unsaved buffer, encoded as it would be saved.
    """
    if len(data) > max_bytes:
        return None, [_too_large(path, len(data), max_bytes)], ""
    text, problem = _decode(data, path)
    if problem is not None:
        return None, [problem], text
    root, diags = load_text(text, path, max_bytes=max_bytes, max_depth=max_depth,
                            max_aliases=max_aliases, max_nodes=max_nodes)
    return root, diags, text


def load_text(
    text: str,
    path: str,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    max_aliases: int = MAX_ALIASES,
    max_nodes: int = MAX_NODES,
) -> tuple[Node | None, list[Diagnostic]]:
    """Load YAML text: (root mapping or None, diagnostics).

    The root is None when no usable tree could be built; it may be returned
    alongside non-fatal errors (duplicate keys, forbidden tags, bad keys).
    """
    try:
        if text.startswith("\ufeff"):
            text = text[1:]  # PyYAML does not count a BOM in columns, so neither do we.
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            return None, [_too_large(path, size, max_bytes)]
        builder = _Builder(text, path, max_depth, max_aliases, max_nodes)
        root = builder.build()
        return root, builder.diags
    except Exception as exc:  # noqa: BLE001 - the loader promises never to raise; this keeps that promise
        return None, [Diagnostic(path, 1, 1, "E110",
                                 f"internal error while reading YAML ({type(exc).__name__}); please report this file")]


# ---------------------------------------------------------------- reading files


def _read_bytes(path: str, max_bytes: int) -> tuple[bytes, Diagnostic | None]:
    """The file's bytes, or a diagnostic saying why they cannot be had."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return b"", Diagnostic(path, 1, 1, "E101", "file not found")
    except (OSError, ValueError) as exc:
        return b"", Diagnostic(path, 1, 1, "E103", f"cannot read file: {_os_reason(exc)}")
    if stat.S_ISDIR(info.st_mode):
        return b"", Diagnostic(path, 1, 1, "E102", "path is a directory, not a YAML file")
    if not stat.S_ISREG(info.st_mode):
        # Opening a FIFO would block and a device may never end.
        return b"", Diagnostic(path, 1, 1, "E103", "cannot read file: not a regular file")
    if info.st_size > max_bytes:
        return b"", _too_large(path, info.st_size, max_bytes)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)  # one byte more tells us the file grew past the limit
    except OSError as exc:
        return b"", Diagnostic(path, 1, 1, "E103", f"cannot read file: {_os_reason(exc)}")
    if len(data) > max_bytes:
        return b"", _too_large(path, None, max_bytes)
    return data, None


def _os_reason(exc: Exception) -> str:
    """A short reason for an OS error, without the path the diagnostic already shows."""
    reason = getattr(exc, "strerror", None) or str(exc)
    return reason[0].lower() + reason[1:] if reason else type(exc).__name__


def _too_large(path: str, size: int | None, limit: int) -> Diagnostic:
    """E105 for a file or text over the size limit."""
    shown = f"{size} bytes, " if size is not None else ""
    return Diagnostic(path, 1, 1, "E105", f"file is too large ({shown}limit is {limit} bytes)")


def _decode(data: bytes, path: str) -> tuple[str, Diagnostic | None]:
    """UTF-8 text without a BOM, or E104 at the first byte that is not text."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-8", "replace"), Diagnostic(
            path, 1, 1, "E104", "file is UTF-16 encoded; save it as UTF-8")
    bad = data.find(b"\x00")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start if bad < 0 else min(bad, exc.start)
        text = None
    if bad < 0:
        return (text[1:] if text.startswith("\ufeff") else text), None
    prefix = data[:bad].decode("utf-8", "replace")
    line, column = offset_to_position(prefix, len(prefix))
    if data[bad] == 0:
        message = "file contains a NUL byte; it looks like binary data, not YAML text"
    else:
        message = f"file is not valid UTF-8 text (unexpected byte 0x{data[bad]:02x}); save it as UTF-8"
    return data.decode("utf-8", "replace"), Diagnostic(path, line, column, "E104", message)

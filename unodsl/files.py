"""Writing files without ever losing what the user had: temp file, fsync, rename."""

from __future__ import annotations

import os
import tempfile

import click


def refuse_overwrite(path: str, force: bool) -> None:
    """Stop with a usage error, before any work is done, if `path` cannot be (over)written.

    Refused: an existing file without --force, a folder, a parent folder that does
    not exist or that this user may not write in.
    """
    if os.path.isdir(path):
        raise click.UsageError(f"'{path}' is a folder, not a file")
    if os.path.lexists(path) and not force:
        raise click.UsageError(f"'{path}' exists; pass --force to overwrite it")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise click.UsageError(f"folder '{parent}' does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise click.UsageError(f"cannot write in folder '{parent}'")


def atomic_write(path: str, text: str) -> None:
    """Write text to a temporary file beside `path` and rename it into place."""
    parent = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".unodsl-", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise

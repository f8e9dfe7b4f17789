"""Writing files without ever losing what the user had: temp file, fsync, then a move that cannot clobber."""

from __future__ import annotations

import errno
import os
import tempfile

import click

# os.link failing with one of these means the file system has no hard links (FAT, some network shares).
_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS}


class TargetExists(FileExistsError):
    """The target appeared after refuse_overwrite looked; it is untouched and the text kept in `kept`."""

    def __init__(self, path: str, kept: str):
        super().__init__(errno.EEXIST, f"'{path}' exists; it was left as it was, and the new text is in '{kept}'")
        self.path = path
        self.kept = kept


def refuse_overwrite(path: str, force: bool) -> None:
    """Stop with a usage error, before any work is done, if `path` cannot be (over)written.

    Refused: an existing file without --force, a folder, a parent folder that does
    not exist or that this user may not write in. A file that appears later is
    refused by atomic_write itself.
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


def atomic_write(path: str, text: str | bytes, *, force: bool) -> None:
    """Write text (UTF-8) or bytes to a temporary file beside `path` and move it into place.

    With `force` the move is a rename, which replaces whatever is there. Without it the
    move is a hard link, which the system refuses if `path` exists, whenever it was
    created (a check made earlier proves nothing): then TargetExists is raised and the
    temporary file, holding the text, is kept. Without hard links, an exclusive create.
    """
    parent = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(_bytes(text))
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(tmp, path)
            return
        try:
            os.link(tmp, path, follow_symlinks=False)
        except FileExistsError:
            raise TargetExists(path, tmp) from None
        except OSError as err:
            if err.errno not in _NO_LINKS:
                raise
            _create_exclusive(path, text, tmp)
        os.unlink(tmp)
    except TargetExists:
        raise
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _bytes(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8")


def _create_exclusive(path: str, text: str | bytes, tmp: str) -> None:
    """Write `path` only if it does not exist (O_EXCL): not atomic, but it never replaces a file."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise TargetExists(path, tmp) from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(_bytes(text))
        handle.flush()
        os.fsync(handle.fileno())

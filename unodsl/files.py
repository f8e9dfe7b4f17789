"""Writing files: the one writer every command that writes goes through (reports, tables, logs, saves, `new`,
`fmt`, `check --fix`, the check cache).

A file is written to a temporary file beside it, flushed to disk, then moved into place, so that
an existing file is never left half-written and, without `force`, never replaced. The file gets
the permissions the user asked for: a new file `0o666` less the umask (as `open()` would make it),
a replaced file the mode it had. A temporary file alone would be 0600 whatever the umask.
Standard library only: the check cache writes through it before anything heavy is imported.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile

def cache_dir(kind: str):
    """The folder of one kind of cache (`check`: clean check results, `generated`: the fast mode's modules), or
    None when caching is switched off (UNODSL_NO_CACHE=1): under $XDG_CACHE_HOME/unodsl, or ~/.cache/unodsl."""
    from pathlib import Path
    if os.environ.get("UNODSL_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "unodsl" / kind


# os.link failing with one of these means the file system has no hard links (FAT, some network shares).
_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS}
_UMASK_LINE = re.compile(rb"^Umask:\s*([0-7]+)\s*$", re.M)


class TargetExists(FileExistsError):
    """The target appeared after the caller looked; it is untouched and the text kept in `kept`."""

    def __init__(self, path: str, kept: str):
        super().__init__(errno.EEXIST, f"'{path}' exists; it was left as it was, and the new text is in '{kept}'")
        self.path = path
        self.kept = kept


def umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux), else set and restored."""
    try:
        with open("/proc/self/status", "rb") as status:
            found = _UMASK_LINE.search(status.read())
        if found:
            return int(found.group(1), 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The permissions of a new file under the process's umask (0o666 less the umask), as open() would give."""
    return 0o666 & ~umask()


def atomic_write(path: str, text: str | bytes, *, force: bool) -> None:
    """Write text (UTF-8) or bytes to a temporary file beside `path` and move it into place.

    With `force` the move is a rename, which replaces whatever is there (keeping the replaced file's
    permissions). Without it the move is a hard link, which the system refuses if `path` exists,
    whenever it was created (a check made earlier proves nothing): then TargetExists is raised and
    the temporary file, holding the text, is kept. Without hard links, an exclusive create.
    """
    with StreamingWrite(path, force=force) as handle:
        handle.write(_bytes(text))


class StreamingWrite:
    """A binary file written bit by bit beside `path` and moved into place when the block ends without error.

    `with StreamingWrite(path, force=False) as handle: handle.write(...)`: as atomic_write, for output
    too large to hold in memory (a per-game table). On an error inside the block the temporary file is
    removed and `path` is untouched; TargetExists as for atomic_write.
    """

    def __init__(self, path: str, *, force: bool):
        self.path, self.force = path, force
        mode = _mode_of(path) if force else None
        parent = os.path.dirname(os.path.abspath(path))
        fd, self.tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=parent)
        os.fchmod(fd, file_mode() if mode is None else mode)
        self.handle = os.fdopen(fd, "wb")

    def __enter__(self):
        return self.handle

    def __exit__(self, kind, error, trace) -> None:
        if kind is not None:
            self.handle.close()
            _remove(self.tmp)
            return
        try:
            self.handle.flush()
            os.fsync(self.handle.fileno())
            self.handle.close()
            _place(self.tmp, self.path, self.force)
        except TargetExists:
            raise
        except BaseException:
            _remove(self.tmp)
            raise


def _mode_of(path: str) -> int | None:
    """The permission bits of the regular file at `path` (followed through a link), or None."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def _place(tmp: str, path: str, force: bool) -> None:
    """Move the written temporary file `tmp` to `path` (see atomic_write)."""
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
        with open(tmp, "rb") as handle:
            _create_exclusive(path, handle.read(), tmp)
    os.unlink(tmp)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


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

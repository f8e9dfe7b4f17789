"""Writing files without ever losing what the user had: temp file, fsync, then a move that cannot clobber."""

from __future__ import annotations

import errno
import os
import sys
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
    The file gets the permissions the user's umask gives a new file (`file_mode`).
    """
    with StreamingWrite(path, force=force) as handle:
        handle.write(_bytes(text))


def file_mode() -> int:
    """The permissions of a new file under the process's umask (0o666 less the umask), as open() would give.

    Temporary files are made 0600 (tempfile.mkstemp); a file moved into place from one must be given these.
    """
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


class StreamingWrite:
    """A binary file written bit by bit beside `path` and moved into place when the block ends without error.

    `with StreamingWrite(path, force=False) as handle: handle.write(...)`: as atomic_write, for output
    too large to hold in memory (a per-game table). On an error inside the block the temporary file is
    removed and `path` is untouched; TargetExists as for atomic_write.
    """

    def __init__(self, path: str, *, force: bool):
        self.path, self.force = path, force
        parent = os.path.dirname(os.path.abspath(path))
        fd, self.tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=parent)
        os.fchmod(fd, file_mode())
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


# --- `--save GAMES.csv|GAMES.parquet` of simulate and compare: every game's figures, written as games finish

def figure_columns(games: list, counts: tuple, plan) -> list[str]:
    """The figures' columns of a table of these Games at these player counts, with the studies of `plan`."""
    from ..runs.metrics import value_names
    names: dict = {}
    for game in games:
        for name in value_names(game.type_ids, max(counts), plan, plan.restrictions(game) if plan.games else ()):
            names.setdefault(name)
    return list(names)


class SavedTable:
    """The --save table: `with SavedTable(save, labels, numbers, figures) as table: table.write(rows)`.

    `save` is shared.save_target's (path, format, force), or None (then the block gets None). The file is
    written beside its place and moved there when the block ends without error; a file that appeared
    meanwhile is left as it was, the table kept beside it (exit 1).
    """

    def __init__(self, save, labels: list[str], numbers: list[str], figures: list[str]):
        self.save, self.columns = save, (labels, numbers, figures)
        self.stream = self.writer = None

    def __enter__(self):
        if self.save is None:
            return None
        from ..runs.export import TableWriter
        path, fmt, force = self.save
        self.stream = StreamingWrite(path, force=force)
        self.writer = TableWriter(self.stream.__enter__(), fmt, *self.columns)
        return self.writer

    def __exit__(self, kind, error, trace):
        if self.stream is None:
            return False
        if kind is None:
            self.writer.close()
        try:
            self.stream.__exit__(kind, error, trace)
        except OSError as err:
            exit_unwritten(err, self.save[0], "the table", "the games were played", "the table")
        return False


def exit_unwritten(err: OSError, path: str, name: str, during: str, kept: str) -> None:
    """Say why `path` was not written, keeping both texts (TargetExists: it appeared meanwhile), and exit 1."""
    if isinstance(err, TargetExists):
        click.echo(f"unodsl: '{path}' was created while {during}; it was left as it was, "
                   f"and {kept} is in '{err.kept}'", err=True)
    else:
        click.echo(f"unodsl: cannot write {name} '{path}': {err.strerror or err}", err=True)
    sys.exit(1)


def luck_cells(luck, ladder: tuple) -> dict:
    """The luck study's game as table cells: the bot of each seat, and the side that won (empty: nobody)."""
    if luck is None:
        return {}
    return {"luck_bots": ",".join(ladder[b] for b in luck[0]), "luck_winner_side": luck[2] if luck[2] >= 0 else None}

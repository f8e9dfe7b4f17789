"""Refusing, before any work is done, to write where a file cannot be (over)written, and the --save tables; the
writing itself is unodsl.files' (temp file, fsync, a move that cannot clobber, the user's umask)."""

from __future__ import annotations

import os
import sys

import click

from ..files import StreamingWrite, TargetExists, atomic_write, file_mode

__all__ = ["StreamingWrite", "TargetExists", "atomic_write", "exit_unwritten", "file_mode", "refuse_overwrite"]


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

"""`--save GAMES.csv|GAMES.parquet` of simulate and compare: every game's figures, written as the games finish."""

from __future__ import annotations

import sys

import click

from .files import StreamingWrite, TargetExists


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
        except TargetExists as err:
            click.echo(f"unodsl: '{err.path}' was created while the games were played; it was left as it was, "
                       f"and the table is in '{err.kept}'", err=True)
            sys.exit(1)
        except OSError as err:
            click.echo(f"unodsl: cannot write the table '{self.save[0]}': {err.strerror or err}", err=True)
            sys.exit(1)
        return False


def luck_cells(luck, ladder: tuple) -> dict:
    """The luck study's game as table cells: the bot of each seat, and the side that won (empty: nobody)."""
    if luck is None:
        return {}
    return {"luck_bots": ",".join(ladder[b] for b in luck[0]), "luck_winner_side": luck[2] if luck[2] >= 0 else None}

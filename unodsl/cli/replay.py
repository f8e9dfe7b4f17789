"""`unodsl replay`: play a game log again and report the first action that is no longer legal."""

from __future__ import annotations

import os
import sys

import click

from ..diagnostics import one_line
from .shared import load_game, root_option, variant_file


@click.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.option("--variant", "variant_path", default=None,
              help="Replay against this (possibly edited) variant instead of the one named in the log.")
@root_option
def replay(log: str, variant_path: str | None, root: str | None) -> None:
    """Replay a game log; report the first action that is no longer legal.

    The variant a log names must lie under the root found for the log, like a file
    named by `extends`; a variant given with --variant is the user's own choice.
    """
    from ..source import catalog
    from ..runs.replay import ReplayError, read_log, replay_game, variant_path_of
    try:
        records = read_log(log)
    except ReplayError as err:
        click.echo(f"unodsl: {one_line(log)}: {err}", err=True)
        sys.exit(1)
    bad = 0
    games = {}
    for number, record in enumerate(records, start=1):
        prefix = f"{one_line(log)}: game {number}"
        try:
            named = record.get("variant_path") if isinstance(record.get("variant_path"), str) else ""
            if variant_path:
                path = variant_file(variant_path)
            elif catalog.is_name(named) and not os.path.lexists(os.path.join(os.path.dirname(log), named)):
                path = variant_file(named)            # played by name: a shipped variant
            else:
                path = variant_path_of(record, log, root)
        except ReplayError as err:
            click.echo(f"unodsl: {prefix}: {err}", err=True)
            sys.exit(1)
        if path not in games:
            games[path] = load_game(path, root)
        game = games[path]
        outcome = replay_game(game, record)
        if outcome.error:
            bad += 1
            click.echo(f"{prefix}: {outcome.error}")
        else:
            winner = "none" if outcome.winner is None else f"p{outcome.winner}"
            note = " (variant changed since the log was written)" if record.get("digest") != game.digest else ""
            click.echo(f"{prefix}: {outcome.actions} actions replayed, winner {winner}{note}")
    sys.exit(1 if bad else 0)

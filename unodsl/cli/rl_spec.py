"""`unodsl rl-spec`: a variant's RL action table and observation layout (the rl extra)."""

from __future__ import annotations

import sys

import click

from .shared import load_game, root_option


@click.command(name="rl-spec")
@click.argument("file")
@click.option("--players", "-p", type=click.IntRange(2, 100), default=4, show_default=True,
              help="Number of players (seat offsets and hand-size fields depend on it).")
@root_option
def rl_spec_command(file: str, players: int, root: str | None) -> None:
    """Print a variant's RL action table and observation layout (needs the rl extra)."""
    try:
        from ..rl.spec import render_spec
    except ImportError as err:
        click.echo(f"unodsl: rl-spec needs the rl extra (pip install 'unodsl[rl]'): {err}", err=True)
        sys.exit(2)
    game = load_game(file, root)
    try:
        game.check_players(players)
    except ValueError as err:
        click.echo(f"unodsl: {err}", err=True)
        sys.exit(2)
    click.echo(render_spec(game, players), nl=False)

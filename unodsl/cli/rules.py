"""`unodsl rules`: the variant as a rulebook in Markdown or plain text."""

from __future__ import annotations

import sys

import click

from .files import TargetExists, atomic_write, refuse_overwrite
from .shared import load_game, root_option


@click.command()
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["markdown", "text"]), default="markdown", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write to a file.")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@root_option
def rules(file: str, fmt: str, output: str | None, force: bool, root: str | None) -> None:
    """Print a readable rulebook generated from the variant."""
    from ..rulebook.document import render_rulebook
    game = load_game(file, root)
    text = render_rulebook(game, fmt)
    if output:
        refuse_overwrite(output, force)
        try:
            atomic_write(output, text, force=force)
        except TargetExists as err:
            click.echo(f"unodsl: {err.strerror}", err=True)
            sys.exit(1)
    else:
        click.echo(text, nl=False)

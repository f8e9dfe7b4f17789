"""What several subcommands share: the --root option, variant arguments, loading a game, exiting
with a message when a file cannot be written."""

from __future__ import annotations

import os
import sys

import click

from ..diagnostics import format_text
from .files import TargetExists, atomic_write

BOT_CHOICE = click.Choice(["random", "heuristic"])

# One option for every command that reads variants, so they all resolve links alike.
root_option = click.option(
    "--root", type=click.Path(file_okay=False), default=None,
    help="Folder that extends/include may not leave (default: the wider of the file's project "
         "and the working folder; never / or a top-level folder).")


class UnknownVariant(click.ClickException):
    """A bare name that is neither a file nor a shipped variant: a usage error."""

    exit_code = 2


def variant_file(value: str) -> str:
    """The file a variant argument means: an existing path as given, else a shipped name (`classic`)."""
    from ..source import catalog
    if os.path.lexists(value) or not catalog.is_name(value):
        return value
    found = catalog.path_of(value)
    if found is None:
        raise UnknownVariant(catalog.unknown_message(value))
    return found


def load_game(path: str, root: str | None = None):
    """Load a variant (a path or a shipped name) for playing; on problems print them and exit 1."""
    from ..check import check_file
    path = variant_file(path)
    result = check_file(path, root)
    if result.errors or result.game is None:
        click.echo(format_text(result.errors) or f"{path}:1:1: E306 the variant defines no cards", err=True)
        sys.exit(1)
    return result.game


def check_players(game, players: int) -> None:
    """Refuse a player count the variant cannot seat, as a usage error."""
    try:
        game.check_players(players)
    except ValueError as err:
        raise click.UsageError(str(err)) from None


def write_or_exit(path: str, text: str, force: bool, name: str, during: str, kept: str) -> None:
    """Write `text` to `path` atomically; if that is refused (the file appeared meanwhile) or fails, say
    so, keeping both texts, and exit 1."""
    try:
        atomic_write(path, text, force=force)
    except TargetExists as err:
        click.echo(f"unodsl: '{path}' was created while {during}; it was left as it was, "
                   f"and {kept} is in '{err.kept}'", err=True)
        sys.exit(1)
    except OSError as err:
        click.echo(f"unodsl: cannot write {name} '{path}': {err.strerror or err}", err=True)
        sys.exit(1)


def isatty(stream) -> bool:
    """Whether `stream` is a terminal; False for a stream that cannot say (closed, replaced)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False

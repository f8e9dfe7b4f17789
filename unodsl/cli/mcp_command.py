"""`unodsl mcp`: serve a variant to a model over the Model Context Protocol, on stdin/stdout (the mcp extra)."""

from __future__ import annotations

import sys

import click

from .shared import load_game, root_option


@click.command("mcp")
@click.argument("file", default="classic")
@click.option("--assist", is_flag=True, help="Offer the legal_actions tool (off by default: a model must know the rules).")
@click.option("--retries", type=click.IntRange(0, 20), default=2, show_default=True,
              help="Refused actions given back with the engine's reason before the fallback plays a random legal one.")
@root_option
def mcp_command(file: str, assist: bool, retries: int, root) -> None:
    """Serve the variant's table to a model over MCP (stdio): rulebook, start_game, join_room, view, act, ...

    Configure a client to run `unodsl mcp classic` (docs/agents.md lists the tools).
    """
    try:
        import mcp  # noqa: F401
    except ImportError:
        click.echo("unodsl: mcp needs the mcp extra (pip install 'unodsl[mcp]')", err=True)
        sys.exit(2)
    game = load_game(file, root)            # a broken variant: its diagnostics, exit 1, before serving
    from ..mcp_server import build_server
    build_server(game, assist=assist, retries=retries).run("stdio")

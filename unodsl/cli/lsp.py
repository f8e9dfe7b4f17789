"""`unodsl lsp`: the language server for variant files, over stdin and stdout (the lsp extra)."""

from __future__ import annotations

import sys

import click


@click.command(name="lsp")
@click.option("--stdio", is_flag=True, help="Serve over stdin and stdout (the only transport; editors pass it).")
def lsp_command(stdio: bool) -> None:
    """Serve the language server for variant files: diagnostics, completion, hover (docs/editors.md)."""
    try:
        from ..lsp.server import main as serve
    except ImportError as err:
        click.echo(f"unodsl: lsp needs the lsp extra (pip install 'unodsl[lsp]'): {err}", err=True)
        sys.exit(2)
    serve()

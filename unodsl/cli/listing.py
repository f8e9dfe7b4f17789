"""`unodsl list`: the shipped variants and house rules, by the names commands and links take."""

from __future__ import annotations

import json

import click


@click.command(name="list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: one line per file; json: for tools.")
def list_command(fmt: str) -> None:
    """List the shipped variants and house rules, by the names that commands and links take."""
    import os

    from ..source.catalog import folder, shipped
    entries = shipped()
    base = folder()
    if fmt == "json":
        click.echo(json.dumps([{"name": e.name, "house_rule": e.house_rule, "title": e.title,
                                "summary": e.summary, "path": os.path.relpath(e.path, base)} for e in entries], indent=2))
        return
    width = max(len(e.name) for e in entries)
    for heading, house in (("Variants (unodsl play NAME, extends: NAME)", False),
                           ("House rules (include: [NAME])", True)):
        click.echo(heading)
        for e in entries:
            if e.house_rule is house:
                click.echo(f"  {e.name:<{width}}  {e.title} - {e.summary}")
        if not house:
            click.echo("")

"""`unodsl check`: every problem of variant files as path:line:col: CODE message.

A file unchanged since a clean check is answered from the cache (checkcache) before
anything heavy is imported: YAML, Lark, jsonschema and the engine load only on a miss.
"""

from __future__ import annotations

import os
import sys

import click

from ..diagnostics import format_full, format_json, format_text, one_line
from .shared import isatty, root_option, variant_file


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "full", "json"]), default="text",
              help="text: one line per problem; full: with the source line and a caret; json: for tools.")
@root_option
def check(files: tuple[str, ...], fmt: str, root: str | None) -> None:
    """Check variant files and report every problem as path:line:col: CODE message.

    Files are reported in the order given, each file's problems sorted by position;
    a problem in a file shared by several (a base or an include) is reported once.
    """
    from ..checkcache import is_known_clean, remember_clean
    files = tuple(variant_file(path) for path in files)
    colour = isatty(sys.stdout) and not os.environ.get("NO_COLOR")
    diagnostics, seen, blocks = [], set(), []
    for path in files:
        if is_known_clean(path, root):
            continue                          # unchanged since a clean check, with every file it read
        from ..check import check_file
        result = check_file(path, root)
        if not result.diagnostics:
            remember_clean(path, root, list(result.texts))
        fresh = [d for d in sorted(result.diagnostics, key=lambda d: d.sort_key()) if d not in seen]
        seen.update(fresh)
        diagnostics.extend(fresh)
        if fresh:
            block = format_full(fresh, result.texts) if fmt == "full" else format_text(fresh)
            blocks.append(_coloured(block, fresh) if colour else block)
    if fmt == "json":
        click.echo(format_json(diagnostics))
    elif blocks:
        click.echo("\n".join(blocks), color=colour or None)
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    if fmt != "json":
        if errors or warnings:
            click.echo(f"{errors} error(s), {warnings} warning(s) in {len(files)} file(s)", err=True)
        else:
            click.echo(f"{len(files)} file(s) checked, no problems", err=True)
    sys.exit(1 if errors else 0)


def _coloured(block: str, diagnostics: list) -> str:
    """`block` with each diagnostic's header line in colour: the place bold, the code red (error) or yellow."""
    headers = {d.header(): d for d in diagnostics}
    lines = []
    for line in block.split("\n"):
        d = headers.get(line)
        if d is None:                       # a source line or a caret of --format full
            lines.append(line)
            continue
        place = f"{one_line(d.path)}:{d.line}:{d.column}:"
        code = click.style(d.code, fg="red" if d.severity == "error" else "yellow", bold=True)
        lines.append(f"{click.style(place, bold=True)} {code} {one_line(d.message)}")
    return "\n".join(lines)

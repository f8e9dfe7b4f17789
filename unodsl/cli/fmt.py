"""`unodsl fmt`: lay variant files out one way (unodsl.source.formatting), in place, or `--check` them for CI."""

from __future__ import annotations

import os
import sys

import click

from ..diagnostics import one_line


@click.command(name="fmt")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True))
@click.option("--check", "check_only", is_flag=True, help="Change nothing; exit 1 when a file would be reformatted.")
@click.option("--diff", is_flag=True, help="Change nothing; show what would change as a unified diff.")
def fmt_command(files: tuple[str, ...], check_only: bool, diff: bool) -> None:
    """Format variant files: keys in the schema's order, effects indented alike; comments and text kept.

    A folder means every .yaml file under it. A file that cannot be formatted safely (not valid YAML,
    tabs) is left as it was, with the reason (exit 1).
    """
    import difflib

    from ..files import atomic_write
    from ..source.formatting import format_variant
    paths = _expand(files)
    changed = failed = 0
    for path in paths:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as err:
            click.echo(f"unodsl: cannot read '{one_line(path)}': {getattr(err, 'strerror', None) or err}", err=True)
            failed += 1
            continue
        result = format_variant(text, path)
        if result.text is None:
            click.echo(f"unodsl: {one_line(path)} left as it was: {result.reason}", err=True)
            failed += 1
            continue
        if result.text == text:
            continue
        changed += 1
        if diff:
            click.echo("".join(difflib.unified_diff(text.splitlines(keepends=True), result.text.splitlines(keepends=True),
                                                    f"a/{path}", f"b/{path}")), nl=False)
        elif check_only:
            click.echo(f"would reformat {one_line(path)}")
        else:
            try:
                with open(path, "rb") as handle:
                    if handle.read() != data:
                        raise OSError(0, "it changed while it was formatted")
                atomic_write(path, result.text, force=True)
            except OSError as err:
                click.echo(f"unodsl: {one_line(path)} not written: {err.strerror or err}", err=True)
                failed += 1
                changed -= 1
                continue
            click.echo(f"reformatted {one_line(path)}", err=True)
    same = len(paths) - changed - failed
    verb = "would be reformatted" if (check_only or diff) else "reformatted"
    click.echo(f"{changed} file(s) {verb}, {same} already formatted" + (f", {failed} left as they were" if failed
                                                                         else ""), err=True)
    sys.exit(1 if failed or ((check_only or diff) and changed) else 0)


def _expand(files: tuple[str, ...]) -> list[str]:
    """The files named, a folder replaced by the .yaml and .yml files under it (sorted, hidden ones left out)."""
    out: list[str] = []
    for name in files:
        if os.path.isdir(name):
            for folder, dirs, names in os.walk(name):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                out.extend(os.path.join(folder, n) for n in sorted(names)
                           if n.endswith((".yaml", ".yml")) and not n.startswith("."))
        else:
            out.append(name)
    return out

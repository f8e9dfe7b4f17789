"""`unodsl check`: every problem of variant files as path:line:col: CODE message; `--fix`, `--diff`, `--watch`.

A file unchanged since a clean check is answered from the cache (checkcache) before
anything heavy is imported: YAML, Lark, jsonschema and the engine load only on a miss.
"""

from __future__ import annotations

import os
import sys
import time

import click

from ..diagnostics import format_full, format_github, format_json, format_text, one_line
from .shared import isatty, root_option, variant_file

FORMATS = ["text", "full", "json", "github", "sarif"]
MAX_FIX_ROUNDS = 10          # a fix can uncover another (a key mended, then its value is checked)


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              help="text: one line per problem; full: with the source line and a caret; json: for tools; "
                   "github: GitHub Actions annotations; sarif: a SARIF 2.1.0 log for code scanning.")
@click.option("--fix", is_flag=True, help="Apply the fixes the diagnostics carry (did you mean ...), then report "
                                           "what is left.")
@click.option("--diff", is_flag=True, help="Show the fixes as a unified diff; change nothing.")
@click.option("--watch", is_flag=True, help="Check again whenever a file that was read changes (Ctrl-C stops).")
@root_option
def check(files: tuple[str, ...], fmt: str, fix: bool, diff: bool, watch: bool, root: str | None) -> None:
    """Check variant files and report every problem as path:line:col: CODE message.

    Files are reported in the order given, each file's problems sorted by position;
    a problem in a file shared by several (a base or an include) is reported once.
    """
    if fix and diff:
        raise click.UsageError("--fix writes the fixes and --diff only shows them: give one")
    files = tuple(variant_file(path) for path in files)
    if watch:
        _watch(files, fmt, fix, diff, root)
    if fix:
        _fix(files, root)
    if diff:
        sys.exit(_diff(files, root))
    errors, _ = _report(files, fmt, root)
    sys.exit(1 if errors else 0)


def _report(files: tuple[str, ...], fmt: str, root: str | None) -> tuple[int, list[str]]:
    """Check `files` and print what was found: (number of errors, every file the checks read)."""
    from ..checkcache import is_known_clean, remember_clean
    colour = fmt in ("text", "full") and isatty(sys.stdout) and not os.environ.get("NO_COLOR")
    diagnostics, seen, blocks, read = [], set(), [], list(files)
    for path in files:
        if is_known_clean(path, root):
            continue                          # unchanged since a clean check, with every file it read
        from ..check import check_file
        result = check_file(path, root)
        read.extend(p for p in result.texts if p not in read)
        if not result.diagnostics:
            remember_clean(path, root, list(result.texts))
        fresh = [d for d in sorted(result.diagnostics, key=lambda d: d.sort_key()) if d not in seen]
        seen.update(fresh)
        diagnostics.extend(fresh)
        if fresh and fmt in ("text", "full"):
            block = format_full(fresh, result.texts) if fmt == "full" else format_text(fresh)
            blocks.append(_coloured(block, fresh) if colour else block)
    if fmt == "json":
        click.echo(format_json(diagnostics))
    elif fmt == "sarif":
        from .. import __version__
        from ..diagnostics import format_sarif
        click.echo(format_sarif(diagnostics, __version__))
    elif fmt == "github":
        if diagnostics:
            click.echo(format_github(diagnostics))
    elif blocks:
        click.echo("\n".join(blocks), color=colour or None)
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    if fmt not in ("json", "sarif"):
        fixable = sum(d.fix is not None for d in diagnostics)
        hint = f" ({fixable} fixable with --fix)" if fixable else ""
        if errors or warnings:
            click.echo(f"{errors} error(s), {warnings} warning(s) in {len(files)} file(s){hint}", err=True)
        else:
            click.echo(f"{len(files)} file(s) checked, no problems", err=True)
    return errors, read


# ---------------------------------------------------------------- fixes


def _fixed_texts(files: tuple[str, ...], root: str | None) -> dict[str, tuple[str, str, int]]:
    """For each file of the user's that some fix mends: (its text as read, the text fixed, how many fixes), the fixes
    applied round after round until none is left (or MAX_FIX_ROUNDS). Shipped files are never changed.

    Nothing is written: each round checks the fixed texts as unsaved files (check_file's `texts`).
    """
    from ..check import check_file
    from ..fixes import apply_fixes
    from ..source import catalog
    shipped = str(catalog.folder())
    original: dict[str, str] = {}
    current: dict[str, str] = {}
    counts: dict[str, int] = {}
    for _ in range(MAX_FIX_ROUNDS):
        fixes: dict[str, list] = {}
        for path in files:
            result = check_file(path, root, texts=dict(current))
            for name, text in result.texts.items():
                original.setdefault(name, text)
            for d in result.diagnostics:
                if d.fix is not None and d.path in result.texts and not _inside(d.path, shipped):
                    fixes.setdefault(d.path, [])
                    if d.fix not in fixes[d.path]:
                        fixes[d.path].append(d.fix)
        progress = False
        for path, found in fixes.items():
            text = current.get(path, original[path])
            new, applied = apply_fixes(text, found)
            if applied and new != text:
                current[path] = new
                counts[path] = counts.get(path, 0) + applied
                progress = True
        if not progress:
            break
    return {path: (original[path], text, counts[path]) for path, text in current.items() if text != original[path]}


def _inside(path: str, folder: str) -> bool:
    real = os.path.realpath(path)
    return real == folder or real.startswith(folder + os.sep)


def _fix(files: tuple[str, ...], root: str | None) -> None:
    """Write the fixed texts (a file changed on disk since it was read is left alone), then say how many."""
    from ..files import atomic_write
    fixed = 0
    for path, (before, after, count) in _fixed_texts(files, root).items():
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as err:
            click.echo(f"unodsl: cannot read '{path}' again: {err.strerror or err}; it was not fixed", err=True)
            continue
        bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""
        if data.decode("utf-8", "replace") != bom + before:
            click.echo(f"unodsl: '{path}' changed while it was checked; it was not fixed", err=True)
            continue
        try:
            atomic_write(path, bom + after, force=True)
        except OSError as err:
            click.echo(f"unodsl: cannot write '{path}': {err.strerror or err}; it was not fixed", err=True)
            continue
        fixed += count
        click.echo(f"fixed {count} problem(s) in {one_line(path)}", err=True)
    if not fixed:
        click.echo("nothing to fix", err=True)


def _diff(files: tuple[str, ...], root: str | None) -> int:
    """Print the fixes as a unified diff: exit 1 when there is one (like `ruff --diff`), else 0."""
    import difflib
    changes = _fixed_texts(files, root)
    for path, (before, after, _count) in changes.items():
        click.echo("".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                                f"a/{path}", f"b/{path}")), nl=False)
    total = sum(count for _, _, count in changes.values())
    click.echo(f"{total} fix(es) in {len(changes)} file(s); 'unodsl check --fix' applies them"
               if changes else "nothing to fix", err=True)
    return 1 if changes else 0


# ---------------------------------------------------------------- watching


def _watch(files: tuple[str, ...], fmt: str, fix: bool, diff: bool, root: str | None, interval: float = 0.5) -> None:
    """Check, then check again each time a file the last check read changes; runs until Ctrl-C."""
    last: dict[str, tuple] = {}
    while True:
        if fix:
            _fix(files, root)
        if diff:
            _diff(files, root)
        _, read = _report(files, fmt, root)
        click.echo(f"[{time.strftime('%H:%M:%S')}] watching {len(read)} file(s) for changes (Ctrl-C stops)",
                   err=True)
        sys.stdout.flush()
        last = {path: _stamp(path) for path in read}
        while all(_stamp(path) == stamp for path, stamp in last.items()):
            time.sleep(interval)
        changed = [path for path, stamp in last.items() if _stamp(path) != stamp]
        click.echo(f"--- changed: {', '.join(one_line(p) for p in changed)}", err=True)


def _stamp(path: str) -> tuple:
    try:
        info = os.stat(path)
    except OSError:
        return (None,)
    return (info.st_mtime_ns, info.st_size, info.st_ino)


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

"""`unodsl test`: run rule scenarios and report failures, as text, JSON or JUnit XML."""

from __future__ import annotations

import json
import sys

import click

from .files import refuse_overwrite
from .shared import root_option, variant_file, write_or_exit


@click.command(name="test")
@click.argument("files", nargs=-1, required=True)
@click.option("--verbose", "-v", is_flag=True, help="List every scenario, not only failures.")
@click.option("--reference", is_flag=True,
              help="Run in the engine's reference mode: every rule through its general body, no fast path.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: failures and a summary; json: one object per scenario and the summary, for tools.")
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the results as JUnit XML to this file, for CI systems.")
@click.option("--force", is_flag=True, help="Overwrite an existing --junit file.")
@root_option
def test_command(files: tuple[str, ...], verbose: bool, reference: bool, fmt: str, junit_path: str | None,
                 force: bool, root: str | None) -> None:
    """Run rule scenarios (given / actions / expect) and report failures.

    A variant file (or a shipped name such as `classic`) runs the scenario files that name
    it, found beside it, in scenarios/ beside it and in scenarios/ beside its folder.
    """
    from ..scenarios.runner import run_scenario_files
    if force and not junit_path:
        raise click.UsageError("--force only applies with --junit")
    if junit_path:
        refuse_overwrite(junit_path, force)
    files = tuple(variant_file(path) for path in files)
    report = run_scenario_files(list(files), fast=False if reference else None, root=root)
    if fmt == "json":
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        for line in report.lines(verbose):
            click.echo(line)
    if junit_path:
        write_or_exit(junit_path, report.to_junit(), force, "the JUnit report", "the scenarios ran", "this report")
    sys.exit(0 if report.ok else 1)

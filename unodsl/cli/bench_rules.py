"""`unodsl bench-rules`: RuleShift, the rule-following benchmark over novel variants (docs/agents.md)."""

from __future__ import annotations

import json
import os
import sys

import click

from .shared import BOT_CHOICE, write_or_exit


@click.command("bench-rules")
@click.option("--agent", "agents", multiple=True, type=BOT_CHOICE, metavar="SPEC", required=True,
              help="A seat spec to measure (repeatable): llm:MODEL, py:module:Class, classic-reader, guesser, ...")
@click.option("--seed", type=int, default=2026, show_default=True, help="Every draw of the run comes from it.")
@click.option("--variants", type=click.IntRange(1, 1000), default=6, show_default=True, help="Novel variants generated.")
@click.option("--screen-games", type=click.IntRange(1, 10**6), default=1000, show_default=True,
              help="Heuristic games a variant must finish, every one, to be kept.")
@click.option("--questions", type=click.IntRange(0, 1000), default=6, show_default=True,
              help="Positions asked about per variant (an is-legal pair and a list question each).")
@click.option("--deals", type=click.IntRange(1, 10**5), default=10, show_default=True,
              help="Paired deals per variant in the play track (each at both seats, under classic and the variant).")
@click.option("--write-games", type=click.IntRange(1, 10**5), default=20, show_default=True,
              help="Seeded games a written file must play alike in the write track.")
@click.option("--opponent", type=BOT_CHOICE, default="heuristic", show_default=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write report.json and report.md into this folder.")
@click.option("--force", is_flag=True, help="Overwrite an existing report.")
def bench_rules(agents, seed, variants, screen_games, questions, deals, write_games, opponent, out_dir, force) -> None:
    """RuleShift: do agents follow rules that changed? Rule questions, play, and writing the file, on novel variants."""
    from ..arena.bench import format_report, run_benchmark
    if out_dir:
        for name in ("report.json", "report.md"):
            target = os.path.join(out_dir, name)
            if os.path.exists(target) and not force:
                click.echo(f"unodsl: '{target}' exists (use --force to overwrite it)", err=True)
                sys.exit(1)
    try:
        report = run_benchmark(list(agents), seed=seed, variants=variants, screen_games=screen_games,
                               questions_per_variant=questions, deals=deals, write_games=write_games,
                               opponent=opponent, workdir=os.getcwd())
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    text = format_report(report)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        write_or_exit(os.path.join(out_dir, "report.json"), json.dumps(report, indent=1) + "\n", True,
                      "the report", "the benchmark ran", "the report")
        write_or_exit(os.path.join(out_dir, "report.md"), text, True, "the report", "the benchmark ran", "the report")
    click.echo(text, nl=False)

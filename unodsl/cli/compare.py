"""`unodsl compare`: two rule sets played on the same seeds, every figure's difference with a paired interval."""

from __future__ import annotations

import json
import os
import time

import click

from .shared import (BOT_CHOICE, check_players, include_option, load_game, parse_rulings, root_option,
                     report_target, rulings_option, variant_file, with_includes, write_or_exit)


@click.command(name="compare")
@click.argument("file_a", metavar="A")
@click.argument("file_b", metavar="[B]", required=False)
@click.option("-n", "--games", type=click.IntRange(2, 10**8), default=1000, show_default=True,
              help="Games per side, on seeds shared by both.")
@click.option("--players", "-p", type=click.IntRange(2, 100), default=4, show_default=True, help="Number of players.")
@click.option("--bots", type=BOT_CHOICE, default="heuristic", show_default=True,
              help="Bot for every seat, or a comma list seated in turn.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the run.")
@click.option("--match", is_flag=True, help="Each game is a match to the target score.")
@click.option("--workers", "-w", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes to spread games over; results are identical for a seed.")
@click.option("--backend", type=click.Choice(["process", "ray"]), default="process", show_default=True,
              help="process: a pool of --workers processes; ray: Ray tasks (the ray extra, docs/scale.md).")
@rulings_option
@include_option
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Write a report with a plot of the differences: .html or .md (with a PNG beside it).")
@click.option("--force", is_flag=True, help="Overwrite an existing --report file.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a table; json: every figure for tools.")
@root_option
def compare_command(file_a, file_b, games, players, bots, seed, match, workers, backend, rulings, includes,
                    report_path, force, fmt, root) -> None:
    """Play A and B on the same seeds and print each figure's difference A - B with a paired 95% interval.

    \b
    unodsl compare classic my-house.yaml -n 2000      two files
    unodsl compare classic --include stacking-mattel  a house rule's effect: A with it, B without
    unodsl compare classic --ruling draw_two_start_skips=true,false
                                                       each value against the first (a grid)
    Figures are defined in docs/analytics.md.
    """
    if file_b is not None and (rulings or includes):
        raise click.UsageError("--ruling and --include compare one file with itself: give A only")
    if file_b is None and not (rulings or includes):
        raise click.UsageError("give B, or --include or --ruling to compare A with a change of itself")
    report = None
    if report_path is not None:
        report = report_target(report_path, force)
    sides = _sides(file_a, file_b, rulings, includes, root)
    for _, _, game in sides:
        check_players(game, players)
    names, results = [], []
    baseline_name, baseline, baseline_game = sides[0] if file_b is None and rulings else sides[-1]
    started = time.perf_counter()
    stop: list = []            # set when Ctrl-C stopped a pool or Ray run: its games are not all played
    for name, spec, game in (sides[1:] if file_b is None and rulings else sides[:1]):
        if backend == "ray":
            from ..runs.ray_backend import compare_on_ray
            comparison = compare_on_ray((spec, baseline), games, players, seed, bots.split(","), workers, match,
                                        stop=stop, fast=game.fast)
        else:
            from ..runs.compare import compare
            comparison = compare((spec, baseline), games, players, seed, bots.split(","), workers, match,
                                 stop=stop, loaded=(game, baseline_game))
        if stop:
            raise click.Abort()           # as a Ctrl-C in one process: no figures of a part of the games
        names.append(name)
        results.append(comparison.summary())
    elapsed = time.perf_counter() - started
    header = {"b": baseline_name, "games": games, "players": players, "bots": bots, "seed": seed}
    out = [{"a": name, **header, "figures": rows} for name, rows in zip(names, results)]
    if report is not None:
        from ..runs.report import render_comparison
        path, page_fmt, force = report
        stem = os.path.splitext(os.path.basename(path))[0]
        for i, (name, rows) in enumerate(zip(names, results)):
            part = stem if len(names) == 1 else f"{stem}-{i + 1}"
            for file, data in render_comparison({"a": name, **header}, rows, page_fmt, part).items():
                write_or_exit(os.path.join(os.path.dirname(path), file), data, force, "report",
                                    "the games were played", "the report")
    if fmt == "json":
        click.echo(json.dumps(out if len(out) > 1 else out[0], indent=2))
        return
    for block in out:
        click.echo(_format(block))
    click.echo(f"time: {elapsed:.2f} s")


def _sides(file_a, file_b, rulings, includes, root) -> list[tuple[str, tuple, object]]:
    """(name, (path, root, rulings, texts), Game) of each side: A and B; A with the house rules and A; or A at each
    ruling value. The tuple is what a worker process loads the side from."""
    if file_b is not None:
        return [(name, (variant_file(name), root, None, None), load_game(name, root)) for name in (file_a, file_b)]
    path = variant_file(file_a)
    if includes:
        virtual, texts = with_includes(file_a, includes)
        return [(f"{file_a} + {', '.join(includes)}", (virtual, root, None, texts),
                 load_game(virtual, root, None, texts)),
                (file_a, (path, root, None, None), load_game(path, root))]
    grid = parse_rulings(rulings, grid=True)
    if len(grid) != 1 or len(next(iter(grid.values()))) < 2:
        raise click.UsageError("--ruling takes one NAME=V1,V2,... with two values or more: each is compared with "
                               "the first")
    (name, values), = grid.items()
    game = load_game(path, root)
    from ..check import ruling_problem
    for value in values:
        problem = ruling_problem(game.variant, name, value)
        if problem is not None:
            raise click.BadParameter(problem, param_hint="'--ruling'")
    return [(f"{file_a} with {name}={json.dumps(v)}", (path, root, {name: v}, None), load_game(path, root, {name: v}))
            for v in values]


def _format(block: dict) -> str:
    lines = [f"A = {block['a']}", f"B = {block['b']}",
             f"{block['games']:,} games each on the same seeds, {block['players']} players, {block['bots']} bots, "
             f"seed {block['seed']}",
             f"{'figure':<17} {'A':>9} {'B':>9} {'A - B':>9}  {'paired 95%':<21} {'unpaired 95%':<21} saved"]
    for r in block["figures"]:
        low, high = r["ci95"]
        ulow, uhigh = r["unpaired_ci95"]
        mark = " *" if r["significant"] else ""
        saved = "" if r["games_saved"] is None else f"{r['games_saved']:.1f}x"
        lines.append(f"{r['figure']:<17} {r['a']:>9.3f} {r['b']:>9.3f} {r['difference']:>+9.3f}  "
                     f"{f'[{low:+.3f}, {high:+.3f}]':<21} {f'[{ulow:+.3f}, {uhigh:+.3f}]':<21} {saved}{mark}")
    lines.append("*: the paired interval excludes 0. saved: how many times more games two independent runs "
                 "would need for as narrow an interval.")
    return "\n".join(lines)



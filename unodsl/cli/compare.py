"""`unodsl compare`: two rule sets played on the same seeds, every figure's difference with a paired interval."""

from __future__ import annotations

import json
import os
import time

import click

from .shared import (BOT_CHOICE, check_players, include_option, load_game, parse_rulings, root_option,
                     report_target, rulings_option, save_target, study_options, study_plan, variant_file,
                     with_includes, write_or_exit)
from .files import SavedTable, figure_columns, luck_cells


class PlayerCounts(click.ParamType):
    """`--players`: a number of players, or a comma list of them to sweep (`2,3,4,6`)."""

    name = "players"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        counts = []
        for item in str(value).split(","):
            try:
                count = int(item.strip())
            except ValueError:
                self.fail(f"'{item.strip()}' is not a number of players", param, ctx)
            if not 2 <= count <= 100:
                self.fail(f"{count} is not in the range 2 to 100", param, ctx)
            if count not in counts:
                counts.append(count)
        return tuple(counts)


@click.command(name="compare")
@click.argument("file_a", metavar="A")
@click.argument("file_b", metavar="[B]", required=False)
@click.option("-n", "--games", type=click.IntRange(2, 10**8), default=1000, show_default=True,
              help="Games per side, on seeds shared by both.")
@click.option("--players", "-p", type=PlayerCounts(), default="4", show_default=True,
              help="Number of players, or a comma list to sweep: 2,3,4,6.")
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
@study_options
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Write a report with plots of the differences: .html or .md (with PNGs beside it).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="Write every game's figures, both sides, to a table: .csv, or .parquet (the parquet extra).")
@click.option("--force", is_flag=True, help="Overwrite an existing --report or --save file.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a table; json: every figure for tools.")
@root_option
def compare_command(file_a, file_b, games, players, bots, seed, match, workers, backend, rulings, includes,
                    study_games, skill, restrict, ladder, report_path, save_path, force, fmt, root) -> None:
    """Play A and B on the same seeds and print each figure's difference A - B with a paired 95% interval.

    \b
    unodsl compare classic my-house.yaml -n 2000      two files
    unodsl compare classic --include stacking-mattel  a house rule's effect: A with it, B without
    unodsl compare classic --ruling draw_two_start_skips=true,false
                                                       each value against the first (a grid)
    unodsl compare classic --include seven-o --players 2,3,4,6
                                                       the same at each table size (a sweep)
    Figures are defined in docs/analytics.md.
    """
    if file_b is not None and (rulings or includes):
        raise click.UsageError("--ruling and --include compare one file with itself: give A only")
    if file_b is None and not (rulings or includes):
        raise click.UsageError("give B, or --include or --ruling to compare A with a change of itself")
    report = report_target(report_path, force) if report_path is not None else None
    save = save_target(save_path, force) if save_path is not None else None
    counts = players if isinstance(players, tuple) else PlayerCounts().convert(players, None, None)
    sides = _sides(file_a, file_b, rulings, includes, root)
    for count in counts:
        for _, _, game in sides:
            check_players(game, count)
    plan = study_plan(games, study_games, skill, restrict, ladder, tuple(game for _, _, game in sides))
    grid = file_b is None and rulings
    baseline_name, baseline, baseline_game = sides[0] if grid else sides[-1]
    pairs = sides[1:] if grid else sides[:1]
    started = time.perf_counter()
    stop: list = []            # set when Ctrl-C stopped a pool or Ray run: its games are not all played
    blocks = []
    columns = figure_columns([game for _, _, game in sides], counts, plan) if save else []
    with SavedTable(save, ["comparison", "side", "luck_bots"], ["players", "game", "luck_winner_side"],
                    columns) as table:
        for count in counts:
            for name, spec, game in pairs:
                on_rows = None if table is None else (
                    lambda rows, name=name, count=count: table.write(_game_rows(name, count, rows, plan.ladder)))
                if backend == "ray":
                    from ..runs.ray_backend import compare_on_ray
                    comparison = compare_on_ray((spec, baseline), games, count, seed, bots.split(","), workers,
                                                match, stop=stop, fast=game.fast, plan=plan, on_rows=on_rows)
                else:
                    from ..runs.compare import compare
                    comparison = compare((spec, baseline), games, count, seed, bots.split(","), workers, match,
                                         stop=stop, loaded=(game, baseline_game), plan=plan, on_rows=on_rows)
                if stop:
                    raise click.Abort()       # as a Ctrl-C in one process: no figures of a part of the games
                blocks.append({"a": name, "b": baseline_name, "games": games, "players": count, "bots": bots,
                               "seed": seed, "figures": comparison.summary()})
    elapsed = time.perf_counter() - started
    if report is not None:
        from ..runs.report import render_comparisons
        path, page_fmt, force = report
        stem = os.path.splitext(os.path.basename(path))[0]
        for file, data in render_comparisons(blocks, page_fmt, stem).items():
            write_or_exit(os.path.join(os.path.dirname(path), file), data, force, "report",
                          "the games were played", "the report")
    if fmt == "json":
        click.echo(json.dumps(blocks if len(blocks) > 1 else blocks[0], indent=2))
        return
    for block in blocks:
        click.echo(_format(block))
    if len(blocks) > 1:
        click.echo(_format_sweep(blocks))
    click.echo(f"time: {elapsed:.2f} s")


def _game_rows(name: str, players: int, rows: list, ladder: tuple) -> list[dict]:
    """One table row per game and side: where it comes from, then its figures."""
    out = []
    for index, values_a, values_b, luck_a, luck_b in rows:
        for side, values, luck in (("A", values_a, luck_a), ("B", values_b, luck_b)):
            out.append({"comparison": name, "side": side, "players": players, "game": index, **values,
                        **luck_cells(luck, ladder)})
    return out


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
             f"{'figure':<30} {'A':>9} {'B':>9} {'A - B':>9}  {'paired 95%':<21} {'unpaired 95%':<21} {'saved':<7}"
             f"  in words"]
    for r in block["figures"]:
        low, high = r["ci95"]
        ulow, uhigh = r["unpaired_ci95"]
        mark = "*" if r["significant"] else " "
        saved = "" if r["games_saved"] is None else f"{r['games_saved']:.1f}x"
        lines.append(f"{r['figure']:<30} {r['a']:>9.3f} {r['b']:>9.3f} {r['difference']:>+9.3f}  "
                     f"{f'[{low:+.3f}, {high:+.3f}]':<21} {f'[{ulow:+.3f}, {uhigh:+.3f}]':<21} {saved:<6}{mark}"
                     f"  {r['words']}")
    lines.append("*: the paired interval excludes 0. saved: how many times more games two independent runs "
                 "would need for as narrow an interval. Shares and win rates are from 0 to 1.")
    return "\n".join(lines)


def _format_sweep(blocks: list[dict]) -> str:
    """The sweep in one table: each figure's difference A - B at every point (* where its interval excludes 0)."""
    heads = [f"{b['players']}p {b['a']}" if len({x['a'] for x in blocks}) > 1 else f"{b['players']} players"
             for b in blocks]
    width = max(12, *(len(h) for h in heads))
    lines = ["", "the sweep: A - B at each point (*: the paired interval excludes 0)",
             f"{'figure':<30} " + " ".join(f"{h:>{width}}" for h in heads)]
    names = list(dict.fromkeys(r["figure"] for b in blocks for r in b["figures"]))
    for name in names:
        cells = []
        for block in blocks:
            row = next((r for r in block["figures"] if r["figure"] == name), None)
            cells.append("" if row is None else f"{row['difference']:+.3f}{'*' if row['significant'] else ' '}")
        lines.append(f"{name:<30} " + " ".join(f"{c:>{width}}" for c in cells))
    return "\n".join(lines)

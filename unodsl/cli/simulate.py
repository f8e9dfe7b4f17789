"""`unodsl simulate`: bots play many games; the options and the run shared with `play --simulate`."""

from __future__ import annotations

import json
import os
import sys
import time

import click

from .shared import (BOT_CHOICE, check_players, include_option, isatty, load_game, parse_rulings, root_option,
                     report_target, rulings_option, save_target, study_options, study_plan, with_includes,
                     write_or_exit)
from .files import SavedTable, figure_columns, luck_cells

# A run in which more games than this share reach the turn limit says so: its figures are
# those of games cut short, not of games played out.
TRUNCATION_WARNING = 0.01


def simulate_options(fn):
    """The options of `simulate`, which `play` takes too (for --simulate N and its own game)."""
    for option in reversed([
        click.option("--players", "-p", type=click.IntRange(2, 100), default=4, show_default=True,
                     help="Number of players."),
        click.option("--bots", type=BOT_CHOICE, default=None,
                     help="Bot for every (other) seat, or a comma list seated in turn: heuristic,random,ismcts:200 "
                          "[heuristic]."),
        click.option("--seed", type=int, default=None,
                     help="Seed of the run [simulate: 1; play: a random seed, printed]."),
        click.option("--workers", "-w", type=click.IntRange(1, 64), default=1, show_default=True,
                     help="Processes to spread games over; results are identical for a seed."),
        click.option("--match", is_flag=True, help="Each game is a match to the target score."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                     help="text: a readable summary; json: the summary for tools."),
        click.option("--json", "as_json", is_flag=True, hidden=True, help="The same as --format json."),
        root_option,
    ]):
        fn = option(fn)
    return fn


@click.command()
@click.argument("file")
@click.option("-n", "--games", type=click.IntRange(1, 10**9), default=1000, show_default=True,
              help="Number of games (or matches) to play.")
@simulate_options
@rulings_option
@include_option
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Measure every game and write a report: .html (plots inside) or .md (with PNGs beside it).")
@click.option("--figures", is_flag=True, help="Measure every game and print the designer's figures "
              "(docs/analytics.md) without writing a report.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="Measure every game and write its figures to a table: .csv, or .parquet (the parquet extra).")
@click.option("--force", is_flag=True, help="Overwrite an existing --report or --save file.")
@click.option("--backend", type=click.Choice(["process", "ray"]), default="process", show_default=True,
              help="process: a pool of --workers processes; ray: Ray tasks (the ray extra, docs/scale.md).")
@study_options
def simulate(file, games, players, bots, seed, workers, match, fmt, as_json, root, rulings, includes, report_path,
             figures, save_path, force, backend, study_games, skill, restrict, ladder) -> None:
    """Bots play N games (or matches); print turns, win rates with 95% intervals, points.

    Ctrl-C stops the run and prints the statistics of the games finished so far.
    """
    report = None
    if report_path is not None:
        report = report_target(report_path, force)
    save = save_target(save_path, force) if save_path is not None else None
    run_simulation(file, games, players, bots or "heuristic", 1 if seed is None else seed, workers, match,
                   as_json or fmt == "json", root, rulings=parse_rulings(rulings), includes=includes,
                   measure=figures or report is not None or save is not None, report=report, backend=backend,
                   studies=(study_games, skill, restrict, ladder), save=save)


def run_simulation(file, games, players, bots, seed, workers, match, as_json, root, *, rulings=None, includes=(),
                   measure=False, report=None, backend="process", studies=None, save=None) -> None:
    """Play the games, print the summary (text or JSON); exit 130 when Ctrl-C cut the run short."""
    # From here on Ctrl-C only raises a flag, looked at between games: the run stops
    # and the games finished so far are summarised.
    stop: list = []
    previous = _set_sigint(lambda signum, frame: stop.append(signum))
    try:
        path, texts = with_includes(file, includes)
        game = load_game(path, root, None, texts)
        rulings = _checked_rulings(game, rulings)
        if rulings:
            game = load_game(path, root, rulings, texts)
        check_players(game, players)
        plan = study_plan(games, *studies, (game,)) if measure and studies else None
        started = time.perf_counter()
        bar = _Progress(games)
        columns = figure_columns([game], (players,), plan) if save else []
        with SavedTable(save, ["luck_bots"], ["game", "luck_winner_side"], columns) as table:
            on_rows = None if table is None else (
                lambda rows: table.write([{"game": index, **values, **luck_cells(luck, plan.ladder)}
                                          for index, values, luck in rows]))
            extra = {"plan": plan, "on_rows": on_rows} if plan else {}
            if backend == "ray":
                from ..runs.ray_backend import run_on_ray
                stats = run_on_ray(path, root, rulings or None, games, players, seed, bots.split(","), workers,
                                   match, bar.update, stop, measure, fast=game.fast, texts=texts, **extra)
            else:
                from ..runs.simulate import simulate as simulate_games
                stats = simulate_games(path, games, players, seed, bots.split(","), workers, match, root,
                                       rulings or None, progress=bar.update, game=game, stop=stop,
                                       measure=measure, texts=texts, **extra)
        bar.close()
    finally:
        _set_sigint(previous)
    elapsed = time.perf_counter() - started
    summary = stats.summary()
    summary.update({"variant": game.variant.name, "seed": seed, "bots": bots, "match": match,
                    "interrupted": stats.interrupted})
    if rulings:
        summary["rulings"] = rulings
    if includes:
        summary["include"] = list(includes)
    _warn_truncated(summary, game)
    if report is not None:
        from ..runs.report import render_simulation
        out, fmt, force = report
        stem = os.path.splitext(os.path.basename(out))[0]
        folder = os.path.dirname(out)
        for name, data in render_simulation(summary, fmt, stem).items():
            write_or_exit(os.path.join(folder, name), data, force, "report", "the games were played",
                                "the report")
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(_format_summary(summary, elapsed))
    if stats.interrupted:
        sys.exit(130)


def _checked_rulings(game, rulings: dict | None) -> dict:
    """The --ruling values, each one the variant has and of its type; a usage error otherwise."""
    from ..check import ruling_problem
    for name, value in (rulings or {}).items():
        problem = ruling_problem(game.variant, name, value)
        if problem is not None:
            raise click.BadParameter(problem, param_hint="'--ruling'")
    return dict(rulings or {})


def _warn_truncated(summary: dict, game) -> None:
    """Say on stderr when more than 1% of the games reached the turn limit."""
    games, cut = summary["games"], summary["stalls"]
    if games and cut / games > TRUNCATION_WARNING:
        click.echo(f"unodsl: warning: {cut:,} of {games:,} games ({cut / games:.1%}) reached the turn limit "
                   f"({game.variant.max_turns:,} turns) and were ended by the stall ruling; their figures are "
                   f"those of games cut short (random bots play long games: try --bots heuristic)", err=True)


def _set_sigint(handler):
    """Install a SIGINT handler when possible (main thread only); return the previous one."""
    import signal
    import threading
    if handler is None or threading.current_thread() is not threading.main_thread():
        return None
    try:
        return signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):
        return None


class _Progress:
    """A progress bar on stderr, shown only on a terminal and once a run has taken longer than a second."""

    def __init__(self, total: int):
        self.total = total
        self.started = time.perf_counter()
        self.last = 0.0
        self.shown = False
        self.enabled = isatty(sys.stderr)

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.started < 1.0 or (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        self.shown = True
        width = 30
        filled = int(width * done / self.total)
        rate = done / (now - self.started)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games ({rate:,.0f}/s)")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")


def _format_summary(s: dict, elapsed: float) -> str:
    t = s["turns"]
    lines = [
        f"{s['variant']}: {s['games']} {'matches' if s['match'] else 'games'}, {s['players']} players, "
        f"{s['bots']} bots, seed {s['seed']}" + (" (interrupted)" if s["interrupted"] else ""),
        f"turns per game: mean {t['mean']:.1f}, median {t['median']}, p95 {t['p95']}, max {t['max']}",
        "seat  wins   win rate  95% CI           mean points",
    ]
    for seat in s["seats"]:
        low, high = seat["ci95"]
        lines.append(f"{seat['seat']:>4}  {seat['wins']:>5}  {seat['win_rate']:>8.3f}  "
                     f"[{low:.3f}, {high:.3f}]  {seat['mean_points']:>11.1f}")
    lines.append(f"no winner: {s['no_winner']}   stalled (turn limit): {s['stalls']}   "
                 f"reshuffles: {s['reshuffles']['total']} ({s['reshuffles']['per_game']:.2f} per game)")
    if s["match"]:
        lines.append(f"rounds per match: {s['rounds_per_game']:.2f}")
    if "report" in s:
        lines.extend(_format_figures(s["report"]))
    if elapsed > 0 and s["games"]:
        lines.append(f"time: {elapsed:.2f} s ({s['games'] / elapsed:,.0f} games/s)")
    return "\n".join(lines)


def _format_figures(r: dict) -> list[str]:
    """The designer's figures, in a few lines (docs/analytics.md)."""
    first = r["first_player"]
    low, high = first["advantage_ci95"]
    lines = [f"first player wins {first['win_rate']:.1%} (fair share {first['fair']:.1%}): advantage "
             f"{first['advantage']:+.1%} [{low:+.1%}, {high:+.1%}]",
             "win rate by position after the first player: " + ", ".join(
                 f"{p['position']}: {p['win_rate']:.1%}" for p in r["by_position"])]
    if r["by_team"]:
        lines.append("win rate by team: " + ", ".join(f"{t['team']}: {t['win_rate']:.1%}" for t in r["by_team"]))
    lines.append(f"cards drawn per player {r['draws']['per_player']:.1f}, forced draws per game "
                 f"{r['draws']['forced_per_game']:.1f}, largest hand {r['draws']['largest_hand']['mean']:.1f}, "
                 f"longest stack {r['stacks']['mean']:.2f}")
    chains = r["stack_chains"]
    lines.append(f"stack chains per game {chains['per_game']:.2f}, length mean {chains['mean']:.2f}, p95 "
                 f"{chains['p95']}, max {chains['max']}: " + ", ".join(
                     f"{row['length']}: {row['chains']:,}" for row in chains["histogram"]))
    lines.append(f"lead changes per game {r['lead_changes']['mean']:.2f}, drama {r['drama']['mean']:.2f} (share of "
                 f"the winner's decisions made while another player led alone)")
    agency = r["agency"]
    lines.append(f"agency: a real choice at {agency['choice_share']['mean']:.1%} of decisions, "
                 f"{agency['options']['mean']:.2f} distinct options per decision")
    lines.append("snowball: the sole leader at " + ", ".join(
        f"{row['at']}% of the game wins {row['win_rate']:.1%} [{row['ci95'][0]:.1%}, {row['ci95'][1]:.1%}]"
        for row in r["snowball"]) + f" (fair share {first['fair']:.1%})")
    lines.append(f"decisiveness: the winner leads alone for good over the last {r['decisiveness']['mean']:.1%} "
                 f"of the game")
    for row in r["skill"]:
        lines.append(f"skill gap: one {row['strong']} among {row['weak']} bots wins {row['win_rate']:.1%} "
                     f"[{row['ci95'][0]:.1%}, {row['ci95'][1]:.1%}] (fair share {row['fair']:.1%}), "
                     f"{row['gap'] * 100:+.1f} points over {row['games']:,} games")
    if r["luck"]:
        luck = r["luck"]
        lines.append("luck against skill: ratings " + ", ".join(
            f"{b['bot']} {b['rating']:+.0f}" for b in luck["bots"]) + f" (Elo points, spread {luck['spread']:.0f}); "
            f"the bots' strength explains {luck['explained']:.1%} of the outcome, luck the rest")
    if r["restricted"]:
        lines.append("restricted play (win-rate points lost by a player who may never...): " + ", ".join(
            f"{row['restriction']} {row['value'] * 100:+.1f} [{row['ci95'][0] * 100:+.1f}, {row['ci95'][1] * 100:+.1f}]"
            for row in r["restricted"]))
    shown = ", ".join(f"{c['card']} {c['plays_per_game']:.1f}" for c in r["cards"][:6])
    lines.append(f"plays per game: {shown}")
    return lines


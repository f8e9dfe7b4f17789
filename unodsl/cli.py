"""The `unodsl` command line: check, play, simulate, replay, rules, test.

Exit codes: 0 clean, 1 problems found (or a game/log error), 2 usage error.
Library code returns values and diagnostics; only this module prints.
"""

from __future__ import annotations

import json
import os
import sys
import time

import click

from . import __version__
from .diagnostics import format_full, format_json, format_text
from .files import atomic_write, refuse_overwrite

BOT_CHOICE = click.Choice(["random", "heuristic"])


class _Group(click.Group):
    """A group whose usage errors exit 2 with one line, and broken pipes exit quietly."""

    def main(self, *args, **kwargs):
        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as err:
            sys.exit(err.exit_code)
        except click.UsageError as err:
            hint = f" (try '{err.ctx.command_path} --help')" if err.ctx else ""
            click.echo(f"unodsl: {err.format_message()}{hint}", err=True)
            sys.exit(2)
        except click.ClickException as err:
            click.echo(f"unodsl: {err.format_message()}", err=True)
            sys.exit(err.exit_code)
        except click.exceptions.Abort:
            click.echo("unodsl: aborted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            _quiet_broken_pipe()
            sys.exit(0)
        except KeyboardInterrupt:
            click.echo("unodsl: interrupted", err=True)
            sys.exit(130)


def _quiet_broken_pipe() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="unodsl")
def main() -> None:
    """Describe, check, play and study UNO variants."""


# --- check ----------------------------------------------------------------------


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "full", "json"]), default="text",
              help="text: one line per problem; full: with the source line and a caret; json: for tools.")
@click.option("--root", type=click.Path(file_okay=False), default=None,
              help="Folder that extends/include may not leave (default: the working folder).")
def check(files: tuple[str, ...], fmt: str, root: str | None) -> None:
    """Check variant files and report every problem as path:line:col: CODE message."""
    from .check import check_file
    diagnostics, texts = [], {}
    for path in files:
        result = check_file(path, root)
        diagnostics.extend(result.diagnostics)
        texts.update(result.texts)
    if fmt == "json":
        click.echo(format_json(diagnostics))
    elif diagnostics:
        click.echo(format_full(diagnostics, texts) if fmt == "full" else format_text(diagnostics))
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    if fmt != "json":
        if errors or warnings:
            click.echo(f"{errors} error(s), {warnings} warning(s) in {len(files)} file(s)", err=True)
        else:
            click.echo(f"{len(files)} file(s) checked, no problems", err=True)
    sys.exit(1 if errors else 0)


def _load_game(path: str, root: str | None = None):
    """Load a variant for playing; on problems print them and exit 1."""
    from .check import check_file
    result = check_file(path, root)
    if result.errors or result.game is None:
        click.echo(format_text(result.errors) or f"{path}:1:1: E306 the variant defines no cards", err=True)
        sys.exit(1)
    return result.game


# --- simulate -------------------------------------------------------------------


def _simulate_options(fn):
    for option in reversed([
        click.option("--players", "-p", type=click.IntRange(2, 100), default=4, show_default=True),
        click.option("--bots", type=BOT_CHOICE, default="random", show_default=True, help="Bot for every seat."),
        click.option("--seed", type=int, default=1, show_default=True),
        click.option("--workers", "-w", type=click.IntRange(1, 64), default=1, show_default=True,
                     help="Processes to spread games over; results are identical for a seed."),
        click.option("--match", is_flag=True, help="Each game is a match to the target score."),
        click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON."),
        click.option("--root", type=click.Path(file_okay=False), default=None),
    ]):
        fn = option(fn)
    return fn


@main.command()
@click.argument("file")
@click.option("-n", "--games", type=click.IntRange(1, 10**9), default=1000, show_default=True)
@_simulate_options
def simulate(file, games, players, bots, seed, workers, match, as_json, root) -> None:
    """Bots play N games (or matches); print turns, win rates with 95% intervals, points."""
    _run_simulation(file, games, players, bots, seed, workers, match, as_json, root)


def _run_simulation(file, games, players, bots, seed, workers, match, as_json, root) -> None:
    from .simulate import simulate as run
    game = _load_game(file, root)
    _check_players(game, players)
    started = time.perf_counter()
    bar = _Progress(games)
    stats = run(file, games, players, seed, [bots], workers, match, root, game=game, progress=bar.update)
    bar.close()
    elapsed = time.perf_counter() - started
    summary = stats.summary()
    summary.update({"variant": game.variant.name, "seed": seed, "bots": bots, "match": match,
                    "interrupted": stats.interrupted})
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(_format_summary(summary, elapsed))
    if stats.interrupted:
        sys.exit(130)


def _check_players(game, players: int) -> None:
    v = game.variant
    allowed = v.allowed_players or range(v.min_players, v.max_players + 1)
    if players not in allowed:
        raise click.UsageError(f"{v.name} is played by {', '.join(map(str, allowed))} players, not {players}")


class _Progress:
    """A progress bar on stderr, shown only once a run has taken longer than a second."""

    def __init__(self, total: int):
        self.total = total
        self.started = time.perf_counter()
        self.shown = False
        self.enabled = sys.stderr.isatty()

    def update(self, done: int) -> None:
        if not self.enabled or time.perf_counter() - self.started < 1.0:
            return
        self.shown = True
        width = 30
        filled = int(width * done / self.total)
        rate = done / (time.perf_counter() - self.started)
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
    if elapsed > 0 and s["games"]:
        lines.append(f"time: {elapsed:.2f} s ({s['games'] / elapsed:,.0f} games/s)")
    return "\n".join(lines)


# --- play -----------------------------------------------------------------------


@main.command()
@click.argument("file")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat.")
@click.option("--simulate", "sim_games", type=click.IntRange(1, 10**9), default=None,
              help="Instead of playing, let bots play N games and print statistics.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write a replayable log of the game.")
@click.option("--force", is_flag=True, help="Overwrite an existing --log file.")
@_simulate_options
def play(file, seat, sim_games, log_path, force, players, bots, seed, workers, match, as_json, root) -> None:
    """Play a game in the terminal against bots (or --simulate N games)."""
    if sim_games is not None:
        _run_simulation(file, sim_games, players, bots, seed, workers, match, as_json, root)
        return
    game = _load_game(file, root)
    _check_players(game, players)
    if not 0 <= seat < players:
        raise click.UsageError(f"--seat must be between 0 and {players - 1}")
    if log_path:
        refuse_overwrite(log_path, force)
    from .terminal import play_terminal
    state = play_terminal(game, players, seat, bots, seed, match)
    if log_path:
        from .replay import game_log
        atomic_write(log_path, json.dumps(game_log(game, file, state)) + "\n")


# --- replay ---------------------------------------------------------------------


@main.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.option("--variant", "variant_path", default=None, help="Replay against this (possibly edited) variant.")
def replay(log: str, variant_path: str | None) -> None:
    """Replay a game log; report the first action that is no longer legal."""
    from .replay import ReplayError, read_log, replay_game
    try:
        records = read_log(log)
    except ReplayError as err:
        click.echo(f"{log}: {err}", err=True)
        sys.exit(1)
    bad = 0
    for number, record in enumerate(records, start=1):
        path = variant_path or record["variant_path"]
        game = _load_game(path)
        outcome = replay_game(game, record)
        prefix = f"{log}: game {number}"
        if outcome.error:
            bad += 1
            click.echo(f"{prefix}: {outcome.error}")
        else:
            note = " (variant changed since the log was written)" if record.get("digest") != game.digest else ""
            click.echo(f"{prefix}: {outcome.actions} actions replayed, winner {outcome.winner}{note}")
    sys.exit(1 if bad else 0)


# --- rules and test ---------------------------------------------------------------


@main.command()
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["markdown", "text"]), default="markdown", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write to a file.")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
def rules(file: str, fmt: str, output: str | None, force: bool) -> None:
    """Print a readable rulebook generated from the variant."""
    from .rulebook import render_rulebook
    game = _load_game(file)
    text = render_rulebook(game, fmt)
    if output:
        refuse_overwrite(output, force)
        atomic_write(output, text)
    else:
        click.echo(text, nl=False)


@main.command(name="test")
@click.argument("files", nargs=-1, required=True)
@click.option("--verbose", "-v", is_flag=True, help="List every scenario, not only failures.")
def test_command(files: tuple[str, ...], verbose: bool) -> None:
    """Run rule scenarios (given / actions / expect) and report failures."""
    from .scenarios import run_scenario_files
    report = run_scenario_files(list(files))
    for line in report.lines(verbose):
        click.echo(line)
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":            # pragma: no cover
    main()

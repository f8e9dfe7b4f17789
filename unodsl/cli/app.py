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

from .. import __version__
from ..diagnostics import format_full, format_json, format_text, one_line
from .files import TargetExists, atomic_write, refuse_overwrite

BOT_CHOICE = click.Choice(["random", "heuristic"])

def _write_or_exit(path: str, text: str, force: bool, name: str, during: str, kept: str) -> None:
    """Write `text` to `path` atomically; if that is refused (the file appeared meanwhile) or fails, say
    so, keeping both texts, and exit 1."""
    try:
        atomic_write(path, text, force=force)
    except TargetExists as err:
        click.echo(f"unodsl: '{path}' was created while {during}; it was left as it was, "
                   f"and {kept} is in '{err.kept}'", err=True)
        sys.exit(1)
    except OSError as err:
        click.echo(f"unodsl: cannot write {name} '{path}': {err.strerror or err}", err=True)
        sys.exit(1)


# One option for every command that reads variants, so they all resolve links alike.
root_option = click.option(
    "--root", type=click.Path(file_okay=False), default=None,
    help="Folder that extends/include may not leave (default: the wider of the file's project "
         "and the working folder; never / or a top-level folder).")


class _UnknownVariant(click.ClickException):
    """A bare name that is neither a file nor a shipped variant: a usage error."""

    exit_code = 2


def _variant_path(value: str) -> str:
    """The file a variant argument means: an existing path as given, else a shipped name (`classic`)."""
    from ..source import catalog
    if os.path.lexists(value) or not catalog.is_name(value):
        return value
    found = catalog.path_of(value)
    if found is None:
        raise _UnknownVariant(catalog.unknown_message(value))
    return found


class _PipeClosed(Exception):
    """stdout was closed by the reader (`| head`)."""


class _Interrupted(Exception):
    """Ctrl-C (SIGINT) while a command ran."""


class _Group(click.Group):
    """A group whose usage errors exit 2 with one line, and broken pipes exit quietly."""

    def invoke(self, ctx):
        # click turns a broken pipe into exit 1 and Ctrl-C into a blank line plus Abort;
        # take them over before it sees them.
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise _PipeClosed() from None
        except KeyboardInterrupt:
            raise _Interrupted() from None

    def main(self, *args, **kwargs):
        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as err:
            sys.exit(err.exit_code)
        except click.exceptions.NoArgsIsHelpError as err:
            click.echo(err.ctx.get_help() if err.ctx else err.format_message(), err=True)
            sys.exit(2)
        except click.UsageError as err:
            hint = f" (try '{err.ctx.command_path} --help')" if err.ctx else ""
            click.echo(f"unodsl: {err.format_message()}{hint}", err=True)
            sys.exit(2)
        except click.ClickException as err:
            click.echo(f"unodsl: {err.format_message()}", err=True)
            sys.exit(err.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt, _Interrupted):
            # on a terminal the cursor sits after "^C": start a fresh line first
            click.echo(("\n" if _isatty(sys.stderr) else "") + "unodsl: interrupted", err=True)
            sys.exit(130)
        except (BrokenPipeError, _PipeClosed):
            _quiet_broken_pipe()
            sys.exit(0)
        except Exception as err:          # a bug: one line, unless UNODSL_DEBUG asks for the traceback
            if os.environ.get("UNODSL_DEBUG"):
                raise
            click.echo(f"unodsl: internal error: {type(err).__name__}: {err} "
                       "(set UNODSL_DEBUG=1 to see the traceback)", err=True)
            sys.exit(1)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


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
@root_option
def check(files: tuple[str, ...], fmt: str, root: str | None) -> None:
    """Check variant files and report every problem as path:line:col: CODE message.

    Files are reported in the order given, each file's problems sorted by position;
    a problem in a file shared by several (a base or an include) is reported once.
    """
    from ..checkcache import is_known_clean, remember_clean
    files = tuple(_variant_path(path) for path in files)
    colour = _isatty(sys.stdout) and not os.environ.get("NO_COLOR")
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


# --- list -----------------------------------------------------------------------


@main.command(name="list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: one line per file; json: for tools.")
def list_command(fmt: str) -> None:
    """List the shipped variants and house rules, by the names that commands and links take."""
    from ..source.catalog import shipped
    entries = shipped()
    if fmt == "json":
        click.echo(json.dumps([{"name": e.name, "house_rule": e.house_rule, "title": e.title,
                                "summary": e.summary, "path": e.path} for e in entries], indent=2))
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


def _load_game(path: str, root: str | None = None):
    """Load a variant (a path or a shipped name) for playing; on problems print them and exit 1."""
    from ..check import check_file
    path = _variant_path(path)
    result = check_file(path, root)
    if result.errors or result.game is None:
        click.echo(format_text(result.errors) or f"{path}:1:1: E306 the variant defines no cards", err=True)
        sys.exit(1)
    return result.game


# --- simulate -------------------------------------------------------------------


def _simulate_options(fn):
    for option in reversed([
        click.option("--players", "-p", type=click.IntRange(2, 100), default=4, show_default=True,
                     help="Number of players."),
        click.option("--bots", type=BOT_CHOICE, default=None,
                     help="Bot for every (other) seat [simulate: random; play: heuristic]."),
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


@main.command()
@click.argument("file")
@click.option("-n", "--games", type=click.IntRange(1, 10**9), default=1000, show_default=True,
              help="Number of games (or matches) to play.")
@_simulate_options
def simulate(file, games, players, bots, seed, workers, match, fmt, as_json, root) -> None:
    """Bots play N games (or matches); print turns, win rates with 95% intervals, points.

    Ctrl-C stops the run and prints the statistics of the games finished so far.
    """
    _run_simulation(file, games, players, bots or "random", 1 if seed is None else seed,
                    workers, match, as_json or fmt == "json", root)


def _run_simulation(file, games, players, bots, seed, workers, match, as_json, root) -> None:
    # From here on Ctrl-C only raises a flag, looked at between games: the run stops
    # and the games finished so far are summarised.
    stop: list = []
    previous = _set_sigint(lambda signum, frame: stop.append(signum))
    try:
        file = _variant_path(file)
        game = _load_game(file, root)
        _check_players(game, players)
        started = time.perf_counter()
        bar = _Progress(games)
        from ..runs.simulate import simulate as simulate_games
        stats = simulate_games(file, games, players, seed, [bots], workers, match, root,
                               progress=bar.update, game=game, stop=stop)
        bar.close()
    finally:
        _set_sigint(previous)
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


def _check_players(game, players: int) -> None:
    try:
        game.check_players(players)
    except ValueError as err:
        raise click.UsageError(str(err)) from None


class _Progress:
    """A progress bar on stderr, shown only on a terminal and once a run has taken longer than a second."""

    def __init__(self, total: int):
        self.total = total
        self.started = time.perf_counter()
        self.last = 0.0
        self.shown = False
        self.enabled = _isatty(sys.stderr)

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
    if elapsed > 0 and s["games"]:
        lines.append(f"time: {elapsed:.2f} s ({s['games'] / elapsed:,.0f} games/s)")
    return "\n".join(lines)


# --- play -----------------------------------------------------------------------

_PLAY_ONLY = ("seat", "log_path", "force")
_SIMULATE_ONLY = ("workers", "fmt", "as_json")


@main.command()
@click.argument("file")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 plays first after the dealer).")
@click.option("--simulate", "sim_games", type=click.IntRange(1, 10**9), default=None,
              help="Instead of playing, let bots play N games and print statistics (as `simulate -n N`).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write a replayable log of the game when it ends.")
@click.option("--force", is_flag=True, help="Overwrite an existing --log file.")
@_simulate_options
@click.pass_context
def play(ctx, file, seat, sim_games, log_path, force, players, bots, seed, workers, match, fmt, as_json,
         root) -> None:
    """Play a game in the terminal against bots (or --simulate N games).

    Type a choice number or an action ('play red_7', 'draw', 'color blue'); '?' shows
    the choices again, 'quit' leaves. When stdin is not a terminal, one entry per line
    is read from it, so a game can be scripted.
    """
    from click.core import ParameterSource
    given = {name for name in ctx.params if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE}
    wrong = _PLAY_ONLY if sim_games is not None else _SIMULATE_ONLY
    for name in wrong:
        if name in given:
            option = "--" + {"log_path": "log", "as_json": "json", "fmt": "format"}.get(name, name)
            if sim_games is None:
                raise click.UsageError(f"{option} only applies with --simulate")
            raise click.UsageError(f"{option} does not apply with --simulate")
    if sim_games is not None:
        _run_simulation(file, sim_games, players, bots or "random", 1 if seed is None else seed,
                        workers, match, as_json or fmt == "json", root)
        return
    game = _load_game(file, root)
    _check_players(game, players)
    if not 0 <= seat < players:
        raise click.UsageError(f"--seat must be between 0 and {players - 1}")
    if log_path:
        refuse_overwrite(log_path, force)
    if seed is None:
        import random
        seed = random.randrange(2**31)
    from .terminal import GameAbandoned, InputEnded, play_terminal
    try:
        state = play_terminal(game, players, seat, bots or "heuristic", seed, match)
    except InputEnded:
        click.echo("unodsl: input ended before the game was over", err=True)
        sys.exit(1)
    except GameAbandoned:
        click.echo("unodsl: game abandoned", err=True)
        sys.exit(1)
    if log_path:
        from ..runs.replay import game_log
        if _variant_path(file) != file:           # a shipped name: the log keeps the name
            record = game_log(game, file, state)
        else:
            record = game_log(game, file, state, log_path=log_path)
        _write_or_exit(log_path, json.dumps(record) + "\n", force, "the log", "this game was played",
                       "this game's log")
        click.echo(f"log written to {log_path} (replay it with: unodsl replay {log_path})", err=True)


# --- replay ---------------------------------------------------------------------


@main.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.option("--variant", "variant_path", default=None,
              help="Replay against this (possibly edited) variant instead of the one named in the log.")
@root_option
def replay(log: str, variant_path: str | None, root: str | None) -> None:
    """Replay a game log; report the first action that is no longer legal.

    The variant a log names must lie under the root found for the log, like a file
    named by `extends`; a variant given with --variant is the user's own choice.
    """
    from ..source import catalog
    from ..runs.replay import ReplayError, read_log, replay_game, variant_path_of
    try:
        records = read_log(log)
    except ReplayError as err:
        click.echo(f"unodsl: {one_line(log)}: {err}", err=True)
        sys.exit(1)
    bad = 0
    games = {}
    for number, record in enumerate(records, start=1):
        prefix = f"{one_line(log)}: game {number}"
        try:
            named = record.get("variant_path") if isinstance(record.get("variant_path"), str) else ""
            if variant_path:
                path = _variant_path(variant_path)
            elif catalog.is_name(named) and not os.path.lexists(os.path.join(os.path.dirname(log), named)):
                path = _variant_path(named)            # played by name: a shipped variant
            else:
                path = variant_path_of(record, log, root)
        except ReplayError as err:
            click.echo(f"unodsl: {prefix}: {err}", err=True)
            sys.exit(1)
        if path not in games:
            games[path] = _load_game(path, root)
        game = games[path]
        outcome = replay_game(game, record)
        if outcome.error:
            bad += 1
            click.echo(f"{prefix}: {outcome.error}")
        else:
            winner = "none" if outcome.winner is None else f"p{outcome.winner}"
            note = " (variant changed since the log was written)" if record.get("digest") != game.digest else ""
            click.echo(f"{prefix}: {outcome.actions} actions replayed, winner {winner}{note}")
    sys.exit(1 if bad else 0)


# --- rules and test ---------------------------------------------------------------


@main.command()
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["markdown", "text"]), default="markdown", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write to a file.")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@root_option
def rules(file: str, fmt: str, output: str | None, force: bool, root: str | None) -> None:
    """Print a readable rulebook generated from the variant."""
    from ..rulebook.english import render_rulebook
    game = _load_game(file, root)
    text = render_rulebook(game, fmt)
    if output:
        refuse_overwrite(output, force)
        try:
            atomic_write(output, text, force=force)
        except TargetExists as err:
            click.echo(f"unodsl: {err.strerror}", err=True)
            sys.exit(1)
    else:
        click.echo(text, nl=False)


@main.command(name="test")
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
    files = tuple(_variant_path(path) for path in files)
    report = run_scenario_files(list(files), fast=False if reference else None, root=root)
    if fmt == "json":
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        for line in report.lines(verbose):
            click.echo(line)
    if junit_path:
        _write_or_exit(junit_path, report.to_junit(), force, "the JUnit report", "the scenarios ran", "this report")
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":            # pragma: no cover
    main(prog_name="unodsl")


# --- rl-spec ---------------------------------------------------------------------


@main.command(name="rl-spec")
@click.argument("file")
@click.option("--players", "-p", type=click.IntRange(2, 100), default=4, show_default=True,
              help="Number of players (seat offsets and hand-size fields depend on it).")
@root_option
def rl_spec_command(file: str, players: int, root: str | None) -> None:
    """Print a variant's RL action table and observation layout (needs the rl extra)."""
    try:
        from ..rl.spec import render_spec
    except ImportError as err:
        click.echo(f"unodsl: rl-spec needs the rl extra (pip install 'unodsl[rl]'): {err}", err=True)
        sys.exit(2)
    game = _load_game(file, root)
    try:
        game.check_players(players)
    except ValueError as err:
        click.echo(f"unodsl: {err}", err=True)
        sys.exit(2)
    click.echo(render_spec(game, players), nl=False)

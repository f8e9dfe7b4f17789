"""`unodsl simulate`: bots play many games; the options and the run shared with `play --simulate`."""

from __future__ import annotations

import json
import sys
import time

import click

from .shared import BOT_CHOICE, check_players, isatty, load_game, root_option, variant_file


def simulate_options(fn):
    """The options of `simulate`, which `play` takes too (for --simulate N and its own game)."""
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


@click.command()
@click.argument("file")
@click.option("-n", "--games", type=click.IntRange(1, 10**9), default=1000, show_default=True,
              help="Number of games (or matches) to play.")
@simulate_options
def simulate(file, games, players, bots, seed, workers, match, fmt, as_json, root) -> None:
    """Bots play N games (or matches); print turns, win rates with 95% intervals, points.

    Ctrl-C stops the run and prints the statistics of the games finished so far.
    """
    run_simulation(file, games, players, bots or "random", 1 if seed is None else seed,
                   workers, match, as_json or fmt == "json", root)


def run_simulation(file, games, players, bots, seed, workers, match, as_json, root) -> None:
    """Play the games, print the summary (text or JSON); exit 130 when Ctrl-C cut the run short."""
    # From here on Ctrl-C only raises a flag, looked at between games: the run stops
    # and the games finished so far are summarised.
    stop: list = []
    previous = _set_sigint(lambda signum, frame: stop.append(signum))
    try:
        file = variant_file(file)
        game = load_game(file, root)
        check_players(game, players)
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
    if elapsed > 0 and s["games"]:
        lines.append(f"time: {elapsed:.2f} s ({s['games'] / elapsed:,.0f} games/s)")
    return "\n".join(lines)

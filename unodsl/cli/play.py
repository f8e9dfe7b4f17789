"""`unodsl play`: a game in the terminal against bots, or `--simulate N` games among bots."""

from __future__ import annotations

import json
import sys

import click

from .files import refuse_overwrite
from .shared import check_players, load_game, variant_file, write_or_exit
from .simulate import run_simulation, simulate_options

_PLAY_ONLY = ("seat", "log_path", "force")
_SIMULATE_ONLY = ("workers", "fmt", "as_json")


@click.command()
@click.argument("file")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 plays first after the dealer).")
@click.option("--simulate", "sim_games", type=click.IntRange(1, 10**9), default=None,
              help="Instead of playing, let bots play N games and print statistics (as `simulate -n N`).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write a replayable log of the game when it ends.")
@click.option("--force", is_flag=True, help="Overwrite an existing --log file.")
@simulate_options
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
        run_simulation(file, sim_games, players, bots or "heuristic", 1 if seed is None else seed,
                       workers, match, as_json or fmt == "json", root)
        return
    game = load_game(file, root)
    check_players(game, players)
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
    except GameAbandoned as left:
        # Leaving is what the player asked for: a summary, exit 0 (a log is kept only of a finished game).
        click.echo(left.summary + (f"\nNo log was written to {log_path}: the game was not over." if log_path else ""))
        return
    if log_path:
        from ..runs.replay import game_log
        if variant_file(file) != file:           # a shipped name: the log keeps the name
            record = game_log(game, file, state)
        else:
            record = game_log(game, file, state, log_path=log_path)
        write_or_exit(log_path, json.dumps(record) + "\n", force, "the log", "this game was played",
                      "this game's log")
        click.echo(f"log written to {log_path} (replay it with: unodsl replay {log_path})", err=True)

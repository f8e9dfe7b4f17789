"""`unodsl ladder`: rate seat specs against the built-in bots on one scale (the ladder extra)."""

from __future__ import annotations

import json
import signal
import sys

import click

from .shared import BOT_CHOICE, check_players, include_option, load_game, root_option, with_includes


@click.command("ladder")
@click.argument("file")
@click.option("--entrant", "entrants", multiple=True, type=BOT_CHOICE, metavar="SPEC",
              help="A seat spec to rate (repeatable): py:module:Class, ws://host:port, llm:MODEL, a bot.")
@click.option("--anchors", type=BOT_CHOICE, default=",".join(("random", "heuristic", "expert", "pimc:20", "ismcts:100")),
              show_default=True, help="The built-in bots every entrant is rated against (comma list).")
@click.option("--anchor", default="heuristic=1000", show_default=True, metavar="NAME=RATING",
              help="The entrant whose rating is fixed, and its rating: the scale's zero point.")
@click.option("--deals", type=click.IntRange(1, 10**6), default=20, show_default=True,
              help="Deals every table plays (each once per rotation of its seats).")
@click.option("--players", type=int, default=2, show_default=True, help="Players at a table.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--results", "results_path", type=click.Path(dir_okay=False), required=True,
              help="The results file (JSON lines): games are added as they end; a run stopped goes on from it.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, help="Write the ratings' plot (PNG).")
@click.option("--bootstrap", type=click.IntRange(0, 100000), default=200, show_default=True,
              help="Bootstrap draws over deals for the 95% intervals.")
@click.option("-j", "--workers", type=click.IntRange(1, 256), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the ratings as JSON.")
@include_option
@root_option
def ladder(file, entrants, anchors, anchor, deals, players, seed, results_path, plot_path, bootstrap, workers,
           as_json, includes, root) -> None:
    """Rate agents against the built-in bots: paired deals, seats rotated, Bradley-Terry ratings with intervals.

    Every table of PLAYERS entrants plays each deal once per rotation of its seats; the ratings are
    on an Elo scale pinned at --anchor, with 95% intervals from the bootstrap over deals (docs/agents.md).
    """
    try:
        import choix  # noqa: F401
    except ImportError:
        click.echo("unodsl: ladder needs the ladder extra (pip install 'unodsl[ladder]')", err=True)
        sys.exit(2)
    name, eq, value = anchor.partition("=")
    try:
        anchor_point = (name.strip(), float(value))
    except ValueError:
        raise click.BadParameter(f"'{anchor}' is not NAME=RATING", param_hint="'--anchor'") from None
    if not eq:
        raise click.BadParameter(f"'{anchor}' is not NAME=RATING", param_hint="'--anchor'")
    pool = list(dict.fromkeys([*anchors.split(","), *(e for entry in entrants for e in entry.split(","))]))
    if anchor_point[0] not in pool:
        raise click.BadParameter(f"'{anchor_point[0]}' is not an anchor or an entrant", param_hint="'--anchor'")
    path, texts = with_includes(file, includes)
    game = load_game(path, root, texts=texts)
    check_players(game, players)
    from ..arena.ladder import LadderError, run_ladder, schedule
    from ..arena.ratings import format_table, pair_table, plot, rate
    total = len(schedule(pool, players, deals))
    stop: list = []
    previous = signal.signal(signal.SIGINT, lambda *_: stop.append("interrupted"))
    shown = [0]

    def progress(done: int) -> None:
        if done - shown[0] >= max(1, total // 20) and sys.stderr.isatty():
            shown[0] = done
            click.echo(f"\r{done}/{total} games", err=True, nl=False)
    try:
        records = run_ladder(game, pool, results_path, players=players, deals=deals, seed=seed, workers=workers,
                             progress=progress, stop=stop)
    except LadderError as err:
        click.echo(f"unodsl: {err}", err=True)
        sys.exit(1)
    except OSError as err:
        click.echo(f"unodsl: cannot write the results '{results_path}': {err.strerror or err}", err=True)
        sys.exit(1)
    finally:
        signal.signal(signal.SIGINT, previous)
    mine = [r for r in records if all(s in pool for s in r["seats"]) and len(r["seats"]) == players]
    ratings = rate(mine, pool, anchor=anchor_point, bootstrap=bootstrap, seed=seed)
    no_winner = sum(r["winner"] is None for r in mine)
    incidents: dict = {}
    for r in mine:
        for kind, n in r["incidents"].items():
            incidents[kind] = incidents.get(kind, 0) + n
    if plot_path:
        plot(ratings, plot_path, f"{game.variant.name}: {len(mine)} games at tables of {players}, seed {seed}")
    if as_json:
        click.echo(json.dumps({"variant": game.variant.name, "players": players, "seed": seed, "games": len(mine),
                               "planned": total, "no_winner": no_winner, "incidents": incidents,
                               "ratings": [r.as_dict() for r in ratings], "pairs": pair_table(mine)}, indent=1))
    else:
        click.echo(f"{game.variant.name}: {len(mine)} of {total} games, tables of {players}, seed {seed}"
                   + (" (stopped: run it again to go on)" if stop else ""))
        for line in format_table(ratings, games=len(mine), no_winner=no_winner):
            click.echo(line)
        if incidents:
            click.echo("agent incidents: " + ", ".join(f"{k} {v}" for k, v in sorted(incidents.items())))
    if stop:
        sys.exit(130)

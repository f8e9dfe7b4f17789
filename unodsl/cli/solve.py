"""`unodsl solve`: a tiny two-player variant solved exactly with OpenSpiel's CFR+ (the openspiel extra)."""

from __future__ import annotations

import json
import sys

import click

from .shared import load_game, root_option, variant_file


@click.command(name="solve")
@click.argument("file", default="tiny", required=False)
@click.option("--iterations", "-i", type=click.IntRange(1, 100_000), default=50, show_default=True,
              help="CFR+ iterations.")
@click.option("--bots", default="random,heuristic,expert", show_default=True,
              help="The bots whose NashConv is measured (a comma list; none: no bot).")
@click.option("--max-nodes", type=click.IntRange(1, 10**8), default=2_000_000, show_default=True,
              help="Refuse a variant whose game tree is larger: it is not tiny.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: the numbers in words; json: for tools.")
@root_option
def solve_command(file, iterations, bots, max_nodes, fmt, root) -> None:
    """Solve a tiny two-player variant (default: the shipped `tiny`) with OpenSpiel's CFR+: the game value,
    the first player's advantage at equilibrium, and how exploitable each built-in bot is (NashConv).

    Needs the openspiel extra. docs/solve.md says what each number means.
    """
    import importlib.util
    if importlib.util.find_spec("pyspiel") is None:
        click.echo("unodsl: solve needs OpenSpiel (pip install 'unodsl[openspiel]')", err=True)
        sys.exit(2)
    path = variant_file(file)
    game = load_game(path, root)
    try:
        game.check_players(2)
    except ValueError as err:
        raise click.UsageError(f"solve plays two players: {err}") from None
    names = () if bots.strip() == "none" else tuple(b.strip() for b in bots.split(","))
    from ..agents.bots import BOTS
    for name in names:
        if name not in ("random", "heuristic", "expert") and name.split(":")[0] not in BOTS:
            raise click.BadParameter(f"unknown bot '{name}'", param_hint="'--bots'")
    from ..rl.solve import TooLarge, solve
    try:
        result = solve(path, iterations, names, max_nodes)
    except TooLarge as err:
        click.echo(f"unodsl: {file}: {err} (--max-nodes raises the limit)", err=True)
        sys.exit(1)
    if fmt == "json":
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(_format(result))


def _format(r: dict) -> str:
    lines = [f"{r['variant']}: 2 players, turn limit {r['max_turns']}: {r['nodes']:,} histories, "
             f"{r['information_sets']:,} information sets",
             f"CFR+ (OpenSpiel), {r['iterations']} iterations: NashConv " + ", ".join(
                 f"{c['nash_conv']:.4g} after {c['iterations']}" for c in r["convergence"]),
             f"game value: seat 0 (the dealer) {r['value'][0]:+.4f}, seat 1 {r['value'][1]:+.4f} "
             f"(a win is +1, a loss -1)",
             f"first player at equilibrium: wins {r['first_player_win_rate']:.1%}, an advantage of "
             f"{100 * r['first_player_advantage']:+.1f} points over the fair share (50%)",
             "NashConv of each bot (what a best response gains against it, both seats summed; 0: an equilibrium):"]
    for b in r["bots"]:
        lines.append(f"  {b['bot']:<10} {b['nash_conv']:.4f}   (self-play: the first player wins "
                     f"{b['first_player_win_rate']:.1%})")
    s = r["seconds"]
    lines.append(f"time: {s['total']:.1f} s (walking the tree {s['walk']:.1f} s, solving {s['solve']:.1f} s)")
    return "\n".join(lines)

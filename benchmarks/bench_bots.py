"""The bots' skill ladder (each bot against the one below, paired seeds, 95% intervals) and search speed."""

# Usage: `python benchmarks/bench_bots.py [--variant FILE] [--players N] [--games G] [--pimc W]
#         [--ismcts I] [--pairs A/B,...] [--seed S] [--json]`
#
# A pair A/B plays G games (G even) at a table of N seats: A in seat 0 and B in the others,
# then the same deals (the same engine seed) with A and B swapped (at 2 players: A in seat 1),
# so neither bot gets the better deals or the first move more often. A's win rate is over
# all G games, with a 95% Wilson interval (simulate.wilson); games without a winner count as
# lost by both. Each bot has its own generator, seeded from (seed, game, seat) (seeds.seat_rng, as
# in simulate), never the engine's. The speed lines count, over every search decision of the pair's
# runs: ISMCTS decisions/s (iterations each), PIMC rollouts/s (worlds x legal actions per decision)
# and the expert's decisions/s;
# decisions with one legal action are not searched and not counted.

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import VARIANTS, describe_machine, machine  # noqa: E402

import unodsl  # noqa: E402
from unodsl.agents.bots import make_bot  # noqa: E402
from unodsl.runs.seeds import seat_rng  # noqa: E402
from unodsl.runs.simulate import game_seed, wilson  # noqa: E402


class Timed:
    """A bot whose searched decisions are counted and timed."""

    def __init__(self, bot):
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0

    def act(self, state) -> int:
        if len(state.legal_action_ids()) == 1:
            return self.bot.act(state)
        start = time.perf_counter()
        action = self.bot.act(state)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def play_pair(game, players: int, first: str, second: str, games: int, seed: int) -> dict:
    """Play `games` paired games of `first` against `second`; return wins, interval and speeds."""
    wins = turns = 0
    timers = {}
    for index in range(games):
        deal, swapped = divmod(index, 2)
        engine_seed = game_seed(seed, deal)
        hero = players - 1 if swapped else 0        # the swapped game gives `first` the seat `second` had
        state = game.new_game(players, seed=engine_seed)
        seats = []
        for seat in range(players):
            name = first if seat == hero else second
            bot = Timed(make_bot(name, seat_rng(engine_seed, seat)))
            timers.setdefault(name.split(":")[0], []).append(bot)
            seats.append(bot)
        while not state.is_over:
            state.apply_id(seats[state.current_player].act(state))
        wins += state.winner is not None and state.same_team(state.winner, hero)
        turns += state.total_turns
    low, high = wilson(wins, games)
    result = {"pair": f"{first}/{second}", "games": games, "wins": wins, "rate": wins / games,
              "low": low, "high": high, "turns_per_game": turns / games}
    for kind, bots in timers.items():
        seconds = sum(b.seconds for b in bots)
        decisions = sum(b.decisions for b in bots)
        if kind == "ismcts" and seconds:
            result["ismcts_decisions_per_s"] = decisions / seconds
            result["ismcts_iterations_per_s"] = sum(b.bot.rollouts for b in bots) / seconds
        if kind == "expert" and seconds:
            result["expert_decisions_per_s"] = decisions / seconds
        if kind == "pimc" and seconds:
            result["pimc_rollouts_per_s"] = sum(b.bot.rollouts for b in bots) / seconds
            result["pimc_decisions_per_s"] = decisions / seconds
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default=str(VARIANTS / "classic.yaml"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100, help="games per pair (even: each deal twice)")
    parser.add_argument("--pimc", type=int, default=30, help="PIMC worlds per decision")
    parser.add_argument("--ismcts", type=int, default=150, help="ISMCTS iterations per decision")
    parser.add_argument("--pairs", default="heuristic/random,expert/heuristic,pimc/heuristic,ismcts/heuristic,ismcts/pimc")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be even and at least 2")
    names = {"pimc": f"pimc:{args.pimc}", "ismcts": f"ismcts:{args.ismcts}"}
    game = unodsl.load(args.variant)
    results = []
    for pair in args.pairs.split(","):
        first, second = (names.get(n, n) for n in pair.split("/"))
        start = time.perf_counter()
        result = play_pair(game, args.players, first, second, args.games, args.seed)
        result["seconds"] = time.perf_counter() - start
        results.append(result)
        if not args.json:
            speeds = "".join(f"  {key} {result[key]:,.0f}" for key in
                             ("ismcts_decisions_per_s", "ismcts_iterations_per_s", "pimc_rollouts_per_s",
                              "expert_decisions_per_s")
                             if key in result)
            print(f"{result['pair']:<28} {result['wins']:>4}/{result['games']:<4} {result['rate']:6.1%} "
                  f"[{result['low']:.1%}, {result['high']:.1%}]  {result['turns_per_game']:.0f} turns/game  "
                  f"{result['seconds']:.0f}s{speeds}", flush=True)
    if args.json:
        print(json.dumps({"machine": machine(), "variant": Path(args.variant).name, "players": args.players,
                          "results": results}, indent=2))
    else:
        print(describe_machine(machine()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

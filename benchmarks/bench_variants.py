"""Games/s and turns/s of every shipped variant (variants/*.yaml), random and heuristic bots."""

# Usage: `python benchmarks/bench_variants.py [--repeats R] [--seconds S] [--json] [FILE ...]`
#
# Every top-level `variants/*.yaml` (files starting with "_" are skipped as
# scratch files) is played by 4 bots (or the first player count the variant
# allows) through `simulate.run_range`, once with random bots and once with
# heuristic bots.  The number of games of each (variant, bots) pair is fixed
# once by a short calibration run so that one run takes about `--seconds`; then
# every repeat replays the same seeded games, all pairs in an order rotated every
# repeat, and each variant's run next to a run of classic with the same bots
# (classic first in even repeats, second in odd ones).  The ratio to classic is
# the median over repeats of the ratio within each such pair: runs a second apart,
# so a drift of the machine's speed between pairs (10-20% within a minute here)
# does not enter it.  Classic's own figures are medians over all its runs.
#
# Games/s depends on how long a variant's games are (a rule that makes games
# twice as long halves games/s at equal engine speed); turns/s depends on how
# much a turn holds (in All Wild every play also names a colour, a target...);
# decisions/s (every action applied: plays, draws, colours, targets, challenges,
# UNO calls; `len(state.history)`) is the closest to the engine's own speed.
# All three ratios to classic are reported.

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import VARIANTS, describe_machine, load_average, machine, median, rel, table  # noqa: E402

import unodsl  # noqa: E402
from unodsl.runs.simulate import run_range  # noqa: E402

BOTS = ("random", "heuristic")
# Every bot of agents/bots.py, the search bots with small budgets so that a game takes well under a
# second (run_all.py times these: issue 28 asks for every variant at half classic's speed "with every bot").
EVERY_BOT = ("random", "heuristic", "expert", "cheat:2", "pimc:2", "ismcts:10")
CLASSIC = "classic.yaml"


def variant_files(paths: list[str] | None = None) -> list[Path]:
    """Return the variants to time: the given files, or every top-level variants/*.yaml."""
    if paths:
        return [Path(p) for p in paths]
    return sorted(p for p in VARIANTS.glob("*.yaml") if not p.name.startswith("_"))


def players_for(game) -> int:
    """Return 4 if the variant allows it, else the first player count it allows."""
    v = game.variant
    allowed = list(v.allowed_players or range(v.min_players, v.max_players + 1))
    return 4 if 4 in allowed else allowed[0]


def one_run(game, players: int, bots: str, games: int, seed: int) -> dict:
    """Play `games` seeded games and return the timing and length figures."""
    decisions = [0]

    def count(index, state):
        decisions[0] += len(state.history)

    start = time.perf_counter()
    stats = run_range(game, players, seed, 0, games, [bots], on_game=count)
    elapsed = time.perf_counter() - start
    turns = sum(t * c for t, c in stats.turns.items())
    return {"games_per_s": games / elapsed, "turns_per_s": turns / elapsed,
            "turns_per_game": turns / games, "decisions_per_turn": decisions[0] / turns,
            "decisions_per_s": decisions[0] / elapsed, "stalled": stats.stalls, "seconds": elapsed}


def calibrate(game, players: int, bots: str, seed: int, seconds: float) -> int:
    """Return a game count that takes about `seconds`, from doubling runs of at least 0.3 s."""
    games = 2
    while True:
        run = one_run(game, players, bots, games, seed)
        if run["seconds"] >= 0.3 or games >= 100_000:
            return max(3, int(games * seconds / run["seconds"]))
        games *= 2


def measure(files: list[Path], repeats: int, seconds: float, seed: int, log=print, bots_list=BOTS) -> dict:
    """Time every (variant, bots) pair `repeats` times, alternating, and return the summaries."""
    info = machine()
    pairs, errors = [], {}
    for path in files:
        try:
            game = unodsl.load(str(path))
        except Exception as error:  # noqa: BLE001 -- report any variant that does not load
            errors[rel(path)] = f"{type(error).__name__}: {error}".splitlines()[0]
            log(f"bench_variants: cannot load {rel(path)}: {errors[rel(path)]}")
            continue
        players = players_for(game)
        for bots in bots_list:
            games = calibrate(game, players, bots, seed, seconds)
            pairs.append({"variant": rel(path), "name": game.variant.name, "file": path.name,
                          "bots": bots, "players": players, "games": games, "game": game, "runs": []})
        log(f"bench_variants: calibrated {rel(path)}")
    classic = {p["bots"]: p for p in pairs if p["file"] == CLASSIC}

    def run(pair):
        return one_run(pair["game"], pair["players"], pair["bots"], pair["games"], seed)

    for repeat in range(repeats):
        shift = repeat % len(pairs) if pairs else 0
        for pair in pairs[shift:] + pairs[:shift]:
            base = classic.get(pair["bots"])
            if base is None or (pair is base and not any(p["bots"] == base["bots"] and p is not base
                                                         for p in pairs)):
                pair["runs"].append(run(pair))           # nothing to pair with
            elif pair is not base:
                # The variant and a classic run side by side, in turn first: the ratio compares
                # runs made a second apart, whatever the machine does between pairs.
                first, second = (base, pair) if repeat % 2 == 0 else (pair, base)
                a, b = run(first), run(second)
                beside, own = (a, b) if first is base else (b, a)
                base["runs"].append(beside)
                pair["runs"].append(own)
                pair.setdefault("beside", []).append(beside)
        log(f"bench_variants: repeat {repeat + 1}/{repeats} done")

    rows = []
    for pair in pairs:
        runs = pair["runs"]
        row = {k: pair[k] for k in ("variant", "name", "bots", "players", "games")}
        row.update({
            "games_per_s": median(r["games_per_s"] for r in runs),
            "turns_per_s": median(r["turns_per_s"] for r in runs),
            "turns_per_game": median(r["turns_per_game"] for r in runs),
            "decisions_per_s": median(r["decisions_per_s"] for r in runs),
            "decisions_per_turn": runs[0]["decisions_per_turn"],
            "stalled_per_game": runs[0]["stalled"] / pair["games"],
        })
        base = classic.get(pair["bots"])
        if base is not None:
            both = list(zip(runs, pair.get("beside", runs)))      # classic against itself: 1.00x
            row["games_ratio"] = median(a["games_per_s"] / b["games_per_s"] for a, b in both)
            row["turns_ratio"] = median(a["turns_per_s"] / b["turns_per_s"] for a, b in both)
            row["decisions_ratio"] = median(a["decisions_per_s"] / b["decisions_per_s"] for a, b in both)
        rows.append(row)
    return {"benchmark": "variants", "machine": info,
            "load_average_end": load_average(), "repeats": repeats, "seed": seed,
            "seconds_per_run": seconds, "rows": rows, "errors": errors}


def format_result(result: dict) -> str:
    """Render the rows (and load errors) as a table."""
    lines = [f"Variants, median of {result['repeats']} alternating repeats of ~{result['seconds_per_run']} s "
             f"-- {describe_machine(result['machine'], result.get('load_average_end'))}"]
    rows = []
    for r in result["rows"]:
        ratios = [f"{r[key]:.2f}x" if key in r else "-" for key in ("games_ratio", "turns_ratio", "decisions_ratio")]
        rows.append([Path(r["variant"]).stem, r["bots"], r["players"], r["games"], f"{r['games_per_s']:,.1f}",
                     f"{r['turns_per_s']:,.0f}", f"{r['decisions_per_s']:,.0f}", f"{r['turns_per_game']:,.1f}",
                     f"{r['decisions_per_turn']:.2f}", f"{100 * r['stalled_per_game']:.1f}%", *ratios])
    lines.append(table(["variant", "bots", "players", "games", "games/s", "turns/s", "decisions/s", "turns/game",
                        "decisions/turn", "stalled", "games/s", "turns/s", "decisions/s"], rows,
                       "llrrrrrrrrrrr"))
    lines.append("(the last three columns: ratio to classic with the same bots)")
    for path, error in result["errors"].items():
        lines.append(f"{path}: not timed, {error}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print a table (or JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="variant files (default: variants/*.yaml)")
    parser.add_argument("--repeats", type=int, default=5, help="alternating repeats (>= 5 recommended)")
    parser.add_argument("--seconds", type=float, default=1.0, help="target duration of one run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs="+", default=list(BOTS),
                        help=f"the bots, each timed on every variant (default: {' '.join(BOTS)}; "
                             f"run_all.py: {' '.join(EVERY_BOT)})")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    result = measure(variant_files(args.files), args.repeats, args.seconds, args.seed,
                     log=lambda text: print(text, file=sys.stderr), bots_list=args.bots)
    print(json.dumps(result, indent=2) if args.json else format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

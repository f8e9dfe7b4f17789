"""Classic UNO with 4 random bots: unodsl against the hand-written reference engine and RLCard."""

# Usage: `python benchmarks/bench_throughput.py [--with-rlcard] [--repeats R] [--json]`
#
# Contenders, all playing whole 4-player games with uniformly random decisions:
#
#   unodsl classic          variants/classic.yaml through simulate.run_range (the
#                           random-bot fast path `unodsl simulate --bots random` uses)
#   reference engine        benchmarks/reference_engine.py (hand-written, ints and bitmasks)
#   unodsl reference-rules  benchmarks/reference-rules.yaml: classic without UNO calls and
#                           with a random dealer, i.e. the reference engine's rules: the
#                           like-for-like row for the reference ratio
#   unodsl rlcard-rules     benchmarks/rlcard-rules.yaml: classic bent to RLCard's rules
#                           (draw only when stuck, drawn card auto-played, no challenge):
#                           the like-for-like row for the RLCard ratio
#   unodsl reference-rules, reference mode
#                           the same rules and games through Game(fast=False), the general
#                           interpreter that is the specification (it must not get slower)
#   unodsl reference-rules, compiled
#                           the same rules and games, the fast mode's generated module compiled
#                           by Cython and the C compiler (UNODSL_COMPILE=1; left out without them)
#   RLCard UnoGame          (--with-rlcard) the `init_game`/`step` loop of rlcard 1.2.0,
#                           timed in its own venv by rlcard_bench.py
#   RLCard round mechanics  (--with-rlcard) the same games on RLCard's Dealer, Players and
#                           UnoRound alone, without UnoGame's state dict per step
#                           (rlcard_bench.py --bare): what its rules cost by themselves
#
# A *turn* is one turn begun by a player (a play, or a draw possibly followed by
# playing the drawn card); colour choices, challenges and forced draws are not turns.
# unodsl counts `state.total_turns`, the reference engine `state.turns`, RLCard
# `step` calls: the same notion (see docs/performance.md).
#
# Every repeat replays the same seeded games, so only the timing varies.  Within a
# repeat the contenders run one after the other, in an order rotated every repeat,
# so that load from other jobs hits all alike; figures are medians over repeats and
# ratios are medians of the per-repeat ratios (each repeat pairs runs made seconds apart).

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import HERE, VARIANTS, describe_machine, load_average, machine, median, spread, table  # noqa: E402

import reference_engine  # noqa: E402
import rlcard_bench  # noqa: E402
import unodsl  # noqa: E402
from unodsl.runs.simulate import run_range  # noqa: E402

PLAYERS = 4

# name -> (variant path, default games per repeat); sized so that each run takes a few seconds.
# name -> (variant path, default games per repeat, fast mode); each run takes a few seconds.
UNODSL_CONTENDERS = {
    "unodsl classic": (VARIANTS / "classic.yaml", 150, True),
    "unodsl reference-rules": (HERE / "reference-rules.yaml", 250, True),
    "unodsl rlcard-rules": (HERE / "rlcard-rules.yaml", 2000, True),
    "unodsl reference-rules, reference mode": (HERE / "reference-rules.yaml", 80, False),
}
COMPILED = "unodsl reference-rules, compiled"
REFERENCE = "reference engine"
RLCARD = "RLCard UnoGame"
RLCARD_BARE = "RLCard round mechanics"
DEFAULT_GAMES = {REFERENCE: 1500, RLCARD: 2000, RLCARD_BARE: 3000}

# (numerator, denominator, what the ratio means); the targets are issue 28's (docs/performance.md)
RATIOS = [
    ("unodsl reference-rules", REFERENCE, "unodsl / hand-written engine, same rules (target >= 0.5)"),
    ("unodsl reference-rules, reference mode", REFERENCE, "unodsl reference mode / hand-written engine"),
    (COMPILED, REFERENCE, "unodsl compiled (Cython) / hand-written engine (target >= 0.8)"),
    ("unodsl classic", REFERENCE, "unodsl classic / hand-written (classic has UNO calls)"),
    ("unodsl rlcard-rules", RLCARD_BARE, "unodsl / RLCard round mechanics, comparable games (target >= 1)"),
    ("unodsl rlcard-rules", RLCARD, "unodsl / RLCard UnoGame, comparable games (target >= 1)"),
    ("unodsl classic", RLCARD, "unodsl classic / RLCard (different rules: longer games)"),
]


def time_unodsl(game, games: int, seed: int) -> dict:
    """Play `games` seeded random games with unodsl's fast path and return one timing record."""
    start = time.perf_counter()
    stats = run_range(game, PLAYERS, seed, 0, games, ["random"])
    elapsed = time.perf_counter() - start
    turns = sum(t * c for t, c in stats.turns.items())
    return {"seconds": elapsed, "games": games, "games_per_s": games / elapsed,
            "turns_per_s": turns / elapsed, "turns_per_game": turns / games,
            "stalled": stats.stalls}


def time_reference(games: int, seed: int) -> dict:
    """Play `games` seeded random games with the reference engine and return one timing record."""
    run = reference_engine.run(games, PLAYERS, seed)
    return {"seconds": run["seconds"], "games": games, "games_per_s": run["games_per_s"],
            "turns_per_s": run["turns_per_s"], "turns_per_game": run["turns_per_game"],
            "stalled": run["stalled"]}


def time_rlcard(games: int, seed: int, bare: bool = False) -> dict | None:
    """Time one batch of RLCard games in its venv (one child process); None if it failed. `bare`: the
    round mechanics alone."""
    record = rlcard_bench.measure_rlcard(games, 1, PLAYERS, seed, bare)
    if record is None:
        return None
    run = record["runs"][0]
    return {"seconds": run["seconds"], "games": games, "games_per_s": run["games_per_s"],
            "turns_per_s": run["turns_per_s"], "turns_per_game": run["turns_per_game"],
            "stalled": run["stalled"], "errors": run["errors"], "engine": f"rlcard {record['rlcard_version']}",
            "numpy": record["numpy_version"]}


def _compiled(path, log):
    """The variant loaded with its generated module compiled (UNODSL_COMPILE=1), or None, said, without Cython
    or a C compiler."""
    from unodsl.engine.fast import hand_over
    from unodsl.engine.generated import rollout_of
    game = unodsl.load(str(path))
    os.environ["UNODSL_COMPILE"] = "1"
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rollout_of(game, hand_over(game.state_class))
    finally:
        del os.environ["UNODSL_COMPILE"]
    if caught:
        log(f"bench_throughput: the compiled module is not timed ({caught[0].message})")
        return None
    return game


def measure(repeats: int, with_rlcard: bool, seed: int, scale: float, log=print) -> dict:
    """Run every contender `repeats` times, alternating, and return the summaries."""
    info = machine()
    runners = {}
    for name, (path, games, fast) in UNODSL_CONTENDERS.items():
        game = unodsl.load(str(path), fast=fast)
        runners[name] = (lambda g=game, n=max(1, int(games * scale)): time_unodsl(g, n, seed))
    compiled_game = _compiled(HERE / "reference-rules.yaml", log)
    if compiled_game is not None:
        compiled_games = max(1, int(UNODSL_CONTENDERS["unodsl reference-rules"][1] * scale))
        runners[COMPILED] = lambda: time_unodsl(compiled_game, compiled_games, seed)
    reference_games = max(1, int(DEFAULT_GAMES[REFERENCE] * scale))
    runners[REFERENCE] = lambda: time_reference(reference_games, seed)
    rlcard_info = None
    if with_rlcard:
        if rlcard_bench.ensure_venv() is None:
            log("bench_throughput: RLCard unavailable (venv could not be built), skipping it")
        else:
            rlcard_games = max(1, int(DEFAULT_GAMES[RLCARD] * scale))
            runners[RLCARD] = lambda: time_rlcard(rlcard_games, seed)
            bare_games = max(1, int(DEFAULT_GAMES[RLCARD_BARE] * scale))
            runners[RLCARD_BARE] = lambda: time_rlcard(bare_games, seed, bare=True)

    # Warm-up: a few games of each (RLCard warms up inside its own worker).
    for name, (path, _, fast) in UNODSL_CONTENDERS.items():
        run_range(unodsl.load(str(path), fast=fast), PLAYERS, seed + 1, 0, 3, ["random"])
    reference_engine.run(20, PLAYERS, seed + 1)

    names = list(runners)
    runs: dict[str, list[dict]] = {name: [] for name in names}
    for repeat in range(repeats):
        order = names[repeat % len(names):] + names[:repeat % len(names)]
        for name in order:
            if name not in runners:
                continue
            record = runners[name]()
            if record is None:
                log(f"bench_throughput: {name} failed, dropping it")
                del runners[name]
                runs.pop(name, None)
                continue
            if name in (RLCARD, RLCARD_BARE):
                rlcard_info = {"engine": record.pop("engine"), "numpy": record.pop("numpy")}
            runs[name].append(record)
        log(f"bench_throughput: repeat {repeat + 1}/{repeats} done")

    rows = {}
    for name, records in runs.items():
        rows[name] = {
            "games": records[0]["games"],
            "repeats": len(records),
            "games_per_s": median(r["games_per_s"] for r in records),
            "turns_per_s": median(r["turns_per_s"] for r in records),
            "turns_per_game": median(r["turns_per_game"] for r in records),
            "stalled_per_game": records[0]["stalled"] / records[0]["games"],
            "games_per_s_all": [r["games_per_s"] for r in records],
            "turns_per_s_all": [r["turns_per_s"] for r in records],
        }
    ratios = []
    for top, bottom, meaning in RATIOS:
        if top in runs and bottom in runs and runs[top] and runs[bottom]:
            pairs = list(zip(runs[top], runs[bottom]))
            ratios.append({
                "numerator": top, "denominator": bottom, "meaning": meaning,
                "games_per_s": median(a["games_per_s"] / b["games_per_s"] for a, b in pairs),
                "turns_per_s": median(a["turns_per_s"] / b["turns_per_s"] for a, b in pairs),
                "turns_per_game": median(a["turns_per_game"] / b["turns_per_game"] for a, b in pairs),
            })
    return {"benchmark": "throughput", "machine": info,
            "load_average_end": load_average(), "players": PLAYERS, "seed": seed,
            "repeats": repeats, "rows": rows, "ratios": ratios, "rlcard": rlcard_info}


def format_result(result: dict) -> str:
    """Render the result as a table of contenders and a table of ratios."""
    lines = [f"Throughput, {result['players']} random bots, whole games, median of "
             f"{result['repeats']} alternating repeats -- "
             f"{describe_machine(result['machine'], result.get('load_average_end'))}"]
    if result.get("rlcard"):
        lines[0] += f"; {result['rlcard']['engine']} with numpy {result['rlcard']['numpy']}"
    rows = []
    for name, row in result["rows"].items():
        rows.append([name, row["games"], f"{row['games_per_s']:,.1f}", f"{row['turns_per_s']:,.0f}",
                     f"{row['turns_per_game']:,.1f}", f"{100 * row['stalled_per_game']:.1f}%",
                     spread(row["games_per_s_all"])])
    lines.append(table(["contender", "games", "games/s", "turns/s", "turns/game", "stalled",
                        "games/s range"], rows))
    if result["ratios"]:
        lines.append("")
        rows = [[r["meaning"], f"{r['games_per_s']:.2f}x", f"{r['turns_per_s']:.2f}x",
                 f"{r['turns_per_game']:.2f}x"] for r in result["ratios"]]
        lines.append(table(["ratio (median of per-repeat ratios)", "games/s", "turns/s", "turns/game"], rows))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print a table (or JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="alternating repeats (>= 5 recommended)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every contender's games per repeat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--with-rlcard", action="store_true",
                        help="also time RLCard's UnoGame (builds benchmarks/.rlcard-venv on first use)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    result = measure(args.repeats, args.with_rlcard, args.seed, args.scale,
                     log=lambda text: print(text, file=sys.stderr))
    print(json.dumps(result, indent=2) if args.json else format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

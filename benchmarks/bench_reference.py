"""Benchmark the pure-Python reference UNO engine, optionally against RLCard's UnoGame."""

# Usage: `python benchmarks/bench_reference.py [--with-rlcard] [--games N] [--repeats R]`.
# Every repeat replays the same seeded games, so only the timing varies; the
# table shows the median of the repeats.  With `--with-rlcard` the two
# contenders alternate (reference, RLCard, reference, ...) in one run, so that
# machine load affects both alike.  Turns per second is the fairer comparison:
# the rule sets differ and RLCard's games are far shorter (see rlcard_bench.py).

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference_engine  # noqa: E402
import rlcard_bench  # noqa: E402

METRICS = ("games_per_s", "turns_per_s", "turns_per_game")


def median(values) -> float:
    """Return the median of an iterable of numbers."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def summarize(name: str, runs: list[dict]) -> dict:
    """Return the median of each metric over the repeats of one contender."""
    summary = {"engine": name, "repeats": len(runs)}
    for metric in METRICS:
        summary[metric] = median(run[metric] for run in runs)
        summary[metric + "_all"] = [run[metric] for run in runs]
    return summary


def format_table(rows: list[dict], ratio: dict | None) -> str:
    """Render the summaries (and the reference/RLCard ratio) as a plain-text table."""
    lines = [f"{'engine':<28} {'games/s':>10} {'turns/s':>12} {'turns/game':>11}"]
    lines.append("-" * len(lines[0]))
    for row in rows:
        lines.append(f"{row['engine']:<28} {row['games_per_s']:>10,.1f} "
                     f"{row['turns_per_s']:>12,.0f} {row['turns_per_game']:>11,.1f}")
    if ratio is not None:
        lines.append(f"{'ratio reference / rlcard':<28} {ratio['games_per_s']:>9.2f}x "
                     f"{ratio['turns_per_s']:>11.2f}x {ratio['turns_per_game']:>10.2f}x")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table (or JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="reference games per repeat")
    parser.add_argument("--rlcard-games", type=int, default=2000, help="RLCard games per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (at least 5 recommended)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--with-rlcard", action="store_true", help="also time RLCard's UnoGame")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    with_rlcard = args.with_rlcard
    if with_rlcard and rlcard_bench.ensure_venv() is None:
        print("bench_reference: RLCard unavailable, timing the reference engine only",
              file=sys.stderr)
        with_rlcard = False

    reference_engine.run(max(1, args.games // 10), args.players, args.seed + 1)  # warm-up
    reference_runs, rlcard_runs, rlcard_info = [], [], None
    for repeat in range(args.repeats):
        reference_runs.append(reference_engine.run(args.games, args.players, args.seed))
        if with_rlcard:
            record = rlcard_bench.measure_rlcard(args.rlcard_games, 1, args.players, args.seed)
            if record is None:
                print("bench_reference: RLCard run failed, dropping it", file=sys.stderr)
                with_rlcard = False
                rlcard_runs = []
                continue
            rlcard_info = record
            rlcard_runs.extend(record["runs"])
        print(f"repeat {repeat + 1}/{args.repeats} done", file=sys.stderr)

    rows = [summarize("reference (pure Python)", reference_runs)]
    ratio = None
    if rlcard_runs:
        rows.append(summarize(rlcard_info["engine"], rlcard_runs))
        ratio = {m: rows[0][m] / rows[1][m] for m in METRICS}

    if args.json:
        print(json.dumps({"python": platform.python_version(), "players": args.players,
                          "results": rows, "ratio_reference_over_rlcard": ratio}, indent=2))
    else:
        print(f"Python {platform.python_version()}, {args.players} players, random policy, "
              f"median of {args.repeats} repeats "
              f"({args.games} reference games, {args.rlcard_games} RLCard games per repeat)")
        print(format_table(rows, ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What `simulate --report` costs: the same heuristic games played plain and measured, alternating.

Prints figures; asserts nothing. `python benchmarks/bench_report.py [--variant FILE] [--games N] [--repeats R]
[--bots B] [--instructions]`.
Times are CPU time of this process (less moved by other jobs than wall time). Each repeat plays the same seeded
games both ways (the order rotates every repeat); the ratio is the median of the per-repeat ratios. The peak
memory of the measured run is printed too: the report is sums and counters, so it does not grow with the number
of games. On a shared machine CPU time still moves by 10-20%: `--instructions` counts the instructions of play
instead, under valgrind (as bench_instructions.py does: loading and start-up excluded), a ratio load does not
move (`--games` then defaults to 200).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import ROOT, describe_machine, machine, median, table  # noqa: E402

from unodsl.check import load  # noqa: E402
from unodsl.runs.simulate import run_range  # noqa: E402

# The child of --instructions: plays games 0..N-1, measured or not.
CHILD = """
import sys
from unodsl.check import load
from unodsl.runs.simulate import run_range
run_range(load(sys.argv[1]), 4, 1, 0, int(sys.argv[3]), [sys.argv[2]], measure=sys.argv[4] == "measured")
"""


def instructions(variant: str, bots: str, games: int, how: str) -> int:
    """Instructions executed by a child that loads `variant` and plays `games` games (`how`: plain or measured)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", CHILD, variant, bots, str(games), how],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out.stderr).group(1).replace(",", ""))


def count(args) -> int:
    if shutil.which("valgrind") is None:
        print("bench_report: --instructions needs valgrind", file=sys.stderr)
        return 2
    games = args.games or 200
    base = instructions(args.variant, args.bots, 0, "plain")
    plain = instructions(args.variant, args.bots, games, "plain") - base
    measured = instructions(args.variant, args.bots, games, "measured") - base
    print(f"simulate --report overhead in instructions (valgrind), {games:,} {args.bots} games of {args.variant}")
    print(table(["run", "instructions", "per game"],
                [["plain", f"{plain / 1e6:,.1f}M", f"{plain / games:,.0f}"],
                 ["--report (measured)", f"{measured / 1e6:,.1f}M", f"{measured / games:,.0f}"]]))
    print(f"measured / plain: {measured / plain:.3f}x")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="variants/classic.yaml")
    parser.add_argument("--games", type=int, default=None, help="games per run [2000; 200 with --instructions]")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--instructions", action="store_true", help="count instructions under valgrind instead")
    args = parser.parse_args(argv)
    if args.instructions:
        return count(args)
    games = args.games or 2000
    info = machine()
    game = load(args.variant)
    times = {False: [], True: []}
    ratios = []
    for repeat in range(args.repeats):
        took = {}
        for measure in ((False, True) if repeat % 2 == 0 else (True, False)):
            start = time.process_time()
            run_range(game, 4, 1, 0, games, [args.bots], measure=measure)
            took[measure] = time.process_time() - start
            times[measure].append(took[measure])
        ratios.append(took[True] / took[False])
    rows = [["plain", f"{median(times[False]):.2f} s", f"{games / median(times[False]):,.0f}"],
            ["--report (measured)", f"{median(times[True]):.2f} s", f"{games / median(times[True]):,.0f}"]]
    print(f"simulate --report overhead, {games:,} {args.bots} games of {args.variant}, median of "
          f"{args.repeats} alternating repeats -- {describe_machine(info)}")
    print(table(["run", "time", "games/s"], rows))
    print(f"measured / plain: {median(ratios):.2f}x (median of per-repeat ratios)")
    print(f"peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

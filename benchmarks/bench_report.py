"""What `simulate --report` costs: the same heuristic games played plain and measured, alternating.

Prints figures; asserts nothing. `python benchmarks/bench_report.py [--variant FILE] [--games N] [--repeats R]`.
Times are CPU time of this process (less moved by other jobs than wall time). Each repeat plays the same seeded games both ways (the order rotates every repeat); the ratio is
the median of the per-repeat ratios. The peak memory of the measured run is printed too: the
report is sums and counters, so it does not grow with the number of games.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import describe_machine, machine, median, table  # noqa: E402

from unodsl.check import load  # noqa: E402
from unodsl.runs.simulate import run_range  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="variants/classic.yaml")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--bots", default="heuristic")
    args = parser.parse_args(argv)
    info = machine()
    game = load(args.variant)
    times = {False: [], True: []}
    ratios = []
    for repeat in range(args.repeats):
        took = {}
        for measure in ((False, True) if repeat % 2 == 0 else (True, False)):
            start = time.process_time()
            run_range(game, 4, 1, 0, args.games, [args.bots], measure=measure)
            took[measure] = time.process_time() - start
            times[measure].append(took[measure])
        ratios.append(took[True] / took[False])
    rows = [["plain", f"{median(times[False]):.2f} s", f"{args.games / median(times[False]):,.0f}"],
            ["--report (measured)", f"{median(times[True]):.2f} s", f"{args.games / median(times[True]):,.0f}"]]
    print(f"simulate --report overhead, {args.games:,} {args.bots} games of {args.variant}, median of "
          f"{args.repeats} alternating repeats -- {describe_machine(info)}")
    print(table(["run", "time", "games/s"], rows))
    print(f"measured / plain: {median(ratios):.2f}x (median of per-repeat ratios)")
    print(f"peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

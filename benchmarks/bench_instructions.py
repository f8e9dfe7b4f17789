"""Instructions per turn and per decision, counted by valgrind: a figure that load does not move."""

# Usage: `python benchmarks/bench_instructions.py [variant ...] [--games N] [--bots random|heuristic]`
#
# Timings on a shared 2-core machine swing by 10-30%, too much to see a 3% change.
# This script runs the same seeded games under `valgrind --tool=cachegrind` (no
# cache simulation) twice, with N games and with none, and divides the difference
# in instructions executed by the turns and decisions played: the cost of play
# alone, loading and start-up excluded, the same on every run of the same code.
# It is for comparing two versions of the engine (A/B), not a speed figure: it
# counts instructions, not cycles. Needs valgrind; PYTHONHASHSEED is fixed.

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import rel, table  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DEFAULT_GAMES = {"random": 20, "heuristic": 200}

# The child: plays games start..N-1 of the variant and prints what it played.
CHILD = """
import sys
from unodsl.check import load
from unodsl.runs import simulate
from unodsl.runs.simulate import run_range
game = load(sys.argv[1], fast=sys.argv[4] != "reference")
if game.fast:
    # The generated rollout is made (or read from the cache) before play, as the variant is loaded: start-up.
    try:
        from unodsl.engine.fast import hand_over
        from unodsl.engine.generated import rollout_of
        rollout_of(game, hand_over(game.state_class))
    except ImportError:                              # an engine from before the generated fast mode
        pass
played = [0, 0]
def count(index, state):
    played[0] += state.total_turns
    played[1] += len(state.history)
run_range(game, 4, 1, 0, int(sys.argv[3]), [sys.argv[2]], on_game=count)
print("PLAYED", *played)
"""

# The hand-written engine (benchmarks/reference_engine.py) on the same number of seeded games: its
# turns are its decisions' turns (it records no decisions, so both columns are its turns).
HANDWRITTEN_CHILD = """
import sys
sys.path.insert(0, "benchmarks")
import reference_engine
run = reference_engine.run(int(sys.argv[3]), 4, 1)
print("PLAYED", run["turns"], run["turns"])
"""
HANDWRITTEN = "hand-written engine"


def instructions(variant: str, bots: str, games: int, mode: str = "fast") -> tuple[int, int, int]:
    """(instructions, turns, decisions) of one run under cachegrind (`mode`: fast, compiled or reference; variant
    HANDWRITTEN: the hand-written engine)."""
    env = dict(os.environ, PYTHONHASHSEED="0", UNODSL_COMPILE="1" if mode == "compiled" else "0")
    child = HANDWRITTEN_CHILD if variant == HANDWRITTEN else CHILD
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", child, variant, bots, str(games), mode],
                         capture_output=True, text=True, env=env, cwd=REPO, check=True)
    refs = int(re.search(r"I\s+refs:\s+([\d,]+)", out.stderr).group(1).replace(",", ""))
    turns, decisions = map(int, re.search(r"PLAYED (\d+) (\d+)", out.stdout).groups())
    return refs, turns, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("variants", nargs="*", default=["variants/classic.yaml"])
    parser.add_argument("--bots", default="random", choices=("random", "heuristic"))
    parser.add_argument("-n", "--games", type=int, help="games per variant (default: 20 random, 200 heuristic)")
    parser.add_argument("--reference", action="store_true",
                        help="count the engine's reference mode (Game(fast=False)) instead of the fast one")
    parser.add_argument("--compiled", action="store_true",
                        help="count the fast mode with its generated module compiled (UNODSL_COMPILE=1: Cython and cc)")
    parser.add_argument("--handwritten", action="store_true",
                        help="also count the hand-written engine (benchmarks/reference_engine.py, random bots, "
                             "4 players) on as many games: compare it with benchmarks/reference-rules.yaml")
    args = parser.parse_args(argv)
    mode = "reference" if args.reference else "compiled" if args.compiled else "fast"
    if shutil.which("valgrind") is None:
        print("bench_instructions: valgrind is not installed", file=sys.stderr)
        return 2
    games = args.games or DEFAULT_GAMES[args.bots]
    rows = []
    for variant in args.variants + ([HANDWRITTEN] if args.handwritten else []):
        total, turns, decisions = instructions(variant, args.bots, games, mode)
        base, _, _ = instructions(variant, args.bots, 0, mode)
        play = total - base
        rows.append([rel(variant), f"{games}", f"{turns:,}", f"{decisions:,}", f"{play / 1e6:,.1f}M",
                     f"{play / turns:,.0f}", f"{play / decisions:,.0f}"])
    print(table(["variant", "games", "turns", "decisions", "instructions", "per turn", "per decision"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

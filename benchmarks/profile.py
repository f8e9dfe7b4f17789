"""Where a simulation's time goes, function by function, sampled by py-spy or pyinstrument."""

# Usage: `python benchmarks/profile.py [FILE ...] [--bots random|heuristic] [--seconds S]
#         [--tool py-spy|pyinstrument] [--top N] [--json]`
#
# Plays seeded games of each FILE (default variants/classic.yaml) through
# `simulate.run_range` for about S seconds and reports, for every function seen
# while games were being played (loading and start-up are left out), its share of
# the samples: "self" where it was the running function, "total" where it was
# anywhere on the stack.  The totals of a few entry points give the phases:
# `new_game` is dealing; with random bots `FastState.play_out` plays the whole game;
# with other bots `legal_action_ids` and `apply_id` are the engine's two calls per
# decision, and `play_one` and the bots' `act` are the policy loop.
#
# py-spy (the default) samples the process from outside, 1,000 times a second,
# pausing it for each sample: the shares are those of time, without the cost a
# tracing profiler adds to every call.  pyinstrument samples from inside the
# process.  Neither is a dependency of unodsl: `pip install -e ".[profile]"`
# installs both (py-spy needs permission to ptrace the child, which containers
# may refuse).  Shares from sampling are estimates: with 5,000 samples a 2% share
# is good to about +-0.4 points.  For an A/B of a small change, use
# bench_instructions.py, which counts instructions and does not vary.

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import HERE, ROOT, VARIANTS, describe_machine, machine, rel, table  # noqa: E402

# The child: plays 10-game ranges until `seconds` have passed; prints what it played.
# Seats as in bench_variants.py: 4, or the first count the variant allows.
CHILD = """
import sys, time
sys.path.insert(0, sys.argv[4])
from bench_variants import players_for
from unodsl.check import load
from unodsl.runs.simulate import run_range
game = load(sys.argv[1])
bots, seconds, players = [sys.argv[2]], float(sys.argv[3]), players_for(game)
start = 0
end = time.perf_counter() + seconds
while time.perf_counter() < end:
    run_range(game, players, 1, start, start + 10, bots)
    start += 10
print("PLAYED", start)
"""

PLAY = "run_range"          # the frame under which games are played; samples without it are start-up


def _function(frame: str) -> str:
    """'State.apply_id (unodsl/engine.py:392)' -> 'engine.py: State.apply_id' (lines dropped: per function)."""
    name, _, where = frame.partition(" (")
    path = where.rsplit(":", 1)[0]
    return f"{os.path.basename(path)}: {name}" if path else name


def shares(stacks) -> dict:
    """Self and total shares by function, from (frames root first, sample count) pairs inside PLAY."""
    own, anywhere = collections.Counter(), collections.Counter()
    total = 0
    for frames, count in stacks:
        names = [_function(f) for f in frames]
        inside = next((i for i, n in enumerate(names) if n.endswith(" " + PLAY) or n == PLAY), None)
        if inside is None:
            continue
        names = names[inside:]
        total += count
        own[names[-1]] += count
        for name in set(names):
            anywhere[name] += count
    return {"samples": total,
            "functions": [{"function": name, "self": own[name] / total, "total": anywhere[name] / total}
                          for name in sorted(anywhere, key=lambda n: (-own[n], -anywhere[n], n))]
            if total else []}


def profile_py_spy(file: str, bots: str, seconds: float) -> dict:
    """Run the child under `py-spy record` and read its raw (collapsed-stack) output."""
    py_spy = shutil.which("py-spy") or shutil.which("py-spy", path=os.path.dirname(sys.executable))
    if py_spy is None:
        raise RuntimeError("py-spy is not installed: pip install -e \".[profile]\"")
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "profile.txt")
        run = subprocess.run([py_spy, "record", "--rate", "1000", "--format", "raw", "--output", out, "--",
                              sys.executable, "-c", CHILD, file, bots, str(seconds), str(HERE)],
                             cwd=ROOT, capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"py-spy failed ({run.returncode}): {run.stderr.strip()[-500:]}")
        stacks = []
        with open(out, encoding="utf-8") as handle:
            for line in handle:
                stack, _, count = line.rstrip("\n").rpartition(" ")
                if stack and count.isdigit():
                    stacks.append((stack.split(";"), int(count)))
    played = int(run.stdout.split("PLAYED", 1)[1].split()[0]) if "PLAYED" in run.stdout else 0
    return dict(shares(stacks), games=played)


def profile_pyinstrument(file: str, bots: str, seconds: float) -> dict:
    """Play in this process under pyinstrument's sampler and walk its call tree."""
    try:
        from pyinstrument import Profiler
    except ImportError:
        raise RuntimeError("pyinstrument is not installed: pip install -e \".[profile]\"") from None
    from bench_variants import players_for
    from unodsl.check import load
    from unodsl.runs.simulate import run_range
    game = load(file)
    players = players_for(game)
    profiler = Profiler(interval=0.0005)
    start = 0
    profiler.start()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        run_range(game, players, 1, start, start + 10, [bots])
        start += 10
    profiler.stop()
    stacks = []

    def walk(frame, path):
        # A synthetic frame ("[self]") is its parent's own time; a built-in's time goes to
        # its caller, as py-spy (which sees Python frames only) counts it.
        here = path
        if not frame.is_synthetic and frame.file_path_short != "<built-in>":
            name = f"{frame.class_name}.{frame.function}" if frame.class_name else frame.function
            here = path + [f"{name} ({frame.file_path_short}:{frame.line_no})"]
        own = frame.time - sum(child.time for child in frame.children)
        if own > 0:
            stacks.append((here, own))
        for child in frame.children:
            walk(child, here)

    root = profiler.last_session.root_frame()
    if root is not None:
        walk(root, [])
    # Seconds, not sample counts: scaled by the sampling interval.
    result = shares([(frames, round(seconds / 0.0005)) for frames, seconds in stacks])
    return dict(result, games=start)


def format_result(result: dict, top: int) -> str:
    """One table per variant."""
    lines = [f"{result['tool']}: {result['file']}, {result['bots']} bots, {result['games']:,} games in "
             f"~{result['seconds']:g} s, {result['samples']:,} samples while playing -- "
             f"{describe_machine(result['machine'])}"]
    rows = [[f["function"], f"{f['self']:.1%}", f"{f['total']:.1%}"] for f in result["functions"][:top]]
    lines.append(table(["function (by self share)", "self", "total"], rows))
    phases = {f["function"]: f["total"] for f in result["functions"]}
    picked = [(label, phases[name]) for label, name in PHASES if name in phases]
    if picked:
        lines.append("phases (total share): " + ", ".join(f"{label} {share:.1%}" for label, share in picked))
    return "\n".join(lines)


PHASES = (("dealing", "game.py: Game.new_game"),
          ("random play-out", "fast.py: FastState.play_out"),
          ("legal actions", "fast.py: FastState.legal_action_ids"),
          ("applying actions", "state.py: State.apply_id"),
          ("effects run by VM.run", "vm.py: VM.run"),
          ("statistics", "simulate.py: Stats.add"))


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, profile each variant, print the tables (or JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=[rel(VARIANTS / "classic.yaml")])
    parser.add_argument("--bots", default="random", choices=["random", "heuristic"])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--tool", default="py-spy", choices=["py-spy", "pyinstrument"])
    parser.add_argument("--top", type=int, default=25, help="rows per table")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    run = profile_py_spy if args.tool == "py-spy" else profile_pyinstrument
    results = []
    for file in args.files:
        try:
            result = run(file, args.bots, args.seconds)
        except RuntimeError as err:
            print(f"profile: {err}", file=sys.stderr)
            return 2
        result.update(tool=args.tool, file=file, bots=args.bots, seconds=args.seconds, machine=machine())
        results.append(result)
        if not args.json:
            print(format_result(result, args.top))
            print()
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`unodsl simulate --workers 1` against `--workers 2` on the same games: wall time, speed-up, identical JSON."""

# Usage: `python benchmarks/bench_scaling.py [--games N] [--bots heuristic|random] [--repeats R] [--json]`
#
# Runs, alternating, `python -m unodsl.cli simulate FILE -n N --workers W --bots B
# --seed 1 --json` for W = 1 and W = 2, R times each, and times each whole
# command (process start, variant load, worker start-up and the games: what a
# user waits for).  The speed-up is the median of the per-repeat ratios
# (workers 1 time / workers 2 time).  Every JSON summary must be identical: game
# i is seeded from (seed, i) alone whatever the worker count.
#
# Default: 4000 classic games with heuristic bots (about 10 s with one worker);
# `--bots random` games are ~25x longer, so use e.g. `-n 400` with them.
# On a machine with 2 cores, any other running job takes from the second worker:
# the load average is printed with the figures, and so is the CPU time of each
# run's process tree (os.wait4) and "cores used" = CPU time / wall time.  When
# workers 2 uses no more cores than workers 1, the machine did not give the run
# a second core and the wall-time speed-up says nothing about the code; the
# CPU-bound ceiling 2 x CPU(workers 1) / CPU(workers 2) then still says what the
# code would reach on two idle cores (it counts the parent's and the workers'
# overhead, not the start-up latency).
#
# A third run in each repeat is the machine's own ceiling: two independent
# `--workers 1` processes started together, each playing half the games (seeds
# S and S + 1: other games, about as long), timed until the last one ends.  Each
# pays the start-up, side by side, and they share nothing.  No scheme of two
# processes can beat them on this machine, so "workers 2 / pair" is the share of
# the machine's parallel speed that the pool delivers, and "workers 1 / pair" the
# speed-up two cores allow here at all (under 2x even on idle cores: the
# start-up is not halved).

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import ROOT, VARIANTS, describe_machine, load_average, machine, median, rel, spread, table  # noqa: E402

WORKERS = (1, 2)


def command(file: str, games: int, workers: int, bots: str, seed: int) -> list[str]:
    """Return the simulate command line."""
    return [sys.executable, "-m", "unodsl.cli", "simulate", file, "-n", str(games), "--workers", str(workers),
            "--bots", bots, "--seed", str(seed), "--json"]


def run(cmd: list[str]) -> tuple[float, float, dict]:
    """Run one simulation; return (wall seconds, CPU seconds of its process tree, parsed JSON summary)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)   # rusage of the child and its waited-for workers
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd[1:])} exited with {proc.returncode}:\n{err.read()}")
        return elapsed, usage.ru_utime + usage.ru_stime, json.loads(out.read())


def run_pair(cmds: list[list[str]]) -> tuple[float, float]:
    """Run the commands side by side; return (wall seconds until the last ends, CPU seconds of all)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        procs = [subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, text=True) for cmd in cmds]
        cpu = 0.0
        failed = []
        for proc in procs:
            _, status, usage = os.wait4(proc.pid, 0)
            cpu += usage.ru_utime + usage.ru_stime
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0:
                failed.append(proc)
        elapsed = time.perf_counter() - start
        if failed:
            err.seek(0)
            raise RuntimeError(f"{' '.join(failed[0].args[1:])} exited with {failed[0].returncode}:\n{err.read()}")
    return elapsed, cpu


def measure(file: str, games: int, bots: str, repeats: int, seed: int, log=print) -> dict:
    """Alternate workers 1 and 2 `repeats` times; return times, speed-up and the JSON comparison."""
    info = machine()
    times = {w: [] for w in WORKERS}
    cpu = {w: [] for w in WORKERS}
    summaries = {w: [] for w in WORKERS}
    pair_times, pair_cpu = [], []
    halves = [command(file, games // 2, 1, bots, seed), command(file, games - games // 2, 1, bots, seed + 1)]
    loads = []
    for repeat in range(repeats):
        order = WORKERS if repeat % 2 == 0 else tuple(reversed(WORKERS))
        for workers in order:
            elapsed, cpu_s, summary = run(command(file, games, workers, bots, seed))
            times[workers].append(elapsed)
            cpu[workers].append(cpu_s)
            summaries[workers].append(summary)
        elapsed, cpu_s = run_pair(halves)
        pair_times.append(elapsed)
        pair_cpu.append(cpu_s)
        loads.append(load_average())
        log(f"bench_scaling: repeat {repeat + 1}/{repeats} done "
            f"({times[1][-1]:.1f} s vs {times[2][-1]:.1f} s; pair {pair_times[-1]:.1f} s)")
    reference = summaries[1][0]
    identical = all(s == reference for w in WORKERS for s in summaries[w])
    differing = sorted({key for w in WORKERS for s in summaries[w] for key in s
                        if s.get(key) != reference.get(key)})
    return {
        "benchmark": "scaling", "machine": info,
        "load_average_end": load_average(), "file": file, "games": games, "bots": bots,
        "seed": seed, "repeats": repeats,
        "median_s": {str(w): median(times[w]) for w in WORKERS},
        "all_s": {str(w): times[w] for w in WORKERS},
        "speedup": median(a / b for a, b in zip(times[1], times[2])),
        "cpu_s": {str(w): median(cpu[w]) for w in WORKERS},
        "cores_used": {str(w): median(c / t for c, t in zip(cpu[w], times[w])) for w in WORKERS},
        # If every process had a core of its own: workers 1 takes cpu(1), workers 2 at best cpu(2)/2.
        "speedup_bound": median(2 * a / b for a, b in zip(cpu[1], cpu[2])),
        "games_per_s": {str(w): games / median(times[w]) for w in WORKERS},
        # Two independent half-runs side by side: the machine's ceiling for any two processes.
        "pair_s": median(pair_times),
        "pair_all_s": pair_times,
        "pair_cpu_s": median(pair_cpu),
        "pair_speedup": median(a / b for a, b in zip(times[1], pair_times)),
        "share_of_pair": median(b / a for a, b in zip(times[2], pair_times)),
        "identical_json": identical,
        "differing_keys": differing,
        "load_averages": loads,
        "mean_turns": reference["turns"]["mean"],
    }


def format_result(result: dict) -> str:
    """Render the wall times and the speed-up."""
    lines = [f"simulate {result['file']} -n {result['games']} --bots {result['bots']} --seed {result['seed']}, "
             f"median of {result['repeats']} alternating repeats -- "
             f"{describe_machine(result['machine'], result.get('load_average_end'))}"]
    rows = [[f"--workers {w}", f"{result['median_s'][str(w)]:.2f} s", f"{result['games_per_s'][str(w)]:,.0f}",
             spread(result["all_s"][str(w)]), f"{result['cpu_s'][str(w)]:.2f} s",
             f"{result['cores_used'][str(w)]:.2f}"] for w in WORKERS]
    if "pair_s" in result:
        rows.append(["2 x --workers 1, half each", f"{result['pair_s']:.2f} s",
                     f"{result['games'] / result['pair_s']:,.0f}", spread(result["pair_all_s"]),
                     f"{result['pair_cpu_s']:.2f} s", f"{result['pair_cpu_s'] / result['pair_s']:.2f}"])
    lines.append(table(["run", "wall time", "games/s", "range (s)", "CPU time", "cores used"], rows))
    lines.append(f"speed-up workers 2 / workers 1: {result['speedup']:.2f}x (median of per-repeat ratios)")
    lines.append(f"CPU-bound ceiling with 2 idle cores, 2 x CPU(workers 1) / CPU(workers 2): "
                 f"{result['speedup_bound']:.2f}x")
    if "pair_s" in result:
        lines.append(f"machine ceiling, two independent half-runs side by side / workers 1: "
                     f"{result['pair_speedup']:.2f}x; workers 2 reaches {result['share_of_pair']:.0%} of it")
    loads = [l[0] for l in result["load_averages"] if l]
    if loads:
        lines.append(f"1-minute load average after each repeat: {', '.join(f'{l:.2f}' for l in loads)}")
    verdict = "identical" if result["identical_json"] else f"DIFFERENT (keys: {', '.join(result['differing_keys'])})"
    lines.append(f"JSON summaries of all {2 * result['repeats']} runs: {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the figures (or JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=rel(VARIANTS / "classic.yaml"))
    parser.add_argument("-n", "--games", type=int, default=4000)
    parser.add_argument("--bots", default="heuristic", choices=["heuristic", "random"])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    result = measure(args.file, args.games, args.bots, args.repeats, args.seed,
                     log=lambda text: print(text, file=sys.stderr))
    print(json.dumps(result, indent=2) if args.json else format_result(result))
    return 0 if result["identical_json"] else 1


if __name__ == "__main__":
    sys.exit(main())

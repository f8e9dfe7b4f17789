"""Peak memory of `unodsl simulate` for 10k, 100k (and with --full 1M) games: constant in the number of games."""

# Usage: `python benchmarks/bench_memory.py [--full] [--bots heuristic|random] [--workers W] [--json]`
#
# Each size N runs `python -m unodsl.cli simulate FILE -n N --workers W --bots B
# --seed 1 --json` as a child of a small helper process (this script with
# `--measure`), which reports `resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`
# once the simulation has exited: the peak resident set of the simulation
# process (with --workers > 1, the largest single process of the tree; Linux
# keeps the maximum, not the sum).  The helper also samples the summed RSS of the
# whole process tree (/proc, every 0.1 s) as a cross-check for multi-worker runs.
# A 100-game run gives the floor (interpreter, libraries, compiled variant).
#
# Default: classic with heuristic bots (~50 turns a game), one worker, 10k and
# 100k games: a few minutes.  The million-game time is estimated from the 100k
# run's rate; `--full` runs it too.

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import ROOT, VARIANTS, describe_machine, load_average, machine, rel, table  # noqa: E402

SIZES = (100, 10_000, 100_000)
FULL_SIZE = 1_000_000
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


def _tree_rss_kb(root_pid: int) -> int:
    """Return the summed RSS (kB) of `root_pid` and its descendants, from /proc (0 if unavailable)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])           # field 4: ppid
        rss[int(entry)] = int(fields[21]) * PAGE_KB     # field 24: rss in pages
    tree, frontier = {root_pid}, [root_pid]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in tree:
                tree.add(child)
                frontier.append(child)
    return sum(rss.get(pid, 0) for pid in tree)


def helper(cmd: list[str]) -> dict:
    """Run `cmd` as our only child; return its peak RSS (getrusage) and the sampled tree peak."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak_tree = 0
    while proc.poll() is None:
        peak_tree = max(peak_tree, _tree_rss_kb(proc.pid))
        time.sleep(0.1)
    stdout, stderr = proc.communicate()
    elapsed = time.perf_counter() - start
    maxrss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # kB on Linux
    summary = json.loads(stdout) if proc.returncode == 0 else None
    return {"returncode": proc.returncode, "seconds": elapsed, "maxrss_kb": maxrss_kb,
            "tree_peak_kb": peak_tree, "games": summary["games"] if summary else None,
            "mean_turns": summary["turns"]["mean"] if summary else None,
            "stderr": stderr[-2000:] if proc.returncode else ""}


def measure_size(file: str, games: int, bots: str, workers: int, seed: int) -> dict:
    """Measure one simulation size through a fresh helper process."""
    cmd = [sys.executable, "-m", "unodsl.cli", "simulate", file, "-n", str(games), "--workers", str(workers),
           "--bots", bots, "--seed", str(seed), "--json"]
    result = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure", "--", *cmd],
                            cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"memory helper failed:\n{result.stderr}")
    record = json.loads(result.stdout)
    if record["returncode"] != 0:
        raise RuntimeError(f"{' '.join(cmd[1:])} exited with {record['returncode']}:\n{record['stderr']}")
    record["requested"] = games
    return record


def measure(file: str, bots: str, workers: int, seed: int, full: bool, sizes=SIZES, log=print) -> dict:
    """Measure every size (the first is the floor); estimate (or with `full`, measure) the million-game run."""
    info = machine()
    rows = []
    for games in tuple(sizes) + ((FULL_SIZE,) if full else ()):
        record = measure_size(file, games, bots, workers, seed)
        rows.append(record)
        log(f"bench_memory: {games:,} games: {record['maxrss_kb'] / 1024:.1f} MB peak, {record['seconds']:.1f} s")
    # Marginal rate between the two largest runs (removes start-up and load time), for the 1M estimate.
    a, b = rows[-2], rows[-1]
    rate = (b["requested"] - a["requested"]) / max(1e-9, b["seconds"] - a["seconds"])
    estimate = rows[0]["seconds"] + FULL_SIZE / rate
    floor = rows[0]["maxrss_kb"]
    return {"benchmark": "memory", "machine": info,
            "load_average_end": load_average(), "file": file, "bots": bots, "workers": workers,
            "seed": seed, "rows": rows, "games_per_s": rate, "million_estimate_s": estimate,
            "million_measured": full, "floor_kb": floor,
            "max_growth_kb": max(r["maxrss_kb"] for r in rows) - floor,
            "peak_kb": max(r["maxrss_kb"] for r in rows),
            "peak_tree_kb": max(r["tree_peak_kb"] for r in rows)}


def format_result(result: dict) -> str:
    """Render the peaks per size."""
    lines = [f"Peak RSS of simulate {result['file']} --bots {result['bots']} --workers {result['workers']} "
             f"-- {describe_machine(result['machine'], result.get('load_average_end'))}"]
    rows = [[f"{r['requested']:,}", f"{r['maxrss_kb'] / 1024:.1f} MB", f"{r['tree_peak_kb'] / 1024:.1f} MB",
             f"{(r['maxrss_kb'] - result['floor_kb']) / 1024:+.1f} MB", f"{r['seconds']:,.1f} s"]
            for r in result["rows"]]
    floor_games = f"vs {result['rows'][0]['requested']:,} games"
    lines.append(table(["games", "peak RSS (getrusage)", "peak tree RSS (sampled)", floor_games, "wall"], rows))
    lines.append(f"rate {result['games_per_s']:,.0f} games/s; 1,000,000 games "
                 + ("measured above" if result["million_measured"]
                    else f"would take about {result['million_estimate_s'] / 60:,.0f} min (run with --full)"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the figures (or JSON with --json)."""
    if argv is None:
        argv = sys.argv[1:]
    if argv[:2] == ["--measure", "--"]:
        print(json.dumps(helper(argv[2:])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=rel(VARIANTS / "classic.yaml"))
    parser.add_argument("--bots", default="heuristic", choices=["heuristic", "random"])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES),
                        help="game counts to measure, smallest (the floor) first")
    parser.add_argument("--full", action="store_true", help="also run 1,000,000 games")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    result = measure(args.file, args.bots, args.workers, args.seed, args.full, args.sizes,
                     log=lambda text: print(text, file=sys.stderr))
    print(json.dumps(result, indent=2) if args.json else format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

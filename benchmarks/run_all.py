"""Run every benchmark and print one table of figures against the performance targets."""

# Usage: `python benchmarks/run_all.py [--no-rlcard] [--full] [--quick] [--save FILE.json]`
#
# Each benchmark runs in its own process with `--json`, one after the other (they
# would disturb each other's timings if run together); their own tables go to
# stderr as they finish and the summary table comes last on stdout.  --quick
# passes smaller sizes and 5 repeats everywhere (a smoke run, not for the docs);
# --full adds the million-game memory run.  Targets are in docs/performance.md.

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import HERE, ROOT, describe_machine, machine, table  # noqa: E402

import bench_check  # noqa: E402
import bench_memory  # noqa: E402
import bench_scaling  # noqa: E402
import bench_throughput  # noqa: E402
import bench_variants  # noqa: E402

MODULES = {"throughput": bench_throughput, "variants": bench_variants, "check": bench_check,
           "scaling": bench_scaling, "memory": bench_memory}


def run_benchmark(name: str, args: list[str]) -> dict | None:
    """Run benchmarks/bench_<name>.py --json ARGS; return its JSON (None, with stderr shown, on failure)."""
    script = HERE / f"bench_{name}.py"
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(script), "--json", *args], cwd=ROOT,
                            capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if not result.stdout.strip():
        print(f"run_all: {script.name} failed ({result.returncode}):\n{result.stderr}", file=sys.stderr)
        return None
    data = json.loads(result.stdout)
    data["wall_s"] = elapsed
    print(MODULES[name].format_result(data), file=sys.stderr)
    print(f"({script.name}: {elapsed:.0f} s)\n", file=sys.stderr)
    return data


def verdict(ok: bool | None) -> str:
    """Return the text of a target's status."""
    return "n/a" if ok is None else ("met" if ok else "NOT met")


def summary_rows(results: dict) -> list[list[str]]:
    """Return [figure, value, target, status] rows from the benchmarks' JSON."""
    rows = []
    t = results.get("throughput")
    if t:
        r = t["rows"]
        for name, row in r.items():
            rows.append([f"{name}: games/s, turns/s (turns/game)",
                         f"{row['games_per_s']:,.1f}, {row['turns_per_s']:,.0f} ({row['turns_per_game']:,.0f})",
                         "", ""])
        ratios = {(x["numerator"], x["denominator"]): x for x in t["ratios"]}
        same = ratios.get(("unodsl reference-rules", bench_throughput.REFERENCE))
        if same:
            rows.append(["unodsl fast / hand-written engine, same rules: turns/s (games/s)",
                         f"{same['turns_per_s']:.3f}x ({same['games_per_s']:.3f}x)", ">= 0.5x in plain Python",
                         verdict(same["turns_per_s"] >= 0.5)])
        slow = ratios.get(("unodsl reference-rules, reference mode", bench_throughput.REFERENCE))
        if slow:
            rows.append(["unodsl reference mode / hand-written engine: turns/s", f"{slow['turns_per_s']:.3f}x",
                         "no slower than before", ""])
        classic_ref = ratios.get(("unodsl classic", bench_throughput.REFERENCE))
        if classic_ref:
            rows.append(["unodsl classic / hand-written engine: turns/s", f"{classic_ref['turns_per_s']:.2f}x",
                         "(rules differ: UNO calls)", ""])
        bare = ratios.get(("unodsl rlcard-rules", bench_throughput.RLCARD_BARE))
        comparable = ratios.get(("unodsl rlcard-rules", bench_throughput.RLCARD))
        classic_rl = ratios.get(("unodsl classic", bench_throughput.RLCARD))
        if bare:
            rows.append(["unodsl rlcard-rules / RLCard round mechanics: games/s",
                         f"{bare['games_per_s']:.3f}x (turns/s {bare['turns_per_s']:.3f}x)", ">= 1x",
                         verdict(bare["games_per_s"] >= 1)])
        if comparable:
            rows.append(["unodsl rlcard-rules / RLCard UnoGame: games/s",
                         f"{comparable['games_per_s']:.3f}x (turns/s {comparable['turns_per_s']:.3f}x)", ">= 1x",
                         verdict(comparable["games_per_s"] >= 1)])
        if classic_rl:
            rows.append(["unodsl classic / RLCard UnoGame: turns/s (games/s)",
                         f"{classic_rl['turns_per_s']:.3f}x ({classic_rl['games_per_s']:.3f}x)",
                         ">= 1x in turns/s", verdict(classic_rl["turns_per_s"] >= 1)])
        if not comparable:
            rows.append(["unodsl / RLCard", "RLCard not run", ">= 1x", "n/a"])
    v = results.get("variants")
    if v:
        metrics = (("games_ratio", "games/s"), ("turns_ratio", "turns/s"), ("decisions_ratio", "decisions/s"))
        for bots in dict.fromkeys(x["bots"] for x in v["rows"]):
            rows_b = [x for x in v["rows"] if x["bots"] == bots and "games_ratio" in x]
            for key, label in metrics:
                if not rows_b or key not in rows_b[0]:
                    continue
                worst = min(rows_b, key=lambda x: x[key])
                below = [Path(x["variant"]).stem for x in rows_b if x[key] < 0.5]
                rows.append([f"slowest variant / classic, {bots} bots: {label}",
                             f"{worst[key]:.2f}x ({Path(worst['variant']).stem})"
                             + (f"; below 0.5x: {', '.join(below)}" if len(below) > 1 else ""),
                             ">= 0.5x", verdict(worst[key] >= 0.5)])
        if v["errors"]:
            rows.append(["variants that failed to load", ", ".join(v["errors"]), "none", "NOT met"])
    s = results.get("scaling")
    if s:
        rows.append([f"simulate -n {s['games']} --bots {s['bots']}: workers 2 / workers 1",
                     f"{s['speedup']:.3f}x ({s['median_s']['1']:.1f} s -> {s['median_s']['2']:.1f} s)",
                     ">= 1.7x", verdict(s["speedup"] >= 1.7)])
        rows.append(["  CPU-bound ceiling on 2 idle cores (2 x CPU w1 / CPU w2)", f"{s['speedup_bound']:.2f}x "
                     f"(cores used: w1 {s['cores_used']['1']:.2f}, w2 {s['cores_used']['2']:.2f})",
                     ">= 1.7x", verdict(s["speedup_bound"] >= 1.7)])
        if "pair_speedup" in s:
            rows.append(["  machine ceiling: 2 independent half-runs side by side / workers 1",
                         f"{s['pair_speedup']:.2f}x (workers 2 reaches {s['share_of_pair']:.0%} of it)",
                         "(control)", verdict(None)])
        rows.append(["simulate JSON, workers 1 vs 2", "identical" if s["identical_json"] else "DIFFERENT",
                     "identical", verdict(s["identical_json"])])
    m = results.get("memory")
    if m:
        sizes = ", ".join(f"{r['requested']:,}: {r['maxrss_kb'] / 1024:.1f}" for r in m["rows"])
        rows.append([f"peak RSS (MB) by games, {m['bots']} bots, {m['workers']} worker(s)", sizes,
                     "constant", verdict(m["max_growth_kb"] < 5 * 1024)])
        if m["million_measured"]:
            million = next(r for r in m["rows"] if r["requested"] == bench_memory.FULL_SIZE)
            rows.append(["peak RSS, 1,000,000 games", f"{million['maxrss_kb'] / 1024:.1f} MB", "< 200 MB",
                         verdict(million["maxrss_kb"] < 200 * 1024)])
        else:
            rows.append(["peak RSS, 1,000,000 games (not run; constant above)",
                         f"~{m['peak_kb'] / 1024:.0f} MB expected, ~{m['million_estimate_s'] / 60:.0f} min",
                         "< 200 MB", "n/a (run --full)"])
    c = results.get("check")
    if c:
        label = next(k for k in c["median_s"] if "check" in k)
        start = c["median_s"]["python -c pass"]
        rows.append([label, f"{c['median_s'][label]:.3f} s (interpreter alone {start:.3f} s)", "<= 0.25 s",
                     verdict(c["median_s"][label] <= 0.25)])
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks, print the summary table, optionally save all the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-rlcard", action="store_true", help="do not time RLCard")
    parser.add_argument("--full", action="store_true", help="also simulate 1,000,000 games for the memory figure")
    parser.add_argument("--quick", action="store_true", help="smaller sizes: a smoke run")
    parser.add_argument("--only", nargs="*", choices=list(MODULES), help="run only these benchmarks")
    parser.add_argument("--save", help="write every benchmark's JSON to this file")
    args = parser.parse_args(argv)

    extra = {name: [] for name in MODULES}
    extra["variants"] += ["--bots", *bench_variants.EVERY_BOT]
    if not args.no_rlcard:
        extra["throughput"].append("--with-rlcard")
    if args.full:
        extra["memory"].append("--full")
    if args.quick:
        extra["throughput"] += ["--scale", "0.3"]
        extra["variants"] += ["--seconds", "0.3"]
        extra["check"] += ["--runs", "10"]
        extra["scaling"] += ["--games", "1000"]
        extra["memory"] += ["--sizes", "100", "2000", "10000"]
    info = machine()
    started = time.perf_counter()
    results = {}
    for name in args.only or MODULES:
        results[name] = run_benchmark(name, extra[name])
    elapsed = time.perf_counter() - started

    print(f"unodsl benchmarks -- started {describe_machine(info)}; took {elapsed / 60:.1f} min")
    print(table(["figure", "value", "target", "status"], summary_rows(results), "llll"))
    if args.save:
        Path(args.save).write_text(json.dumps({"machine": info, "results": results}, indent=2) + "\n")
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Latency of `unodsl check` on a shipped variant in a fresh process, and what its imports cost."""

# Usage: `python benchmarks/bench_check.py [--runs N] [--file variants/classic.yaml] [--json]`
#
# Times, as wall clock around `subprocess.run`, N fresh processes of each of
#
#   python -c pass                                   the interpreter's own start-up
#   python -c "import unodsl.cli"                    start-up + importing the CLI
#   python -m unodsl.cli check variants/classic.yaml the whole command a user runs:
#       first:  the first check after install: no cache of unodsl's (UNODSL_NO_CACHE=1) and an
#               empty temporary folder (TMPDIR), emptied before every run, so Lark finds no parser
#               cache of its own there (the parser tables ship built: unodsl/effects/parser_tables.py)
#       cold:   UNODSL_NO_CACHE=1 (Lark's cache, if it wrote one, is there)
#       warm:   the clean result cached
#
# alternating them, after one untimed warm-up.  The median of the check runs
# is the figure; the other two say where the time goes.  Then
# `python -X importtime -m unodsl.cli check FILE` runs 5 times and the modules
# with the largest median cumulative import time are listed.

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import ROOT, VARIANTS, describe_machine, load_average, machine, median, rel, spread, table  # noqa: E402

IMPORTTIME_RUNS = 5


FIRST = "first check after install"


def commands(file: str, empty_tmp: str) -> dict[str, list[str]]:
    """Return the timed commands, by label (`empty_tmp`: the first check's TMPDIR, emptied before each run)."""
    py = sys.executable
    return {
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import unodsl.cli'": [py, "-c", "import unodsl.cli"],
        f"check {file} ({FIRST}: no cache, empty TMPDIR)": [
            "env", "UNODSL_NO_CACHE=1", f"TMPDIR={empty_tmp}", py, "-m", "unodsl.cli", "check", file],
        f"check {file} (cold: UNODSL_NO_CACHE=1)": ["env", "UNODSL_NO_CACHE=1", py, "-m", "unodsl.cli", "check", file],
        f"check {file} (warm: clean result cached)": [py, "-m", "unodsl.cli", "check", file],
    }


def time_command(command: list[str]) -> tuple[float, int, str]:
    """Run `command` in the repository root; return (seconds, exit code, output)."""
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - start, result.returncode, result.stdout + result.stderr


def import_times(file: str, runs: int = IMPORTTIME_RUNS) -> dict[str, dict]:
    """Return {module: {"self_us", "cumulative_us", "depth"}} medians over `runs` importtime runs."""
    samples: dict[str, list[tuple[int, int, int]]] = {}
    for _ in range(runs):
        # The cold path: what a first check of a file imports.
        result = subprocess.run(["env", "UNODSL_NO_CACHE=1", sys.executable, "-X", "importtime", "-m", "unodsl.cli",
                                 "check", file], cwd=ROOT, capture_output=True, text=True)
        for line in result.stderr.splitlines():
            if not line.startswith("import time:") or "self [us]" in line:
                continue
            # "import time:   self |   cumulative | <2 spaces per nesting level>module"
            self_us, cumulative_us, name = line.split(":", 1)[1].split("|", 2)
            name = name[1:]
            depth = (len(name) - len(name.lstrip())) // 2
            samples.setdefault(name.strip(), []).append((int(self_us), int(cumulative_us), depth))
    return {name: {"self_us": median(s[0] for s in values), "cumulative_us": median(s[1] for s in values),
                   "depth": values[0][2]}
            for name, values in samples.items()}


def measure(file: str, runs: int, top: int, log=print) -> dict:
    """Time the commands `runs` times each (alternating) and profile the imports."""
    info = machine()
    empty_tmp = tempfile.mkdtemp(prefix="bench_check_tmp_")
    cmds = commands(file, empty_tmp)

    def emptied() -> None:
        shutil.rmtree(empty_tmp, ignore_errors=True)
        Path(empty_tmp).mkdir()
    for label, command in cmds.items():  # warm-up (and Lark's cache, if not there yet)
        emptied()
        seconds, code, output = time_command(command)
        if code != 0 and "check" in label:
            log(f"bench_check: {' '.join(command[1:])} exited with {code}:\n{output}")
    times: dict[str, list[float]] = {label: [] for label in cmds}
    codes = set()
    for run in range(runs):
        for label, command in cmds.items():
            if FIRST in label:
                emptied()
            seconds, code, _ = time_command(command)
            times[label].append(seconds)
            if "check" in label:
                codes.add(code)
        if (run + 1) % 5 == 0:
            log(f"bench_check: {run + 1}/{runs} runs done")
    shutil.rmtree(empty_tmp, ignore_errors=True)
    modules = import_times(file)
    total_import = sum(m["self_us"] for m in modules.values())
    packages: dict[str, float] = {}
    for name, m in modules.items():
        packages[name.split(".")[0]] = packages.get(name.split(".")[0], 0) + m["self_us"]
    by_package = sorted(packages.items(), key=lambda item: -item[1])[:top]
    ours = sorted(((n, m) for n, m in modules.items() if n.startswith("unodsl.")),
                  key=lambda item: -item[1]["cumulative_us"])[:top]
    heaviest = sorted(modules.items(), key=lambda item: -item[1]["self_us"])[:top]
    return {
        "benchmark": "check", "machine": info,
        "load_average_end": load_average(), "file": file, "runs": runs,
        "exit_codes": sorted(codes),
        "median_s": {label: median(values) for label, values in times.items()},
        "all_s": times,
        "import_total_us": total_import,
        "by_package": [{"package": n, "self_us": us} for n, us in by_package],
        "unodsl_modules": [{"module": n, **m} for n, m in ours],
        "heaviest_self": [{"module": n, **m} for n, m in heaviest],
    }


def format_result(result: dict) -> str:
    """Render the latencies and the import-time tables."""
    lines = [f"unodsl check latency, fresh processes, median of {result['runs']} runs "
             f"-- {describe_machine(result['machine'], result.get('load_average_end'))}"]
    rows = [[label, f"{1000 * value:,.0f} ms", spread(1000 * t for t in result["all_s"][label])]
            for label, value in result["median_s"].items()]
    lines.append(table(["command", "median", "range (ms)"], rows))
    lines.append(f"exit code(s) of check: {result['exit_codes']}")
    lines.append("")
    lines.append(f"python -X importtime -m unodsl.cli check (median of {IMPORTTIME_RUNS} runs): all imports "
                 f"{result['import_total_us'] / 1000:,.0f} ms; by top-level package (sum of self times)")
    rows = [[m["package"], f"{m['self_us'] / 1000:,.1f} ms"] for m in result["by_package"]]
    lines.append(table(["package", "self"], rows))
    lines.append("")
    lines.append("unodsl modules by cumulative time (includes what they import)")
    rows = [[m["module"], f"{m['cumulative_us'] / 1000:,.1f} ms", f"{m['self_us'] / 1000:,.1f} ms"]
            for m in result["unodsl_modules"]]
    lines.append(table(["module", "cumulative", "self"], rows))
    lines.append("")
    lines.append("heaviest single modules (self time)")
    rows = [[m["module"], f"{m['self_us'] / 1000:,.1f} ms", f"{m['cumulative_us'] / 1000:,.1f} ms"]
            for m in result["heaviest_self"]]
    lines.append(table(["module", "self", "cumulative"], rows))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print tables (or JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=rel(VARIANTS / "classic.yaml"), help="variant to check")
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each command (>= 10)")
    parser.add_argument("--top", type=int, default=10, help="modules listed per import table")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    result = measure(args.file, args.runs, args.top, log=lambda text: print(text, file=sys.stderr))
    print(json.dumps(result, indent=2) if args.json else format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

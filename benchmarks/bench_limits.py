"""Time and peak memory of `unodsl check` on files just under the size limit with huge effects (issue 17.9).

# Usage: `python benchmarks/bench_limits.py [--json]`
#
# Writes, in a temporary folder, variants that extend variants/classic.yaml with
#
#   valid        one card whose on_play is ~990 KB of `let x = hand(next) + hand(self) * 2 - 1` lines
#   invalid      one card whose on_play is ~980 KB of `next draws 1+1+1...` (nested too deep)
#   many         99 cards whose on_play is 9,890 characters each, just under the per-effect limit
#
# and runs `python -m unodsl.cli check FILE --root /` on each in a fresh process (UNODSL_NO_CACHE=1),
# reporting wall-clock seconds, peak resident memory (ru_maxrss of the child) and the diagnostics.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE_LIMIT = 1_000_000

HEAD = """\
unodsl: 1
extends: {classic}
name: Huge
deck:
  total: {total}
cards:
"""
CARD = """\
  huge{i}:
    name: Huge {i}
    count: 1
    wild: true
    points: 50
    on_play: |
"""


def _variant(bodies: list[str]) -> str:
    """A variant with one card per effect body (each body a list of lines, already indented)."""
    text = HEAD.format(classic=json.dumps(str(ROOT / "variants" / "classic.yaml")), total=108 + len(bodies))
    for i, body in enumerate(bodies):
        text += CARD.format(i=i) + body
    return text


def files() -> dict[str, str]:
    """The benchmark variants, by name, each under the size limit."""
    room = SIZE_LIMIT - 10_000
    line = "      let x = hand(next) + hand(self) * 2 - 1\n"
    valid = _variant([line * (room // len(line))])
    invalid = _variant(["      next draws 1" + "+1" * ((room - 10_000) // 2) + "\n"])
    per = line * (9_900 // len(line))
    count = room // (len(per) + len(CARD) + 4)
    many = _variant([per] * count)
    out = {"valid": valid, "invalid": invalid, "many": many}
    assert all(len(text.encode()) < SIZE_LIMIT for text in out.values())
    return out


# The check runs inside a small wrapper that reports the child's own peak memory when it exits
# (RUSAGE_CHILDREN would give the largest of all children so far).
WRAPPER = """\
import resource, runpy, sys
sys.argv = ["unodsl", "check", sys.argv[1], "--root", "/"]
try:
    runpy.run_module("unodsl.cli", run_name="__main__")
finally:
    print("peak_kb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def measure(path: Path) -> dict:
    """Run check on path in a fresh process: seconds, its peak memory (MB), exit code, first lines."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", WRAPPER, str(path)], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "UNODSL_NO_CACHE": "1"})
    seconds = time.perf_counter() - start
    lines = (result.stdout + result.stderr).splitlines()
    peak = next((int(line.split()[1]) for line in lines if line.startswith("peak_kb ")), 0)
    lines = [line[:160] for line in lines if not line.startswith("peak_kb ")]
    return {"seconds": round(seconds, 2), "peak_mb": round(peak / 1024, 1), "exit": result.returncode,
            "output": lines[:3]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files().items():
            path = Path(folder) / f"{name}.yaml"
            path.write_text(text, encoding="utf-8")
            results[name] = {"bytes": len(text.encode()), **measure(path)}
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for name, r in results.items():
            print(f"{name:8} {r['bytes']:>9,} bytes  {r['seconds']:6.2f} s  peak {r['peak_mb']:7.1f} MB  "
                  f"exit {r['exit']}  {r['output'][0] if r['output'] else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

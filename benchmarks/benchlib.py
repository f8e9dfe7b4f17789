"""Small helpers shared by the benchmark scripts: medians, machine facts, tables."""

from __future__ import annotations

import datetime
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VARIANTS = ROOT / "variants"

# The scripts run from any folder; unodsl and the sibling modules must import.
for _path in (str(ROOT), str(HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)


def median(values) -> float:
    """Return the median of an iterable of numbers."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def spread(values) -> str:
    """Return 'min..max' of the repeats, to show how noisy a median is."""
    values = list(values)
    return f"{min(values):,.4g}..{max(values):,.4g}" if values else ""


def load_average() -> list[float] | None:
    """Return the 1/5/15-minute load averages, or None where the OS has none."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def cpu_model() -> str:
    """Return the CPU model name (Linux), or the platform's processor string."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> dict:
    """Return the facts that qualify a figure: when, Python, CPU, core count, load."""
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load_average": load_average(),
    }


def describe_machine(info: dict, load_end: list[float] | None = None) -> str:
    """Return one line describing `machine()`'s result (and the load average at the end of a run)."""
    load = info.get("load_average")
    load_text = f", 1-min load average {load[0]:.2f}" if load else ""
    if load and load_end:
        load_text += f" at the start, {load_end[0]:.2f} at the end"
    return (f"{info['date']}: {info['implementation']} {info['python']} on {info['cores']} cores "
            f"({info['cpu']}){load_text}")


def table(headers: list[str], rows: list[list], align: str | None = None) -> str:
    """Render rows as a plain-text table; `align` has one 'l' or 'r' per column."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    align = align or "l" + "r" * (len(headers) - 1)
    lines = []
    for index, row in enumerate(cells):
        parts = [cell.ljust(w) if a == "l" else cell.rjust(w) for cell, w, a in zip(row, widths, align)]
        lines.append("  ".join(parts).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def rel(path: Path | str) -> str:
    """Return `path` relative to the repository root when it is inside it."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)

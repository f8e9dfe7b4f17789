"""Percentiles of a histogram and the Wilson interval of a proportion: what every summary of runs reports."""

from __future__ import annotations

import math
from collections import Counter


def percentiles(hist: Counter, n: int) -> dict:
    if not n:
        return {"mean": 0.0, "median": 0, "p95": 0, "max": 0}
    total = sum(t * c for t, c in hist.items())
    ordered = sorted(hist.items())

    def rank(q: float) -> int:
        target = max(1, math.ceil(q * n))
        seen = 0
        for value, count in ordered:
            seen += count
            if seen >= target:
                return value
        return ordered[-1][0]
    return {"mean": total / n, "median": rank(0.5), "p95": rank(0.95), "max": ordered[-1][0]}


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score 95% confidence interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not make it 5e-17.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)

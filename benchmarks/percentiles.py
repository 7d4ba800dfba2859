"""The one percentile definition every benchmark prints with.

Nearest rank: the p-th percentile of n values is the smallest value with at least p% of the values at or
below it, i.e. the value at rank ceil(p / 100 * n) (1-based) of the sorted values. It is always a value
that was measured (no interpolation), p50 of an even count is the lower middle value, and p100 is the maximum.
Run `python benchmarks/percentiles.py` to see it on a small example.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def percentile(values: Iterable[float], p: float) -> float:
    """The nearest-rank `p`-th percentile (0 < p <= 100) of `values`; NaN when there are none."""
    if not 0 < p <= 100:
        raise ValueError(f"a percentile is above 0 and at most 100, not {p}")
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


def summary(values: Sequence[float], points: Sequence[float] = (50, 95, 99)) -> str:
    """`p50 1.23  p95 4.56  p99 7.89  max 9.00` for the given values, two decimals."""
    parts = [f"p{p:g} {percentile(values, p):.2f}" for p in points]
    parts.append(f"max {max(values, default=float('nan')):.2f}")
    return "  ".join(parts)


if __name__ == "__main__":
    sample = [float(v) for v in range(1, 21)]
    print(f"values 1..20: {summary(sample)}")  # p50 10, p95 19, p99 20, max 20

"""Percentiles and report lines shared by every benchmark."""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The load generator's own garbage collector held off while it measures.

    A full collection of the client's heap (every socket's frames and timings) took 45-78 ms
    here, and one landing inside a run stalls every socket's reading at once: a tail the
    servers never caused. The heap is collected and frozen before, and collected as usual after
    (a measured run lasts at most ten minutes; what it allocates is its frames and timings)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by the nearest-rank method; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary(values: Sequence[float]) -> dict[str, float]:
    """p50/p90/p99/max of a list of milliseconds (or anything else)."""
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50": percentile(ordered, 50),
        "p90": percentile(ordered, 90),
        "p99": percentile(ordered, 99),
        "max": ordered[-1] if ordered else math.nan,
    }


def fmt_ms(values: Sequence[float]) -> str:
    s = summary(values)
    return (
        f"n={s['n']} p50 {s['p50']:.1f} ms, p90 {s['p90']:.1f} ms, "
        f"p99 {s['p99']:.1f} ms, max {s['max']:.1f} ms"
    )


def verdict(value: float, budget: float) -> str:
    """'met' or 'MISSED (x.x times the budget)' for a figure that must stay at or under a budget."""
    if math.isnan(value):
        return "no data"
    if value <= budget:
        return "met"
    return f"MISSED ({value / budget:.1f}x the budget)"

"""The scripts' one timing rule: after a warm-up call, the best seconds per call over
`repeat` batches, each batch as many calls as fill about `budget` seconds (one call when the
budget is 0). The best, not the mean: a busy machine only ever adds time. (asv times its
suites itself, under benchmarks/suites/.)"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Callable


def _loops(fn: Callable[[], object], budget: float) -> int:
    started = time.perf_counter()
    fn()
    return max(1, int(budget / max(time.perf_counter() - started, 1e-7)))


def best_times(fns: Sequence[Callable[[], object]], repeat: int = 5, budget: float = 0.0) -> list[float]:
    """The best seconds per call of each of `fns`, their batches taking turns (so that a slow
    spell of the machine falls on all of them alike)."""
    loops = [_loops(fn, budget) for fn in fns]
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for k, (fn, n) in enumerate(zip(fns, loops)):
            started = time.perf_counter()
            for _ in range(n):
                fn()
            best[k] = min(best[k], (time.perf_counter() - started) / n)
    return best


def best_time(fn: Callable[[], object], repeat: int = 5, budget: float = 0.0) -> float:
    """The best seconds per call of `fn`."""
    return best_times([fn], repeat, budget)[0]

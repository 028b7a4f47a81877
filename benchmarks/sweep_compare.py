"""Times exhaustive sweeps in one run: C++ threads 1 vs 2, thread and process pools, and the
same states through manila.evaluate_many (dicts), checking that all give the same numbers.

    python benchmarks/sweep_compare.py [--quick]

The acceptance case: the spot table of every reachable next_roll 3 position of every legal
start, for one crew/pirate pattern, in under 1 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import multiprocessing
import os
import sys
import time

import numpy as np

import manila
from manila import _core
from manila.sweeps.sweep import sweep
from timing import best_time

PATTERN = {"crews": (1, 1, 0), "pirates": 1}
BOUND = 1.0  # seconds, for the acceptance case


def cpu_time(fn) -> float:
    """Process CPU seconds (all threads) of one call: shows whether threads ran at once."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def same(a, b) -> bool:
    return all(
        np.array_equal(getattr(a, k), getattr(b, k))
        for k in ("goods", "positions", "net", "legal", "cost", "boats", "incomes")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer timing rounds")
    args = parser.parse_args()
    rounds = 3 if args.quick else 10
    print(f"{os.cpu_count()} cores; pattern {PATTERN}")

    failures = 0
    for next_roll in (3, 2):
        ref = sweep(next_roll, threads=1, **PATTERN)
        pairs = len(ref.path_row)
        print(
            f"\nnext_roll {next_roll}, every start: {len(ref)} distinct states ({pairs} start/position pairs)"
        )
        times = {}
        for threads in (1, 2):
            times[threads] = best_time(lambda: sweep(next_roll, threads=threads, **PATTERN), rounds)
            cpu = cpu_time(lambda: sweep(next_roll, threads=threads, **PATTERN))
            print(
                f"  C++ threads {threads}: {times[threads] * 1e3:8.1f} ms  "
                f"{len(ref) / times[threads]:9.0f} states/s  (CPU {cpu * 1e3:.0f} ms)"
            )
        print(f"  2 threads vs 1: {times[1] / times[2]:.2f}x")
        pools = {
            "thread pool x2": lambda: cf.ThreadPoolExecutor(2),
            "process pool x2": lambda: cf.ProcessPoolExecutor(
                2, mp_context=multiprocessing.get_context("spawn")
            ),
        }
        for label, make in pools.items():
            with make() as pool:
                result = sweep(next_roll, executor=pool, **PATTERN)  # also starts the workers
                if not same(result, ref):
                    print(f"  {label}: DIFFERENT ARRAYS", file=sys.stderr)
                    failures += 1
                t = best_time(lambda: sweep(next_roll, executor=pool, **PATTERN), rounds)
            print(f"  {label}: {t * 1e3:8.1f} ms  {len(ref) / t:9.0f} states/s")
        if next_roll == 3:
            if min(times.values()) >= BOUND:
                print(f"  ACCEPTANCE FAILED: {min(times.values()):.2f} s >= {BOUND} s", file=sys.stderr)
                failures += 1
            else:
                print(f"  acceptance (< {BOUND:.0f} s): {min(times.values()) * 1e3:.0f} ms, ok")

        # The same states the slow way: dicts, parsing and validation per state.
        states = [ref.state(r) for r in range(len(ref))]
        t = best_time(lambda: manila.evaluate_many(states, threads=2), 1)
        evals = manila.evaluate_many(states, exact=True, threads=2)
        agree = all(
            ev.spots
            == {
                s: {"cost": int(ref.cost[r, k]), "expected_net": ref.value(r, s)}
                for k, s in enumerate(ref.spots)
                if ref.legal[r, k]
            }
            for r, ev in enumerate(evals)
        )
        if not agree:
            print("  evaluate_many: DIFFERENT VALUES", file=sys.stderr)
            failures += 1
        print(f"  evaluate_many over dicts: {t * 1e3:8.1f} ms ({t / times[2]:.0f}x slower than the sweep)")

    enum = best_time(lambda: _core.enumerate_family(3), rounds)
    print(f"\nenumerating every reachable roll-3 state of every start: {enum * 1e3:.2f} ms")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""manila.evaluate against the published seed calculator, state by state, on one thread.

    python benchmarks/seed_bench.py [--repeat 7] [--budget-ms 20] [--no-suite]

For each of the seed calculator's own test cases (benchmarks/suites/seed_states.json) it prints
the best-of-N time of ``manila.evaluate(state, threads=1)`` end to end (parsing and the
Evaluation included, as a caller sees it), the seed calculator's recorded time and their
ratio; the goal is a ratio of at least 10 everywhere (issue 14). Then, for scale, the same
timing of the benchmark states (benchmarks/suites/bench_states.py) and of the heaviest state at
each roll of the brute-force comparison's sample (tests/helpers/cases.py).
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable

import manila
from suites.bench_states import STATES
from suites.seed_states import SEED_STATES, SEED_US
from timing import best_time

GOAL = 10.0


def _evaluate(state: dict, strict: bool | None = None) -> Callable[[], object]:
    return lambda: manila.evaluate(state, threads=1, strict=strict)


def heaviest_suite_states() -> dict[str, dict]:
    """The slowest state of each roll among tests/helpers/cases.py's random sample."""
    from references import sampled_cases

    slowest: dict[int, tuple[float, int, dict]] = {}
    for roll, i, state in sampled_cases():
        took = best_time(_evaluate(state, False), 2, 0.0)
        if took > slowest.get(roll, (0.0,))[0]:
            slowest[roll] = (took, i, state)
    return {f"suite_roll{roll}-{i}": state for roll, (_, i, state) in sorted(slowest.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="best of N batches (default 7)")
    parser.add_argument(
        "--budget-ms", type=float, default=20.0, help="length of one timed batch in milliseconds (default 20)"
    )
    parser.add_argument(
        "--no-suite",
        action="store_true",
        help="skip the scan of the test suite's sample for its heaviest states",
    )
    args = parser.parse_args(argv)
    budget = args.budget_ms / 1000

    print(f"{'seed case':40} {'roll':>4} {'manila µs':>10} {'seed µs':>8} {'ratio':>7}")
    worst = float("inf")
    for name, state in SEED_STATES.items():
        ours = best_time(_evaluate(state), args.repeat, budget) * 1e6
        ratio = SEED_US[name] / ours
        worst = min(worst, ratio)
        flag = "" if ratio >= GOAL else f"  < {GOAL:g}x"
        print(f"{name:40} {state['next_roll']:>4} {ours:>10.1f} {SEED_US[name]:>8.0f} {ratio:>6.1f}x{flag}")
    print(f"lowest ratio: {worst:.1f}x (goal: at least {GOAL:g}x)")

    others = dict(sorted(STATES.items(), key=lambda kv: kv[1]["next_roll"]))
    if not args.no_suite:
        others.update(heaviest_suite_states())
    print(f"\n{'other state':40} {'roll':>4} {'manila µs':>10}")
    for name, state in others.items():
        # The sample's random positions may be hypothetical.
        ours = best_time(_evaluate(state, False), args.repeat, budget) * 1e6
        print(f"{name:40} {state['next_roll']:>4} {ours:>10.1f}")
    return 0 if worst >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())

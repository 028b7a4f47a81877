"""Times the C++ engine against the brute-force reference on the same states, in one run.

    python benchmarks/compare.py [--quick] [--random N] [--literal]

All compute the full evaluation (spot table, boat table, incomes) exactly; the script
checks that they agree, then prints the best time of each and the ratios. The reference
(tests/helpers/reference.py) runs in two modes: as the tests use it (equal dice outcomes merged,
integer weights, memoised) and, with --literal, the brute force as specified: every die
of every remaining roll on its own, with Fractions (timed once; minutes for the
decision-heavy states, so roll-1 states are left out).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import manila
from manila import _core
from references import engine_tables, evaluate_reference, random_state
from suites.bench_states import STATES
from timing import best_time


def engine_call(state: dict, threads: int):
    """The engine on a prepared state: what a bot or a sweep calls in its loop."""
    typed = manila.VoyageState.from_dict(state, strict=False)
    voyage = typed.to_core()
    return lambda: _core.analyse(voyage, typed.point_of_view, typed.max_accomplices, threads)


def agree(state: dict) -> bool:
    return engine_tables(state) == evaluate_reference(state)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter timing rounds")
    parser.add_argument(
        "--random",
        type=int,
        default=10,
        metavar="N",
        help="also time N random next_roll 2 states (default 10)",
    )
    parser.add_argument("--literal", action="store_true", help="also time the literal brute force (slow)")
    args = parser.parse_args()
    budget = 0.1 if args.quick else 0.5

    cases = list(STATES.items())
    rng = random.Random(2)
    cases += [(f"random_roll2_{i}", random_state(rng, 2)) for i in range(args.random)]
    print(
        f"{'state':22s} {'reference':>11s} {'engine 1 thread':>16s} {'engine auto':>12s} "
        f"{'speed-up':>9s}" + (f" {'literal':>10s} {'speed-up':>10s}" if args.literal else "")
    )
    ratios, literal_ratios = {}, {}
    for name, state in cases:
        if not agree(state):
            print(f"{name}: engine and reference disagree", file=sys.stderr)
            return 1
        ref = best_time(lambda: evaluate_reference(state), 5, budget * 4 / 5)
        one = best_time(engine_call(state, 1), 5, budget / 5)
        auto = best_time(engine_call(state, 0), 5, budget / 5)
        ratio = ref / min(one, auto)
        ratios.setdefault(state["next_roll"], []).append(ratio)
        line = f"{name:22s} {ref * 1e3:9.2f}ms {one * 1e6:14.1f}us {auto * 1e6:10.1f}us {ratio:8.0f}x"
        if args.literal and state["next_roll"] > 1:
            start = time.perf_counter()
            evaluate_reference(state, literal=True)
            literal = time.perf_counter() - start
            literal_ratios.setdefault(state["next_roll"], []).append(literal / min(one, auto))
            line += f" {literal:9.2f}s {literal / min(one, auto):9.0f}x"
        print(line, flush=True)
    print()
    for label, table in (("reference", ratios), ("literal brute force", literal_ratios)):
        for roll in sorted(table):
            r = sorted(table[roll])
            print(
                f"vs {label}, next_roll {roll}: speed-up min {r[0]:.0f}x, "
                f"median {r[len(r) // 2]:.0f}x over {len(r)} states"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

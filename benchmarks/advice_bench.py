"""Times the placement-round solver (manila.advise, one thread) on four players to move
from the start of a round, against the targets, and the engine against the pure-Python
brute-force max^n reference on a position with three to move.

    python benchmarks/advice_bench.py [--no-reference]
"""

from __future__ import annotations

import argparse
import time

import manila
from suites.advice_states import POSITIONS, TARGETS, THREE_TO_MOVE
from timing import best_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-reference", action="store_true", help="skip the reference (slow)")
    args = parser.parse_args()

    print(f"{'position':<22} {'roll':>4} {'movers':>6} {'ends valued':>11} {'time':>10} {'target':>8}")
    for name, text in POSITIONS.items():
        position = manila.parse_position(text)
        rounds = 7 if position.state.next_roll == 3 else 3
        seconds = best_time(lambda: manila.advise(position, threads=1), rounds)
        core = manila._core.advise_placement(
            position.state.to_core(), [position.state.owners.index(p) for p in position.movers], 1
        )
        target = TARGETS[position.state.next_roll]
        flag = "ok" if seconds < target else "SLOW"
        print(
            f"{name:<22} {position.state.next_roll:>4} {len(position.movers):>6} "
            f"{core.positions:>11} {seconds * 1000:>8.1f}ms {target * 1000:>6.0f}ms {flag}"
        )

    if args.no_reference:
        return
    from references import advice_reference

    position = manila.parse_position(THREE_TO_MOVE)
    data = position.to_dict()
    engine = best_time(lambda: manila.advise(position, threads=1), 7)
    start = time.perf_counter()
    expected = advice_reference(data)
    reference = time.perf_counter() - start
    got = manila.advise(position, exact=True)
    same = {
        "to_move": got.to_move,
        "options": got.options,
        "best": got.best,
        "line": [list(t) for t in got.line],
        "payoffs": got.payoffs,
    } == expected
    print(
        f"\nthree to move at roll 3 ({len(position.movers)} movers): engine {engine * 1000:.2f} ms, "
        f"reference {reference:.2f} s, {reference / engine:,.0f}x faster; equal: {same}"
    )


if __name__ == "__main__":
    main()

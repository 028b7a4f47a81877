"""The C++ solver bot against the Python reference it replaced, move for move.

    python benchmarks/solver_check.py [--games 200] [--first 0]

Game i has seed i; player counts (3, 4, 5), rule variants and mixes of seats (all solvers,
or solvers among greedy, greedy-wealth and random bots) take turns (tests/helpers/solver_reference.py).
At every move of a solver seat both bots are asked; every difference is printed. Too slow
for the unit tests at 200 games (the Python reference drives the game): tests/test_solver_bot.py
checks a few of the same games.
"""

from __future__ import annotations

import argparse
import time

from references import differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    moves, found = 0, []
    for i in range(args.first, args.first + args.games):
        n, diff = differences(i)
        moves += n
        found += diff
        for line in diff:
            print(line, flush=True)
    took = time.perf_counter() - start
    print(f"{args.games} games, {moves} solver moves compared, {len(found)} differences ({took:.0f} s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())

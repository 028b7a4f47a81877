"""Games per second of the ladder for several bot mixes and executors.

    python benchmarks/ladder_speed.py [--games N] [--solver-games M] [--seed S] [--only-solver]

Built-in bots play in C++ (threads, or a process pool); a bot given as module:Class plays
from Python through its PlayerView, one action at a time.

The solver section compares, side by side on the same games, the Python SolverBot (before:
tests/helpers/solver_reference.py, played from Python on a process pool, one process per core) with
the C++ solver (after: the C++ loop on threads), and checks that both give the same table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from manila.game.ladder import ladder

MIXES = [
    ("random,random,random,random", "C++"),
    ("greedy,random,random,random", "C++"),
    ("greedy,greedy,greedy,greedy", "C++"),
    ("manila.bots:GreedyBot,random,random,random", "Python bot in one seat"),
    ("manila.bots:RandomBot,random,random,random", "Python bot in one seat"),
]


# The Python reference lives beside the tests; the process pool's workers inherit the path.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
REFERENCE = "helpers.solver_reference:SolverBot"
SOLVER_MIXES = ["solver,solver,solver,solver", "solver,greedy,greedy,greedy"]


def timed(bots: str, games: int, seed: int, executor: object) -> tuple[float, dict[str, object]]:
    start = time.perf_counter()
    result = ladder(players=4, bots=bots, games=games, seed=seed, executor=executor)  # type: ignore[arg-type]
    rate = games / (time.perf_counter() - start)
    table = result.to_dict()["bots"]
    return rate, {name.replace(REFERENCE, "solver"): stats for name, stats in table.items()}


def solver_section(games: int, seed: int) -> None:
    print(f"solver ladders, four players, {games} games each, {os.cpu_count()} cores (games/s)")
    print(f"  {'bots':<30} {'before (Python)':>16} {'after (C++)':>12} {'speed-up':>9}  same table")
    for bots in SOLVER_MIXES:
        before, table_before = timed(bots.replace("solver", REFERENCE), games, seed, "processes")
        after, table_after = timed(bots, games, seed, None)
        same = "yes" if table_before == table_after else "NO"
        print(f"  {bots:<30} {before:>16.2f} {after:>12.2f} {after / before:>8.1f}x  {same}", flush=True)
    # Wall-clock rates follow whatever else the machine runs; CPU time per game, both paths
    # in this process on one thread, does much less so.
    print(f"  CPU seconds per game, one thread ({games} games; 2 cores / that = games/s on an idle machine)")
    for bots in SOLVER_MIXES:
        cpu = []
        for spec in (bots.replace("solver", REFERENCE), bots):
            start = time.process_time()
            ladder(players=4, bots=spec, games=games, seed=seed, threads=1)
            cpu.append((time.process_time() - start) / games)
        print(f"  {bots:<30} {cpu[0]:>16.3f} {cpu[1]:>12.3f} {cpu[0] / cpu[1]:>8.1f}x", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per mix, a multiple of 4 (default 400)")
    parser.add_argument(
        "--solver-games", type=int, default=40, help="games per solver mix, a multiple of 4 (default 40)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only-solver", action="store_true", help="the solver section alone")
    args = parser.parse_args()
    solver_section(args.solver_games, args.seed)
    if args.only_solver:
        return 0
    print(f"four-player ladders, {args.games} games each, {os.cpu_count()} cores")
    for bots, how in MIXES:
        for executor in (None, "processes"):
            start = time.perf_counter()
            ladder(players=4, bots=bots, games=args.games, seed=args.seed, executor=executor)
            rate = args.games / (time.perf_counter() - start)
            print(f"  {bots:<45} {how:<24} {executor or 'in process':<12} {rate:>10,.0f} games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

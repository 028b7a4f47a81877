"""Games per second of the ladder for several bot mixes and executors.

    python benchmarks/ladder_speed.py [--games N] [--solver-games M] [--seed S] [--only-solver]
        [--goal G]

Built-in bots play in C++ (threads, or a process pool); a bot given as module:Class plays
from Python through its PlayerView, one action at a time.

The solver section compares, side by side on the same games, the Python SolverBot (before:
tests/helpers/solver_reference.py, played from Python on a process pool, one process per core) with
the C++ solver (after: the C++ loop on threads), and checks that both give the same table. It
exits non-zero when four C++ solvers play fewer than --goal games per second.

The engine keeps what it learns about voyages between calls on a thread (memos of payoffs and
of the pilots' choices), so each CPU-time measurement runs in a fresh process: the same games
played again would otherwise find their answers already there.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time

from manila.arena.ladder import ladder

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


def cpu_per_game(spec: str, games: int, seed: int) -> float:
    start = time.process_time()
    ladder(players=4, bots=spec, games=games, seed=seed, threads=1)
    return (time.process_time() - start) / games


def fresh_cpu_per_game(spec: str, games: int, seed: int) -> float:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(cpu_per_game, (spec, games, seed))


def solver_section(games: int, seed: int) -> float:
    """Prints the section; returns the C++ rate with four solvers."""
    print(f"solver ladders, four players, {games} games each, {os.cpu_count()} cores (games/s)")
    print(f"  {'bots':<30} {'before (Python)':>16} {'after (C++)':>12} {'speed-up':>9}  same table")
    rates = {}
    for bots in SOLVER_MIXES:
        before, table_before = timed(bots.replace("solver", REFERENCE), games, seed, "processes")
        after, table_after = timed(bots, games, seed, None)
        rates[bots] = after
        same = "yes" if table_before == table_after else "NO"
        print(f"  {bots:<30} {before:>16.2f} {after:>12.2f} {after / before:>8.1f}x  {same}", flush=True)
    # Wall-clock rates follow whatever else the machine runs; CPU time per game, both paths
    # in this process on one thread, does much less so.
    print(f"  CPU seconds per game, one thread ({games} games; 2 cores / that = games/s on an idle machine)")
    for bots in SOLVER_MIXES:
        cpu = [fresh_cpu_per_game(spec, games, seed) for spec in (bots.replace("solver", REFERENCE), bots)]
        print(f"  {bots:<30} {cpu[0]:>16.3f} {cpu[1]:>12.3f} {cpu[0] / cpu[1]:>8.1f}x", flush=True)
    return rates[SOLVER_MIXES[0]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per mix, a multiple of 4 (default 400)")
    parser.add_argument(
        "--solver-games", type=int, default=200, help="games per solver mix, a multiple of 4 (default 200)"
    )
    parser.add_argument(
        "--goal", type=float, default=30.0, help="games/s four C++ solvers must reach (default 30)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only-solver", action="store_true", help="the solver section alone")
    args = parser.parse_args()
    rate = solver_section(args.solver_games, args.seed)
    met = rate >= args.goal
    print(f"  four solvers: {rate:.1f} games/s, goal at least {args.goal:g}: {'met' if met else 'NOT MET'}")
    if args.only_solver:
        return 0 if met else 1
    print(f"four-player ladders, {args.games} games each, {os.cpu_count()} cores")
    for bots, how in MIXES:
        for executor in (None, "processes"):
            start = time.perf_counter()
            ladder(players=4, bots=bots, games=args.games, seed=args.seed, executor=executor)
            rate = args.games / (time.perf_counter() - start)
            print(f"  {bots:<45} {how:<24} {executor or 'in process':<12} {rate:>10,.0f} games/s")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Games per second of the ladder for several bot mixes and executors.

    python benchmarks/ladder_speed.py [--games N] [--seed S]

Built-in bots play in C++ (threads, or a process pool); a bot given as module:Class plays
from Python through its PlayerView, one action at a time.
"""

from __future__ import annotations

import argparse
import os
import time

from manila.game.ladder import ladder

MIXES = [
    ("random,random,random,random", "C++"),
    ("greedy,random,random,random", "C++"),
    ("greedy,greedy,greedy,greedy", "C++"),
    ("manila.bots:GreedyBot,random,random,random", "Python bot in one seat"),
    ("manila.bots:RandomBot,random,random,random", "Python bot in one seat"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per mix, a multiple of 4 (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
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

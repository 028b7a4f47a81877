"""Complete Manila games per second, and greedy against random.

    python benchmarks/games_per_second.py [--games N] [--greedy-games N] [--seed S]

Prints, for four-player games with four random bots in one process:
  - the C++ play-out loop on one thread and on all cores (manila.simulate / _core.play_games),
  - the same games driven from Python one action at a time (State.apply_action + bots),
then the win rates of one greedy bot against three random ones over --greedy-games
games (default 2000), with the greedy bot in each seat in turn.
"""

from __future__ import annotations

import argparse
import os
import time

from manila import _core
from manila.arena.simulate import game_seed, simulate
from manila.bots import bots_for
from manila.game import Game, play
from timing import best_time


def rate(fn, games: int) -> float:
    """Games per second: the best of three runs."""
    return games / best_time(fn, 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="random games per timing (default 20000)")
    parser.add_argument(
        "--greedy-games", type=int, default=2000, help="greedy-vs-random games (default 2000)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.games
    random4 = ["random"] * 4
    print(f"four-player games, four random bots, {os.cpu_count()} cores")
    one = rate(lambda: _core.play_games(players=4, seed=args.seed, first=0, n=n, bots=random4, threads=1), n)
    print(f"  C++ loop, 1 thread:      {one:>10,.0f} games/s")
    every = rate(
        lambda: _core.play_games(players=4, seed=args.seed, first=0, n=n, bots=random4, threads=0), n
    )
    print(f"  C++ loop, all cores:     {every:>10,.0f} games/s")
    api = rate(lambda: simulate(players=4, games=n, bots="random", seed=args.seed, threads=1), n)
    print(f"  manila.simulate, 1 thread:{api:>9,.0f} games/s")
    m = max(1, n // 50)
    py = rate(
        lambda: [
            play(Game(4, game_seed(args.seed, i)), bots_for(random4, game_seed(args.seed, i)))
            for i in range(m)
        ],
        m,
    )
    print(f"  Python loop (apply_action per move): {py:,.0f} games/s")

    g = args.greedy_games
    print(f"\none greedy bot against three random ones, {g} games per seat")
    for seat in range(4):
        bots = ["random"] * 4
        bots[seat] = "greedy"
        start = time.perf_counter()
        result = simulate(players=4, games=g, bots=bots, seed=args.seed + seat)
        took = time.perf_counter() - start
        rates = " ".join(f"{100 * r:5.1f}%" for r in result.win_rates)
        wealth = " ".join(f"{w:6.1f}" for w in result.mean_wealth)
        print(
            f"  greedy in seat {seat}: win rates {rates} | mean wealth {wealth} | "
            f"{result.mean_voyages:.2f} voyages | {g / took:,.0f} games/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

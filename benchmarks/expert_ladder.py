"""The expert bot against fixed populations, seats rotated (duplicate deals), with 95%
intervals: ``python benchmarks/expert_ladder.py --rotations 50``.

Each rotation r deals the game of seed derive_seed(seed, r) once per seat of the expert;
the others' seats hold the population. A shared win counts 1/k to each of the k tied.
Rows (the issue's acceptance): expert vs three solver, three greedy (4 players), two
solver (3 players), four greedy (5 players); solver rows are skipped until the engine has
the solver bot (``_core.CORE_BOTS``)."""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ThreadPoolExecutor

from manila import _core

Z95 = 1.959963984540054


def wilson(wins: float, games: int) -> tuple[float, float]:
    p = wins / games
    denom = 1 + Z95 * Z95 / games
    centre = (p + Z95 * Z95 / (2 * games)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95 * Z95 / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play(players: int, hero: str, other: str, rotations: int, seed: int, threads: int) -> dict[str, float]:
    def one(job: tuple[int, int]) -> float:
        r, seat = job
        bots = [other] * players
        bots[seat] = hero
        _, wealth, _, _, _ = _core.play_games(players=players, seed=seed, first=r, n=1, bots=bots, threads=1)
        row = wealth[0].tolist()
        top = max(row)
        return (1.0 / row.count(top)) if row[seat] == top else 0.0

    jobs = [(r, s) for r in range(rotations) for s in range(players)]
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        shares = list(pool.map(one, jobs))
    games = len(shares)
    wins = sum(shares)
    low, high = wilson(wins, games)
    return {
        "games": games,
        "rate": wins / games,
        "low": low,
        "high": high,
        "par": 1 / players,
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rotations", type=int, default=25)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hero", default="expert")
    parser.add_argument("--rows", default="4:solver,4:greedy,3:solver,5:greedy")
    args = parser.parse_args()
    print(f"{'row':<28} {'games':>6} {'win rate':>9} {'95% interval':>16} {'par':>5} {'time':>8}")
    for row in args.rows.split(","):
        n_text, other = row.split(":")
        players = int(n_text)
        label = f"{args.hero} vs {players - 1} {other} ({players}p)"
        if other not in _core.CORE_BOTS:
            print(f"{label:<28} skipped: {other!r} is not a C++ bot yet")
            continue
        r = play(players, args.hero, other, args.rotations, args.seed, args.threads)
        print(
            f"{label:<28} {r['games']:>6} {r['rate']:>9.3f} [{r['low']:.3f}, {r['high']:.3f}] "
            f"{r['par']:>5.2f} {r['seconds']:>7.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()

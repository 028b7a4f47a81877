"""How long a review of a whole game takes (issue 21: a 6-voyage 4-player game at horizon
voyage in at most 60 s on 2 cores), full and quick, and the big acceptance runs that the
tests keep small: random vs solver, four identical bots, the luck's bias.

    python benchmarks/review_bench.py [--games N] [--threads 2] [--acceptance]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any

from manila.analysis.review import pooled_losses, review
from manila.arena.simulate import simulate


def six_voyage_games(count: int, bots: str, seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    k = 0
    while len(out) < count:
        batch: list[dict[str, Any]] = []
        simulate(players=4, games=16, bots=bots, seed=seed + k, record=batch.append)
        out += [r for r in batch if r["voyages"] >= 6]
        k += 1
    return out[:count]


def mean_ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{m:.2f} ± {h:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--acceptance", action="store_true", help="also the big acceptance runs")
    args = parser.parse_args()
    print(f"{'game':<6}{'bots':<28}{'decisions':>10}{'full s':>9}{'quick s':>9}")
    for bots in ("greedy-wealth", "random,greedy,greedy-wealth,greedy"):
        for k, record in enumerate(six_voyage_games(args.games, bots, seed=100)):
            t = time.perf_counter()
            full = review(record, threads=args.threads)
            t_full = time.perf_counter() - t
            t = time.perf_counter()
            review(record, quick=True, threads=args.threads)
            t_quick = time.perf_counter() - t
            print(f"{k:<6}{bots:<28}{len(full.decisions):>10}{t_full:>9.1f}{t_quick:>9.1f}")
    if not args.acceptance:
        return
    # Mean loss per non-forced decision, the games as the units (pooled_losses).
    for bots in ("random,solver,solver,solver", "greedy-wealth", "solver"):
        games: list[dict[str, Any]] = []
        simulate(players=4, games=8, bots=bots, seed=7, record=games.append)
        pooled = pooled_losses([review(r, threads=args.threads, luck_rollouts=0) for r in games])
        print(bots, {p: f"{x.mean_loss:.2f} ± {x.mean_loss_ci95:.2f}" for p, x in sorted(pooled.items())})
    games = []
    simulate(players=4, games=64, bots="greedy-wealth", seed=9, record=games.append)
    lucks: dict[str, list[float]] = {}
    for r in games:
        for p, s in review(r, decisions=False, luck_rollouts=32, threads=args.threads).players.items():
            lucks.setdefault(p, []).append(s.luck)
    print("luck over 64 games:", {p: mean_ci(xs) for p, xs in sorted(lucks.items())})


if __name__ == "__main__":
    main()

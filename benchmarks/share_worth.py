"""Fits the table of cpp/include/manila/share_worth.hpp from self-play and prints it beside
the table the engine holds (``_core.SHARE_PREMIUM``):
``python benchmarks/share_worth.py --games 600`` (about 4 minutes on 2 cores at 600 games
a lineup).

For every voyage start (the auction's first move) of every game, each good's price step
and the highest step of any good are recorded with the good's final price. A cell is the
mean final price minus today's price, with its standard error."""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

from manila import _core
from manila.common.vocab import PRICE_TRACK as TRACK

LINEUPS = (
    (4, ("solver",) * 4),
    (4, ("greedy",) * 4),
    (4, ("solver", "greedy", "greedy", "greedy")),
    (3, ("solver",) * 3),
    (5, ("solver",) * 5),
    (5, ("greedy",) * 5),
    (3, ("greedy",) * 3),
)


def steps(state: _core.GameState) -> list[int]:
    return [TRACK.index(p) for p in state.snapshot()["prices"].values()]


def voyage_starts(players: int, seed: int, history: list[int]) -> tuple[list[list[int]], list[int]]:
    g = _core.GameState(players=players, seed=seed)
    starts, seen = [], -1
    for action in history:
        if g.phase == "auction" and g.voyage_number != seen:
            seen = g.voyage_number
            starts.append(steps(g))
        g.apply_action(action)
    return starts, steps(g)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games per lineup")
    parser.add_argument("--seed", type=int, default=77)
    args = parser.parse_args()
    cells: dict[tuple[int, int], list[float]] = defaultdict(list)
    starts_seen = 0
    for k, (players, bots) in enumerate(LINEUPS):
        seeds, _, _, _, histories = _core.play_games(
            players=players, seed=args.seed + k, first=0, n=args.games, bots=list(bots), record=True
        )
        for seed, history in zip(seeds, histories):
            starts, final = voyage_starts(players, int(seed), history)
            starts_seen += len(starts)
            for st in starts:
                for g, step in enumerate(st):
                    cells[(step, max(st))].append(TRACK[final[g]] - TRACK[step])
    held = _core.SHARE_PREMIUM
    print(f"{starts_seen} voyage starts of {args.games * len(LINEUPS)} games")
    print(f"{'step':>5} {'top':>5} {'n':>7} {'fitted':>8} {'s.e.':>6} {'held':>7}")
    for (step, top), xs in sorted(cells.items()):
        mean = sum(xs) / len(xs)
        se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
        print(
            f"{TRACK[step]:>5} {TRACK[top]:>5} {len(xs):>7} {mean:>8.2f} {se:>6.2f} {held[step][top]:>7.2f}"
        )


if __name__ == "__main__":
    main()

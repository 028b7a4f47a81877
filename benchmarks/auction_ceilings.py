"""Auctions as ceilings (docs/analysis.md): on seeded auctions, how far the values of
neighbouring ceilings `up to X` and `up to X+1` differ beyond twice their 95% half-widths
(the goal: at most 3 pesos), from the decider's table, and the office's worth against the highest ceiling at least as
good as passing.

    python benchmarks/auction_ceilings.py [--games 6] [--rollouts 300] [--horizon game]
"""

from __future__ import annotations

import argparse

from manila import _core
from manila.analysis.analysis import analyse
from manila.game import Game, State


def auctions(games: int, voyage: int) -> list[State]:
    out = []
    for seed in range(1, games + 1):
        state = Game(4, seed=seed).new_initial_state()
        while not state.is_terminal():
            if _core.at_boundary(state._s) and state.voyage_number == voyage:
                out.append(state)
                break
            state.apply_action(
                state.sample_chance() if state.is_chance_node() else _core.bot_action(state._s, "solver")
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--voyage", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=300)
    parser.add_argument("--horizon", default="game")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    print(f"{'game':<5}{'options':>8}{'worst excess':>14}{'at':>12}{'worth':>7}{'check':>7}")
    worst_all = 0.0
    for k, state in enumerate(auctions(args.games, args.voyage), 1):
        # From the decider's table, as a player asks it: the others' shares are dealt anew in
        # every rollout.
        table = state.observation(state.current_player())
        a = analyse(table, horizon=args.horizon, rollouts=args.rollouts, seed=k, threads=args.threads)
        ceilings = sorted(
            ((int(n.split()[-1]), o) for n, o in a.options.items() if n.startswith("up to ")),
            key=lambda t: t[0],
        )
        worst, where = 0.0, "-"
        for (x, o), (y, p) in zip(ceilings, ceilings[1:]):
            excess = abs(o.mean - p.mean) - 2 * max(o.ci95, p.ci95)
            if excess > worst:
                worst, where = excess, f"{x}-{y}"
        worth = max([x for x, o in ceilings if o.diff >= 0] or [0])
        worst_all = max(worst_all, worst)
        print(
            f"{k:<5}{len(a.options):>8}{worst:>14.2f}{where:>12}{a.worth:>7}{'ok' if worth == a.worth else 'MISS':>7}"
        )
    print(f"largest excess over twice the half-widths: {worst_all:.2f} pesos (goal at most 3)")


if __name__ == "__main__":
    main()

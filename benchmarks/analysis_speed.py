"""How long an analysis takes to reach its target: an auction and a harbour master's
decision, at horizon voyage to a diff_ci95 of 1 peso for the best two options and at
horizon game to 1 percentage point: ``python benchmarks/analysis_speed.py``.

The issue's goals (2 cores): at most 2 s at horizon voyage, 20 s at horizon game. Prints
one row per analysis: options, rollouts, the best two's diff_ci95 reached, why it stopped,
seconds. Exit status 1 when a goal is missed."""

from __future__ import annotations

import argparse
import sys
import time

from manila import _core
from manila.game import Game, State
from manila.game.analysis import analyse

GOALS = {"voyage": 2.0, "game": 20.0}


def first(kind: str, seed: int) -> State:
    state = Game(4, seed=seed).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
        elif _core.decision_kind(state._s) == kind:
            return state
        else:
            state.apply_action(_core.greedy_action(state._s, True))
    raise SystemExit(f"no {kind} decision in game {seed}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="the game the decisions come from")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-bids", type=int, default=12, help="auction: bids analysed")
    parser.add_argument("--screen", type=int, default=10, help="harbour master: combinations rolled out")
    parser.add_argument("--horizons", default="voyage,game")
    args = parser.parse_args()
    missed = False
    print(
        f"{'decision':<16} {'horizon':<7} {'options':>7} {'rollouts':>8} {'gap ci95':>9} {'stop':<8} {'seconds':>8} {'goal':>5}"
    )
    for kind in ("auction", "harbour_master"):
        state = first(kind, args.seed)
        for horizon in args.horizons.split(","):
            start = time.perf_counter()
            result = analyse(
                state,
                horizon=horizon,
                seed=1,
                threads=args.threads,
                max_bids=args.max_bids,
                screen=args.screen,
                time_limit=4 * GOALS[horizon],
            )
            seconds = time.perf_counter() - start
            gap = result.gap_ci95 * (100 if horizon == "game" else 1)
            ok = seconds <= GOALS[horizon] and result.stop in ("target", "exact", "forced")
            missed |= not ok
            unit = "pp" if horizon == "game" else ""
            print(
                f"{kind:<16} {horizon:<7} {len(result.options):>7} {result.rollouts:>8} "
                f"{gap:>7.2f}{unit:<2} {result.stop:<8} {seconds:>8.2f} {'ok' if ok else 'MISS':>5}",
                flush=True,
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

"""How long an analysis takes to reach its target: an auction and a harbour master's
decision, to a diff_ci95 of 1 peso for the best two options: at horizon voyage (payoff), and
at horizon game (equity) with the learned value and, before it, with every rollout played to
the end of the game (value rollout): ``python benchmarks/analysis_speed.py``.

The goals (2 cores): at most 2 s at horizon voyage and at horizon game with the learned
value; the full play-outs are the "before" row, run in the same process. Prints one row per
analysis: options, rollouts, the best two's diff_ci95 reached, why it stopped, seconds. Exit
status 1 when a goal is missed."""

from __future__ import annotations

import argparse
import sys
import time

from manila import _core
from manila.analysis.analysis import analyse
from manila.game import Game, State

# (horizon, value): the goal in seconds (None: a "before" row, no goal).
MODES = {("voyage", "learned"): 2.0, ("game", "rollout"): None, ("game", "learned"): 2.0}


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
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds at most per analysis")
    args = parser.parse_args()
    missed = False
    print(
        f"{'decision':<16} {'horizon':<7} {'value':<8} {'options':>7} {'rollouts':>8} {'gap ci95':>9} "
        f"{'stop':<8} {'seconds':>8} {'goal':>5}"
    )
    for kind in ("auction", "harbour_master"):
        state = first(kind, args.seed)
        for (horizon, value), goal in MODES.items():
            start = time.perf_counter()
            result = analyse(
                state,
                horizon=horizon,
                value=value,
                seed=1,
                threads=args.threads,
                max_bids=args.max_bids,
                screen=args.screen,
                time_limit=args.time_limit,
            )
            seconds = time.perf_counter() - start
            ok = result.stop in ("target", "exact", "forced") and (goal is None or seconds <= goal)
            missed |= goal is not None and not ok
            verdict = "-" if goal is None else "ok" if ok else "MISS"
            print(
                f"{kind:<16} {horizon:<7} {value if horizon == 'game' else '':<8} {len(result.options):>7} "
                f"{result.rollouts:>8} {result.gap_ci95:>9.2f} {result.stop:<8} {seconds:>8.2f} {verdict:>5}",
                flush=True,
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

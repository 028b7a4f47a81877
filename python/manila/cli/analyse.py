"""``python -m manila analyse FILE|-``: every option of a decision, valued by rollouts
(docs/analysis.md). The input is a table (a player's view, as ``state.observation(p)``
gives it) or a serialized engine state."""

from __future__ import annotations

import argparse

from ..analysis.analysis import (
    DEFAULT_POLICY,
    DEFAULTS,
    HARBOUR_SCREEN,
    HORIZONS,
    POLICIES,
    VALUE_SOURCES,
    analyse,
    render_analysis,
)
from ..common.inputs import InputError, parse_json, read_text, source_name
from ..common.progress import terminal_bar
from .output import add_output_flags, print_result

# Rollouts shown as progress once the analysis has taken this long (seconds).
PROGRESS_DELAY = 1.0


def add_analyse_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", metavar="FILE|-", help="a table (observation JSON) or a serialized state")
    parser.add_argument(
        "--horizon",
        choices=HORIZONS,
        default="voyage",
        help="voyage: pesos to the end of this voyage (default); game: equity, "
        "with the win probability beside it",
    )
    parser.add_argument(
        "--value",
        choices=VALUE_SOURCES,
        default=VALUE_SOURCES[0],
        help="horizon game: learned (rollouts stop at the next voyage with the learned value; "
        "default) or rollout (played to the end of the game)",
    )
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default=DEFAULT_POLICY,
        help=f"the continuation policy (default {DEFAULT_POLICY})",
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=None,
        metavar="N",
        help="rollouts per option (default: until the stop rule)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the rollouts (default 0)")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULTS.time_limit,
        metavar="S",
        help=f"stop rule: seconds (default {DEFAULTS.time_limit:g})",
    )
    parser.add_argument(
        "--target",
        type=float,
        default=None,
        help="stop rule: the best two's diff_ci95 in pesos (default 1)",
    )
    parser.add_argument(
        "--max-bids",
        type=int,
        default=0,
        metavar="N",
        help="auction: bids spread evenly, at most N (default all)",
    )
    parser.add_argument(
        "--screen",
        type=int,
        default=None,
        metavar="N",
        help=f"harbour master: combinations rolled out (default {HARBOUR_SCREEN}, 0: all)",
    )
    parser.add_argument(
        "--no-exact", action="store_true", help="roll every die: no exact answers or shortcut"
    )
    parser.add_argument("--threads", type=int, default=0, help="threads (default all)")
    add_output_flags(parser, "print the JSON of docs/analysis.md")
    parser.add_argument("--no-progress", action="store_true", help="no progress on standard error")


def run_analyse(args: argparse.Namespace) -> int:
    name = source_name(args.table)
    data = parse_json(read_text(args.table), name)
    if not isinstance(data, dict):
        raise InputError(f"{name}: a table is a JSON object")
    bar = terminal_bar(
        args.rollouts or DEFAULTS.max_rollouts,
        "rollout",
        "analyse",
        enabled=not args.no_progress,
        delay=PROGRESS_DELAY,
        keep=False,
    )

    def progress(done: int, gap: float) -> bool:
        if bar is not None:
            bar.update_to(done)
        return True

    try:
        result = analyse(
            data,
            horizon=args.horizon,
            value=args.value,
            policy=args.policy,
            rollouts=args.rollouts,
            seed=args.seed,
            time_limit=args.time_limit,
            exact=not args.no_exact,
            target=args.target,
            threads=args.threads,
            max_bids=args.max_bids,
            screen=args.screen,
            progress=progress,
        )
    finally:
        if bar is not None:
            bar.close()
    print_result(args, result, lambda: render_analysis(result))
    return 0

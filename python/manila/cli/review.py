"""``python -m manila review FILE|-``: every decision of a recorded game against the best,
and each player's luck (docs/review.md). The input: ``simulate --record`` (JSON lines, one
game a line), ``State.serialize()``, or a golden game of tests/golden/."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Optional

from ..analysis.analysis import HORIZONS, POLICIES, VALUE_SOURCES
from ..analysis.review import REVIEW_POLICY, Review, render_review, review
from ..common.inputs import InputError
from ..common.progress import ProgressBar, terminal_bar
from .output import add_output_flags, wants_json
from .replay import read_records

# The progress bar shows once a review has taken this long (seconds).
PROGRESS_DELAY = 0.5


def add_review_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "record", metavar="FILE|-", help="game records (simulate --record) or a serialized state"
    )
    parser.add_argument(
        "--horizon",
        choices=HORIZONS,
        default="game",
        help="game: equity, the learned value at the next voyage (default); voyage: pesos to "
        "the end of each voyage, which leaves later voyages out",
    )
    parser.add_argument(
        "--value",
        choices=VALUE_SOURCES,
        default=VALUE_SOURCES[0],
        help="horizon game: learned (default) or rollout (played to the end of the game)",
    )
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default=REVIEW_POLICY,
        help=f"the continuation policy (default {REVIEW_POLICY}: greedy-wealth playing the office "
        "as the solver does)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the rollouts (default 0)")
    parser.add_argument("--quick", action="store_true", help="a coarser, faster pass (fewer rollouts)")
    parser.add_argument(
        "--rollouts", type=int, default=None, metavar="N", help="rollouts per option (default: the stop rule)"
    )
    parser.add_argument(
        "--luck-rollouts", type=int, default=None, metavar="N", help="rollouts per chance event (0: no luck)"
    )
    parser.add_argument(
        "--game", type=int, default=None, metavar="K", help="only the K-th record of the file (from 0)"
    )
    parser.add_argument("--worst", type=int, default=10, metavar="N", help="decisions listed (default 10)")
    parser.add_argument("--threads", type=int, default=0, help="threads (default all)")
    add_output_flags(parser, "print the JSON (docs/review.md)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def selected_records(source: str, game: Optional[int]) -> list[tuple[str, dict[str, Any]]]:
    """The records to review, each with its place for error messages ("FILE, line 3")."""
    records = read_records(source)
    name = "standard input" if source == "-" else source
    placed = [(f"{name}, line {k + 1}" if len(records) > 1 else name, r) for k, r in enumerate(records)]
    if game is not None:
        if not 0 <= game < len(placed):
            raise ValueError(f"--game: {name} holds {len(placed)} records (0..{len(placed) - 1}), got {game}")
        placed = [placed[game]]
    return placed


def review_records(args: argparse.Namespace, records: list[tuple[str, dict[str, Any]]]) -> list[Review]:
    out = []
    for where, record in records:
        bar = terminal_bar(
            1, "item", f"review {where}", enabled=not args.no_progress, delay=PROGRESS_DELAY, keep=False
        )

        def progress(done: int, total: int, bar: Optional[ProgressBar] = bar) -> bool:
            if bar is not None:
                bar.total = total
                bar.update_to(done)
            return True

        try:
            out.append(
                review(
                    record,
                    horizon=args.horizon,
                    value=args.value,
                    policy=args.policy,
                    seed=args.seed,
                    quick=args.quick,
                    rollouts=args.rollouts,
                    luck_rollouts=args.luck_rollouts,
                    threads=args.threads,
                    progress=progress,
                )
            )
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        finally:
            if bar is not None:
                bar.close()
    return out


def run_review(args: argparse.Namespace) -> int:
    if args.worst < 0:
        raise InputError(f"--worst: must be at least 0, got {args.worst}")
    results = review_records(args, selected_records(args.record, args.game))
    if wants_json(args):
        for r in results:
            json.dump(r.to_dict(), sys.stdout, indent=None if len(results) > 1 else 2)
            sys.stdout.write("\n")
    else:
        print("\n\n".join(render_review(r, args.worst) for r in results))
    return 0

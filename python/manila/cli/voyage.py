"""The voyage commands: ``evaluate``, ``advise``, ``validate`` and ``example``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..common.inputs import InputError, read_state
from ..common.text import did_you_mean
from ..voyage.advice import advise
from ..voyage.evaluation import evaluate
from ..voyage.example import EXAMPLE
from ..voyage.position import as_position
from ..voyage.state import VoyageState, as_state
from .output import add_output_flags, print_result, wants_color
from .report import render, render_advice

STATE_HELP = (
    "a JSON voyage state file, - for standard input, or the state itself: in the "
    "one-line notation (e.g. 'r3 ginseng@8:red silk@arrived jade@12 player=red', "
    "see docs/notation.md) or as JSON"
)


def _strict(args: argparse.Namespace) -> Any:
    return False if args.no_strict else None


def _add_no_strict(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-strict",
        action="store_true",
        help="accept positions no real voyage can reach (hypothetical states)",
    )


def _add_threads(parser: argparse.ArgumentParser, default_text: str) -> None:
    parser.add_argument("--threads", type=int, default=0, metavar="N", help=f"threads for {default_text}")


def _check_player(state: VoyageState, args: argparse.Namespace) -> None:
    """--player must name someone in the state, unless --new-player says it is a newcomer."""
    if args.player is None or args.new_player or args.player in state.owners:
        return
    named = ", ".join(state.owners) or "nobody"
    raise InputError(
        f"--player: {args.player!r} is not in the state"
        f"{did_you_mean(args.player, state.owners)}, which names {named}; add "
        f"--new-player to value the spots for a newcomer who holds nothing yet"
    )


def add_evaluate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("state", metavar="FILE|TEXT", help=STATE_HELP)
    parser.add_argument("--exact", action="store_true", help='exact fractions ("n/d") instead of floats')
    parser.add_argument(
        "--player", metavar="NAME", help="value the spots for this player (someone named in the state)"
    )
    parser.add_argument(
        "--new-player",
        action="store_true",
        help="let --player name a newcomer who holds nothing on the board yet",
    )
    add_output_flags(parser, "print JSON")
    _add_threads(parser, "the spot table (default: by the amount of work)")
    _add_no_strict(parser)


def run_evaluate(args: argparse.Namespace) -> int:
    data = read_state(args.state)
    _check_player(as_state(data, _strict(args)), args)
    exact = True if args.exact else None  # None: as the JSON's own "exact" says
    result = evaluate(data, exact=exact, player=args.player, threads=args.threads, strict=_strict(args))
    print_result(args, result, lambda: render(result, color=wants_color()))
    return 0


def add_advise_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        metavar="FILE|TEXT",
        help="a JSON position file, - for standard input, or the position itself, "
        "e.g. 'r3 ginseng@9:a silk@11:b jade@10:c turn=a order=a,b,c'",
    )
    parser.add_argument("--exact", action="store_true", help='exact fractions ("n/d") instead of floats')
    add_output_flags(parser, "print JSON")
    _add_threads(parser, "the first player's options (default: every core)")
    _add_no_strict(parser)


def run_advise(args: argparse.Namespace) -> int:
    data = read_state(args.position)
    position = as_position(data, _strict(args))
    result = advise(position, exact=True if args.exact else None, threads=args.threads)
    print_result(args, result, lambda: render_advice(result, color=wants_color()))
    return 0


def add_validate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("state", metavar="FILE|TEXT", help=STATE_HELP)
    _add_no_strict(parser)


def run_validate(args: argparse.Namespace) -> int:
    as_state(read_state(args.state), _strict(args))  # its problems go the way of every error
    print("valid")
    return 0


def add_example_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--notation", action="store_true", help="in the one-line notation, not JSON")


def run_example(args: argparse.Namespace) -> int:
    if args.notation:
        print(VoyageState.from_dict(EXAMPLE))
    else:
        json.dump(EXAMPLE, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0

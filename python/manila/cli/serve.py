"""``python -m manila serve``: its options, checked before the server starts."""

from __future__ import annotations

import argparse
import sys

from ..bots.builtin import bot_factory
from ..common.limits import MAX_SECONDS
from ..server.app import DEFAULT_HOST, DEFAULT_PORT, HEAVY_LIMIT, TIME_LIMIT, serve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``python -m manila serve``."""
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}, this machine only; "
        "0.0.0.0 for phones on the same network)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=TIME_LIMIT,
        metavar="SECONDS",
        help=f"longest time one request may take (default {TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="evaluations run at once (default: one per core)",
    )
    parser.add_argument(
        "--advice-limit",
        type=int,
        default=HEAVY_LIMIT,
        metavar="N",
        help=f"advice searches run at once; more get 503 (default {HEAVY_LIMIT})",
    )
    parser.add_argument(
        "--allow-bot",
        action="append",
        default=[],
        metavar="BOT",
        help="let /v1/play play this bot too, named exactly so: a program as 'cmd:PROGRAM ARGS' "
        "or a Python bot as module:Class (docs/bots.md); repeat for more (default: only the "
        "built-in bots)",
    )
    parser.add_argument("--quiet", action="store_true", help="no line per request on stderr")


def run(args: argparse.Namespace) -> int:
    """Runs ``serve`` with the parsed options; 0 after a clean stop, 2 if it cannot listen."""
    if not 0 <= args.port <= 65535:
        print(f"manila: error: --port must be 0..65535, got {args.port}", file=sys.stderr)
        return 2
    if not 0 < args.time_limit <= MAX_SECONDS:
        print(
            f"manila: error: --time-limit must be more than 0 and at most {MAX_SECONDS:g} seconds, "
            f"got {args.time_limit:g}",
            file=sys.stderr,
        )
        return 2
    if args.workers is not None and args.workers < 1:
        print("manila: error: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.advice_limit < 1:
        print("manila: error: --advice-limit must be at least 1", file=sys.stderr)
        return 2
    for spec in args.allow_bot:
        try:
            bot_factory(spec)
        except ValueError as exc:
            print(f"manila: error: --allow-bot: {exc}", file=sys.stderr)
            return 2
    try:
        serve(
            args.host,
            args.port,
            time_limit=args.time_limit,
            workers=args.workers,
            heavy_limit=args.advice_limit,
            quiet=args.quiet,
            allow_bots=args.allow_bot,
        )
    except OSError as exc:
        print(
            f"manila: error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr
        )
        return 2
    except RuntimeError as exc:
        print(f"manila: error: {exc}", file=sys.stderr)
        return 2
    return 0

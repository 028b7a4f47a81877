"""The command line: ``python -m manila evaluate FILE|-``, ``python -m manila example``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Optional, Sequence

from .errors import Problem, StateError
from .evaluation import evaluate
from .example import EXAMPLE
from .report import render


class _InputError(Exception):
    """Input that could not be read; reported as one line, exit status 2."""


def _read_state(source: str) -> Any:
    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()
    except OSError as exc:
        raise _InputError(f"{source}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise _InputError(f"{source}: not UTF-8 text ({exc.reason})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        name = "standard input" if source == "-" else source
        raise _InputError(f"{name}: not valid JSON: {exc.msg} at line {exc.lineno} "
                          f"column {exc.colno}") from None


def _cmd_evaluate(args: argparse.Namespace) -> int:
    data = _read_state(args.state)
    result = evaluate(data, exact=args.exact, player=args.player, threads=args.threads)
    if args.json or not sys.stdout.isatty():
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        color = "NO_COLOR" not in os.environ
        print(render(result, color=color))
    return 0


def _cmd_example(args: argparse.Namespace) -> int:
    json.dump(EXAMPLE, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m manila",
        description="Exact expected values for a Manila voyage.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ev = sub.add_parser("evaluate", help="value every spot, boat and player of a voyage state",
                        description="Evaluate a voyage state (the JSON of MANILA.md part 2).")
    ev.add_argument("state", metavar="FILE", help="a JSON voyage state file, or - for standard input")
    ev.add_argument("--exact", action="store_true", help='exact fractions ("n/d") instead of floats')
    ev.add_argument("--player", metavar="NAME", help="value the spots for this player")
    ev.add_argument("--json", action="store_true",
                    help="print JSON even on a terminal (the default when piped)")
    ev.add_argument("--threads", type=int, default=0, metavar="N",
                    help="threads for the spot table (default: by the amount of work)")
    ev.set_defaults(run=_cmd_evaluate)

    ex = sub.add_parser("example", help="print an example voyage state to play with")
    ex.set_defaults(run=_cmd_example)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except StateError as exc:
        for problem in exc.problems:
            print(f"manila: error: {problem}", file=sys.stderr)
        return 2
    except _InputError as exc:
        print(f"manila: error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:  # the engine's own argument checks
        print(f"manila: error: {Problem('', str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing left to say.
        sys.stderr.close()
        return 0

"""The command line, ``python -m manila COMMAND``: evaluate, validate and example (here),
serve (server), sweep and starts (sweep_cli), plot, simulate and replay.

Every refusal is one ``manila: error: ...`` line per problem and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Optional, Sequence

from . import server
from .errors import Problem, StateError
from .evaluation import evaluate
from .example import EXAMPLE
from .plot import add_plot_arguments, run_plot
from .report import render
from .ladder import add_ladder_arguments, run_ladder
from .simulate import add_replay_arguments, add_simulate_arguments, run_replay, run_simulate
from .state import VoyageState, validate
from .sweep_cli import add_starts_arguments, add_sweep_arguments, run_starts, run_sweep


class _InputError(Exception):
    """Input that could not be read; reported as one line, exit status 2."""


def _looks_like_notation(text: str) -> bool:
    return text.lstrip()[:1] == "r"


def _read_state(source: str) -> Any:
    """The JSON value or notation string in a file, on standard input, or given inline."""
    if source != "-" and not os.path.exists(source) and _looks_like_notation(source):
        return source
    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()
    except OSError as exc:
        raise _InputError(f"{source}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise _InputError(f"{source}: not UTF-8 text ({exc.reason})") from None
    if _looks_like_notation(text):
        return text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        name = "standard input" if source == "-" else source
        raise _InputError(f"{name}: neither notation (r1 ...) nor valid JSON: {exc.msg} at "
                          f"line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise _InputError(f"{source}: JSON nested too deeply") from None


def _strict(args: argparse.Namespace) -> Any:
    return False if args.no_strict else None


def _cmd_evaluate(args: argparse.Namespace) -> int:
    data = _read_state(args.state)
    exact = True if args.exact else None  # None: as the JSON's own "exact" says
    result = evaluate(data, exact=exact, player=args.player, threads=args.threads,
                      strict=_strict(args))
    if args.json or not sys.stdout.isatty():
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        color = "NO_COLOR" not in os.environ
        print(render(result, color=color))
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    problems = validate(_read_state(args.state), strict=_strict(args))
    for problem in problems:
        print(problem)
    if not problems:
        print("valid")
    return 2 if problems else 0


def _cmd_example(args: argparse.Namespace) -> int:
    if args.notation:
        print(VoyageState.from_dict(EXAMPLE))
    else:
        json.dump(EXAMPLE, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0


_STATE_HELP = ("a JSON voyage state file, a state in the one-line notation (e.g. "
               "'r3 ginseng@8:red silk@arrived jade@12 player=red'), or - for standard input")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m manila",
        description="Exact expected values for a Manila voyage.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ev = sub.add_parser("evaluate", help="value every spot, boat and player of a voyage state",
                        description="Evaluate a voyage state (the JSON of MANILA.md part 2).")
    ev.add_argument("state", metavar="FILE|TEXT", help=_STATE_HELP)
    ev.add_argument("--exact", action="store_true", help='exact fractions ("n/d") instead of floats')
    ev.add_argument("--player", metavar="NAME", help="value the spots for this player")
    ev.add_argument("--json", action="store_true",
                    help="print JSON even on a terminal (the default when piped)")
    ev.add_argument("--threads", type=int, default=0, metavar="N",
                    help="threads for the spot table (default: by the amount of work)")
    ev.add_argument("--no-strict", action="store_true",
                    help="accept positions no real voyage can reach (hypothetical states)")
    ev.set_defaults(run=_cmd_evaluate)

    va = sub.add_parser("validate", help="list what is wrong with a voyage state, or say valid",
                        description="Check a voyage state; exit status 2 when it is invalid.")
    va.add_argument("state", metavar="FILE|TEXT", help=_STATE_HELP)
    va.add_argument("--no-strict", action="store_true",
                    help="accept positions no real voyage can reach (hypothetical states)")
    va.set_defaults(run=_cmd_validate)

    sv = sub.add_parser("serve", help="serve the JSON API and the players' page over HTTP",
                        description="Serve /v1/evaluate, /v1/validate, /v1/example, /healthz, "
                                    "/openapi.json and the calculator page at / until Ctrl-C.")
    server.add_arguments(sv)
    sv.set_defaults(run=server.run)

    sw = sub.add_parser("sweep", help="evaluate every state of a family into .npz, CSV or Parquet",
                        description="The exact spot table of every state of a family of voyage "
                                    "states (see manila.sweep), written to a file.")
    add_sweep_arguments(sw)
    sw.set_defaults(run=run_sweep)

    st = sub.add_parser("starts", help="rank the harbour master's starts for three goods",
                        description="The 25 starts of three goods, best first by a criterion.")
    add_starts_arguments(st)
    st.set_defaults(run=run_starts)

    pl = sub.add_parser("plot", help="a heat map of a spot's value, or a bar chart of the starts (PNG)",
                        description="Charts of sweeps, written to PNG (needs matplotlib).")
    add_plot_arguments(pl)
    pl.set_defaults(run=run_plot)

    si = sub.add_parser("simulate", help="play many games between bots: win rates, wealth, length",
                        description="Play games between bots (built-in or module:Class).")
    add_simulate_arguments(si)
    si.set_defaults(run=run_simulate)

    la = sub.add_parser("ladder", help="a rated ladder: bots play seeded games, seats rotated evenly",
                        description="Play seeded games between bots with the seats rotated evenly; "
                                    "per bot: games, wins, win rate (95%% interval), mean wealth and "
                                    "an openskill rating.")
    add_ladder_arguments(la)
    la.set_defaults(run=run_ladder)

    rp = sub.add_parser("replay", help="show a recorded game step by step",
                        description="Replay a game from simulate --record (JSON lines) or a "
                                    "serialized state.")
    add_replay_arguments(rp)
    rp.set_defaults(run=run_replay)

    ex = sub.add_parser("example", help="print an example voyage state to play with")
    ex.add_argument("--notation", action="store_true", help="in the one-line notation, not JSON")
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

"""The commands that play games: ``simulate`` and ``ladder``, and the rule-option flags they share."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import IO, Any, Callable, Optional

from ..arena.ladder import Sprt, ladder
from ..arena.simulate import SimulationResult, simulate
from ..bots.builtin import bot_names
from ..common.progress import ProgressBar, terminal_bar
from ..voyage.board import Rules
from .rules import add_rule_arguments, rules_from_args, rules_text


def run_seed(text: str) -> int:
    """A run's seed: an integer, or 'random', drawn from the system (64 bits), which the
    result prints so that the run can be repeated. Programs in the run cannot guess it:
    a small seed they could find by trying every one (docs/bots.md)."""
    if text == "random":
        return secrets.randbits(64)
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer or 'random': {text!r}") from None


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m manila simulate``."""
    parser.add_argument("--players", type=int, default=4, metavar="N", help="3, 4 or 5 (default 4)")
    parser.add_argument("--games", type=int, default=1000, metavar="N", help="games to play (default 1000)")
    parser.add_argument(
        "--bots",
        default="random",
        metavar="LIST",
        help=f"a bot per seat, comma-separated ({', '.join(bot_names())}, a Python bot as "
        "module:Class, or a program as 'cmd:PROGRAM ARGS', docs/bots.md), or one for all (default random)",
    )
    parser.add_argument("--seed", type=run_seed, default=0, help="seed of the run, or 'random' (default 0)")
    parser.add_argument(
        "--threads", type=int, default=0, metavar="N", help="threads to play games on (default 0: all cores)"
    )
    add_rule_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument(
        "--record", metavar="FILE", help="write every game as a JSON line to FILE (- for standard output)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the invariants (money, shares, accomplices) after every action",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def format_result(result: SimulationResult) -> str:
    width = max(8, *map(len, result.bots))  # a program's command line can be long
    lines = [
        f"{result.games} games, {result.players} players, seed {result.seed} "
        f"({rules_text(Rules(**result.rules))})",
        f"{'seat':<5} {'bot':<{width}} {'wins':>8} {'win rate':>9} {'mean wealth':>12}",
    ]
    for p in range(result.players):
        lines.append(
            f"{p:<5} {result.bots[p]:<{width}} {result.wins[p]:>8.1f} "
            f"{100 * result.win_rates[p]:>8.1f}% {result.mean_wealth[p]:>12.1f}"
        )
    lines.append(f"shared wins: {result.ties}")
    lines.append(f"mean game length: {result.mean_voyages:.2f} voyages, {result.mean_actions:.1f} actions")
    lines.append(f"time: {result.seconds:.2f} s ({result.games_per_second:,.0f} games/s)")
    return "\n".join(lines)


def _line_writer(out: IO[str]) -> Callable[[dict[str, Any]], None]:
    def write(record: dict[str, Any]) -> None:
        out.write(json.dumps(record, separators=(",", ":")) + "\n")

    return write


def _bar(games: int, label: str, enabled: bool) -> Optional[ProgressBar]:
    return terminal_bar(games, "game", label, enabled=enabled)


def run_simulate(args: argparse.Namespace) -> int:
    """``python -m manila simulate``: statistics (table or --json), optional JSON lines."""
    rules = rules_from_args(args)
    out: Optional[IO[str]] = None
    close = False
    if args.record == "-":
        out = sys.stdout
    elif args.record:
        out = open(args.record, "w", encoding="utf-8")  # noqa: SIM115 - closed below, after the run
        close = True
    write = None if out is None else _line_writer(out)
    bar = _bar(args.games, "simulate", enabled=not args.no_progress)
    try:
        result = simulate(
            players=args.players,
            games=args.games,
            bots=args.bots,
            seed=args.seed,
            rules=rules,
            threads=args.threads,
            record=write,
            progress=None if bar is None else bar.advance,
            check=args.check,
        )
    finally:
        if bar is not None:
            bar.close()
        if close and out is not None:
            out.close()
    if args.record == "-":
        return 0  # standard output carries the games; the summary would break the JSON lines
    if args.json:
        json.dump(result.to_dict(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(format_result(result))
    return 0


def add_ladder_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m manila ladder``."""
    parser.add_argument("--players", type=int, default=4, metavar="N", help="3, 4 or 5 (default 4)")
    parser.add_argument(
        "--bots",
        default="greedy,random,random,random",
        metavar="LIST",
        help=f"one bot per seat, comma-separated: {', '.join(bot_names())}, a Python bot as "
        "module:Class, or a program as 'cmd:PROGRAM ARGS' (docs/bots.md) (default "
        "greedy,random,random,random)",
    )
    parser.add_argument(
        "--games", type=int, default=200, metavar="N", help="games, a multiple of --players (default 200)"
    )
    parser.add_argument(
        "--seed", type=run_seed, default=0, help="seed of the ladder, or 'random' (default 0)"
    )
    parser.add_argument(
        "--executor",
        choices=("threads", "processes"),
        default=None,
        help="spread the games over a pool (default: this process, C++ threads)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        metavar="N",
        help="C++ threads without --executor (default 0: all cores)",
    )
    parser.add_argument(
        "--stop-early",
        action="store_true",
        help="stop once a sequential test (SPRT, docs/ladder.md) tells the first two bots of "
        "--bots apart; --games is then the most played",
    )
    parser.add_argument(
        "--delta",
        type=float,
        default=Sprt.delta,
        metavar="D",
        help=f"with --stop-early: the indifference margin around an even match (default {Sprt.delta})",
    )
    add_rule_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run_ladder(args: argparse.Namespace) -> int:
    """``python -m manila ladder``: a table, or JSON with --json; a progress bar on a terminal."""
    rules = rules_from_args(args)
    if args.delta != Sprt.delta and not args.stop_early:  # nan != nan: a nan is refused too
        print("manila: error: --delta: only with --stop-early, which it is the margin of", file=sys.stderr)
        return 2
    bar = _bar(args.games, "ladder", enabled=True)
    try:
        result = ladder(
            players=args.players,
            bots=args.bots,
            games=args.games,
            seed=args.seed,
            rules=rules,
            executor=args.executor,
            threads=args.threads,
            progress=None if bar is None else bar.advance,
            stop_early=Sprt(delta=args.delta) if args.stop_early else False,
        )
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        json.dump(result.to_dict(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(result.table())
    return 0

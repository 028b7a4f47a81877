"""The command line of sweeps: ``python -m manila sweep`` and ``python -m manila starts``."""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import re
import sys
import time
from contextlib import AbstractContextManager
from fractions import Fraction
from typing import Any, Optional, Union

from ..common.vocab import OBJECTIVES
from ..sweeps.pattern import Crews, Pattern
from ..sweeps.starts import CRITERIA, default_criterion, describe_criterion, rank_starts
from ..sweeps.sweep import SWEEP_EXTRA, sweep
from ..voyage.board import Rules
from ..voyage.notation import read_option
from .dask import dask_executor
from .rules import add_rule_arguments, rules_from_args

# The form `starts --shares/--prices` took before the wealth objective: GOOD=N,... for the
# player's own shares. Recognised only to say what the syntax is now.
_OLD_FORM = re.compile(r"[a-z]+=[0-9]+(,[a-z]+=[0-9]+)*")
_NEW_FORM = {
    "shares": "PLAYER:GOODN,... e.g. --shares red:jade2,silk1 (repeat it per player)",
    "prices": "GOODPRICE,... e.g. --prices jade10,silk5",
}


def _pairs(text: str, what: str) -> dict[str, str]:
    """``a=1,b=2`` as a dict; ValueError naming `what` on a malformed item."""
    out = {}
    for item in filter(None, text.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key or not value:
            raise ValueError(f"{what}: expected NAME=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _position(text: str) -> Union[int, str]:  # checked by position_code
    return "arrived" if text == "arrived" else int(text) if text.lstrip("-").isdigit() else text


def add_pattern_arguments(parser: argparse.ArgumentParser) -> None:
    """Options that fix what every state of a sweep shares (crews, spots, player, rules)."""
    g = parser.add_argument_group("what every state shares")
    g.add_argument(
        "--crew",
        action="append",
        default=[],
        metavar="GOOD=OWNER[,OWNER...]",
        help="the crew of a boat, front seat first (one good triple only; repeatable)",
    )
    g.add_argument(
        "--crew-sizes",
        metavar="A,B,C",
        help="crew sizes by boat in good order, each seat a different opponent",
    )
    g.add_argument(
        "--pirates", type=int, choices=(0, 1, 2), help="opponents pirate1 (and pirate2) on the pirate ship"
    )
    g.add_argument(
        "--occupy",
        action="append",
        default=[],
        metavar="SPOT=OWNER",
        help="an occupied spot, e.g. pilot_large=blue (repeatable)",
    )
    g.add_argument(
        "--player", metavar="NAME", help="value the spots for this player (default: a fresh player)"
    )
    g.add_argument(
        "--players", type=int, choices=(3, 4, 5), help="the number of players (3: four accomplices each)"
    )
    add_rule_arguments(g)
    w = parser.add_argument_group("what values wealth (the voyage state's keys, in its notation)")
    w.add_argument(
        "--objective",
        choices=OBJECTIVES,
        help="what the players maximise: voyage income (default) or wealth, which adds "
        "the rise in value of their shares",
    )
    w.add_argument(
        "--shares",
        action="append",
        default=[],
        metavar="PLAYER:GOODN[,GOODN...]",
        help="the shares a player holds, e.g. red:jade2,silk1 (repeatable, one per player)",
    )
    w.add_argument(
        "--prices",
        metavar="GOODPRICE[,...]",
        help="the goods' prices (0, 5, 10 or 20; default 0), e.g. jade10,silk5",
    )
    w.add_argument(
        "--budget",
        action="append",
        default=[],
        metavar="PLAYER:N",
        help="the most a player can pay now, e.g. red:7; limits the spots offered to --player (repeatable)",
    )


def pattern_from_args(args: argparse.Namespace) -> Pattern:
    """The manila.Pattern of the options of add_pattern_arguments."""
    if args.crew and args.crew_sizes:
        raise ValueError("--crew, --crew-sizes: give one or the other")
    crews: Crews = None
    if args.crew:
        crews = {}
        for item in args.crew:
            good, eq, owners = item.partition("=")
            if not eq:
                raise ValueError(f"--crew: expected GOOD=OWNER[,OWNER...], got {item!r}")
            crews[good.strip()] = [o for o in owners.split(",") if o]
    elif args.crew_sizes:
        try:
            crews = [int(x) for x in args.crew_sizes.split(",")]
        except ValueError:
            raise ValueError(f"--crew-sizes: expected three numbers A,B,C, got {args.crew_sizes!r}") from None
    spots = {}
    for item in args.occupy:
        spots.update(_pairs(item, "--occupy"))
    default = Rules().to_dict()
    rules = {k: v for k, v in rules_from_args(args).to_dict().items() if v != default[k]}
    return Pattern(
        crews=crews,
        pirates=args.pirates,
        spots=spots,
        player=args.player,
        players=args.players,
        rules=rules,
        **_wealth_from_args(args),
    )


def _wealth_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The wealth keys of a state from --objective, --shares, --prices and --budget, read in
    the notation's syntax; their values are checked with the state's (manila.sweep does)."""
    listed = {"shares": args.shares, "prices": [args.prices] if args.prices else [], "budget": args.budget}
    for key, values in listed.items():
        for value in values:
            if key in _NEW_FORM and _OLD_FORM.fullmatch(value):
                raise ValueError(
                    f"--{key}: {value!r} is the old GOOD=N form; the syntax is now "
                    f"{_NEW_FORM[key]}, with --objective wealth to count them"
                )
    out = {key: read_option(key, values, f"--{key}") for key, values in listed.items() if values}
    if args.objective is not None:
        out["objective"] = args.objective
    return out


def add_sweep_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m manila sweep``."""
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="where to write: .npz (every array), .csv or .parquet",
    )
    f = parser.add_argument_group("which states")
    f.add_argument(
        "--next-roll",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help="the roll that comes next (default 1: the starts themselves)",
    )
    f.add_argument(
        "--goods",
        action="append",
        metavar="G,G,G",
        help="three sailing goods (repeatable; default: all four triples)",
    )
    f.add_argument(
        "--start",
        action="append",
        metavar="G=S,G=S,G=S",
        help="only what this start reaches (repeatable; default: every legal start)",
    )
    f.add_argument(
        "--all-positions",
        action="store_true",
        help="every position triple, reachable or not (15^3 per good triple)",
    )
    f.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="GOOD=POSITION",
        help="hold a boat's position fixed (one good triple only; repeatable)",
    )
    add_pattern_arguments(parser)
    w = parser.add_argument_group("how")
    w.add_argument(
        "--exact",
        action="store_true",
        help="write integer numerators and their denominators instead of floats",
    )
    w.add_argument(
        "--executor",
        choices=("none", "thread", "process"),
        default="none",
        help="spread chunks over a thread or process pool (default: C++ threads here)",
    )
    w.add_argument("--workers", type=int, metavar="N", help="pool size (default: every core)")
    w.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run the chunks on the Dask scheduler at ADDRESS (needs distributed)",
    )
    w.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="C++ threads per chunk (default: every core here, 1 in a pool)",
    )
    w.add_argument("--chunk-size", type=int, metavar="ROWS", help="rows per chunk")
    w.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on standard error (default: when it is a terminal)",
    )


def _family_from_args(args: argparse.Namespace) -> dict[str, Any]:
    goods = [g.split(",") for g in args.goods] if args.goods else None
    if goods is not None and len(goods) == 1:
        goods = goods[0]
    start = None
    if args.start:
        start = []
        for text in args.start:
            items = _pairs(text, "--start")
            try:
                start.append({g: int(s) for g, s in items.items()})
            except ValueError:
                raise ValueError(f"--start: spaces are numbers 0..5, got {text!r}") from None
    fixed = None
    if args.fix:
        fixed = {g: _position(p) for item in args.fix for g, p in _pairs(item, "--fix").items()}
    return {
        "next_roll": args.next_roll,
        "goods": goods,
        "start": start,
        "reachable": not args.all_positions,
        "fixed": fixed,
    }


def run_sweep(args: argparse.Namespace) -> int:
    """``python -m manila sweep``: evaluate a family and write it to a file."""
    suffix = os.path.splitext(args.output)[1].lower()
    if suffix not in (".npz", ".csv", ".parquet"):
        raise ValueError(f"--output: {args.output}: use a .npz, .csv or .parquet file name")
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ValueError(f"--output: writing Parquet needs pyarrow: {SWEEP_EXTRA}") from None
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    family, pattern = _family_from_args(args), pattern_from_args(args)
    started = time.perf_counter()
    with _executor(args) as executor:
        result = sweep(
            **family,
            pattern=pattern,
            executor=executor,
            chunk_size=args.chunk_size,
            threads=args.threads,
            progress=progress,
        )
    seconds = time.perf_counter() - started
    result.save(args.output, exact=args.exact)
    print(
        f"manila: {len(result)} states before roll {result.next_roll} in {seconds:.2f} s -> {args.output}",
        file=sys.stderr,
    )
    return 0


class _NoExecutor:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def _executor(args: argparse.Namespace) -> AbstractContextManager[Optional[cf.Executor]]:
    if args.dask:
        if args.executor != "none":
            raise ValueError("--dask, --executor: give one or the other")
        return dask_executor(args.dask)
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers: must be at least 1, got {args.workers}")
    if args.executor == "thread":
        return cf.ThreadPoolExecutor(args.workers or os.cpu_count())
    if args.executor == "process":
        return cf.ProcessPoolExecutor(args.workers or os.cpu_count())
    if args.workers is not None:
        raise ValueError("--workers: only with --executor thread or process")
    return _NoExecutor()


def _at_least_one(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number, at least 1, got {text!r}")
    return int(text)


def add_starts_arguments(parser: argparse.ArgumentParser, table: bool = True) -> None:
    """Options of ``python -m manila starts`` (``table``: also those of its printed output)."""
    parser.add_argument("--goods", required=True, metavar="G,G,G", help="the three sailing goods")
    parser.add_argument(
        "--by",
        metavar="CRITERION",
        help="what to rank by: "
        + "; ".join(f"{k}: {v}" for k, v in CRITERIA.items())
        + " (default: payoff with --player, else cargo)",
    )
    parser.add_argument("--top", type=_at_least_one, metavar="N", help="show only the N best starts")
    if table:
        parser.add_argument("--exact", action="store_true", help='exact fractions ("n/d") in JSON')
        parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_pattern_arguments(parser)


def starts_from_args(args: argparse.Namespace) -> tuple[str, list[dict[str, Any]]]:
    """(criterion, ranking) for the options of add_starts_arguments."""
    pattern = pattern_from_args(args)
    ranking = rank_starts(args.goods.split(","), args.by, pattern=pattern)
    by = args.by or default_criterion(pattern.player)
    return by, ranking[: args.top] if args.top else ranking


def run_starts(args: argparse.Namespace) -> int:
    """``python -m manila starts``: the harbour master's starts, best first."""
    import json

    by, ranking = starts_from_args(args)
    if args.json:

        def num(x: Fraction) -> Any:
            return f"{x.numerator}/{x.denominator}" if args.exact else float(x)

        out = {
            "criterion": by,
            "meaning": describe_criterion(by),
            "starts": [
                {
                    "start": e["start"],
                    "score": num(e["score"]),
                    "port": {g: num(p) for g, p in e["port"].items()},
                    "best_spot": None
                    if e["best_spot"] is None
                    else {"spot": e["best_spot"][0], "expected_net": num(e["best_spot"][1])},
                }
                for e in ranking
            ],
        }
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    goods = list(ranking[0]["start"]) if ranking else []
    print(f"Starts ranked by {by}: {describe_criterion(by)}.")
    head = ["rank", *goods, "score", *(f"P({g})" for g in goods), "best spot"]
    rows = []
    for i, e in enumerate(ranking, 1):
        best = "" if e["best_spot"] is None else f"{e['best_spot'][0]} {float(e['best_spot'][1]):+.2f}"
        rows.append(
            [
                str(i),
                *(str(e["start"][g]) for g in goods),
                f"{float(e['score']):.4f}",
                *(f"{float(e['port'][g]):.3f}" for g in goods),
                best,
            ]
        )
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(c.rjust(w) if k < len(r) - 1 else c for k, (c, w) in enumerate(zip(r, widths))))
    return 0

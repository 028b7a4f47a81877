"""``python -m manila train-policy``: the training baseline (docs/training.md). Trains a policy
on VectorEnv against the built-in bots, prints its learning curve, writes the policy file
that ``policy:PATH`` plays, and the curve as CSV or JSON."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Optional

from ..common.inputs import InputError
from ..rl.baseline import CURVE_COLUMNS, EVAL_OPPONENTS, TrainConfig, TrainResult, train

_DEFAULTS = TrainConfig()


def _widths(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"layer widths, comma-separated (e.g. 64,64), got {text!r}"
        ) from None
    return widths


def add_train_policy_arguments(parser: argparse.ArgumentParser) -> None:
    d = _DEFAULTS
    parser.add_argument("--out", required=True, metavar="PATH", help="the policy file to write (.npz)")
    parser.add_argument("--seed", type=int, default=d.seed, help=f"seed of everything (default {d.seed})")
    parser.add_argument(
        "--updates",
        type=int,
        default=None,
        metavar="N",
        help=f"training updates; 0 writes the untrained policy (default: {d.updates}, or as many as "
        "--minutes allows)",
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        metavar="M",
        help="stop after the update that passes M minutes (the file records the updates done)",
    )
    parser.add_argument(
        "--curve",
        metavar="PATH",
        help="also write the learning curve here: CSV, or JSON when PATH ends in .json",
    )
    parser.add_argument(
        "--opponents",
        default=",".join(d.opponents),
        metavar="LIST",
        help="the built-in bots to train against, comma-separated; a bot named twice plays twice "
        f"the games (default {','.join(d.opponents)})",
    )
    parser.add_argument(
        "--hidden",
        type=_widths,
        default=d.hidden,
        metavar="LIST",
        help=f"hidden layer widths (default {','.join(map(str, d.hidden))})",
    )
    parser.add_argument(
        "--envs",
        type=int,
        default=d.envs,
        metavar="N",
        help=f"games at once per opponent and seat (default {d.envs})",
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=d.steps,
        metavar="N",
        help=f"decisions per game per update (default {d.steps})",
    )
    parser.add_argument(
        "--eval-every",
        type=int,
        default=d.eval_every,
        metavar="N",
        help=f"updates between points of the curve (default {d.eval_every})",
    )
    parser.add_argument(
        "--eval-games",
        type=int,
        default=d.eval_games,
        metavar="N",
        help=f"games per opponent at each point, a multiple of the players (default {d.eval_games})",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=d.threads,
        metavar="N",
        help=f"C++ threads stepping the games (default {d.threads})",
    )
    parser.add_argument("--quiet", action="store_true", help="no learning curve on standard error")


def _config(args: argparse.Namespace) -> TrainConfig:
    return TrainConfig(
        seed=args.seed,
        # Without --updates, --minutes alone says how long.
        updates=args.updates if args.updates is not None else None if args.minutes else _DEFAULTS.updates,
        opponents=tuple(o.strip() for o in args.opponents.split(",") if o.strip()),
        envs=args.envs,
        steps=args.steps,
        hidden=args.hidden,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        threads=args.threads,
    )


def write_curve(result: TrainResult, path: Path) -> None:
    """The curve with the seconds each point was reached (not in the policy file: a file
    that recorded time would differ from run to run)."""
    columns = [*CURVE_COLUMNS, "seconds"]
    rows = [{k: row[k] for k in columns} for row in result.curve]
    with path.open("w", newline="", encoding="utf-8") as f:
        if path.suffix == ".json":
            json.dump(rows, f, indent=1)
            f.write("\n")
        else:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)


def _check_folder(path: Optional[str], option: str) -> None:
    if path is not None and not Path(path).resolve().parent.is_dir():
        raise InputError(f"{option}: no such folder: {Path(path).parent}")


def run_train_policy(args: argparse.Namespace) -> int:
    _check_folder(args.out, "--out")
    _check_folder(args.curve, "--curve")
    if args.minutes is not None and not args.minutes > 0:
        raise InputError(f"--minutes: must be above 0, got {args.minutes}")
    config = _config(args)
    try:
        config.check()
    except ValueError as exc:
        name, _, rule = str(exc).partition(": ")  # "field: rule", the field named as its option
        raise InputError(f"--{name.replace('_', '-')}: {rule}") from None
    say = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    result = train(config, minutes=args.minutes, say=say)
    result.policy.save(args.out)
    if args.curve is not None:
        write_curve(result, Path(args.curve))
    last = result.curve[-1]
    scores = ", ".join(
        f"vs three {o} {100 * last[f'{o}_rate']:.1f}% ({100 * last[f'{o}_lo']:.1f}–{100 * last[f'{o}_hi']:.1f}%)"
        for o in EVAL_OPPONENTS
    )
    updates = int(last["update"])
    print(
        f"wrote {args.out}: {updates} updates, {int(last['games'])} games, {result.seconds:.0f} s; {scores} "
        f"over {int(last[f'{EVAL_OPPONENTS[0]}_games'])} games each"
    )
    if result.stopped_by == "minutes":
        print(f"stopped by --minutes: --updates {updates} with the same options writes the same file")
    return 0

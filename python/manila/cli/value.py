"""``python -m manila value FILE|-``: every player's expected final wealth, equity and chance
of winning (docs/value.md); ``python -m manila train-value``: the seeded training that
writes the model."""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from pathlib import Path

from ..analysis.analysis import DEFAULT_POLICY, POLICIES
from ..analysis.value import DEFAULT_ROLLOUTS, value
from ..common.inputs import InputError, parse_json, read_text, source_name
from ..common.progress import terminal_bar
from .dask import dask_executor
from .output import add_output_flags, print_result


def add_value_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", metavar="FILE|-", help="a table (observation JSON) or a serialized state")
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default=DEFAULT_POLICY,
        help=f"the decisions up to the next voyage boundary (default {DEFAULT_POLICY})",
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=DEFAULT_ROLLOUTS,
        metavar="N",
        help=f"play-outs where placements remain (default {DEFAULT_ROLLOUTS})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the play-outs (default 0)")
    parser.add_argument("--threads", type=int, default=0, help="threads (default all)")
    add_output_flags(parser, "print the JSON of docs/value.md")


def run_value(args: argparse.Namespace) -> int:
    name = source_name(args.table)
    data = parse_json(read_text(args.table), name)
    if not isinstance(data, dict):
        raise InputError(f"{name}: a table is a JSON object")
    result = value(data, policy=args.policy, rollouts=args.rollouts, seed=args.seed, threads=args.threads)
    print_result(args, result, result.render)
    return 0


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    from ..analysis import value_train as vt

    parser.add_argument("--seed", type=int, default=vt.SEED, help=f"seed of everything (default {vt.SEED})")
    parser.add_argument(
        "--games",
        type=int,
        default=vt.GAMES,
        help=f"training games (default {vt.GAMES}, the shipped model's: about 40 minutes on 2 cores)",
    )
    parser.add_argument(
        "--held-out",
        type=int,
        default=vt.HELD_OUT_GAMES,
        help=f"held-out games (default {vt.HELD_OUT_GAMES})",
    )
    parser.add_argument(
        "--epochs", type=int, default=vt.EPOCHS, help=f"passes over the data (default {vt.EPOCHS})"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="C++ threads for a chunk of games (default: every core here, 1 with --dask)",
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play the games on the Dask scheduler at ADDRESS, a chunk of games a task (needs "
        "distributed; the same seed gives the same games and the same model)",
    )
    parser.add_argument(
        "--out",
        default="cpp/src/value_model.inc",
        metavar="PATH",
        help="the C++ include the engine is built with (default cpp/src/value_model.inc)",
    )
    parser.add_argument(
        "--cache",
        default=None,
        metavar="DIR",
        help="keep the games' samples in DIR and reuse them (the same seed gives the same games)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress on standard error")


def run_train(args: argparse.Namespace) -> int:
    from ..analysis.value_train import check_training, model_source, train

    out = Path(args.out)
    if not out.parent.is_dir():
        raise InputError(f"--out: no such folder: {out.parent}")
    threads = args.threads if args.threads is not None else (1 if args.dask else 0)
    check_training(args.seed, args.games, args.held_out, args.epochs, threads)
    pool = dask_executor(args.dask) if args.dask else nullcontext()
    total = args.games + args.held_out
    bar = terminal_bar(total, "game", "train-value", enabled=not args.no_progress, keep=False)

    def progress(n: int, of: int) -> None:
        if bar is not None:
            bar.update_to(n)

    with pool as executor:
        trained = train(
            seed=args.seed,
            games=args.games,
            held_out=args.held_out,
            threads=threads,
            epochs=args.epochs,
            say=lambda line: print(line, file=sys.stderr) if not args.no_progress else None,
            progress=progress,
            cache=None if args.cache is None else Path(args.cache),
            executor=executor,
        )
    if bar is not None:
        bar.close()
    out.write_text(model_source(trained.model))
    acc = trained.accuracy
    print(
        f"wrote {out}: Brier {acc.brier:.4f} (1/n {acc.brier_uniform:.4f}, wealth {acc.brier_wealth:.4f}; "
        f"skill {100 * acc.skill_uniform:.1f}% and {100 * acc.skill_wealth:.1f}%), "
        f"wealth MAE {acc.wealth_mae:.1f} on {acc.positions} held-out positions"
    )
    return 0

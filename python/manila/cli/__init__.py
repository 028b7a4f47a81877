"""The command line, ``python -m manila COMMAND``: evaluate, advise, validate and example (here),
serve (server), web (the static site), sweep and starts (sweep_cli), plot, simulate and replay.

Every refusal is one ``manila: error: ...`` line per problem and exit status 2. What the
states and numbers mean: docs/numbers.md; the notation: docs/notation.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Sequence
from typing import Any, NoReturn, Optional, cast

from ..common.cancel import CancelToken, cancellable
from ..common.errors import StateError
from ..common.inputs import InputError, check_output, read_state
from ..common.text import did_you_mean
from ..voyage.advice import advise
from ..voyage.evaluation import evaluate
from ..voyage.example import EXAMPLE
from ..voyage.position import as_position
from ..voyage.state import VoyageState, as_state
from ..voyage.suggest import with_suggestions
from . import serve, web
from .analyse import add_analyse_arguments, run_analyse
from .games import add_ladder_arguments, add_simulate_arguments, run_ladder, run_simulate
from .output import add_output_flags, wants_color, wants_json
from .plot import add_plot_arguments, run_plot
from .replay import add_replay_arguments, run_replay
from .report import render, render_advice
from .review import add_review_arguments, run_review
from .sweep import add_starts_arguments, add_sweep_arguments, run_starts, run_sweep
from .train_policy import add_train_policy_arguments, run_train_policy
from .value import add_train_arguments, add_value_arguments, run_train, run_value


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage mistake reported like every other error: one line, status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"manila: error: {message} (see {self.prog} --help)\n")


def _strict(args: argparse.Namespace) -> Any:
    return False if args.no_strict else None


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


def _cmd_evaluate(args: argparse.Namespace) -> int:
    data = read_state(args.state)
    _check_player(as_state(data, _strict(args)), args)
    exact = True if args.exact else None  # None: as the JSON's own "exact" says
    result = evaluate(data, exact=exact, player=args.player, threads=args.threads, strict=_strict(args))
    if wants_json(args):
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(render(result, color=wants_color()))
    return 0


def _cmd_advise(args: argparse.Namespace) -> int:
    data = read_state(args.position)
    position = as_position(data, _strict(args))
    result = advise(position, exact=True if args.exact else None, threads=args.threads)
    if wants_json(args):
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(render_advice(result, color=wants_color()))
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    as_state(read_state(args.state), _strict(args))  # its problems go the way of every error
    print("valid")
    return 0


def _cmd_example(args: argparse.Namespace) -> int:
    if args.notation:
        print(VoyageState.from_dict(EXAMPLE))
    else:
        json.dump(EXAMPLE, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0


_STATE_HELP = (
    "a JSON voyage state file, - for standard input, or the state itself: in the "
    "one-line notation (e.g. 'r3 ginseng@8:red silk@arrived jade@12 player=red', "
    "see docs/notation.md) or as JSON"
)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m manila",
        description="Exact expected values for a Manila voyage.",
        epilog="The rules, the meaning of every number, the notation and the HTTP API are "
        "described in docs/ (rules.md, numbers.md, advice.md, notation.md, http.md, sweeps.md).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ev = sub.add_parser(
        "evaluate",
        help="value every spot, boat and player of a voyage state",
        description="Evaluate a voyage state (its JSON and the meaning of every "
        "number: docs/numbers.md). The spot values assume that "
        "nobody places after you.",
    )
    ev.add_argument("state", metavar="FILE|TEXT", help=_STATE_HELP)
    ev.add_argument("--exact", action="store_true", help='exact fractions ("n/d") instead of floats')
    ev.add_argument(
        "--player", metavar="NAME", help="value the spots for this player (someone named in the state)"
    )
    ev.add_argument(
        "--new-player",
        action="store_true",
        help="let --player name a newcomer who holds nothing on the board yet",
    )
    add_output_flags(ev, "print JSON")
    ev.add_argument(
        "--threads",
        type=int,
        default=0,
        metavar="N",
        help="threads for the spot table (default: by the amount of work)",
    )
    ev.add_argument(
        "--no-strict",
        action="store_true",
        help="accept positions no real voyage can reach (hypothetical states)",
    )
    ev.set_defaults(run=_cmd_evaluate)

    ad = sub.add_parser(
        "advise",
        help="the best choice at a decision, knowing the others answer",
        description="Advice for a position: a voyage state with the decision "
        "that is due (docs/advice.md; notation: docs/notation.md). "
        "Every option is valued knowing that everyone after you "
        "answers with their own best.",
    )
    ad.add_argument(
        "position",
        metavar="FILE|TEXT",
        help="a JSON position file, - for standard input, or the position itself, "
        "e.g. 'r3 ginseng@9:a silk@11:b jade@10:c turn=a order=a,b,c'",
    )
    ad.add_argument("--exact", action="store_true", help='exact fractions ("n/d") instead of floats')
    add_output_flags(ad, "print JSON")
    ad.add_argument(
        "--threads",
        type=int,
        default=0,
        metavar="N",
        help="threads for the first player's options (default: every core)",
    )
    ad.add_argument(
        "--no-strict",
        action="store_true",
        help="accept positions no real voyage can reach (hypothetical states)",
    )
    ad.set_defaults(run=_cmd_advise)

    va = sub.add_parser(
        "validate",
        help="list what is wrong with a voyage state, or say valid",
        description="Check a voyage state; exit status 2 when it is invalid.",
    )
    va.add_argument("state", metavar="FILE|TEXT", help=_STATE_HELP)
    va.add_argument(
        "--no-strict",
        action="store_true",
        help="accept positions no real voyage can reach (hypothetical states)",
    )
    va.set_defaults(run=_cmd_validate)

    sv = sub.add_parser(
        "serve",
        help="serve the JSON API and the players' page over HTTP",
        description="Serve /v1/evaluate, /v1/validate, /v1/example, /healthz, "
        "/openapi.json and the calculator page at / until Ctrl-C.",
    )
    serve.add_arguments(sv)
    sv.set_defaults(run=serve.run)

    wb = sub.add_parser(
        "web",
        help="write the players' page and its engine as a static site",
        description="Write the calculator page, the engine compiled to WebAssembly and its "
        "scripts into DIR: any static web server serves them, and the page computes in the "
        "browser, offline once loaded (docs/web.md).",
    )
    web.add_arguments(wb)
    wb.set_defaults(run=web.run)

    sw = sub.add_parser(
        "sweep",
        help="evaluate every state of a family into .npz, CSV or Parquet",
        description="The exact spot table of every state of a family of voyage "
        "states (see manila.sweep), written to a file; its columns and the rows' "
        "probabilities: docs/sweeps.md.",
    )
    add_sweep_arguments(sw)
    sw.set_defaults(run=run_sweep)

    st = sub.add_parser(
        "starts",
        help="rank the harbour master's starts for three goods",
        description="The 25 starts of three goods, best first by a criterion.",
    )
    add_starts_arguments(st)
    st.set_defaults(run=run_starts)

    pl = sub.add_parser(
        "plot",
        help="a heat map of a spot's value, or a bar chart of the starts (PNG)",
        description="Charts of sweeps, written to PNG (needs matplotlib).",
    )
    add_plot_arguments(pl)
    pl.set_defaults(run=run_plot)

    si = sub.add_parser(
        "simulate",
        help="play many games between bots: win rates, wealth, length",
        description="Play games between bots (built-in or module:Class).",
    )
    add_simulate_arguments(si)
    si.set_defaults(run=run_simulate)

    la = sub.add_parser(
        "ladder",
        help="a rated ladder: bots play seeded games, seats rotated evenly",
        description="Play seeded games between bots with the seats rotated evenly; "
        "per bot: games, wins, win rate (95% interval), mean wealth and "
        "an openskill rating.",
    )
    add_ladder_arguments(la)
    la.set_defaults(run=run_ladder)

    an = sub.add_parser(
        "analyse",
        help="value every option of a game decision by rollouts (a table or a state)",
        description="Every option of the decision due in a table (a player's view, as "
        "state.observation(p) gives it) or a serialized state, valued by rollouts with a "
        "continuation policy: docs/analysis.md.",
    )
    add_analyse_arguments(an)
    an.set_defaults(run=run_analyse)

    vl = sub.add_parser(
        "value",
        help="every player's expected final wealth, equity and chance of winning",
        description="The learned value of a position (a table or a serialized state): each "
        "player's expected final wealth, equity (wealth minus the others' mean) and chance of "
        "winning, exact up to the next voyage where no placement remains: docs/value.md.",
    )
    add_value_arguments(vl)
    vl.set_defaults(run=run_value)

    tv = sub.add_parser(
        "train-value",
        help="play seeded games and train the learned value's model",
        description="Play the training and held-out games (seats mixed from the built-in "
        "bots), fit the network, measure it on the held-out games and write the C++ include "
        "the engine is built with: docs/value.md.",
    )
    add_train_arguments(tv)
    tv.set_defaults(run=run_train)

    tp = sub.add_parser(
        "train-policy",
        help="train a policy against the built-in bots; play it as policy:PATH",
        description="The training baseline: a small network trained by PPO on VectorEnv "
        "against the built-in bots, its learning curve (win rates against three random and "
        "three greedy, 95% intervals) and the policy file that policy:PATH plays: docs/training.md.",
    )
    add_train_policy_arguments(tp)
    tp.set_defaults(run=run_train_policy)

    rv = sub.add_parser(
        "review",
        help="review a recorded game: each decision's loss against the best, each player's luck",
        description="Every decision of every player of a recorded game (simulate --record, "
        "State.serialize()) against the best option by rollouts, classed fine, inaccuracy, "
        "mistake or blunder, and each player's luck from the deals and the dice: docs/review.md.",
    )
    add_review_arguments(rv)
    rv.set_defaults(run=run_review)

    rp = sub.add_parser(
        "replay",
        help="show a recorded game step by step",
        description="Replay a game from simulate --record (JSON lines) or a serialized state.",
    )
    add_replay_arguments(rp)
    rp.set_defaults(run=run_replay)

    ex = sub.add_parser("example", help="print an example voyage state to play with")
    ex.add_argument("--notation", action="store_true", help="in the one-line notation, not JSON")
    ex.set_defaults(run=_cmd_example)
    return parser


def _check_outputs(args: argparse.Namespace) -> None:
    """Unwritable output paths are refused before any work is done."""
    for attr, option in (("output", "--output"), ("record", "--record")):
        path = getattr(args, attr, None)
        if isinstance(path, str):
            check_output(path, option)


def _error(text: str) -> None:
    print(f"manila: error: {text}", file=sys.stderr)


# Seconds a command is given to stop after Ctrl-C (the engine takes milliseconds; Python
# bots or a pool of processes may take longer, and the process then ends without them).
STOP_TIME = 1.0


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    if args.run is serve.run:
        return _run(args)  # the server stops itself on Ctrl-C, and needs the main thread to
    return _interruptible(args)


def _interruptible(args: argparse.Namespace) -> int:
    """Runs the command on a thread under a cancel token. Python hears Ctrl-C on the main
    thread only, and only once the engine has handed control back: so the main thread waits
    and on Ctrl-C cancels the token, and the engine stops within milliseconds."""
    token = CancelToken()
    outcome: dict[str, Any] = {}
    # An Event, not Thread.join: a join that Ctrl-C interrupts may leave the thread marked
    # stopped while it still runs (CPython before 3.13).
    done = threading.Event()

    def command() -> None:
        try:
            with cancellable(token):
                outcome["status"] = _run(args)
        except BaseException as exc:  # handed to the main thread, which raises it
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=command, name="manila-command", daemon=True).start()
    try:
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        token.cancel()
        stopped = done.wait(STOP_TIME)
        print("manila: interrupted", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        if not stopped:
            os._exit(130)  # what still runs is not the engine's, and cannot be stopped
        return 130
    if "error" in outcome:
        raise outcome["error"]
    return cast(int, outcome["status"])


def _run(args: argparse.Namespace) -> int:
    try:
        _check_outputs(args)
        return cast(int, args.run(args))  # each command's run gives the exit status
    except StateError as exc:
        for problem in with_suggestions(exc.problems):
            _error(problem.line("cli"))
        return 2
    except InputError as exc:
        _error(str(exc))
        return 2
    except ValueError as exc:  # the engine's own argument checks
        _error(str(exc))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing left to say.
        sys.stderr.close()
        return 0
    except OSError as exc:  # writing an output failed after all (a full disk, say)
        where = f"{exc.filename}: " if exc.filename else ""
        _error(f"{where}cannot write: {exc.strerror or exc}")
        return 2

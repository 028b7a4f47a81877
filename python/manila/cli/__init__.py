"""The command line, ``python -m manila COMMAND``: one row of ``COMMANDS`` per command, whose
arguments and run live in the module of its kind (voyage, serve, web, sweep, plot, games,
analyse, value, review, replay).

Every refusal is one ``manila: error: ...`` line per problem and exit status 2. What the
states and numbers mean: docs/numbers.md; the notation: docs/notation.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable, NoReturn, Optional, cast

from ..common.cancel import CancelToken, cancellable
from ..common.errors import StateError
from ..common.inputs import InputError, check_output
from ..voyage.suggest import with_suggestions
from . import serve, voyage, web
from .analyse import add_analyse_arguments, run_analyse
from .games import add_ladder_arguments, add_simulate_arguments, run_ladder, run_simulate
from .plot import add_plot_arguments, run_plot
from .replay import add_replay_arguments, run_replay
from .review import add_review_arguments, run_review
from .sweep import add_starts_arguments, add_sweep_arguments, run_starts, run_sweep
from .train_policy import add_train_policy_arguments, run_train_policy
from .value import add_train_arguments, add_value_arguments, run_train, run_value


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage mistake reported like every other error: one line, status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"manila: error: {message} (see {self.prog} --help)\n")


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, its one-line help, its description, and the module
    functions that add its arguments and run it (returning the exit status)."""

    name: str
    help: str
    description: Optional[str]
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS = (
    Command(
        "evaluate",
        "value every spot, boat and player of a voyage state",
        "Evaluate a voyage state (its JSON and the meaning of every number: docs/numbers.md). "
        "The spot values assume that nobody places after you.",
        voyage.add_evaluate_arguments,
        voyage.run_evaluate,
    ),
    Command(
        "advise",
        "the best choice at a decision, knowing the others answer",
        "Advice for a position: a voyage state with the decision that is due (docs/advice.md; "
        "notation: docs/notation.md). Every option is valued knowing that everyone after you "
        "answers with their own best.",
        voyage.add_advise_arguments,
        voyage.run_advise,
    ),
    Command(
        "validate",
        "list what is wrong with a voyage state, or say valid",
        "Check a voyage state; exit status 2 when it is invalid.",
        voyage.add_validate_arguments,
        voyage.run_validate,
    ),
    Command(
        "serve",
        "serve the JSON API and the players' page over HTTP",
        "Serve the HTTP API (docs/http.md), /healthz, /openapi.json and the players' pages until Ctrl-C.",
        serve.add_arguments,
        serve.run,
    ),
    Command(
        "web",
        "write the players' page and its engine as a static site",
        "Write the calculator page, the engine compiled to WebAssembly and its scripts into "
        "DIR: any static web server serves them, and the page computes in the browser "
        "(docs/web.md).",
        web.add_arguments,
        web.run,
    ),
    Command(
        "sweep",
        "evaluate every state of a family into .npz, CSV or Parquet",
        "The exact spot table of every state of a family of voyage states (see manila.sweep), "
        "written to a file; its columns and the rows' probabilities: docs/sweeps.md.",
        add_sweep_arguments,
        run_sweep,
    ),
    Command(
        "starts",
        "rank the harbour master's starts for three goods",
        "The 25 starts of three goods, best first by a criterion.",
        add_starts_arguments,
        run_starts,
    ),
    Command(
        "plot",
        "a heat map of a spot's value, or a bar chart of the starts (PNG)",
        "Charts of sweeps, written to PNG (needs matplotlib).",
        add_plot_arguments,
        run_plot,
    ),
    Command(
        "simulate",
        "play many games between bots: win rates, wealth, length",
        "Play games between bots (built-in, module:Class, or cmd:PROGRAM ARGS: docs/bots.md).",
        add_simulate_arguments,
        run_simulate,
    ),
    Command(
        "ladder",
        "a rated ladder: bots play seeded games, seats rotated evenly",
        "Play seeded games between bots with the seats rotated evenly; per bot: games, wins, "
        "win rate (95% interval), mean wealth and an openskill rating.",
        add_ladder_arguments,
        run_ladder,
    ),
    Command(
        "analyse",
        "value every option of a game decision by rollouts (a table or a state)",
        "Every option of the decision due in a table (a player's view, as state.observation(p) "
        "gives it) or a serialized state, valued by rollouts with a continuation policy: "
        "docs/analysis.md.",
        add_analyse_arguments,
        run_analyse,
    ),
    Command(
        "value",
        "every player's expected final wealth, equity and chance of winning",
        "The learned value of a position (a table or a serialized state): each player's "
        "expected final wealth, equity (wealth minus the others' mean) and chance of winning, "
        "exact up to the next voyage where no placement remains: docs/value.md.",
        add_value_arguments,
        run_value,
    ),
    Command(
        "train-value",
        "play seeded games and train the learned value's model",
        "Play the training and held-out games (every seat's bot drawn from the built-in bots "
        "anew at every voyage boundary), fit the network, measure it on the held-out games "
        "and write the C++ include the engine is built with: docs/value.md.",
        add_train_arguments,
        run_train,
    ),
    Command(
        "train-policy",
        "train a policy against the built-in bots; play it as policy:PATH",
        "The training baseline: a small network trained by PPO on VectorEnv against the "
        "built-in bots, its learning curve (win rates against three random and three greedy, "
        "95% intervals) and the policy file that policy:PATH plays: docs/training.md.",
        add_train_policy_arguments,
        run_train_policy,
    ),
    Command(
        "review",
        "review a recorded game: each decision's loss against the best, each player's luck",
        "Every decision of every player of a recorded game (simulate --record, "
        "State.serialize()) against the best option, classed fine, inaccuracy, mistake or "
        "blunder, and each player's luck from the deals and the dice: docs/review.md.",
        add_review_arguments,
        run_review,
    ),
    Command(
        "replay",
        "show a recorded game step by step",
        "Replay a game from simulate --record (JSON lines) or a serialized state.",
        add_replay_arguments,
        run_replay,
    ),
    Command(
        "example",
        "print an example voyage state to play with",
        None,
        voyage.add_example_arguments,
        voyage.run_example,
    ),
)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m manila",
        description="Exact expected values for a Manila voyage; the value, analysis and review "
        "of a whole game; bots and a ladder.",
        epilog="The rules, the meaning of every number, the notation and the HTTP API are "
        "described in docs/ (rules.md, numbers.md, advice.md, value.md, analysis.md, review.md, "
        "notation.md, http.md, sweeps.md).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, description=command.description)
        command.add_arguments(p)
        p.set_defaults(run=command.run)
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

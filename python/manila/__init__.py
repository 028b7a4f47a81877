"""manila: exact expected values for the board game Manila (Zoch, 2005).

>>> import manila
>>> result = manila.evaluate(manila.EXAMPLE)
>>> result.best_spot()
'jade'
"""

from __future__ import annotations

try:
    from . import _core  # noqa: F401  (a clear message when the extension is missing)
except ImportError as exc:  # pragma: no cover - only without a built extension
    raise ImportError(
        "manila's compiled core (manila._core) is missing: install the package with "
        "`pip install .` from the source tree rather than importing it from python/"
    ) from exc

# manila.sweep, manila.simulate, manila.ladder, manila.review and manila.value are the
# functions; their modules live in the rooms (manila.sweeps, manila.arena, manila.analysis).
from .analysis.analysis import Analysis, analyse
from .analysis.review import Review, review
from .analysis.value import Value, value
from .arena.ladder import LadderResult, ladder
from .arena.simulate import SimulationResult, simulate
from .bots.builtin import GreedyBot, RandomBot
from .common.cancel import Cancelled, CancelToken, cancellable
from .common.errors import Problem, StateError
from .common.version import __version__ as __version__
from .common.vocab import GOODS, SPOTS
from .game.engine import Game, IllegalActionError
from .rl.vector_env import VectorEnv
from .sweeps.enumerate import enumerate_starts, reachable
from .sweeps.pattern import Pattern
from .sweeps.starts import rank_starts
from .sweeps.sweep import Sweep, read_frame, sweep
from .voyage.advice import Advice, advise
from .voyage.board import Boat, Rules
from .voyage.evaluation import Evaluation, evaluate, evaluate_many
from .voyage.example import EXAMPLE
from .voyage.position import Moment, Position, parse_position
from .voyage.state import VoyageState, parse, validate

__all__ = [
    "EXAMPLE",
    "GOODS",
    "SPOTS",
    "Advice",
    "Analysis",
    "Boat",
    "CancelToken",
    "Cancelled",
    "Evaluation",
    "Game",
    "GreedyBot",
    "IllegalActionError",
    "LadderResult",
    "Moment",
    "Pattern",
    "Position",
    "Problem",
    "RandomBot",
    "Review",
    "Rules",
    "SimulationResult",
    "StateError",
    "Sweep",
    "Value",
    "VectorEnv",
    "VoyageState",
    "advise",
    "analyse",
    "cancellable",
    "enumerate_starts",
    "evaluate",
    "evaluate_many",
    "ladder",
    "parse",
    "parse_position",
    "rank_starts",
    "reachable",
    "read_frame",
    "review",
    "simulate",
    "sweep",
    "validate",
    "value",
]

"""What a caller may ask of a long computation: the bounds of rollouts, seeds, threads and
time limits, one home for every interface (Python, the command line, HTTP).

These are bounds on requests, not rules of the game (those live in the engine and are read
through vocab.py). A value past its bound is refused naming the field and the bound, before
it reaches the engine, whose integers are 32 or 64 bits.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from .. import _core

MAX_ROLLOUTS: int = _core.MAX_ROLLOUTS  # per option (or per chance event): hours of work
MIN_ROLLOUTS: int = _core.MIN_ROLLOUTS  # an estimate's fewest: one rollout has no spread
MAX_SECONDS: float = _core.MAX_SECONDS  # the longest time limit (a day)
MAX_THREADS = 256
MAX_SEED = 2**64 - 1  # the engine's seeds are 64-bit
MAX_INT = 2**31 - 1  # any other count: the engine's int
MAX_ENVS = 2**18  # a VectorEnv's games at once, about 7 KB each: 2 GB at the most

# Fields by name, wherever they appear (analysis, review, ladder, the server, the CLI).
_HIGH: dict[str, float] = {
    "rollouts": MAX_ROLLOUTS,
    "max_rollouts": MAX_ROLLOUTS,
    "luck_rollouts": MAX_ROLLOUTS,
    "time_limit": MAX_SECONDS,
    "threads": MAX_THREADS,
    "seed": MAX_SEED,
    "num_envs": MAX_ENVS,
}


def high(name: str) -> float:
    """The largest value ``name`` may take."""
    return _HIGH.get(name, MAX_INT)


def check_number(value: Any, name: str, low: float, integer: bool = False) -> None:
    """Refuses (ValueError naming ``name`` and its bounds) a value that is not a number
    (an integer if ``integer``), not finite, below ``low`` or above ``high(name)``."""
    ok = isinstance(value, int) if integer else isinstance(value, (int, float))
    top = high(name)
    if (
        isinstance(value, bool)
        or not ok
        or (isinstance(value, float) and not math.isfinite(value))  # an int is finite: no float() of it
        or not low <= value <= top
    ):
        kind = "an integer" if integer else "a number"
        raise ValueError(f"{name}: must be {kind} from {_text(low)} to {_text(top)}, got {value!r}")


def _text(bound: float) -> str:
    return str(int(bound)) if bound == int(bound) else f"{bound:g}"


def check_threads(threads: Any) -> None:
    """``threads``: 0 (the engine chooses by the amount of work) to MAX_THREADS."""
    check_number(threads, "threads", 0, integer=True)


def check_flag(value: Any, name: str, optional: bool = False) -> None:
    """Refuses anything but True or False (or None where ``optional``): a truthy string such
    as "no" must not pass for yes."""
    if not (isinstance(value, bool) or (optional and value is None)):
        also = ", or null" if optional else ""
        raise ValueError(f"{name}: must be true or false{also}, got {value!r}")


def as_list(values: Any, name: str) -> list[Any]:
    """``values`` as a list, refused naming ``name`` when it cannot be iterated (a single
    state or a number where a list of them is asked for)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise ValueError(f"{name}: must be a list, got {type(values).__name__}")
    return list(values)

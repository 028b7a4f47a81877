"""Words shared by every message: did-you-mean, the choices spoken, JSON type checks."""

from __future__ import annotations

import difflib
from collections import abc
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypeGuard  # Python 3.10+: only the type checker reads it


def did_you_mean(word: Any, choices: Iterable[str]) -> str:
    """`` (did you mean "silk"?)`` for the closest choice, or an empty string."""
    # A name known elsewhere but unknown here is no help as its own suggestion.
    others = [c for c in choices if c != word]
    close = difflib.get_close_matches(word, others, n=1) if isinstance(word, str) else []
    return f' (did you mean "{close[0]}"?)' if close else ""


def spoken(values: tuple[int, ...]) -> str:
    """``3, 4 or 5``: the choices, as a message names them."""
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


def is_int(x: Any) -> TypeGuard[int]:
    """A JSON whole number (not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_owner(x: Any) -> TypeGuard[str]:
    """A player's name: a non-empty string."""
    return isinstance(x, str) and bool(x.strip())


def is_mapping(x: Any) -> TypeGuard[Mapping[Any, Any]]:
    """A JSON object or any other mapping (a dict is checked first: typing's and the abc's
    isinstance checks cost more than the rest of parsing a small state)."""
    return isinstance(x, (dict, abc.Mapping))

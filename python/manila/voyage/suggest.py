"""'Did you mean ...?' for misspelt names: goods, spots, keys, rule options, players, bots."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from .. import _core
from ..common.errors import Problem
from ..common.text import did_you_mean
from ..common.vocab import GOODS, SPOTS
from .board import Boat, Rules
from .state import VoyageState

# Notation keys that are not spots: "playr=red" reaches the state parser as a spot.
_NOTATION_OPTIONS = ("player", "players", "thirteen")


def _keys(cls: type) -> tuple[str, ...]:
    # The dataclass is where a state's keys are defined: suggestions follow it.
    return tuple(f.name for f in dataclasses.fields(cls))


def _choices(path: str, message: str) -> tuple[str, Iterable[str]]:
    """(the misspelt name, what it could have meant) for a problem about an unknown name."""
    if not message.startswith("unknown"):
        return "", ()
    head, _, name = path.rpartition(".")
    if head == "boats":
        return name, GOODS
    if head == "spots":
        return name, SPOTS + _NOTATION_OPTIONS
    if head == "rules":
        return name, _keys(Rules)
    if head.startswith("boats.") and head.count(".") == 1:
        return name, _keys(Boat)
    if not head and "[" not in name and message.startswith("unknown key"):
        return name, _keys(VoyageState) + _core.STATE_REQUEST_KEYS
    return "", ()


def with_suggestions(problems: Iterable[Problem]) -> list[Problem]:
    """The problems, each about an unknown name followed by the closest known name, if any.

    The state parser suggests goods, spots and top-level keys itself; this adds the rest
    (rule options, a boat's keys, the notation's player= and friends) where it has not.
    """
    out = []
    for p in problems:
        if "did you mean" in p.message:
            out.append(p)
            continue
        name, choices = _choices(p.path, p.message)
        hint = did_you_mean(name, choices) if name else ""
        if hint:  # right after "unknown ...", before the list of what is known
            first, sep, rest = p.message.partition(";")
            p = dataclasses.replace(p, message=first + hint + sep + rest)
        out.append(p)
    return out

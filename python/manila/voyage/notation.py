"""A one-line notation for a voyage state, as a player would type it.

    r2 ginseng@8:red,blue silk@arrived:green jade@12 pirate_1=blue pilot_large=red player=red

Grammar (items are separated by spaces, in any order after the roll)::

    state   = roll { " " item }
    roll    = "r1" | "r2" | "r3"                     the roll that comes next
    item    = boat | spot | option
    boat    = good "@" place [ ":" owner { "," owner } ]    crew, front seat first
    good    = "ginseng" | "nutmeg" | "silk" | "jade"
    place   = "0" .. "13" | "arrived"
    spot    = spot-id "=" owner                      port_a .. insurance, as in the JSON
    option  = "player=" owner | "players=" ("3" | "4" | "5")
            | "thirteen=" ("port" | "shipyard") | "variant"
            | "wealth"                               value in wealth, not voyage income
            | "shares=" owner ":" held { "," held }  one item per player
            | "prices=" priced { "," priced }        goods not named are at 0
            | "budget=" owner ":" amount             one item per player
    held    = good count                             e.g. jade2
    priced  = good ("0" | "5" | "10" | "20")         e.g. silk10
    owner   = name | '"' JSON string '"'             a name is letters, digits, _ . - ' +

Exactly three boats; a name holding other characters is written as a JSON string.
``str(state)`` writes the canonical form (goods and spots in canonical order, default
rules omitted), which ``parse`` reads back to the same state.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from .. import _core
from ..common.errors import Problem, StateError

_NAME = re.compile(r"[A-Za-z0-9_.'+\-]+")


def quote(owner: str) -> str:
    return owner if _NAME.fullmatch(owner) else json.dumps(owner, ensure_ascii=False)


def format_moment(moment: dict[str, Any]) -> str:
    """The notation items of a position's moment (docs/advice.md)."""
    parts = []
    if moment["kind"] != "placement":
        parts.append(f"moment={moment['kind']}")
    if moment.get("to_move") is not None:
        parts.append(f"turn={quote(moment['to_move'])}")
    if moment.get("order"):
        parts.append("order=" + ",".join(quote(o) for o in moment["order"]))
    if moment.get("accomplices"):
        parts.append("hand=" + ",".join(f"{quote(o)}:{n}" for o, n in moment["accomplices"].items()))
    if moment.get("declined"):
        parts.append("declined=" + ",".join(quote(o) for o in moment["declined"]))
    if moment.get("protected"):
        parts.append(f"protect={moment['protected']['good']}:{moment['protected']['seat']}")
    return " ".join(parts)


def format_state(data: dict[str, Any]) -> str:
    """The canonical notation of a (valid) state in its JSON form."""
    parts = [f"r{data['next_roll']}"]
    for good, boat in data["boats"].items():
        item = f"{good}@{boat['position']}"
        if boat["crew"]:
            item += ":" + ",".join(quote(o) for o in boat["crew"])
        parts.append(item)
    parts += [f"{spot}={quote(owner)}" for spot, owner in data["spots"].items()]
    if data.get("player") is not None:
        parts.append(f"player={quote(data['player'])}")
    if data.get("players") is not None:
        parts.append(f"players={data['players']}")
    if data.get("objective", "income") != "income":
        parts.append(data["objective"])
    for owner, held in data.get("shares", {}).items():
        parts.append(f"shares={quote(owner)}:" + ",".join(f"{g}{n}" for g, n in held.items()))
    if data.get("prices"):
        parts.append("prices=" + ",".join(f"{g}{p}" for g, p in data["prices"].items()))
    parts += [f"budget={quote(owner)}:{amount}" for owner, amount in data.get("budget", {}).items()]
    rules = data.get("rules", {})
    if rules.get("thirteen_after_last_roll", "port") != "port":
        parts.append(f"thirteen={rules['thirteen_after_last_roll']}")
    if rules.get("pirate_variant"):
        parts.append("variant")
    return " ".join(parts)


def notation_to_dict(text: Any) -> dict[str, Any]:
    """Reads the notation into the JSON form; StateError on anything unreadable.

    Only the notation's own syntax is checked here; the rules are checked on the result.
    """
    if not isinstance(text, str):
        raise StateError([Problem("notation", f"a notation must be a string, got {type(text).__name__}")])
    # The engine reads it (the reader the routes and the page use).
    read: dict[str, Any] = _read(*_core.read_notation(text))
    return read


def read_option(key: str, values: Sequence[str], path: str) -> Any:
    """The JSON value of a state key written as notation items ``key=value``, one per value:
    e.g. ``read_option("shares", ["red:jade2", "blue:silk1"], "--shares")`` gives
    ``{"red": {"jade": 2}, "blue": {"silk": 1}}``. Command-line flags read the notation's
    own syntax with it. StateError at ``path`` when a value is unreadable, or when it is not
    exactly one ``key=`` item (a value holding a space would be several)."""
    return _read(*_core.read_notation_option(key, list(values), path))


def _read(read: Any, problems: list[tuple[str, str, str]]) -> Any:
    if problems:
        raise StateError([Problem(*p) for p in problems])
    return read

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
from typing import Any, Optional

from ..common.errors import Problem, StateError

_NAME = re.compile(r"[A-Za-z0-9_.'+\-]+")
_ROLL = re.compile(r"r([0-9]+)")


def _digits(text: str) -> bool:
    """ASCII digits only: str.isdigit() also takes '²' and other digits int() refuses."""
    return text.isascii() and text.isdigit()


def _string_end(text: str, i: int) -> int:
    """Offset just past the JSON string opening at text[i] (or the end if unterminated)."""
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == '"':
            return j + 1
        else:
            j += 1
    return len(text)


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


class _Scanner:
    """Splits the text into items and owners, remembering where each item starts."""

    def __init__(self, text: str):
        self.text = text
        self.problems: list[Problem] = []

    def fail(self, at: int, message: str) -> None:
        self.problems.append(Problem(f"notation[{at}]", message))

    def items(self) -> list[tuple[int, str]]:
        """(offset, item) pairs; quoted strings may hold spaces."""
        out, i, n = [], 0, len(self.text)
        while i < n:
            if self.text[i].isspace():
                i += 1
                continue
            start = i
            while i < n and not self.text[i].isspace():
                if self.text[i] == '"':
                    i = _string_end(self.text, i)
                else:
                    i += 1
            out.append((start, self.text[start:i]))
        return out

    def owners(self, text: str, at: int) -> list[Optional[str]]:
        """A comma-separated list of owners (names or JSON strings)."""
        out: list[Optional[str]] = []
        i = 0
        while True:
            if text.startswith('"', i):
                end = _string_end(text, i)
                try:
                    value = json.loads(text[i:end])
                except ValueError:
                    self.fail(at + i, f"unreadable quoted name {text[i:end]!r}")
                    return out
                out.append(value)
                i = end
            else:
                m = _NAME.match(text, i)
                if not m:
                    self.fail(at + i, f"expected an owner's name at {text[i:] or 'the end'!r}")
                    return out
                out.append(m.group())
                i = m.end()
            if i == len(text):
                return out
            if text[i] != ",":
                self.fail(at + i, f"expected ',' between owners, found {text[i]!r}")
                return out
            i += 1


_GOOD_COUNT = re.compile(r"([a-z_]+)([0-9]+)")


def _counts(scanner: _Scanner, text: str, at: int, what: str) -> dict[str, int]:
    """Reads ``jade2,silk1`` into {"jade": 2, "silk": 1}; goods are checked later."""
    out: dict[str, int] = {}
    for part in text.split(","):
        m = _GOOD_COUNT.fullmatch(part)
        if not m:
            scanner.fail(at, f"expected a good and its {what} such as jade2, found {part!r}")
        elif m.group(1) in out:
            scanner.fail(at, f"{m.group(1)} is given twice")
        else:
            out[m.group(1)] = int(m.group(2))
        at += len(part) + 1
    return out


def _owner_and(scanner: _Scanner, text: str, at: int, example: str) -> tuple[Optional[str], str, int]:
    """Splits ``owner:rest`` (the owner may be a quoted JSON string holding a colon)."""
    end = _string_end(text, 0) if text.startswith('"') else text.find(":")
    if end < 0 or text[end : end + 1] != ":":
        scanner.fail(at, f"expected owner:{example}")
        return None, "", at
    return _single_owner(scanner, text[:end], at), text[end + 1 :], at + end + 1


def _single_owner(scanner: _Scanner, text: str, at: int) -> Optional[str]:
    owners = scanner.owners(text, at)
    if len(owners) != 1:
        if owners:
            scanner.fail(at, "expected one owner")
        return None
    return owners[0]


_MOMENT_KEYS = ("moment", "turn", "order", "hand", "declined", "protect")


def _moment_item(scanner: _Scanner, moment: dict[str, Any], key: str, value: str, at: int) -> None:
    """One item of a position's moment: moment=KIND turn=P order=P,Q hand=P:N,... declined=P,...
    protect=GOOD:SEAT (the kind is placement unless moment= says otherwise)."""
    moment.setdefault("kind", "placement")
    if key == "moment":
        moment["kind"] = value
    elif key == "turn":
        moment["to_move"] = _single_owner(scanner, value, at)
    elif key in ("order", "declined"):
        moment[key] = scanner.owners(value, at)
    elif key == "hand":
        hands: dict[str, int] = {}
        rest, where = value, at
        while rest:
            owner, count, where = _owner_and(scanner, rest, where, "2")
            digits = count.split(",", 1)[0]
            if owner is None or not _digits(digits):
                if owner is not None:
                    scanner.fail(where, f"expected player:count such as red:2, found {digits!r}")
                return
            hands[owner] = int(digits)
            rest = count[len(digits) + 1 :]
            where += len(digits) + 1
        moment["accomplices"] = hands
    else:  # protect
        good, _, seat = value.partition(":")
        if not _digits(seat):
            scanner.fail(at, f"expected good:seat such as jade:3, found {value!r}")
            return
        moment["protected"] = {"good": good, "seat": int(seat)}


def _read_item(
    scanner: _Scanner, at: int, item: str, data: dict[str, Any], rules: dict[str, Any], seen: set[str]
) -> None:
    """Reads one item after the roll into ``data`` (rule options into ``rules``)."""
    if item == "variant":
        rules["pirate_variant"] = True
    elif item in ("wealth", "income"):
        data["objective"] = item
    elif "@" in item.split("=", 1)[0].split(":", 1)[0]:
        good, _, rest = item.partition("@")
        place, colon, crew = rest.partition(":")
        if good in data["boats"]:
            scanner.fail(at, f"{good} is given twice")
            return
        position: Any = place
        if _digits(place):
            position = int(place)
        elif not place:
            scanner.fail(at + len(good) + 1, 'expected a position (0..13 or "arrived") after "@"')
        owners = scanner.owners(crew, at + len(good) + len(place) + 2) if colon else []
        data["boats"][good] = {"position": position, "crew": owners}
    elif "=" in item:
        key, _, value = item.partition("=")
        where = at + len(key) + 1
        if key in ("shares", "budget"):  # one item per player
            owner, rest, where = _owner_and(scanner, value, where, "jade2,silk1" if key == "shares" else "7")
            if owner is None:
                return
            entries = data.setdefault(key, {})
            if owner in entries:
                scanner.fail(at, f"{key} of {owner} is given twice")
            elif key == "shares":
                entries[owner] = _counts(scanner, rest, where, "share count")
            elif _digits(rest):
                entries[owner] = int(rest)
            else:
                scanner.fail(where, f"a budget is a whole number of pesos, not {rest!r}")
            return
        if key in seen:
            scanner.fail(at, f"{key} is given twice")
        seen.add(key)
        if key in _MOMENT_KEYS:
            _moment_item(scanner, data.setdefault("moment", {}), key, value, where)
        elif key == "prices":
            data["prices"] = _counts(scanner, value, where, "price")
        elif key == "player":
            data["player"] = _single_owner(scanner, value, where)
        elif key == "players":
            data["players"] = int(value) if _digits(value) else value
        elif key == "thirteen":
            rules["thirteen_after_last_roll"] = value
        else:
            data["spots"][key] = _single_owner(scanner, value, where)
    else:
        scanner.fail(
            at,
            f"unreadable item {item!r}: expected good@position[:crew], "
            f"spot=owner, player=..., players=..., thirteen=..., variant, "
            f"wealth, shares=..., prices=... or budget=...",
        )


def notation_to_dict(text: Any) -> dict[str, Any]:
    """Reads the notation into the JSON form; StateError on anything unreadable.

    Only the notation's own syntax is checked here; the rules are checked on the result.
    """
    if not isinstance(text, str):
        raise StateError([Problem("notation", f"a notation must be a string, got {type(text).__name__}")])
    scanner = _Scanner(text)
    items = scanner.items()
    if not items:
        raise StateError([Problem("notation", "empty: a state starts with the roll, e.g. r1")])
    data: dict[str, Any] = {"boats": {}, "spots": {}}
    at, first = items[0]
    m = _ROLL.fullmatch(first)
    if m:
        data["next_roll"] = int(m.group(1))
    else:
        scanner.fail(at, f"a state starts with the roll that comes next (r1, r2 or r3), not {first!r}")
    rules: dict[str, Any] = {}
    seen: set[str] = set()
    for at, item in items[1:]:
        _read_item(scanner, at, item, data, rules, seen)
    if rules:
        data["rules"] = rules
    if scanner.problems:
        raise StateError(scanner.problems)
    return data


def read_option(key: str, values: Sequence[str], path: str) -> Any:
    """The JSON value of a state key written as notation items ``key=value``, one per value:
    e.g. ``read_option("shares", ["red:jade2", "blue:silk1"], "--shares")`` gives
    ``{"red": {"jade": 2}, "blue": {"silk": 1}}``. Command-line flags read the notation's
    own syntax with it. StateError at ``path`` when a value is unreadable, or when it is not
    exactly one ``key=`` item (a value holding a space would be several)."""
    data: dict[str, Any] = {"boats": {}, "spots": {}}
    rules: dict[str, Any] = {}
    seen: set[str] = set()
    problems = []
    for value in values:
        scanner = _Scanner(f"{key}={value}")
        items = scanner.items()
        if len(items) == 1:
            _read_item(scanner, *items[0], data, rules, seen)
        other = data["boats"] or data["spots"] or rules or set(data) - {"boats", "spots", key}
        if len(items) != 1 or other:
            scanner.problems = [Problem("", f"expected one {key} value, without spaces")]
        problems += [Problem(path, f"{p.message} (in {value!r})") for p in scanner.problems]
    if problems:
        raise StateError(problems)
    return data.get(key)

"""A table in, a state out: one player's view of a game (docs/analysis.md) as a playable state.

A **table** is the JSON of ``state.observation(p)`` (docs/observation.md), or what a player
types in for a game on a real table: the phase, whose turn, every player's cash, visible
shares, face-down count, loans and whether they declined, the prices and the supply, the
auction, the boats and spots, the boarding. What the view hides (the others' face-down
shares) is dealt at random, consistently with what it shows: the shares that are neither
visible nor in the supply lie face down with the others, in a uniform deal. A serialized
engine state (``State.serialize()``) is accepted too and replayed as it is.

    >>> from manila.game import Game
    >>> state = Game(4, seed=1).new_initial_state()
    >>> while state.is_chance_node():
    ...     _ = state.apply_chance()
    >>> table = table_state(state.observation(2), seed=5)
    >>> table.phase, table.current_player(), table.to_dict()["players"][2] == state.to_dict()["players"][2]
    ('auction', 0, True)

Every refusal is a ``TableError`` (a ``ValueError``) naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

from .. import _core
from ..common.text import is_int
from ..common.vocab import (
    ARRIVED,
    GOOD_INDEX,
    GOODS,
    LAST_SPACE,
    MAX_CASH,
    PRICE_TRACK,
    SHARES_PER_GOOD,
    SPOTS,
)
from .engine import Game, State

__all__ = ["TableError", "is_serialized_state", "table_state", "table_view"]

TableLike = Union[str, Mapping[str, Any]]

# The keys of a table (an observation has more: they are read where they help or ignored).
_PLAYER_KEYS = ("cash", "shares", "hidden_shares", "mortgaged", "declined")


class TableError(ValueError):
    """A table no game can reach (the message names the field)."""


def is_serialized_state(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` is ``State.to_json()`` rather than a table."""
    return (
        data.get("game") == "manila"
        and "history" in data
        and "observer" not in data
        and "players" in data
        and is_int(data["players"])
    )


def _load(table: TableLike) -> dict[str, Any]:
    if isinstance(table, str):
        try:
            table = json.loads(table)
        except json.JSONDecodeError as exc:
            raise TableError(f"table: not JSON ({exc})") from None
    if not isinstance(table, Mapping):
        raise TableError(f"table: a JSON object, got {type(table).__name__}")
    return dict(table)


# The engine's integers: a number no field can hold is refused here, naming its bound.
_INT_MAX = 2**31 - 1


def _int(value: Any, field: str, low: Optional[int] = None, high: int = _INT_MAX) -> int:
    if not is_int(value):
        raise TableError(f"{field}: must be an integer, got {value!r}")
    if low is not None and value < low:
        raise TableError(f"{field}: must be at least {low}, got {value}")
    if value > high:
        raise TableError(f"{field}: must be at most {high}, got {value}")
    if value < -_INT_MAX:
        raise TableError(f"{field}: must be at least {-_INT_MAX}, got {value}")
    return int(value)


def _owner(value: Any, field: str, players: int) -> int:
    p = _int(value, field)
    if not 0 <= p < players:
        raise TableError(f"{field}: must be a player 0..{players - 1}, got {p}")
    return p


def _goods(value: Any, field: str, high: int = SHARES_PER_GOOD) -> list[int]:
    """A {good: count} object as counts in good order (missing goods: 0)."""
    if value is None:
        return [0] * len(GOODS)
    if not isinstance(value, Mapping):
        raise TableError(f"{field}: an object of goods, got {value!r}")
    out = [0] * len(GOODS)
    for good, count in value.items():
        if good not in GOOD_INDEX:
            raise TableError(f"{field}.{good}: not a good (the goods are {', '.join(GOODS)})")
        out[GOOD_INDEX[good]] = _int(count, f"{field}.{good}", 0, high)
    return out


def _good(value: Any, field: str) -> int:
    if not isinstance(value, str) or value not in GOOD_INDEX:
        raise TableError(f"{field}: a good ({', '.join(GOODS)}), got {value!r}")
    return GOOD_INDEX[value]


def _rules(data: Mapping[str, Any]) -> Optional[Mapping[str, Any]]:
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, Mapping):
        raise TableError(f"rules: an object of rule options, got {rules!r}")
    return rules


def _observer_dealt(history: Any, observer: int, players: int) -> Optional[list[int]]:
    """The observer's face-down shares, read from the deal in the history (when given)."""
    if not isinstance(history, Sequence) or isinstance(history, str):
        return None
    deal = _core.ACTION_OFFSETS["deal"]
    dealt = [0] * len(GOODS)
    for k, action in enumerate(history[: 2 * players]):
        if k // 2 == observer and is_int(action) and deal <= action < deal + len(GOODS):
            dealt[action - deal] += 1
    return dealt if sum(dealt) == 2 else None


def table_fields(table: TableLike) -> tuple[dict[str, Any], Optional[Mapping[str, Any]]]:
    """The engine's fields of a table (``_core.TableView``'s), and its rule options."""
    data = _load(table)
    players_data = data.get("players")
    if not isinstance(players_data, list) or not players_data:
        raise TableError("players: a list with one object per player")
    n = len(players_data)
    if not _core.MIN_PLAYERS <= n <= _core.MAX_PLAYERS:
        raise TableError(
            f"players: Manila is for {_core.MIN_PLAYERS} to {_core.MAX_PLAYERS} players, got {n}"
        )
    view: dict[str, Any] = {"num_players": n}
    if "observer" not in data:
        raise TableError("observer: whose view the table is (a player 0..n-1)")
    observer = view["observer"] = _owner(data["observer"], "observer", n)
    phase = data.get("phase")
    if not isinstance(phase, str):
        raise TableError(f"phase: the phase of the game, got {phase!r}")
    view["phase"] = phase
    view["current"] = _owner(data.get("current_player"), "current_player", n)
    view["voyage"] = _int(data.get("voyage", 1), "voyage", 1)
    master = data.get("harbour_master")
    view["harbour_master"] = -1 if master is None else _owner(master, "harbour_master", n)
    view["prices"] = _goods(data.get("prices"), "prices", PRICE_TRACK[-1])
    if "supply" not in data:
        raise TableError("supply: the face-up shares for sale, by good")
    view["supply"] = _goods(data["supply"], "supply")
    rows = []
    for i, pd in enumerate(players_data):
        field = f"players[{i}]"
        if not isinstance(pd, Mapping):
            raise TableError(f"{field}: an object ({', '.join(_PLAYER_KEYS)})")
        declined = pd.get("declined", False)
        if not isinstance(declined, bool):
            raise TableError(f"{field}.declined: true or false, got {declined!r}")
        default_hidden = 0 if i == observer else 2
        rows.append(
            (
                _int(pd.get("cash"), f"{field}.cash", 0, MAX_CASH),
                _goods(pd.get("shares"), f"{field}.shares"),
                _int(pd.get("hidden_shares", default_hidden), f"{field}.hidden_shares", 0),
                _int(pd.get("mortgaged", 0), f"{field}.mortgaged", 0),
                declined,
            )
        )
    view["players"] = rows
    if "dealt" in data:
        dealt = _goods(data["dealt"], "dealt")
    else:
        dealt = _observer_dealt(data.get("history"), observer, n) or [-1] * len(GOODS)
    view["observer_dealt"] = dealt
    auction = data.get("auction")
    view.update(high_bid=0, high_bidder=-1, bidding=[])
    if phase == "auction":
        if not isinstance(auction, Mapping):
            raise TableError("auction: the auction in progress (high_bid, high_bidder, bidding)")
        view["high_bid"] = _int(auction.get("high_bid", 0), "auction.high_bid", 0, _core.MAX_BID)
        bidder = auction.get("high_bidder")
        view["high_bidder"] = -1 if bidder is None else _owner(bidder, "auction.high_bidder", n)
        bidding = auction.get("bidding")
        if not isinstance(bidding, list):
            raise TableError("auction.bidding: the players still bidding, a list")
        view["bidding"] = [_owner(p, f"auction.bidding[{k}]", n) for k, p in enumerate(bidding)]
    home = data.get("stays_home")
    view["stays_home"] = -1 if home is None else _good(home, "stays_home")
    boats = data.get("boats") or {}
    if not isinstance(boats, Mapping):
        raise TableError("boats: an object of the sailing goods")
    rows_b = []
    for good, boat in sorted(boats.items(), key=lambda kv: GOOD_INDEX.get(kv[0], 99)):
        g = _good(good, f"boats.{good}")
        if not isinstance(boat, Mapping):
            raise TableError(f"boats.{good}: an object with position and crew")
        pos = boat.get("position")
        if pos == ARRIVED:
            position = LAST_SPACE + 1
        else:
            position = _int(pos, f"boats.{good}.position", 0)
            if position > LAST_SPACE:
                raise TableError(f"boats.{good}.position: 0..{LAST_SPACE} or {ARRIVED!r}, got {position}")
        crew = boat.get("crew", [])
        if not isinstance(crew, list):
            raise TableError(f"boats.{good}.crew: a list of players, front seat first")
        rows_b.append((g, position, [_owner(p, f"boats.{good}.crew[{k}]", n) for k, p in enumerate(crew)]))
    view["boats"] = rows_b
    spots = data.get("spots") or {}
    if not isinstance(spots, Mapping):
        raise TableError("spots: an object of spot: player")
    owners = [-1] * len(SPOTS)
    for spot, owner in spots.items():
        if spot not in SPOTS:
            raise TableError(f"spots.{spot}: not a spot (the spots are {', '.join(SPOTS)})")
        if owner is not None:
            owners[SPOTS.index(spot)] = _owner(owner, f"spots.{spot}", n)
    view["spots"] = owners
    next_roll = data.get("next_roll")
    view["next_roll"] = 1 if next_roll is None else _int(next_roll, "next_roll", 1)
    view.update(boarding_decider=0, guard_boat=-1, guard_seat=-1)
    boarding = data.get("boarding")
    if phase == "boarding":
        if not isinstance(boarding, Mapping):
            raise TableError("boarding: who decides (decider 0 or 1) and the guarded seat")
        view["boarding_decider"] = _int(boarding.get("decider", 0), "boarding.decider", 0)
        guard = boarding.get("guard")
        if guard is not None:
            if not isinstance(guard, Sequence) or len(guard) != 2:
                raise TableError("boarding.guard: [boat, seat] of the seat the captain took, or null")
            view["guard_boat"] = _int(guard[0], "boarding.guard[0]", 0)
            view["guard_seat"] = _int(guard[1], "boarding.guard[1]", 0)
    view["rounds_left"] = _int(data["rounds_left"], "rounds_left", 1) if "rounds_left" in data else 0
    return view, _rules(data)


def table_state(table: TableLike, seed: int = 0) -> State:
    """The playable state of a table (the others' face-down shares dealt from ``seed``), or
    the state a serialized engine state describes. A table's state has no history: it
    cannot be serialized or replayed, only played on."""
    return table_view(table, seed)[0]


def table_view(table: TableLike, seed: int = 0) -> tuple[State, Optional[int]]:
    """``table_state``, and whose view the table is (None for a serialized state, whose
    shares are all known)."""
    data = _load(table)
    if is_serialized_state(data):
        return State.deserialize(data), None
    fields, rules = table_fields(data)
    try:
        game = Game(fields["num_players"], seed=seed, rules=rules)
    except ValueError as exc:
        raise TableError(str(exc)) from None
    fields["thirteen_to_port"] = game.rules.thirteen_after_last_roll == "port"
    fields["pirate_variant"] = game.rules.pirate_variant
    try:
        view = _core.TableView()
        for name, value in fields.items():
            setattr(view, name, value)
        core = _core.table_state(view, seed)
    except ValueError as exc:
        raise TableError(str(exc)) from None
    return State(game, core), int(fields["observer"])

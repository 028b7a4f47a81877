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

from collections.abc import Mapping
from typing import Any, Optional, Union

from .. import _core
from ..common.inputs import engine_json, json_value
from ..common.text import is_int
from .engine import Game, State

__all__ = ["TableError", "is_serialized_state", "table_state", "table_view"]

TableLike = Union[str, Mapping[str, Any]]


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
            table = json_value(table)
        except ValueError as exc:
            raise TableError(f"table: {exc}") from None
    if not isinstance(table, Mapping):
        raise TableError(f"table: a JSON object, got {type(table).__name__}")
    return dict(table)


def table_state(table: TableLike, seed: int = 0) -> State:
    """The playable state of a table (the others' face-down shares dealt from ``seed``), or
    the state a serialized engine state describes. A table's state has no history: it
    cannot be serialized or replayed, only played on."""
    return table_view(table, seed)[0]


def table_view(table: TableLike, seed: int = 0) -> tuple[State, Optional[int]]:
    """``table_state``, and whose view the table is (None for a serialized state, whose
    shares are all known). The engine reads the table (``_core.read_table``: the reader the
    HTTP routes and the page use too)."""
    data = _load(table)
    if is_serialized_state(data):
        return State.deserialize(data), None
    try:
        text = engine_json(data)
    except ValueError as exc:
        raise TableError(f"table: {exc}") from None
    try:
        core, observer = _core.read_table(text, seed)
    except ValueError as exc:
        raise TableError(str(exc)) from None
    game = Game(core.num_players, seed=seed, rules=data.get("rules"))
    return State(game, core), observer

"""Positions: a voyage state plus the decision that is due (docs/advice.md).

A position's ``moment`` says what kind of decision is due and whose it is:

- ``placement``: a turn of a placement round (``order``, ``to_move``, ``accomplices`` in
  hand, ``declined``);
- ``pilot_small`` / ``pilot_large``: a pilot's move before roll 3;
- ``boarding``: a pirate's choice right after roll 2 (the captain first, then the other).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from .. import _core
from ..common.inputs import engine_read
from .notation import format_moment, notation_to_dict
from .state import VoyageState

KINDS: tuple[str, ...] = _core.MOMENT_KINDS
PILOT_KINDS = ("pilot_small", "pilot_large")


@dataclass(frozen=True)
class Moment:
    """The decision that is due. ``accomplices`` holds only the counts given explicitly."""

    kind: str
    to_move: Optional[str] = None
    order: tuple[str, ...] = ()
    accomplices: Mapping[str, int] = field(default_factory=dict)
    declined: tuple[str, ...] = ()
    protected: Optional[tuple[str, int]] = None  # boarding: (good, seat from 1) the captain just took

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.order:
            out["order"] = list(self.order)
        if self.to_move is not None:
            out["to_move"] = self.to_move
        if self.accomplices:
            out["accomplices"] = dict(self.accomplices)
        if self.declined:
            out["declined"] = list(self.declined)
        if self.protected is not None:
            out["protected"] = {"good": self.protected[0], "seat": self.protected[1]}
        return out


@dataclass(frozen=True)
class Position:
    """A voyage state and the moment of the decision that is due."""

    state: VoyageState
    moment: Moment

    @classmethod
    def from_dict(cls, data: Any, strict: Optional[bool] = None) -> Position:
        """Reads the position JSON (a voyage state with a ``"moment"``); StateError lists
        every problem, each with its path."""
        # The engine reads it (the reader /v1/advise and the page use), every field checked
        # against the state; the round's players the state does not name join its owners.
        read = engine_read(_core.read_position, data, strict)
        m = read["moment"]
        protected = m.get("protected")
        moment = Moment(
            m["kind"],
            m.get("to_move"),
            tuple(m.get("order", ())),
            m.get("accomplices", {}),
            tuple(m.get("declined", ())),
            None if protected is None else (protected["good"], protected["seat"]),
        )
        return cls(VoyageState._from_read(read["state"], tuple(read["extra_owners"])), moment)

    def to_dict(self) -> dict[str, Any]:
        out = self.state.to_dict()
        out["moment"] = self.moment.to_dict()
        return out

    def __str__(self) -> str:
        return f"{self.state} {format_moment(self.moment.to_dict())}"

    def hand(self, player: str) -> int:
        """Accomplices ``player`` holds in hand: as given, else the limit minus those on board."""
        if player in self.moment.accomplices:
            return self.moment.accomplices[player]
        return max(0, self.state.max_accomplices - _on_board(self.state, player))

    @property
    def to_move(self) -> str:
        """Whose decision it is (for pilots and boarding, the holder of the spot by default)."""
        m = self.moment
        if m.to_move is not None:
            return m.to_move
        return self.state.spots[m.kind if m.kind in PILOT_KINDS else "pirate_1"]

    @property
    def movers(self) -> tuple[str, ...]:
        """Placement: the players still to choose this round, in turn, ``to_move`` first."""
        m = self.moment
        later = m.order[m.order.index(self.to_move) :]
        return tuple(p for p in later if p == self.to_move or (p not in m.declined and self.hand(p) > 0))


def parse_position(text: str, strict: Optional[bool] = True) -> Position:
    """Reads a position in the one-line notation, e.g.
    ``r3 ginseng@9:a silk@11:b jade@10:c turn=b order=a,b,c``."""
    return Position.from_dict(notation_to_dict(text), strict)


def as_position(position: Union[Position, Mapping[str, Any], str], strict: Optional[bool] = None) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return parse_position(position, True if strict is None else strict)
    return Position.from_dict(position, strict)


def _on_board(state: VoyageState, player: str) -> int:
    return sum(b.crew.count(player) for b in state.boats.values()) + sum(
        o == player for o in state.spots.values()
    )

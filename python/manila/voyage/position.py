"""Positions: a voyage state plus the decision that is due (docs/advice.md).

A position's ``moment`` says what kind of decision is due and whose it is:

- ``placement``: a turn of a placement round (``order``, ``to_move``, ``accomplices`` in
  hand, ``declined``);
- ``pilot_small`` / ``pilot_large``: a pilot's move before roll 3;
- ``boarding``: a pirate's choice right after roll 2 (the captain first, then the other).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Optional, Union

from ..common.errors import Problem, StateError
from ..common.text import did_you_mean, is_int
from ..common.vocab import GOODS, PLAYER_COUNTS
from .notation import format_moment, notation_to_dict
from .state import VoyageState

KINDS = ("placement", "pilot_small", "pilot_large", "boarding")
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
        if not isinstance(data, Mapping):
            raise StateError([Problem("", f"a position must be a JSON object, got {type(data).__name__}")])
        if "moment" not in data:
            raise StateError(
                [
                    Problem(
                        "moment",
                        "missing: a position is a voyage state with the "
                        'decision that is due, e.g. {"kind": "pilot_small"}',
                    )
                ]
            )
        rest = {k: v for k, v in data.items() if k != "moment"}
        problems: list[Problem] = []
        state = None
        try:
            state = VoyageState.from_dict(rest, strict)
        except StateError as exc:
            problems += exc.problems
        moment = _MomentParser(problems).parse(data["moment"], state)
        if problems:
            raise StateError(problems)
        assert state is not None and moment is not None
        return cls(_with_owners(state, moment.order), moment)

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


def _with_owners(state: VoyageState, names: tuple[str, ...]) -> VoyageState:
    """The state with the round's players among its owners (they may hold nothing yet)."""
    missing = tuple(n for n in names if n not in state.owners)
    return replace(state, extra_owners=state.extra_owners + missing) if missing else state


class _MomentParser:
    def __init__(self, problems: list[Problem]):
        self.problems = problems

    def fail(self, path: str, message: str) -> None:
        self.problems.append(Problem(f"moment{'.' + path if path else ''}", message))

    def name(self, value: Any, path: str) -> Optional[str]:
        if isinstance(value, str) and value.strip():
            return value
        self.fail(path, f"a player's name must be a non-empty string, got {value!r}")
        return None

    def names(self, value: Any, path: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            self.fail(path, "must be a list of players' names")
            return ()
        out = tuple(n for i, v in enumerate(value) if (n := self.name(v, f"{path}[{i}]")) is not None)
        for i, n in enumerate(out):
            if n in out[:i]:
                self.fail(path, f"{n} is named twice")
        return out

    def parse(self, data: Any, state: Optional[VoyageState]) -> Optional[Moment]:
        if not isinstance(data, Mapping):
            self.fail("", 'must be an object such as {"kind": "placement", "order": [...], "to_move": ...}')
            return None
        known = ("kind", "order", "to_move", "accomplices", "declined", "protected")
        for key in data:
            if key not in known:
                self.fail(str(key), f"unknown key{did_you_mean(key, known)}; a moment has {', '.join(known)}")
        kind = data.get("kind")
        if kind not in KINDS:
            self.fail("kind", f"must be one of {', '.join(KINDS)}{did_you_mean(kind, KINDS)}, got {kind!r}")
            return None
        to_move = self.name(data["to_move"], "to_move") if data.get("to_move") is not None else None
        order = self.names(data.get("order"), "order")
        declined = self.names(data.get("declined"), "declined")
        accomplices = self.hands(data.get("accomplices"))
        protected = self.protected(data.get("protected"))
        moment = Moment(kind, to_move, order, accomplices, declined, protected)
        if state is None:
            return moment
        if kind == "placement":
            self.placement(moment, state)
        else:
            for key, value in (("order", order), ("accomplices", accomplices), ("declined", declined)):
                if value:
                    self.fail(key, f"belongs to a placement turn, not to {kind}")
            if kind in PILOT_KINDS:
                self.pilot(moment, state)
            else:
                self.boarding(moment, state)
        return moment

    def hands(self, data: Any) -> dict[str, int]:
        if data is None:
            return {}
        if not isinstance(data, Mapping):
            self.fail("accomplices", 'must be an object of accomplices in hand, e.g. {"red": 2}')
            return {}
        out = {}
        for player, n in data.items():
            if self.name(player, f"accomplices.{player}") is None:
                continue
            if is_int(n) and n >= 0:
                out[player] = n
            else:
                self.fail(f"accomplices.{player}", f"must be a whole number 0 or more, got {n!r}")
        return out

    def protected(self, data: Any) -> Optional[tuple[str, int]]:
        if data is None:
            return None
        if (
            isinstance(data, Mapping)
            and data.get("good") in GOODS
            and is_int(data.get("seat"))
            and 1 <= data["seat"] <= 4
            and set(data) == {"good", "seat"}
        ):
            return data["good"], data["seat"]
        self.fail("protected", 'must be {"good": ..., "seat": 1..4}: the seat the captain just boarded')
        return None

    def placement(self, m: Moment, state: VoyageState) -> None:
        if not m.order:
            self.fail("order", "missing: this placement round's order, harbour master first")
            return
        if m.to_move is None:
            self.fail("to_move", "missing: whose turn it is")
            return
        if m.to_move not in m.order:
            self.fail("to_move", f"{m.to_move} is not in the order ({', '.join(m.order)})")
            return
        most = PLAYER_COUNTS[-1]
        everyone = dict.fromkeys((*state.owners, *m.order))
        if len(everyone) > most:
            game = f"a game has at most {most}"
            self.fail(
                "order",
                f"the state and the order name {len(everyone)} players ({', '.join(everyone)}), but {game}",
            )
            return
        for player in m.accomplices:
            if player not in m.order:
                self.fail(f"accomplices.{player}", f"{player} is not in the order")
        for player in m.declined:
            if player not in m.order:
                self.fail("declined", f"{player} is not in the order")
        if m.to_move in m.declined:
            self.fail(
                "to_move", f"{m.to_move} has declined: a player who declines places no more this voyage"
            )
        limit = state.max_accomplices
        for player in m.order:
            held = _on_board(state, player)
            hand = m.accomplices.get(player, max(0, limit - held))
            if held + hand > limit:
                self.fail(
                    f"accomplices.{player}",
                    f"{player} has {held} on the board and {hand} in hand, but a player has only {limit}",
                )
            elif player == m.to_move and hand == 0:
                self.fail("to_move", f"{player} has no accomplice in hand ({held} on the board)")
        if m.protected is not None:
            self.fail("protected", "belongs to boarding, not to a placement turn")

    def pilot(self, m: Moment, state: VoyageState) -> None:
        if state.next_roll != 3:
            self.fail(
                "kind",
                f"the pilots act after the last placement round, before roll 3; "
                f"this voyage is before roll {state.next_roll}",
            )
            return
        holder = state.spots.get(m.kind)
        if holder is None:
            self.fail("kind", f"nobody holds {m.kind} (spots.{m.kind})")
        elif m.to_move is not None and m.to_move != holder:
            self.fail("to_move", f"{m.kind} is {holder}'s, not {m.to_move}'s")
        if m.kind == "pilot_large" and "pilot_small" in state.spots:
            self.fail("kind", "the small pilot moves first: take pilot_small off the spots once it has acted")
        if m.protected is not None:
            self.fail("protected", "belongs to boarding, not to a pilot's move")

    def boarding(self, m: Moment, state: VoyageState) -> None:
        if state.next_roll != 3:
            self.fail(
                "kind",
                f"boarding happens right after roll 2 (next_roll 3); this voyage is "
                f"before roll {state.next_roll}",
            )
            return
        if not any(b.position == 13 for b in state.boats.values()):
            self.fail("kind", "boarding needs a boat that roll 2 brought onto 13")
        pirates = [state.spots.get("pirate_1"), state.spots.get("pirate_2")]
        if pirates[0] is None:
            self.fail("kind", "no pirate is on the ship (spots.pirate_1)")
        elif m.to_move is not None and m.to_move not in pirates:
            self.fail("to_move", f"{m.to_move} is not a pirate on the ship")
        elif m.protected is not None:
            if m.to_move is not None and m.to_move != pirates[0]:
                self.fail("protected", "only the pirate left after the captain boarded has a seat to respect")
            elif m.protected[0] not in state.boats or len(state.boats[m.protected[0]].crew) < m.protected[1]:
                self.fail("protected", f"{m.protected[0]} has no seat {m.protected[1]} taken")

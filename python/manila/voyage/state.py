"""The voyage state as a typed, validated Python object (docs/numbers.md).

Beside the board it may carry what values a player's wealth: the shares each player
holds, the goods' prices, what each player can pay now, and the objective the players
maximise (voyage income, or income plus share gains).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Optional, Union

from .. import _core
from ..common.errors import Problem, StateError
from ..common.inputs import engine_read
from ..common.vocab import ARRIVED, GOOD_INDEX, GOODS, SPOTS, accomplice_limit
from .board import Boat, Rules
from .notation import format_state, notation_to_dict
from .reach import reachability_problems

_NO_SHARES = [0] * len(GOODS)


def _share_row(held: Optional[Mapping[str, int]]) -> list[int]:
    """One owner's share counts in good order, as the engine takes them."""
    if not held:
        return _NO_SHARES
    row = [0] * len(GOODS)
    for good, n in held.items():
        row[GOOD_INDEX[good]] = n
    return row


@dataclass(frozen=True)
class VoyageState:
    """A voyage about to make roll ``next_roll``: boats (in good order), occupied spots, owners."""

    next_roll: int
    boats: Mapping[str, Boat]
    spots: Mapping[str, str] = field(default_factory=dict)
    player: Optional[str] = None
    players: Optional[int] = None
    rules: Rules = Rules()  # noqa: RUF009 (frozen: one shared default is safe)
    objective: str = "income"
    shares: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # owner -> good -> count
    prices: Mapping[str, int] = field(default_factory=dict)  # good -> price; missing goods at 0
    budget: Mapping[str, int] = field(default_factory=dict)  # owner -> most they can pay now
    # Players who hold nothing yet but take part (a placement round's order), after the rest.
    extra_owners: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: Any, strict: Optional[bool] = None) -> VoyageState:
        """Builds a state from the JSON contract, raising StateError with every problem found.

        With ``strict`` (the default; or the JSON's own ``"strict"`` key when the argument
        is None) positions that cannot arise from a legal start are refused too.
        """
        # The engine reads it (the reader the routes and the page use): the state as the
        # contract writes it, every field checked, or every problem.
        return cls._from_read(engine_read(_core.read_voyage_state, data, strict))

    @classmethod
    def _from_read(cls, read: Mapping[str, Any], extra_owners: tuple[str, ...] = ()) -> VoyageState:
        """The state the engine's reader read (written as ``to_dict`` writes it): checked."""
        return cls(
            next_roll=read["next_roll"],
            boats={g: Boat(b["position"], tuple(b["crew"])) for g, b in read["boats"].items()},
            spots=read["spots"],
            player=read.get("player"),
            players=read.get("players"),
            rules=Rules(**read["rules"]),
            objective=read.get("objective", "income"),
            shares=read.get("shares", {}),
            prices=read.get("prices", {}),
            budget=read.get("budget", {}),
            extra_owners=extra_owners,
        )

    def __str__(self) -> str:
        """The one-line notation (see manila.notation); ``manila.parse`` reads it back."""
        return format_state(self.to_dict())

    def reachability_problems(self) -> list[Problem]:
        """Why the boats cannot stand where they are in a real voyage; empty if they can."""
        return reachability_problems(self.next_roll, {g: b.position for g, b in self.boats.items()})

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules.to_dict(), "next_roll": self.next_roll}
        if self.player is not None:
            out["player"] = self.player
        if self.players is not None:
            out["players"] = self.players
        out["boats"] = {g: b.to_dict() for g, b in self.boats.items()}
        out["spots"] = dict(self.spots)
        if self.objective != "income":
            out["objective"] = self.objective
        if self.shares:
            out["shares"] = {o: dict(held) for o, held in self.shares.items()}
        if self.prices:
            out["prices"] = dict(self.prices)
        if self.budget:
            out["budget"] = dict(self.budget)
        return out

    @cached_property
    def owners(self) -> tuple[str, ...]:
        """Every owner named in the state: crews in good order, spots, the player, then
        those named only in ``shares`` or ``budget``."""
        seen = dict.fromkeys([o for boat in self.boats.values() for o in boat.crew])
        seen.update(dict.fromkeys([self.spots[s] for s in SPOTS if s in self.spots]))
        if self.player is not None:
            seen[self.player] = None
        for more in (self.shares, self.budget, self.extra_owners):
            if more:
                seen.update(dict.fromkeys(more))
        return tuple(seen)

    @property
    def max_accomplices(self) -> int:
        return accomplice_limit(self.players)

    @property
    def point_of_view(self) -> int:
        """The engine's owner id of ``player``, or -1 for a fresh player."""
        return -1 if self.player is None else self.owners.index(self.player)

    def to_core(self) -> _core.Voyage:
        """The engine's form of this state; owners are numbered in the order of ``owners``."""
        return self._core

    @cached_property
    def _core(self) -> _core.Voyage:
        # Built once per state: states are immutable, and bots evaluate the same one often.
        ids = {name: i for i, name in enumerate(self.owners)}
        return _core.Voyage(
            next_roll=self.next_roll,
            goods=[GOOD_INDEX[g] for g in self.boats],
            positions=[_core.ARRIVED if b.position == ARRIVED else b.position for b in self.boats.values()],
            crews=[[ids[o] for o in b.crew] for b in self.boats.values()],
            spots=[ids[self.spots[s]] if s in self.spots else -1 for s in SPOTS],
            num_owners=len(ids),
            thirteen_to_port=self.rules.thirteen_after_last_roll == "port",
            pirate_variant=self.rules.pirate_variant,
            wealth=self.objective == "wealth",
            # Empty lists leave the engine's defaults: price 0, no shares, no budget limit.
            prices=[self.prices.get(g, 0) for g in GOODS] if self.prices else [],
            shares=[_share_row(self.shares.get(o)) for o in self.owners] if self.shares else [],
            budgets=[self.budget.get(o, -1) for o in self.owners] if self.budget else [],
        )


def parse(text: str, strict: Optional[bool] = True) -> VoyageState:
    """Reads a state written in the one-line notation (see manila.notation)."""
    return VoyageState.from_dict(notation_to_dict(text), strict)


def as_state(state: Union[VoyageState, Mapping[str, Any], str], strict: Optional[bool] = None) -> VoyageState:
    """A VoyageState from a state object, its JSON form, or its notation.

    A VoyageState is taken as it is unless strict=True asks for the reachability check.
    """
    if isinstance(state, VoyageState):
        problems = state.reachability_problems() if strict else []
        if problems:
            raise StateError(problems)
        return state
    if isinstance(state, str):
        return parse(state, True if strict is None else strict)
    return VoyageState.from_dict(state, strict)


def validate(
    data: Union[VoyageState, Mapping[str, Any], str], strict: Optional[bool] = None
) -> list[Problem]:
    """Every problem of a state (JSON form, notation or object); an empty list if valid."""
    try:
        as_state(data, strict)
    except StateError as exc:
        return exc.problems
    return []

"""What every state of a sweep shares: one object, given to manila.sweep, manila.rank_starts,
the heat maps and the command line alike.

    >>> import manila
    >>> pattern = manila.Pattern(crews=(1, 1, 0), pirates=1, player="crew1")
    >>> manila.sweep(3, pattern=pattern, goods="ginseng,silk,jade").next_roll
    3
    >>> manila.sweep(3, crews=(1, 1, 0), pirates=1, player="crew1", goods="ginseng,silk,jade").pattern == pattern
    True

Its fields may also be given one by one as keywords of those functions (as above), on top of
``pattern=`` when both are given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union, cast

from .. import _core
from ..common.errors import Problem, StateError
from ..common.text import did_you_mean, is_int
from ..voyage.state import VoyageState

PIRATE_OWNERS = ("pirate1", "pirate2")

Crews = Union[None, Sequence[int], Sequence[Sequence[str]], Mapping[str, Sequence[str]]]
# The engine's form of a pattern, as analyse_rows takes it: crews (owner ids by boat), spots,
# number of owners, thirteen to port, pirate variant, wealth, prices, shares, budgets.
CorePattern = tuple[
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    int,
    bool,
    bool,
    bool,
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
]


@dataclasses.dataclass(frozen=True)
class Pattern:
    """What every state of a sweep shares: crews (by boat, in good order), occupied spots,
    the point of view, the rules and what values wealth.

    ``crews`` is None (empty boats), three crew sizes (each seat a different opponent,
    named crew1, crew2, ... boat by boat), three lists of owners by boat, or a
    ``{good: [owners]}`` mapping when the family has one good triple. ``pirates`` 1 or 2
    puts opponents pirate1 (and pirate2) on the pirate ship. ``spots`` maps further spots
    to owners. ``player`` is the point of view (None: a fresh player holding nothing);
    ``players`` the number of players (3: four accomplices each); ``rules`` the voyage
    state's rule options. ``objective``, ``shares``, ``prices`` and ``budget`` are the voyage
    state's keys of the same names (``{player: {good: n}}``, ``{good: price}``, ``{player:
    n}``); they are checked where a state's are, when a sweep builds its engine pattern.
    """

    crews: Crews = None
    pirates: Optional[int] = None
    spots: Optional[Mapping[str, str]] = None
    player: Optional[str] = None
    players: Optional[int] = None
    rules: Optional[Mapping[str, Any]] = None
    objective: Optional[str] = None
    shares: Optional[Mapping[str, Mapping[str, int]]] = None
    prices: Optional[Mapping[str, int]] = None
    budget: Optional[Mapping[str, int]] = None

    def __post_init__(self) -> None:
        pirates = self.pirates
        if pirates is not None and not (is_int(pirates) and 0 <= pirates <= 2):
            raise StateError([Problem("pirates", f"must be 0, 1 or 2, got {pirates!r}")])
        for k in range(pirates or 0):
            if f"pirate_{k + 1}" in (self.spots or {}):
                raise StateError([Problem(f"spots.pirate_{k + 1}", "already taken by pirates=")])
        if self.crews is not None and not isinstance(self.crews, Mapping):
            listed = list(self.crews)
            if len(listed) != 3:
                raise StateError([Problem("crews", "three crews (or crew sizes), one per boat, are needed")])
            if not all(is_int(c) for c in listed) and any(isinstance(c, str) or is_int(c) for c in listed):
                raise StateError([Problem("crews", "give three crew sizes or three lists of owners")])

    @classmethod
    def of(cls, pattern: Optional[Pattern] = None, **fields: Any) -> Pattern:
        """``pattern`` (default: the empty one) with ``fields`` given one by one on top: how
        manila.sweep and manila.rank_starts read their keywords."""
        names = [f.name for f in dataclasses.fields(cls)]
        for name in fields:
            if name not in names:
                raise TypeError(f"unexpected keyword argument {name!r}{did_you_mean(name, names)}")
        if pattern is not None and not isinstance(pattern, Pattern):
            raise TypeError(f"pattern: expected a manila.Pattern, got {type(pattern).__name__}")
        return dataclasses.replace(pattern or cls(), **fields)

    def crews_of(self, goods: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """The crews of the three boats of ``goods``, by boat."""
        crews = self.crews
        if crews is None:
            return ((), (), ())
        if isinstance(crews, Mapping):
            return tuple(tuple(crews.get(g, ())) for g in goods)
        listed = list(crews)
        if all(is_int(c) for c in listed):
            core_crews, _, _ = _core.shape_pattern(cast("list[int]", listed), 0)
            return tuple(tuple(f"crew{o + 1}" for o in crew) for crew in core_crews)
        return tuple(tuple(c) for c in cast("list[Sequence[str]]", listed))  # owner lists, checked

    def all_spots(self) -> dict[str, str]:
        """The occupied spots, the pirates' included."""
        out = dict(self.spots or {})
        for k in range(self.pirates or 0):
            out[f"pirate_{k + 1}"] = PIRATE_OWNERS[k]
        return out

    def state(self, next_roll: int, goods: Sequence[str], positions: Sequence[Any]) -> dict[str, Any]:
        """The voyage-state JSON of one state of the pattern."""
        out: dict[str, Any] = {"next_roll": next_roll}
        if self.rules:
            out["rules"] = dict(self.rules)
        if self.player is not None:
            out["player"] = self.player
        if self.players is not None:
            out["players"] = self.players
        out["boats"] = {
            g: {"position": p, "crew": list(c)} for g, p, c in zip(goods, positions, self.crews_of(goods))
        }
        out["spots"] = self.all_spots()
        # Kept as given: the state parser reports what is wrong with them, field by field.
        for key in ("objective", "shares", "prices", "budget"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    def core(
        self, next_roll: int, triples: Sequence[tuple[str, ...]]
    ) -> tuple[CorePattern, int, int, tuple[str, ...]]:
        """(engine pattern, point-of-view owner id, accomplice limit, owners), checked once
        per good triple exactly as manila.evaluate checks a state. The engine pattern is read
        off the state's own engine voyage, so a sweep's rows are built as evaluate builds them."""
        if isinstance(self.crews, Mapping):
            if len(triples) != 1:
                raise StateError(
                    [
                        Problem(
                            "crews",
                            "crews by good need exactly one good triple "
                            "(goods=...); give three crews by boat otherwise",
                        )
                    ]
                )
            for good in self.crews:
                if good not in triples[0]:
                    raise StateError(
                        [Problem(f"crews.{good}", f"not a sailing good of {', '.join(triples[0])}")]
                    )
        cores = []
        for goods in triples:
            state = VoyageState.from_dict(self.state(next_roll, goods, [0, 0, 0]), strict=False)
            voyage = state.to_core()
            cores.append(
                (
                    (
                        tuple(map(tuple, voyage.crews)),
                        tuple(voyage.spots),
                        voyage.num_owners,
                        state.rules.thirteen_after_last_roll == "port",
                        state.rules.pirate_variant,
                        voyage.wealth,
                        tuple(voyage.prices),
                        tuple(map(tuple, voyage.shares)),
                        tuple(voyage.budgets),
                    ),
                    state.point_of_view,
                    state.max_accomplices,
                    state.owners,
                )
            )
        # The owners, and so the engine's pattern, are the same for every good triple.
        return cores[0]

    def describe(self) -> str:
        """A few words for a chart's title: pirates, crews, spots, whose view."""
        parts = []
        if self.pirates:
            parts.append(f"{self.pirates} pirate(s)")
        if self.crews:
            parts.append(f"crews {self.crews}")
        if self.spots:
            parts.append(", ".join(f"{s}={o}" for s, o in self.spots.items()))
        if self.player:
            parts.append(f"for {self.player}")
        return "; ".join(parts)

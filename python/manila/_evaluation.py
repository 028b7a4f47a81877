"""Exact evaluation of voyage states: the spot table, the boat table and the incomes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from math import gcd
from typing import Any, Optional, TypedDict, Union

from . import _core
from ._state import GOODS, SPOTS, VoyageState, as_state, is_mapping

TABLE_SPOTS: tuple[str, ...] = GOODS + SPOTS
OUTCOMES = ("port", "shipyard", "plundered")

StateLike = Union[VoyageState, Mapping[str, Any], str]


class SpotValue(TypedDict):
    """What an option costs and its expected net value (a Fraction when exact)."""

    cost: int
    expected_net: Union[float, Fraction]


def _exact_text(num: int, den: int) -> str:
    g = gcd(num, den)
    return f"{num // g}/{den // g}"


class Evaluation:
    """The exact evaluation of one voyage state (docs/numbers.md).

    Numbers come as floats, or as ``fractions.Fraction`` when ``exact`` is true;
    ``to_dict()`` gives the JSON of the contract.
    """

    def __init__(self, state: VoyageState, table: _core.Table, row: int, exact: bool):
        self.state = state
        self.exact = exact
        self._table = table
        self._row = row

    def _number(self, num: int) -> Union[float, Fraction]:
        den = int(self._table.denominator[self._row])
        return Fraction(num, den) if self.exact else num / den

    @property
    def denominator(self) -> int:
        """The common denominator of every value: 6 ** (3 * rolls left)."""
        return int(self._table.denominator[self._row])

    @property
    def spots(self) -> dict[str, SpotValue]:
        """Each spot the point-of-view player may take now: its cost and expected net value."""
        t, r = self._table, self._row
        legal, cost, net = t.legal[r], t.cost[r], t.net[r]
        return {
            name: {"cost": int(cost[i]), "expected_net": self._number(int(net[i]))}
            for i, name in enumerate(TABLE_SPOTS)
            if legal[i]
        }

    @property
    def boats(self) -> dict[str, dict[str, Union[float, Fraction]]]:
        """Per sailing good, the probability that it ends in port, in the shipyard or plundered."""
        counts = self._table.boats[self._row]
        return {
            good: {o: self._number(int(counts[i][k])) for k, o in enumerate(OUTCOMES)}
            for i, good in enumerate(self.state.boats)
        }

    @property
    def incomes(self) -> dict[str, Union[float, Fraction]]:
        """The expected voyage income of every owner named in the state."""
        row = self._table.incomes[self._row]
        return {name: self._number(int(row[i])) for i, name in enumerate(self.state.owners)}

    @property
    def payoffs(self) -> dict[str, Union[float, Fraction]]:
        """The expected payoff of every owner: the voyage income, plus the share gains when
        the state's objective is wealth (then the same as ``incomes``)."""
        row = self._table.payoffs[self._row]
        return {name: self._number(int(row[i])) for i, name in enumerate(self.state.owners)}

    def best_spot(self) -> Optional[str]:
        """The spot with the highest expected net value (first in canonical order on ties)."""
        spots = self.spots
        return max(spots, key=lambda s: spots[s]["expected_net"]) if spots else None

    def to_dict(self, exact: Optional[bool] = None) -> dict[str, Any]:
        """The evaluation JSON (docs/numbers.md): floats, or "n/d" strings when exact."""
        exact = self.exact if exact is None else exact
        den = self.denominator
        conv = (lambda n: _exact_text(n, den)) if exact else (lambda n: n / den)
        t, r = self._table, self._row
        legal, cost, net = t.legal[r].tolist(), t.cost[r].tolist(), t.net[r].tolist()
        boats, incomes, payoffs = t.boats[r].tolist(), t.incomes[r].tolist(), t.payoffs[r].tolist()
        return {
            "spots": {
                name: {"cost": cost[i], "expected_net": conv(net[i])}
                for i, name in enumerate(TABLE_SPOTS)
                if legal[i]
            },
            "boats": {
                good: {o: conv(boats[i][k]) for k, o in enumerate(OUTCOMES)}
                for i, good in enumerate(self.state.boats)
            },
            "incomes": {name: conv(incomes[i]) for i, name in enumerate(self.state.owners)},
            "payoffs": {name: conv(payoffs[i]) for i, name in enumerate(self.state.owners)},
        }

    def __repr__(self) -> str:
        return f"Evaluation({self.to_dict()!r})"


def _wants_exact(state: StateLike, exact: Optional[bool]) -> bool:
    """``exact`` when given, else the JSON's own ``"exact": true`` (docs/numbers.md)."""
    if exact is not None:
        return exact
    return is_mapping(state) and state.get("exact") is True


def evaluate(
    state: StateLike,
    exact: Optional[bool] = None,
    *,
    player: Optional[str] = None,
    threads: int = 0,
    strict: Optional[bool] = None,
) -> Evaluation:
    """Evaluates one voyage state: a dict of the JSON contract, its notation, or a VoyageState.

    ``exact`` gives fractions instead of floats (None: as the JSON's ``"exact"`` says,
    floats by default). ``player`` overrides the state's point of view. ``threads``
    bounds the threads used for the spot table (0: chosen by the amount of work).
    ``strict=False`` accepts positions no real voyage can reach (see
    VoyageState.from_dict).
    """
    exact = _wants_exact(state, exact)
    state = _with_player(as_state(state, strict), player)
    table = _core.analyse(state.to_core(), state.point_of_view, state.max_accomplices, threads)
    return Evaluation(state, table, 0, exact)


def evaluate_many(
    states: Iterable[StateLike],
    exact: Optional[bool] = None,
    *,
    threads: int = 0,
    strict: Optional[bool] = None,
) -> list[Evaluation]:
    """Evaluates many states in one call into C++, spread over ``threads`` (0: all cores)."""
    given = list(states)
    parsed = [as_state(s, strict) for s in given]
    table = _core.analyse_batch(
        [s.to_core() for s in parsed],
        [s.point_of_view for s in parsed],
        [s.max_accomplices for s in parsed],
        threads,
    )
    return [Evaluation(s, table, i, _wants_exact(g, exact)) for i, (g, s) in enumerate(zip(given, parsed))]


def _with_player(state: VoyageState, player: Optional[str]) -> VoyageState:
    if player is None or player == state.player:
        return state
    data = state.to_dict()
    data["player"] = player
    return VoyageState.from_dict(data, strict=False)

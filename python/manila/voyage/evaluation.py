"""Exact evaluation of voyage states: the spot table, the boat table and the incomes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, Optional, TypedDict, Union

from .. import _core
from ..common.limits import as_list, check_flag, check_threads
from ..common.text import is_mapping
from ..common.vocab import GOODS, SPOTS
from .state import VoyageState, as_state

TABLE_SPOTS: tuple[str, ...] = GOODS + SPOTS
OUTCOMES = ("port", "shipyard", "plundered")  # the order of a row's boat numbers

StateLike = Union[VoyageState, Mapping[str, Any], str]


class SpotValue(TypedDict):
    """What an option costs and its expected net value (a Fraction when exact)."""

    cost: int
    expected_net: Union[float, Fraction]


class _Read:
    """A dict the engine's reader read and evaluated (``_core.evaluate_state``): the
    VoyageState is made of the engine's copy of it only when asked for."""

    __slots__ = ("_copy", "_state", "_strict", "goods", "owners")

    def __init__(
        self, copy: _core.JsonValue, strict: Optional[bool], goods: tuple[str, ...], owners: tuple[str, ...]
    ):
        self._copy = copy
        self._strict = strict
        self._state: Optional[VoyageState] = None
        self.goods = goods
        self.owners = owners

    def state(self) -> VoyageState:
        if self._state is None:
            self._state = as_state(self._copy.to_python(), self._strict)
        return self._state


class Evaluation:
    """The exact evaluation of one voyage state (docs/numbers.md).

    Numbers come as floats, or as ``fractions.Fraction`` when ``exact`` is true;
    ``to_dict()`` gives the JSON of the contract.
    """

    def __init__(self, state: Union[VoyageState, _Read], table: _core.Table, row: int, exact: bool):
        # state: the VoyageState, or the engine's reading of a dict, which makes it on demand.
        self._source = state
        self._goods = state.goods if isinstance(state, _Read) else tuple(state.boats)
        self._owners = state.owners
        self._table, self._row = table, row
        self._row_numbers: Optional[_core._Row] = None
        self.exact = exact

    @property
    def _numbers(self) -> _core._Row:
        if self._row_numbers is None:
            self._row_numbers = self._table.row(self._row)
        return self._row_numbers

    @property
    def state(self) -> VoyageState:
        """The evaluated state."""
        source = self._source
        return source.state() if isinstance(source, _Read) else source

    def _number(self, num: int) -> Union[float, Fraction]:
        den = self._numbers[0]
        return Fraction(num, den) if self.exact else num / den

    @property
    def denominator(self) -> int:
        """The common denominator of every value: 6 ** (3 * rolls left)."""
        return self._numbers[0]

    @property
    def spots(self) -> dict[str, SpotValue]:
        """Each spot the point-of-view player may take now: its cost and expected net value."""
        _, legal, cost, net = self._numbers[:4]
        return {
            name: {"cost": cost[i], "expected_net": self._number(net[i])}
            for i, name in enumerate(TABLE_SPOTS)
            if legal[i]
        }

    @property
    def boats(self) -> dict[str, dict[str, Union[float, Fraction]]]:
        """Per sailing good, the probability that it ends in port, in the shipyard or plundered."""
        counts = self._numbers[4]
        return {
            good: {o: self._number(counts[i][k]) for k, o in enumerate(OUTCOMES)}
            for i, good in enumerate(self._goods)
        }

    @property
    def incomes(self) -> dict[str, Union[float, Fraction]]:
        """The expected voyage income of every owner named in the state."""
        row = self._numbers[5]
        return {name: self._number(row[i]) for i, name in enumerate(self._owners)}

    @property
    def payoffs(self) -> dict[str, Union[float, Fraction]]:
        """The expected payoff of every owner: the voyage income, plus the share gains when
        the state's objective is wealth (then the same as ``incomes``)."""
        row = self._numbers[6]
        return {name: self._number(row[i]) for i, name in enumerate(self._owners)}

    def best_spot(self) -> Optional[str]:
        """The spot with the highest expected net value (first in canonical order on ties)."""
        spots = self.spots
        return max(spots, key=lambda s: spots[s]["expected_net"]) if spots else None

    def to_dict(self, exact: Optional[bool] = None) -> dict[str, Any]:
        """The evaluation JSON (docs/numbers.md), as the engine writes it: floats, or "n/d"
        strings when exact."""
        exact = self.exact if exact is None else exact
        return _core.evaluation_json(self._table, self._row, self._goods, self._owners, exact)

    def __repr__(self) -> str:
        return f"Evaluation({self.to_dict()!r})"


def check_options(exact: Any, threads: Any, strict: Any) -> None:
    """The options every voyage computation takes (evaluate, evaluate_many, advise)."""
    check_flag(exact, "exact", optional=True)
    check_threads(threads)
    check_flag(strict, "strict", optional=True)


def wants_exact(state: object, exact: Optional[bool]) -> bool:
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
    check_options(exact, threads, strict)
    exact = wants_exact(state, exact)
    if player is None and type(state) is dict:
        # The engine's reader of the state reads a plain dict as it is (no JSON text in
        # between); whatever it refuses, from_dict below reads again for every problem.
        read = _core.evaluate_state(state, strict, threads)
        if read is not None:
            copy, goods, owners, table = read
            return Evaluation(_Read(copy, strict, goods, owners), table, 0, exact)
    parsed = _with_player(as_state(state, strict), player)
    table = _core.analyse(parsed.to_core(), parsed.point_of_view, parsed.max_accomplices, threads)
    return Evaluation(parsed, table, 0, exact)


def evaluate_many(
    states: Iterable[StateLike],
    exact: Optional[bool] = None,
    *,
    threads: int = 0,
    strict: Optional[bool] = None,
) -> list[Evaluation]:
    """Evaluates many states in one call into C++, spread over ``threads`` (0: all cores)."""
    check_options(exact, threads, strict)
    given = as_list(states, "states")
    parsed = [as_state(s, strict) for s in given]
    table = _core.analyse_batch(
        [s.to_core() for s in parsed],
        [s.point_of_view for s in parsed],
        [s.max_accomplices for s in parsed],
        threads,
    )
    return [Evaluation(s, table, i, wants_exact(g, exact)) for i, (g, s) in enumerate(zip(given, parsed))]


def _with_player(state: VoyageState, player: Optional[str]) -> VoyageState:
    if player is None or player == state.player:
        return state
    data = state.to_dict()
    data["player"] = player
    return VoyageState.from_dict(data, strict=False)

"""Advice at every decision of a voyage (docs/advice.md): every option of the player whose
decision is due, valued exactly, knowing that everyone after answers with their own best.

    >>> import manila
    >>> advice = manila.advise("r3 ginseng@9:a silk@11:b jade@10:c turn=a order=a,b,c")
    >>> advice.best
    'pirate_1'
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Optional, Union

from .. import _core
from .evaluation import TABLE_SPOTS, SpotValue, check_options, wants_exact
from .position import Position, as_position

Number = Union[float, Fraction]
DECLINE = "decline"

PositionLike = Union[Position, Mapping[str, Any], str]


class Advice:
    """Every option of the decision that is due, best first in ``options``' values.

    ``options``: name -> {"cost", "expected_net"} (the option's value to the decider minus
    that of declining, or of the first option for pilots and boarding); ``best``; ``line``:
    (player, option) of the best option and every later choice it leads to; ``payoffs``:
    every player's expected payoff after that line. Fractions when ``exact``.
    """

    def __init__(
        self,
        position: Position,
        exact: bool,
        denominator: int,
        to_move: str,
        names: list[str],
        costs: list[int],
        nets: list[int],
        best: int,
        line: list[tuple[str, str]],
        payoffs: list[int],
    ):
        self.position = position
        self.exact = exact
        self.denominator = denominator
        self.to_move = to_move
        self._names, self._costs, self._nets = names, costs, nets
        self._best, self.best = best, names[best]
        self.line = line
        self._payoffs = payoffs

    @property
    def kind(self) -> str:
        return self.position.moment.kind

    def _number(self, num: int) -> Number:
        return Fraction(num, self.denominator) if self.exact else num / self.denominator

    @property
    def options(self) -> dict[str, SpotValue]:
        return {
            n: {"cost": c, "expected_net": self._number(v)}
            for n, c, v in zip(self._names, self._costs, self._nets)
        }

    @property
    def payoffs(self) -> dict[str, Number]:
        return {name: self._number(v) for name, v in zip(self.position.state.owners, self._payoffs)}

    def to_dict(self, exact: Optional[bool] = None) -> dict[str, Any]:
        """The advice JSON (docs/advice.md), as the engine writes it: floats, or "n/d"
        strings when exact; its "horizon" says what the advice assumes after the decision."""
        return _core.advice_json(
            self.kind,
            self.to_move,
            self._names,
            self._costs,
            self._nets,
            self.denominator,
            self._best,
            self.line,
            self._payoffs,
            self.position.state.owners,
            self.exact if exact is None else exact,
        )

    def __repr__(self) -> str:
        return f"Advice({self.to_dict()!r})"


def advise(
    position: PositionLike, exact: Optional[bool] = None, *, threads: int = 0, strict: Optional[bool] = None
) -> Advice:
    """The advice for a position: a dict (a voyage state with a ``"moment"``), its notation,
    or a Position. ``exact`` gives fractions (None: as the JSON's ``"exact"`` says);
    ``threads`` spreads a placement search's first options (0: every core)."""
    check_options(exact, threads, strict)
    exact = wants_exact(position, exact)
    pos = as_position(position, strict)
    state, owners = pos.state, pos.state.owners
    voyage = state.to_core()
    kind = pos.moment.kind
    if kind == "placement":
        ids = {name: i for i, name in enumerate(owners)}
        a = _core.advise_placement(voyage, [ids[p] for p in pos.movers], threads)
        names = [DECLINE if spot == _core.DECLINE else TABLE_SPOTS[spot] for spot, _ in a.options]
        line = [(owners[o], DECLINE if s == _core.DECLINE else TABLE_SPOTS[s]) for o, s in a.line]
        return Advice(
            pos,
            exact,
            a.denominator,
            pos.to_move,
            names,
            [c for _, c in a.options],
            list(a.net),
            a.best,
            line,
            list(a.payoffs),
        )
    if kind in ("pilot_small", "pilot_large"):
        d = _core.advise_pilot(voyage, kind == "pilot_large")
    else:
        pirates = (state.spots.get("pirate_1"), state.spots.get("pirate_2"))
        second = pos.to_move != pirates[0]
        guard = (-1, -1)
        if pos.moment.protected is not None:
            good, seat = pos.moment.protected
            guard = (list(state.boats).index(good), seat - 1)
        d = _core.advise_boarding(voyage, second, *guard)
    me = d.decider
    first = d.payoffs[0][me]
    return Advice(
        pos,
        exact,
        d.denominator,
        owners[me],
        list(d.names),
        [0] * len(d.names),
        [p[me] - first for p in d.payoffs],
        d.best,
        [(owners[o], name) for o, name in d.line],
        list(d.payoffs[d.best]),
    )

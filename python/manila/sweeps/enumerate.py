"""Legal starts, the positions the dice reach from them, and families of states.

    >>> import manila
    >>> len(manila.enumerate_starts())
    100
    >>> manila.enumerate_starts()[0]
    {'ginseng': 0, 'nutmeg': 4, 'silk': 5}
    >>> odds = manila.reachable({"ginseng": 3, "silk": 2, "jade": 4}, next_roll=2)
    >>> odds[(4, 3, 5)]
    Fraction(1, 216)

The harbour master puts three of the four boats on spaces 0..5 summing to exactly 9;
before roll r each boat has made r - 1 rolls of one die. Probabilities are exact: a count
of dice sequences over 6^(3 (r - 1)), each boat rolling one die per roll (a boat already in
Manila counts all six faces alike). The enumeration itself runs in C++ (manila._core).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Optional, Union

from .. import _core
from ..common.errors import Problem, StateError
from ..common.text import is_int, spoken
from ..common.vocab import ARRIVED, GOODS, LAST_SPACE, ROLLS, START_SPACES, START_SUM, Space

Start = Mapping[str, int]


def position_name(code: int) -> Space:
    """The contract's form of an engine position code: 0..13, or "arrived" for 14."""
    code = int(code)
    return ARRIVED if code == _core.ARRIVED else code


def position_code(position: Union[int, str], path: str = "position") -> int:
    """The engine's code of a position: 0..13, or 14 for "arrived"."""
    if position == ARRIVED:
        return _core.ARRIVED
    if is_int(position) and 0 <= position <= LAST_SPACE:
        return position
    raise StateError([Problem(path, f'must be a space 0..{LAST_SPACE} or "arrived", got {position!r}')])


def goods_triple(goods: Any, path: str = "goods") -> tuple[str, ...]:
    """Three sailing goods in canonical order, from names given in any order."""
    if isinstance(goods, str) or not isinstance(goods, Iterable):
        raise StateError([Problem(path, f"three goods are needed, got {goods!r}")])
    names = list(goods)
    problems = [
        Problem(path, f"unknown good {g!r}; the goods are {', '.join(GOODS)}")
        for g in names
        if g not in GOODS
    ]
    if not problems and (len(names) != 3 or len(set(names)) != 3):
        problems.append(Problem(path, f"three different goods are needed, got {names!r}"))
    if problems:
        raise StateError(problems)
    return tuple(g for g in GOODS if g in names)


def parse_start(start: Any, path: str = "start") -> tuple[tuple[str, ...], tuple[int, ...]]:
    """(goods, spaces) of a start given as {good: space}; StateError unless it is legal."""
    if not isinstance(start, Mapping):
        raise StateError([Problem(path, f"a start maps three goods to their spaces, got {start!r}")])
    goods = goods_triple(start.keys(), path)
    problems = []
    for good in goods:
        space = start[good]
        if not (is_int(space) and space in START_SPACES):
            problems.append(
                Problem(
                    f"{path}.{good}",
                    f"a boat starts on space {START_SPACES[0]}..{START_SPACES[-1]}, got {space!r}",
                )
            )
    if not problems and sum(start[g] for g in goods) != START_SUM:
        problems.append(
            Problem(path, f"the start spaces must sum to {START_SUM}, got {sum(start[g] for g in goods)}")
        )
    if problems:
        raise StateError(problems)
    return goods, tuple(start[g] for g in goods)


def _check_next_roll(next_roll: Any) -> int:
    if not (is_int(next_roll) and next_roll in ROLLS):
        raise StateError(
            [Problem("next_roll", f"must be {spoken(ROLLS)} (the roll that comes next), got {next_roll!r}")]
        )
    return next_roll


def enumerate_starts() -> list[dict[str, int]]:
    """Every legal start as a ``{good: space}`` dict, goods in canonical order.

    The four good triples in canonical order, then the spaces in lexicographic order:
    4 x 25 = 100 starts.
    """
    goods, spaces = _core.legal_starts()
    return [{GOODS[g]: int(s) for g, s in zip(gs, ss)} for gs, ss in zip(goods.tolist(), spaces.tolist())]


def reachable(
    start: Start, next_roll: int, exact: bool = True
) -> dict[tuple[Space, ...], Union[Fraction, float]]:
    """Every position triple the boats of ``start`` can stand on before roll ``next_roll``.

    Keys are tuples of positions (0..13 or "arrived") in the start's good order (canonical);
    ``dict(zip(goods, key))`` gives the ``{good: position}`` form. Values are the exact
    probabilities (``fractions.Fraction``) or, with ``exact=False``, floats. They sum to 1.
    Before roll 1 the only position is the start itself.
    """
    goods, spaces = parse_start(start)
    next_roll = _check_next_roll(next_roll)
    ids = [GOODS.index(g) for g in goods]
    positions, counts = _core.reachable(ids, list(spaces), next_roll)
    den = _core.reach_denominator(next_roll)
    number = (lambda c: Fraction(c, den)) if exact else (lambda c: c / den)
    return {
        tuple(position_name(p) for p in row): number(c) for row, c in zip(positions.tolist(), counts.tolist())
    }


def family(
    next_roll: int = 1,
    *,
    goods: Any = None,
    start: Any = None,
    reachable: bool = True,
    fixed: Optional[Union[Mapping[str, Union[int, str]], Sequence[Optional[Union[int, str]]]]] = None,
) -> _core.Family:
    """The rows (goods, positions) of a family of states, enumerated in C++.

    ``goods``: one triple of names, a list of triples, or None for all four triples.
    ``reachable``: keep only position triples some start reaches before ``next_roll``
    (else every triple of 0..13 and arrived, 15^3 per good triple).
    ``start``: a ``{good: space}`` start or a list of them (reachable families only);
    default every legal start of the goods. ``fixed``: positions held fixed, as
    ``{good: position}`` (one good triple only) or a tuple by boat with None for free.

    Rows are ordered by good triple, then positions (14 = arrived); reachable families also
    carry their starts and every (start, row) path with its dice count over
    ``_core.reach_denominator(next_roll)``.
    """
    next_roll = _check_next_roll(next_roll)
    triples = good_triples(goods)
    starts = []
    if start is not None:
        if not reachable:
            raise StateError([Problem("start", "a start applies to reachable families only")])
        listed = [start] if isinstance(start, Mapping) else list(start)
        for k, s in enumerate(listed):
            g, spaces = parse_start(s, "start" if isinstance(start, Mapping) else f"start[{k}]")
            starts.append(([GOODS.index(x) for x in g], list(spaces)))
    return _core.enumerate_family(
        next_roll,
        [[GOODS.index(g) for g in t] for t in triples],
        reachable,
        starts,
        _fixed_codes(fixed, triples),
    )


def good_triples(goods: Any) -> list[tuple[str, ...]]:
    if goods is None:
        return []
    if isinstance(goods, str):
        goods = goods.split(",")
    if isinstance(goods, Mapping) or not isinstance(goods, Iterable):
        what = "three goods (a list, or 'silk,jade,ginseng') or a list of such triples"
        raise StateError([Problem("goods", f"{what}, got {type(goods).__name__}")])
    listed = list(goods)
    if listed and all(isinstance(g, str) for g in listed):
        return [goods_triple(listed)]
    return [goods_triple(t, f"goods[{k}]") for k, t in enumerate(listed)]


def _fixed_codes(fixed: Any, triples: list[tuple[str, ...]]) -> list[int]:
    if fixed is None:
        return [-1, -1, -1]
    if isinstance(fixed, Mapping):
        if len(triples) != 1:
            raise StateError(
                [
                    Problem(
                        "fixed",
                        "positions fixed by good need exactly one good triple "
                        "(goods=...); give a tuple by boat otherwise",
                    )
                ]
            )
        for good in fixed:
            if good not in triples[0]:
                raise StateError([Problem(f"fixed.{good}", f"not a sailing good of {', '.join(triples[0])}")])
        return [position_code(fixed[g], f"fixed.{g}") if g in fixed else -1 for g in triples[0]]
    by_boat = list(fixed) if isinstance(fixed, Iterable) else []
    if len(by_boat) != 3:
        raise StateError([Problem("fixed", "one position (or None) per boat is needed")])
    return [-1 if p is None else position_code(p, f"fixed[{i}]") for i, p in enumerate(by_boat)]

"""Ranking the harbour master's 25 starts for three goods by a stated criterion."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Optional, Union

from ..common.errors import Problem, StateError
from ..common.text import did_you_mean, is_int
from ..common.vocab import CARGO_VALUES, GOODS
from ..voyage.evaluation import TABLE_SPOTS
from .pattern import Pattern
from .sweep import sweep

CRITERIA = {
    "cargo": "expected income of the three cargoes together (sum of value x P(port))",
    "cargo:GOOD": "expected income of one cargo (value x P(port))",
    "arrive:GOOD": "probability that one good ends in port",
    "income": "the player's expected voyage income from the accomplices given",
    "payoff": "the player's expected payoff: the voyage income, plus under the wealth "
    "objective the expected rise in value of the shares they hold",
    "spot:SPOT": "the expected net value of one spot for the player (the harbour master places first)",
    "best": "the expected net value of the player's best spot",
}


def describe_criterion(by: str) -> str:
    """What a ranking criterion measures, in words."""
    kind, _, arg = by.partition(":")
    key = f"{kind}:{'SPOT' if kind == 'spot' else 'GOOD'}" if arg else kind
    if key not in CRITERIA:
        kinds = sorted({k.partition(":")[0] for k in CRITERIA})
        raise ValueError(
            f"--by: unknown criterion {by!r}{did_you_mean(kind, kinds)}; the criteria are {', '.join(CRITERIA)}"
        )
    text = CRITERIA[key]
    return (
        text.replace("one cargo", f"the {arg} cargo").replace("one good", arg).replace("one spot", arg)
        if arg
        else text
    )


def default_criterion(player: Optional[str]) -> str:
    """What starts are ranked by when no criterion is given."""
    return "payoff" if player is not None else "cargo"


def rank_starts(
    goods: Any,
    by: Optional[str] = None,
    *,
    pattern: Optional[Pattern] = None,
    threads: Optional[int] = None,
    **fields: Any,
) -> list[dict[str, Any]]:
    """The 25 starts of three goods, best first by criterion ``by`` (see CRITERIA; default
    ``payoff`` with a player, ``cargo`` without), ties in start order.

    Each entry: ``start`` ({good: space}), ``score`` (an exact Fraction), ``port`` ({good:
    P(port) as a Fraction}), ``best_spot`` (the player's best spot and its Fraction value).
    What every start shares is ``pattern`` (a manila.Pattern) or its fields as keywords, as in
    manila.sweep: under ``objective="wealth"`` the ``payoff`` criterion, the spot values and
    every decision in the voyage count each player's share gains, exactly as manila.evaluate
    does.
    """
    pattern = Pattern.of(pattern, **fields)
    player = pattern.player
    if by is None:
        by = default_criterion(player)
    describe_criterion(by)
    kind, _, arg = by.partition(":")
    if isinstance(pattern.shares, Mapping) and any(is_int(n) for n in pattern.shares.values()):
        raise StateError(
            [
                Problem(
                    "shares",
                    "shares are now given per player, as in a voyage "
                    "state: {player: {good: count}}, e.g. "
                    'shares={"red": {"jade": 2}} with objective="wealth"',
                )
            ]
        )
    if kind in ("income", "payoff") and player is None:
        raise ValueError(f"--by {kind}: say whose {kind} with --player")
    result = sweep(1, goods=goods, pattern=pattern, threads=threads)
    triple = result.goods_names(0)
    if kind in ("cargo", "arrive") and arg and arg not in GOODS:
        raise ValueError(
            f"--by: unknown good {arg!r}{did_you_mean(arg, GOODS)}; the goods sailing are {', '.join(triple)}"
        )
    if kind in ("cargo", "arrive") and arg and arg not in triple:
        raise ValueError(f"--by: {arg} does not sail (the goods are {', '.join(triple)})")
    if kind == "spot" and arg not in TABLE_SPOTS:
        raise ValueError(
            f"--by: unknown spot {arg!r}{did_you_mean(arg, TABLE_SPOTS)}; the spots are {', '.join(TABLE_SPOTS)}"
        )
    if kind == "spot" and arg in GOODS and arg not in triple:
        raise ValueError(f"--by spot:{arg}: {arg} stays home (the goods sailing are {', '.join(triple)})")
    entries: list[dict[str, Any]] = []
    for row in range(len(result)):
        den = int(result.denominator[row])
        port = {g: Fraction(int(result.boats[row, b, 0]), den) for b, g in enumerate(triple)}
        legal = [k for k in range(len(TABLE_SPOTS)) if result.legal[row, k]]
        best = max(legal, key=lambda k: result.net[row, k], default=None)
        score: Union[Fraction, float, None]
        if kind == "cargo":
            score = sum(CARGO_VALUES[g] * p for g, p in port.items() if not arg or g == arg)
        elif kind == "arrive":
            score = port[arg]
        elif kind in ("income", "payoff"):
            column = result.incomes if kind == "income" else result.payoffs
            score = Fraction(int(column[row, result.owners.index(player)]), den)
        elif kind == "spot":
            score = result.value(row, arg)
            if score is None:
                raise ValueError(f"--by spot:{arg}: the player may not take {arg} here")
        else:
            score = Fraction(int(result.net[row, best]), den) if best is not None else Fraction(0)
        entries.append(
            {
                "start": {g: int(p) for g, p in zip(triple, result.positions[row].tolist())},
                "score": Fraction(score),
                "port": port,
                "best_spot": None
                if best is None
                else (TABLE_SPOTS[best], Fraction(int(result.net[row, best]), den)),
            }
        )
    entries.sort(key=lambda e: -e["score"])  # stable: ties keep the start order
    return entries

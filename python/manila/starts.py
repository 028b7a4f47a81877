"""Ranking the harbour master's 25 starts for three goods by a stated criterion."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Optional, Sequence

from .evaluation import TABLE_SPOTS
from .state import CARGO_VALUES, GOODS, _is_int
from .sweep import Crews, sweep


PRICE_TRACK = (0, 5, 10, 20, 30)
CRITERIA = {
    "cargo": "expected income of the three cargoes together (sum of value x P(port))",
    "cargo:GOOD": "expected income of one cargo (value x P(port))",
    "arrive:GOOD": "probability that one good ends in port",
    "income": "the player's expected voyage income from the accomplices given, plus the "
              "expected rise in value of the shares given",
    "spot:SPOT": "the expected net value of one spot for the player (the harbour master "
                 "places first)",
    "best": "the expected net value of the player's best spot",
}


def describe_criterion(by: str) -> str:
    """What a ranking criterion measures, in words."""
    kind, _, arg = by.partition(":")
    key = f"{kind}:{'SPOT' if kind == 'spot' else 'GOOD'}" if arg else kind
    if key not in CRITERIA:
        raise ValueError(f"--by: unknown criterion {by!r}; the criteria are {', '.join(CRITERIA)}")
    text = CRITERIA[key]
    return text.replace("one cargo", f"the {arg} cargo").replace("one good", arg).replace(
        "one spot", arg) if arg else text


def rank_starts(goods: Any, by: Optional[str] = None, *, crews: Crews = None,
                pirates: Optional[int] = None, spots: Optional[Mapping[str, str]] = None,
                player: Optional[str] = None, players: Optional[int] = None,
                rules: Optional[Mapping[str, Any]] = None, shares: Optional[Mapping[str, int]] = None,
                prices: Optional[Mapping[str, int]] = None, threads: Optional[int] = None) -> list[dict]:
    """The 25 starts of three goods, best first by criterion ``by`` (see CRITERIA; default
    ``income`` with a player, ``cargo`` without), ties in start order.

    Each entry: ``start`` ({good: space}), ``score`` (an exact Fraction), ``port`` ({good:
    P(port) as a Fraction}), ``best_spot`` (the player's best spot and its Fraction value).
    ``shares`` ({good: count}) and ``prices`` ({good: current price}, default 0) add, for
    ``income``, each share's expected price rise: one step of 0, 5, 10, 20, 30 when its
    boat ends in port.
    """
    if by is None:
        by = "income" if player is not None else "cargo"
    describe_criterion(by)
    kind, _, arg = by.partition(":")
    result = sweep(1, goods=goods, crews=crews, pirates=pirates, spots=spots, player=player,
                   players=players, rules=rules, threads=threads)
    triple = result.goods_names(0)
    if kind in ("cargo", "arrive") and arg and arg not in triple:
        raise ValueError(f"--by: {arg} does not sail (the goods are {', '.join(triple)})")
    if kind == "spot" and arg not in TABLE_SPOTS:
        raise ValueError(f"--by: unknown spot {arg!r}; the spots are {', '.join(TABLE_SPOTS)}")
    if kind == "income" and player is None:
        raise ValueError("--by income: say whose income with --player")
    rise = _share_rise(shares, prices, triple)
    if rise and result.pattern.spots.get("pirate_1") is not None:
        raise ValueError("shares: with pirates a plundered boat may still go to Manila and raise "
                         "its price, which the boat table does not tell apart; rank without shares")
    entries = []
    for row in range(len(result)):
        den = int(result.denominator[row])
        port = {g: Fraction(int(result.boats[row, b, 0]), den) for b, g in enumerate(triple)}
        legal = [k for k in range(len(TABLE_SPOTS)) if result.legal[row, k]]
        best = max(legal, key=lambda k: result.net[row, k], default=None)
        if kind == "cargo":
            score = sum(CARGO_VALUES[g] * p for g, p in port.items() if not arg or g == arg)
        elif kind == "arrive":
            score = port[arg]
        elif kind == "income":
            me = result.owners.index(player)
            score = Fraction(int(result.incomes[row, me]), den)
            score += sum(rise.get(g, 0) * p for g, p in port.items())
        elif kind == "spot":
            score = result.value(row, arg)
            if score is None:
                raise ValueError(f"--by spot:{arg}: the player may not take {arg} here")
        else:
            score = Fraction(int(result.net[row, best]), den) if best is not None else Fraction(0)
        entries.append({
            "start": {g: int(p) for g, p in zip(triple, result.positions[row].tolist())},
            "score": Fraction(score),
            "port": port,
            "best_spot": None if best is None else
            (TABLE_SPOTS[best], Fraction(int(result.net[row, best]), den)),
        })
    entries.sort(key=lambda e: -e["score"])  # stable: ties keep the start order
    return entries


def _share_rise(shares: Optional[Mapping[str, int]], prices: Optional[Mapping[str, int]],
                triple: Sequence[str]) -> dict[str, int]:
    """Per sailing good, what the player's shares gain when its boat ends in port."""
    out = {}
    prices = dict(prices or {})
    for good, price in prices.items():
        if good not in GOODS or price not in PRICE_TRACK:
            raise ValueError(f"prices.{good}: a good's price is one of "
                             f"{', '.join(map(str, PRICE_TRACK))}, got {price!r}")
    for good, count in (shares or {}).items():
        if good not in GOODS or not (_is_int(count) and 0 <= count <= 5):
            raise ValueError(f"shares.{good}: a player holds 0..5 shares of a good, got {count!r}")
        price = prices.get(good, 0)
        step = PRICE_TRACK.index(price)
        if good in triple and step + 1 < len(PRICE_TRACK):
            out[good] = count * (PRICE_TRACK[step + 1] - price)
    return out


# -- command line --------------------------------------------------------------------------

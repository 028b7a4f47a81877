"""A human-readable rendering of an evaluation, for the terminal."""

from __future__ import annotations

from fractions import Fraction
from typing import Union

from .evaluation import Evaluation

Number = Union[float, Fraction]

_GREEN, _BOLD, _RESET = "\033[32m", "\033[1m", "\033[0m"


def _num(x: Number, exact: bool, signed: bool = False) -> str:
    if exact:
        text = str(x)
        return f"+{text}" if signed and x > 0 else text
    return f"{x:+.3f}" if signed else f"{x:.3f}"


def _pct(x: Number) -> str:
    return f"{float(x) * 100:6.1f}%"


def render(result: Evaluation, color: bool = False) -> str:
    """Spot table (best first, worthwhile spots marked), boat odds and incomes."""
    state, exact = result.state, result.exact
    lines = []
    who = state.player if state.player is not None else "a fresh player"
    lines.append(f"Voyage before roll {state.next_roll}, valued for {who}")
    lines.append("")
    spots = sorted(result.spots.items(), key=lambda kv: -kv[1]["expected_net"])
    if spots:
        width = max(len(name) for name, _ in spots)
        lines.append(f"  {'spot':<{width}}  {'cost':>4}  expected net")
        for name, entry in spots:
            net = entry["expected_net"]
            mark = "+" if net > 0 else " "
            row = f"{mark} {name:<{width}}  {entry['cost']:>4}  {_num(net, exact, signed=True)}"
            if color and net > 0:
                row = f"{_GREEN}{_BOLD}{row}{_RESET}"
            lines.append(row)
        lines.append("  (+ marks the spots worth more than they cost)")
    else:
        lines.append("  no spot can be taken")
    lines.append("")
    lines.append(f"  {'boat':<8} {'port':>7} {'shipyard':>9} {'plundered':>10}")
    for good, odds in result.boats.items():
        lines.append(f"  {good:<8} {_pct(odds['port']):>7} {_pct(odds['shipyard']):>9} "
                     f"{_pct(odds['plundered']):>10}")
    incomes = result.incomes
    if incomes:
        lines.append("")
        width = max(len(name) for name in incomes)
        lines.append("  expected voyage income")
        for name, value in incomes.items():
            lines.append(f"  {name:<{width}}  {_num(value, exact)}")
    return "\n".join(lines)

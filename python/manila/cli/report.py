"""Human-readable renderings of an evaluation and of advice, for the terminal."""

from __future__ import annotations

from fractions import Fraction
from typing import Union

from ..server.names import NOBODY_AFTER_YOU, cost_text, good_label, spot_label
from ..voyage.advice import DECLINE, Advice
from ..voyage.evaluation import Evaluation

Number = Union[float, Fraction]

_GREEN, _BOLD, _RESET = "\033[32m", "\033[1m", "\033[0m"


def _signed(x: Number) -> str:
    if isinstance(x, Fraction):
        return f"+{x}" if x > 0 else str(x)
    return f"{x:+.3f}"


def _column(values: list[Number], signed: bool = False) -> list[str]:
    """The values as text of equal width: floats by their point, fractions by their slash."""
    texts = [_signed(v) if signed else (str(v) if isinstance(v, Fraction) else f"{v:.3f}") for v in values]
    if not any(isinstance(v, Fraction) for v in values):
        width = max(map(len, texts), default=0)
        return [t.rjust(width) for t in texts]
    parts = [t.partition("/") for t in texts]
    left = max(len(a) for a, _, _ in parts)
    right = max(len(s + b) for _, s, b in parts)
    return [a.rjust(left) + (s + b).ljust(right) for a, s, b in parts]


def _pct(x: Number) -> str:
    return f"{float(x) * 100:6.1f}%"


def render(result: Evaluation, color: bool = False) -> str:
    """The board in notation, the spot table (best first, worthwhile spots marked) with its
    assumption, the boat odds and the incomes."""
    state = result.state
    lines = [str(state)]
    who = state.player if state.player is not None else "a fresh player"
    lines.append(f"Voyage before roll {state.next_roll}, valued for {who}")
    lines.append("")
    spots = sorted(result.spots.items(), key=lambda kv: -kv[1]["expected_net"])
    if spots:
        names = [spot_label(name) for name, _ in spots]
        costs = [cost_text(entry["cost"]) for _, entry in spots]
        nets = _column([entry["expected_net"] for _, entry in spots], signed=True)
        wn, wc = max(map(len, names + ["spot"])), max(map(len, costs + ["cost"]))
        lines.append(f"  {'spot':<{wn}}  {'cost':>{wc}}  expected net")
        for (_, entry), label, cost, net in zip(spots, names, costs, nets):
            mark = "+" if entry["expected_net"] > 0 else " "
            row = f"{mark} {label:<{wn}}  {cost:>{wc}}  {net}".rstrip()
            if color and entry["expected_net"] > 0:
                row = f"{_GREEN}{_BOLD}{row}{_RESET}"
            lines.append(row)
        lines.append("  (+ marks the spots worth more than they cost)")
        lines.append(f"  {NOBODY_AFTER_YOU}")
    else:
        lines.append("  no spot can be taken")
    lines.append("")
    lines.append(f"  {'boat':<8} {'port':>7} {'shipyard':>9} {'plundered':>10}")
    for good, odds in result.boats.items():
        lines.append(
            f"  {good_label(good):<8} {_pct(odds['port']):>7} {_pct(odds['shipyard']):>9} "
            f"{_pct(odds['plundered']):>10}"
        )
    incomes = result.incomes
    if incomes:
        lines.append("")
        width = max(len(name) for name in incomes)
        if state.objective == "wealth":  # what the spot values maximise: income plus price rises
            payoffs = result.payoffs
            lines.append(f"  {'':<{width}}  expected income, payoff (with price rises)")
            for name, income, payoff in zip(
                incomes, _column(list(incomes.values())), _column([payoffs[n] for n in incomes])
            ):
                lines.append(f"  {name:<{width}}  {income}  {payoff}".rstrip())
        else:
            lines.append("  expected voyage income")
            for name, value in zip(incomes, _column(list(incomes.values()))):
                lines.append(f"  {name:<{width}}  {value}".rstrip())
    return "\n".join(lines)


def _option_label(name: str, kind: str) -> str:
    if kind != "placement" or name == DECLINE:
        return name
    return spot_label(name)


def render_advice(advice: Advice, color: bool = False) -> str:
    """The position in notation, every option best first with its value, the line of play
    it leads to and the payoffs after it."""
    pos = advice.position
    lines = [
        str(pos),
        f"{advice.to_move} to choose ({advice.kind.replace('_', ' ')}), voyage "
        f"before roll {pos.state.next_roll}",
        "",
    ]
    options = sorted(advice.options.items(), key=lambda kv: -kv[1]["expected_net"])
    labels = [_option_label(name, advice.kind) for name, _ in options]
    costs = [
        cost_text(entry["cost"]) if advice.kind == "placement" and name != DECLINE else ""
        for name, entry in options
    ]
    nets = _column([entry["expected_net"] for _, entry in options], signed=True)
    wn, wc = max(map(len, labels + ["option"])), max(map(len, costs + ["cost"]))
    lines.append(f"  {'option':<{wn}}  {'cost':>{wc}}  expected net")
    for (name, _), label, cost, net in zip(options, labels, costs, nets):
        mark = "*" if name == advice.best else " "
        row = f"{mark} {label:<{wn}}  {cost:>{wc}}  {net}".rstrip()
        if color and name == advice.best:
            row = f"{_GREEN}{_BOLD}{row}{_RESET}"
        lines.append(row)
    lines.append("  (* marks the best choice, knowing the others answer with their own best)")
    lines.append(f"  Assumes {advice.to_dict()['horizon']}.")
    lines.append("")
    lines.append(
        "  line of play: "
        + ", ".join(f"{who} {_option_label(what, advice.kind)}" for who, what in advice.line)
    )
    payoffs = advice.payoffs
    if payoffs:
        width = max(len(name) for name in payoffs)
        lines.append("  expected payoffs after it")
        for name, value in zip(payoffs, _column(list(payoffs.values()))):
            lines.append(f"  {name:<{width}}  {value}".rstrip())
    return "\n".join(lines)

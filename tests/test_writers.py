"""The engine writes every answer's JSON (docs/architecture.md): these hold its writer to
the numbers an evaluation carries, which Python reads from the table apart from it."""

from __future__ import annotations

from fractions import Fraction

import manila
from manila.voyage.example import EXAMPLE


def test_the_evaluation_json_says_what_the_evaluation_holds() -> None:
    evaluation = manila.evaluate(EXAMPLE, exact=True)
    data = evaluation.to_dict()
    assert {n: v["cost"] for n, v in data["spots"].items()} == {
        n: v["cost"] for n, v in evaluation.spots.items()
    }
    assert {n: Fraction(v["expected_net"]) for n, v in data["spots"].items()} == {
        n: v["expected_net"] for n, v in evaluation.spots.items()
    }
    assert {g: {o: Fraction(x) for o, x in b.items()} for g, b in data["boats"].items()} == evaluation.boats
    assert {n: Fraction(x) for n, x in data["incomes"].items()} == evaluation.incomes
    assert {n: Fraction(x) for n, x in data["payoffs"].items()} == evaluation.payoffs

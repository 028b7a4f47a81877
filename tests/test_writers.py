"""The engine writes every answer's JSON once (docs/architecture.md), for Python's
``to_dict`` and for ``call`` alike, so comparing the two cannot catch a writer's mistake:
these hold each writer to numbers read apart from it (the evaluation's table, the advice's
brute-force reference, the binding's own copy of an analysis's and a value's numbers)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import manila
from helpers.advice_reference import advice_reference
from helpers.contract import played
from helpers.positions import decision_position, placement_position, sample
from manila.analysis.value import model_info
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


def _from_json(data: dict, exact: bool) -> dict:
    number = Fraction if exact else float
    return {
        "to_move": data["to_move"],
        "options": {
            n: {"cost": o["cost"], "expected_net": number(o["expected_net"])}
            for n, o in data["options"].items()
        },
        "best": data["best"],
        "line": data["line"],
        "payoffs": {n: number(x) for n, x in data["payoffs"].items()},
    }


ADVICE = [
    *(
        p
        for roll in (2, 3)
        for p in sample(40 + roll, 3, lambda d: placement_position(d, roll, 2, wealth=d.chance(0.5)))
    ),
    *(
        p
        for kind in ("pilot_small", "pilot_large", "boarding")
        for p in sample(44, 3, lambda d: decision_position(d, kind, wealth=d.chance(0.5)))
    ),
]


@pytest.mark.parametrize("position", ADVICE, ids=[f"{p['moment']['kind']}-{i}" for i, p in enumerate(ADVICE)])
def test_the_advice_json_says_what_the_brute_force_finds(position) -> None:
    truth = advice_reference(position)
    advice = manila.advise(position, exact=True, strict=False)
    assert advice.to_dict()["kind"] == position["moment"]["kind"]
    assert _from_json(advice.to_dict(), exact=True) == truth
    rounded = _from_json(advice.to_dict(exact=False), exact=False)
    assert rounded["options"].keys() == truth["options"].keys()
    for name, option in truth["options"].items():
        assert rounded["options"][name]["cost"] == option["cost"]
        assert rounded["options"][name]["expected_net"] == pytest.approx(float(option["expected_net"]))
    assert rounded["payoffs"] == pytest.approx({n: float(x) for n, x in truth["payoffs"].items()})


@pytest.mark.parametrize("horizon", ["voyage", "game"])
def test_the_analysis_json_says_what_the_binding_hands_over(horizon: str) -> None:
    # The report (the engine's writer) and the binding's dict (its own copy of each number)
    # come from one C++ result apart: a key or number mixed up in either differs here.
    auction = played(4, 3, lambda s: s.is_player_node())
    result = manila.analyse(auction, horizon=horizon, rollouts=16, seed=2, max_bids=3)
    data = result.to_dict()
    for key in (
        *("decider", "kind", "horizon", "unit", "policy", "rollouts", "seed", "exact", "best", "stop"),
        *("gap_ci95", "target", "screened_out", "worth"),
    ):
        assert data[key] == getattr(result, key), key
    assert data.get("value") == result.value
    assert list(data["options"]) == list(result.options)
    option_keys = ("mean", "ci95", "diff", "diff_ci95", "rollouts", "exact")
    game_keys = ("win", "win_ci95", "margin", "margin_ci95")
    for name, option in result.options.items():
        written = data["options"][name]
        for key in option_keys + (game_keys if horizon == "game" else ()):
            assert written[key] == getattr(option, key), (name, key)
        if horizon == "voyage":
            assert not set(game_keys) & set(written), name
    assert data["best"] == max(result.options.values(), key=lambda o: o.mean).name
    assert any(str(result.worth) in line for line in data["words"])


# At an auction's start the value is exact; at a placement, a mean of play-outs.
@pytest.mark.parametrize("players, phase", [(3, "auction"), (4, "auction"), (5, "auction"), (4, "placement")])
def test_the_value_json_says_what_the_binding_hands_over(players: int, phase: str) -> None:
    state = played(players, players, lambda s: s.is_player_node() and s.phase == phase)
    answer = manila.value(state, rollouts=8, seed=1)
    assert answer.exact == (phase == "auction")
    data = answer.to_dict()
    assert data["unit"] == "equity"
    for key in ("exact", "rollouts", "policy", "seed", "phase"):
        assert data[key] == getattr(answer, key), key
    assert list(data["players"]) == list(answer.players)
    for p in answer.players:
        for key in ("wealth", "equity", "win", "wealth_ci95", "equity_ci95", "win_ci95"):
            assert data["players"][p][key] == getattr(answer, key)[p], (p, key)
    assert data["model"]["version"] == model_info()["version"]
    assert data["model"]["policy"] == model_info()["policy"]

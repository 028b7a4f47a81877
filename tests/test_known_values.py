"""The known exact values of docs/numbers.md, reproduced by the engine."""

from fractions import Fraction

import pytest

import manila

PASS = [35, 56, 81, 108, 135, 160]  # /216: passes 13 within three rolls
ON_13 = [21, 25, 27, 27, 25, 21]  # /216: ends roll 3 exactly on 13


def lone_boat(start, thirteen="port"):
    """A ginseng boat at `start`; with no pilot the other boats do not affect its odds."""
    nutmeg = min(5, 9 - start)
    return {
        "rules": {"thirteen_after_last_roll": thirteen},
        "next_roll": 1,
        "boats": {
            "ginseng": {"position": start, "crew": []},
            "nutmeg": {"position": nutmeg, "crew": []},
            "silk": {"position": 9 - start - nutmeg, "crew": []},
        },
    }


@pytest.mark.parametrize("start", range(6))
def test_pass_and_thirteen_odds(start):
    port_rule = manila.evaluate(lone_boat(start), exact=True).boats["ginseng"]
    shipyard_rule = manila.evaluate(lone_boat(start, "shipyard"), exact=True).boats["ginseng"]
    # With no pirate a boat on 13 goes to port under the default rule, to the shipyard otherwise.
    assert shipyard_rule["port"] == Fraction(PASS[start], 216)
    assert port_rule["port"] == Fraction(PASS[start] + ON_13[start], 216)
    assert port_rule["plundered"] == shipyard_rule["plundered"] == 0


@pytest.mark.parametrize("start", range(6))
def test_captain_plunders_exactly_the_boats_on_13(start):
    state = lone_boat(start)
    state["spots"] = {"pirate_1": "blue"}
    # Full boats cannot be boarded after roll 2, so the pirate is still on the ship.
    for boat in state["boats"].values():
        boat["crew"] = ["red", "green", "yellow"]  # three players, three accomplices each
    odds = manila.evaluate(state, exact=True).boats["ginseng"]
    assert odds["plundered"] == Fraction(ON_13[start], 216)
    assert odds["port"] == Fraction(PASS[start], 216)


EXAMPLE = {
    "next_roll": 1,
    "boats": {
        "ginseng": {"position": 3, "crew": []},
        "silk": {"position": 2, "crew": []},
        "nutmeg": {"position": 4, "crew": []},
    },
    "spots": {},
}


def test_worked_example_spots():
    spots = manila.evaluate(EXAMPLE, exact=True).spots
    assert spots["ginseng"] == {"cost": 1, "expected_net": Fraction(41, 4)}
    assert spots["port_a"] == {"cost": 4, "expected_net": Fraction(41, 24)}
    assert spots["insurance"]["cost"] == -10
    assert float(spots["insurance"]["expected_net"]) == pytest.approx(2.1226851, abs=1e-7)


def test_worked_example_insurance_formula():
    # P(exactly k boats in the shipyard), from the three boats' independent odds.
    boats = manila.evaluate(EXAMPLE, exact=True).boats
    ship = [boats[g]["shipyard"] for g in ("ginseng", "nutmeg", "silk")]
    dist = [Fraction(1)]
    for p in ship:
        dist = [a * (1 - p) + b * p for a, b in zip(dist + [0], [0] + dist)]
    expected = 10 - 6 * dist[1] - 14 * dist[2] - 29 * dist[3]
    assert manila.evaluate(EXAMPLE, exact=True).spots["insurance"]["expected_net"] == expected


def test_example_json_numbers():
    out = manila.evaluate(EXAMPLE).to_dict()
    assert out["spots"]["ginseng"] == {"cost": 1, "expected_net": 10.25}
    assert out["spots"]["port_a"]["expected_net"] == 41 / 24
    exact = manila.evaluate(EXAMPLE, exact=True).to_dict()
    assert exact["spots"]["ginseng"]["expected_net"] == "41/4"
    assert exact["spots"]["port_a"]["expected_net"] == "41/24"

"""Shares, prices and budgets: the wealth objective against the brute-force reference,
its invariants, and the budget rules (blind passenger) through every front end."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import threading
import urllib.request

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import manila
from helpers.cases import engine_tables
from helpers.reference import evaluate_reference
from helpers.states import SeededDraws, add_wealth, build_state, states, wealth_states
from manila import server as web

SAMPLES = [(3, 200), (2, 110), (1, 20)]


def sample(next_roll, count):
    d = SeededDraws(9000 + next_roll)
    return [
        add_wealth(
            d,
            build_state(
                d, next_roll, busy=d.pick((0.2, 0.5, 0.9)), decision_makers=(True, False, None)[i % 3]
            ),
        )
        for i in range(count)
    ]


CASES = [(roll, i, s) for roll, n in SAMPLES for i, s in enumerate(sample(roll, n))]


@pytest.mark.reference
@pytest.mark.parametrize("state", [c[2] for c in CASES], ids=[f"roll{c[0]}-{c[1]}" for c in CASES])
def test_engine_equals_reference_with_shares_prices_and_budgets(state):
    assert engine_tables(state) == evaluate_reference(state)


def test_sample_covers_part_3():
    states = [c[2] for c in CASES]

    def count(pred):
        return sum(1 for s in states if pred(s))

    def blind(s):
        player = s.get("player")
        return player in s["budget"] and s["budget"][player] < 2

    assert count(lambda s: s["objective"] == "wealth") >= 150
    assert count(lambda s: any(p == 20 for p in s["prices"].values())) >= 50
    assert count(blind) >= 30
    # The payoffs differ from the incomes somewhere, or the test would prove nothing.
    assert (
        count(
            lambda s: (
                s["objective"] == "wealth"
                and (lambda r: r.payoffs != r.incomes)(manila.evaluate(s, strict=False))
            )
        )
        >= 100
    )


def _without_shares(state, objective):
    out = copy.deepcopy(state)
    out.pop("shares", None)
    out["objective"] = objective
    return out


@settings(max_examples=60, deadline=None)
@given(wealth_states(busy=0.6))
def test_wealth_without_shares_is_income(state):
    wealth = manila.evaluate(_without_shares(state, "wealth"), exact=True, strict=False).to_dict()
    income = manila.evaluate(_without_shares(state, "income"), exact=True, strict=False).to_dict()
    assert wealth == income
    assert wealth["payoffs"] == wealth["incomes"]


def _arrival(state, good):
    return manila.evaluate(state, exact=True, strict=False).boats[good]["port"]


@st.composite
def piloted(draw):
    """(state, pilot, good): a state at roll 2 or 3 in wealth, with a pilot (small or large)
    and a priced good still sailing. No pirates, so a boat that arrives is in port."""
    state = draw(states(next_roll=draw(st.sampled_from((2, 3))), decision_makers=False))
    holder = state.get("player") or "red"
    state["spots"][draw(st.sampled_from(("pilot_small", "pilot_large")))] = holder
    state["objective"] = "wealth"
    moving = [g for g, b in state["boats"].items() if b["position"] != "arrived"]
    assume(moving)
    good = draw(st.sampled_from(moving))
    state["prices"] = {good: draw(st.sampled_from((0, 5, 10, 20)))}
    assume(not manila.validate(state, strict=False))  # the holder may now hold too many
    return state, holder, good


@settings(max_examples=80, deadline=None)
@given(piloted(), st.integers(1, 5))
def test_shares_never_lower_the_odds_that_their_holders_pilot_brings_the_boat_home(case, extra):
    state, holder, good = case
    before = _arrival(state, good)
    state["shares"] = {holder: {good: extra}}
    assert _arrival(state, good) >= before


def test_wealth_changes_a_pilots_choice():
    """Shares can make a pilot bring home a boat they have no seat on: the objective matters."""
    state = {
        "next_roll": 3,
        "player": "red",
        "objective": "wealth",
        "boats": {
            "ginseng": {"position": 11, "crew": ["blue"]},
            "silk": {"position": 12, "crew": ["red"]},
            "jade": {"position": 9, "crew": []},
        },
        "spots": {"pilot_large": "red"},
        "shares": {"red": {"jade": 4}},
        "prices": {"jade": 10},
    }
    wealth = manila.evaluate(state, exact=True, strict=False)
    income = manila.evaluate(dict(state, objective="income"), exact=True, strict=False)
    assert wealth.boats["jade"]["port"] > income.boats["jade"]["port"]
    assert wealth.payoffs["red"] - wealth.incomes["red"] == 40 * wealth.boats["jade"]["port"]
    assert income.payoffs == income.incomes


# --- budgets: a tight budget and a blind passenger, through Python, CLI and HTTP ---------

TIGHT = "r3 ginseng@8:red,blue silk@10:green jade@12 pirate_1=blue port_c=green player=red budget=red:3"
BLIND = "r3 ginseng@8:red,blue silk@10:green jade@12 pirate_1=blue port_c=green player=red budget=red:1"


def check_tight(spots):
    assert spots, "a budget of 3 still affords something"
    assert all(entry["cost"] <= 3 for entry in spots.values())
    assert "port_a" not in spots and "pilot_large" not in spots and "jade" in spots
    assert spots["insurance"]["cost"] == -10


def check_blind(spots):
    # Nothing costs 1 or less: every free spot but insurance, each for the whole budget.
    assert "insurance" not in spots
    assert set(spots) == {
        "ginseng",
        "silk",
        "jade",
        "port_a",
        "port_b",
        "shipyard_a",
        "shipyard_b",
        "shipyard_c",
        "pirate_2",
        "pilot_small",
        "pilot_large",
    }
    assert all(entry["cost"] == 1 for entry in spots.values())


@pytest.mark.parametrize(
    "notation, check", [(TIGHT, check_tight), (BLIND, check_blind)], ids=["tight", "blind"]
)
def test_budgets_in_python(notation, check):
    result = manila.evaluate(notation, exact=True)
    check(result.spots)
    reference = evaluate_reference(manila.parse(notation).to_dict())
    assert result.spots == reference["spots"]


@pytest.fixture(scope="module")
def server_url():
    srv = web.make_server("127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    host, port = srv.server_address[:2]
    yield f"http://{host}:{port}"
    srv.shutdown()
    srv.server_close()


def _cli_spots(notation):
    out = subprocess.run(
        [sys.executable, "-m", "manila", "evaluate", notation, "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)["spots"]


@pytest.mark.parametrize(
    "notation, check", [(TIGHT, check_tight), (BLIND, check_blind)], ids=["tight", "blind"]
)
def test_budgets_on_the_command_line(notation, check):
    check(_cli_spots(notation))


@pytest.mark.parametrize(
    "notation, check", [(TIGHT, check_tight), (BLIND, check_blind)], ids=["tight", "blind"]
)
def test_budgets_over_http(notation, check, server_url):
    body = json.dumps({"notation": notation}).encode()
    request = urllib.request.Request(
        server_url + "/v1/evaluate", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        check(json.load(response)["spots"])


# --- validation --------------------------------------------------------------------------

BASE = {
    "next_roll": 3,
    "boats": {
        "ginseng": {"position": 8, "crew": ["red"]},
        "silk": {"position": 10, "crew": []},
        "jade": {"position": 12, "crew": []},
    },
}

BAD = {
    "unknown good in shares": ({"shares": {"red": {"tea": 1}}}, "shares.red.tea", "unknown good"),
    "misspelt good in prices": ({"prices": {"jdae": 5}}, "prices.jdae", 'did you mean "jade"'),
    "price off the track": ({"prices": {"jade": 15}}, "prices.jade", "on the track"),
    "price at the end": ({"prices": {"jade": 30}}, "prices.jade", "ended the game"),
    "too many shares": ({"shares": {"red": {"jade": 3}, "blue": {"jade": 3}}}, "shares", "only 5"),
    "negative shares": ({"shares": {"red": {"jade": -1}}}, "shares.red.jade", "0 or more"),
    "negative budget": ({"budget": {"red": -2}}, "budget.red", "0 or more"),
    "budget not a number": ({"budget": {"red": "lots"}}, "budget.red", "whole number"),
    "empty player name": ({"budget": {"": 3}}, "budget.", "non-empty string"),
    "objective misspelt": ({"objective": "welth"}, "objective", 'did you mean "wealth"'),
    "shares not an object": ({"shares": ["red"]}, "shares", "must be an object"),
}


@pytest.mark.parametrize("extra, path, message", BAD.values(), ids=BAD.keys())
def test_bad_wealth_keys_are_named(extra, path, message):
    problems = manila.validate(dict(BASE, **extra), strict=False)
    assert any(p.path == path and message in p.message for p in problems), problems


@pytest.mark.parametrize(
    "text, message",
    [
        ("r3 ginseng@8 silk@10 jade@12 shares=red", "expected owner:"),
        ("r3 ginseng@8 silk@10 jade@12 shares=red:jade", "such as jade2"),
        ("r3 ginseng@8 silk@10 jade@12 budget=red:x", "whole number"),
        ("r3 ginseng@8 silk@10 jade@12 budget=red:3 budget=red:4", "given twice"),
        ("r3 ginseng@8 silk@10 jade@12 prices=jade7", "on the track"),
    ],
)
def test_bad_wealth_notation(text, message):
    with pytest.raises(manila.StateError, match=message):
        manila.parse(text, strict=False)


@given(wealth_states(next_roll=3))
@settings(max_examples=100)
def test_notation_round_trips_the_wealth_keys(data):
    state = manila.VoyageState.from_dict(data, strict=False)
    assert manila.parse(str(state), strict=False) == state
    assert manila.VoyageState.from_dict(state.to_dict(), strict=False) == state


def test_price_rise_is_read_from_the_track():
    """0->5 and 5->10 gain 5 a share, 10->20 and 20->30 gain 10."""
    for price, rise in [(0, 5), (5, 5), (10, 10), (20, 10)]:
        state = {
            "next_roll": 3,
            "objective": "wealth",
            "player": "red",
            "boats": {
                g: {"position": "arrived" if g == "jade" else 0, "crew": []}
                for g in ("ginseng", "silk", "jade")
            },
            "shares": {"red": {"jade": 2}},
            "prices": {"jade": price},
        }
        result = manila.evaluate(state, exact=True, strict=False)
        assert result.payoffs["red"] == 2 * rise
        assert result.incomes["red"] == 0

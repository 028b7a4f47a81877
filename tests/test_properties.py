"""Invariants of the evaluation, on states drawn by hypothesis."""

from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import manila
from helpers.states import PLAYERS, states


@given(states())
def test_boat_outcomes_are_probabilities_summing_to_one(state):
    result = manila.evaluate(state, exact=True, strict=False)
    assert 6**9 % result.denominator == 0
    for odds in result.boats.values():
        assert all(0 <= p <= 1 for p in odds.values())
        assert sum(odds.values()) == 1
        for p in odds.values():
            assert 6**9 % p.denominator == 0


@given(states())
def test_floats_are_the_exact_values_rounded(state):
    exact = manila.evaluate(state, exact=True, strict=False).to_dict()
    floats = manila.evaluate(state, strict=False).to_dict()

    def walk(a, b):
        if isinstance(a, dict):
            assert a.keys() == b.keys()
            for k in a:
                walk(a[k], b[k])
        elif isinstance(a, str):
            assert float(Fraction(a)) == b
        else:
            assert a == b

    walk(exact, floats)


@given(states(), st.permutations(PLAYERS))
def test_names_and_dict_order_do_not_matter(state, names):
    rename = dict(zip(PLAYERS, names))
    renamed = {
        **state,
        "boats": {
            g: {"position": b["position"], "crew": [rename[o] for o in b["crew"]]}
            for g, b in reversed(list(state["boats"].items()))
        },
        "spots": {s: rename[o] for s, o in state["spots"].items()},
    }
    if "player" in state:
        renamed["player"] = rename[state["player"]]
    a = manila.evaluate(state, exact=True, strict=False)
    b = manila.evaluate(renamed, exact=True, strict=False)
    assert a.spots == b.spots
    assert a.boats == b.boats
    assert {rename[o]: v for o, v in a.incomes.items()} == b.incomes


@settings(max_examples=30)
@given(st.lists(states(), min_size=1, max_size=6), st.sampled_from([1, 2]))
def test_batch_and_threads_change_nothing(batch, threads):
    one_by_one = [manila.evaluate(s, exact=True, threads=1, strict=False).to_dict() for s in batch]
    together = [r.to_dict() for r in manila.evaluate_many(batch, exact=True, threads=threads, strict=False)]
    assert together == one_by_one


@given(states())
def test_insurance_pays_the_shipyard_slots(state):
    """Insurer and shipyard crew are paid out of the same claims: their sum never depends on
    who holds what, so a fresh insurer's value mirrors the fresh shipyard values' sum."""
    state = {k: v for k, v in state.items() if k != "player"}
    assume(not any(s in state["spots"] for s in ("insurance", "shipyard_a", "shipyard_b", "shipyard_c")))
    spots = manila.evaluate(state, exact=True, strict=False).spots
    assert "insurance" in spots  # free, and a newcomer holds nothing
    claims = sum(
        spots[s]["expected_net"] + spots[s]["cost"] for s in ("shipyard_a", "shipyard_b", "shipyard_c")
    )
    assert spots["insurance"]["expected_net"] == 10 - claims


@given(states())
def test_legal_spots_follow_the_rules(state):
    spots = manila.evaluate(state, strict=False).spots
    seats = {"ginseng": 3, "nutmeg": 3, "silk": 3, "jade": 4}
    held = state["spots"]
    player = state.get("player")
    mine = sum(b["crew"].count(player) for b in state["boats"].values()) + sum(
        o == player for o in held.values()
    )
    if player is not None and mine >= (4 if state.get("players") == 3 else 3):
        assert spots == {}
        return
    for good, boat in state["boats"].items():
        assert (good in spots) == (len(boat["crew"]) < seats[good])
    for spot in manila.SPOTS:
        free = spot not in held and (spot != "pirate_2" or "pirate_1" in held)
        assert (spot in spots) == free

"""The Python surface: state objects, result objects, JSON shape, numpy views."""

import json
from fractions import Fraction

import numpy as np

import manila
from manila import _core


def test_example_round_trips_through_the_typed_state():
    state = manila.VoyageState.from_dict(manila.EXAMPLE)
    assert state.to_dict() == {
        **manila.EXAMPLE,
        "boats": {g: manila.EXAMPLE["boats"][g] for g in ("ginseng", "silk", "jade")},
    }
    assert manila.VoyageState.from_dict(state.to_dict()) == state
    assert manila.evaluate(state).to_dict() == manila.evaluate(manila.EXAMPLE).to_dict()


def test_evaluation_json_shape():
    out = manila.evaluate(manila.EXAMPLE).to_dict()
    assert set(out) == {"spots", "boats", "incomes", "payoffs"}
    assert out["payoffs"] == out["incomes"]  # the income objective
    assert set(out["incomes"]) == {"red", "blue", "green"}
    assert set(out["boats"]) == {"ginseng", "silk", "jade"}
    for entry in out["spots"].values():
        assert set(entry) == {"cost", "expected_net"}
        assert isinstance(entry["cost"], int) and isinstance(entry["expected_net"], float)
    for odds in out["boats"].values():
        assert set(odds) == {"port", "shipyard", "plundered"}
    json.dumps(out)  # plain JSON types only
    # Spots come in canonical order: cargo goods, then the others as in docs/rules.md.
    order = list(manila.GOODS + manila.SPOTS)
    assert list(out["spots"]) == sorted(out["spots"], key=order.index)


def test_exact_values_are_fractions_and_strings():
    result = manila.evaluate(manila.EXAMPLE, exact=True)
    assert all(isinstance(v, Fraction) for v in result.incomes.values())
    text = result.to_dict()
    for name, value in text["incomes"].items():
        num, den = value.split("/")
        assert Fraction(int(num), int(den)) == result.incomes[name]
        assert Fraction(int(num), int(den)).denominator == int(den)  # written in lowest terms
    assert result.to_dict(exact=False)["incomes"] == manila.evaluate(manila.EXAMPLE).to_dict()["incomes"]


def test_player_override_and_fresh_player():
    red = manila.evaluate(manila.EXAMPLE, exact=True)
    blue = manila.evaluate(manila.EXAMPLE, exact=True, player="blue")
    assert red.incomes == blue.incomes
    assert red.spots != blue.spots
    fresh = {k: v for k, v in manila.EXAMPLE.items() if k != "player"}
    stranger = manila.evaluate(fresh, exact=True, player="stranger")
    assert manila.evaluate(fresh, exact=True).spots == stranger.spots
    assert stranger.incomes["stranger"] == 0


def test_best_spot():
    result = manila.evaluate(manila.EXAMPLE)
    spots = result.spots
    assert spots[result.best_spot()]["expected_net"] == max(s["expected_net"] for s in spots.values())


def test_core_tables_are_numpy_views_without_copies():
    state = manila.VoyageState.from_dict(manila.EXAMPLE)
    table = _core.analyse(state.to_core(), 0, 3, 1)
    for name in ("denominator", "incomes", "boats", "legal", "cost", "net"):
        array = getattr(table, name)
        assert isinstance(array, np.ndarray)
        assert not array.flags.owndata  # a view of the C++ buffer, kept alive by the table
    assert table.net.dtype == np.int64 and table.legal.dtype == np.bool_
    assert table.boats.shape == (1, 3, 3)
    net = table.net
    del table
    assert net.sum() == net.copy().sum()  # still valid after the table object is gone


def test_evaluate_many_shares_one_table():
    states = [manila.EXAMPLE, {**manila.EXAMPLE, "next_roll": 3}, {**manila.EXAMPLE, "player": "green"}]
    results = manila.evaluate_many(states)
    assert [r.to_dict() for r in results] == [manila.evaluate(s).to_dict() for s in states]


def test_long_calls_release_the_gil():
    """While one thread is inside a long C++ batch, another keeps running Python."""
    import threading
    import time

    start = {
        "next_roll": 1,
        "player": "red",
        "boats": {
            "ginseng": {"position": 2, "crew": ["red", "blue"]},
            "silk": {"position": 4, "crew": ["green"]},
            "jade": {"position": 3, "crew": ["yellow"]},
        },
        "spots": {"pirate_1": "blue", "pirate_2": "green", "pilot_small": "yellow", "pilot_large": "red"},
    }
    # Distinct starts: the evaluator remembers payoffs across calls, so copies of one
    # state would make the batch too short to tell.
    triples = [(a, b, 9 - a - b) for a in range(6) for b in range(6) if 0 <= 9 - a - b <= 5]
    states = [
        manila.VoyageState.from_dict(
            {**start, "boats": {g: {**start["boats"][g], "position": p} for g, p in zip(start["boats"], t)}}
        )
        for t in triples
    ]
    cores = [s.to_core() for s in states]
    inside = threading.Event()
    done = threading.Event()

    def work():
        inside.set()
        _core.analyse_batch(cores, [0] * len(cores), [3] * len(cores), 1)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    inside.wait()
    spins = 0
    began = time.perf_counter()
    while not done.is_set():
        spins += 1
    elapsed = time.perf_counter() - began
    worker.join()
    assert elapsed > 0.02, "the batch was too short to tell"
    # Holding the GIL, the C++ call would leave this loop a few switch intervals at most.
    assert spins > 10_000


def test_exact_key_in_the_json_asks_for_fractions():
    asked = {**manila.EXAMPLE, "exact": True}
    assert manila.evaluate(asked).exact and not manila.evaluate(manila.EXAMPLE).exact
    assert manila.evaluate(asked, exact=False).exact is False  # the argument wins
    assert [r.exact for r in manila.evaluate_many([asked, manila.EXAMPLE])] == [True, False]
    assert manila.evaluate(asked).to_dict() == manila.evaluate(manila.EXAMPLE, exact=True).to_dict()

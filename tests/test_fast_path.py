"""manila.evaluate of a dict: read by the engine's reader of the state (the one the server's
/v1/evaluate and the page read with), then evaluated in the same call into C++.

Whatever the engine's reader accepts, the parser accepts too and reads the same way; whatever
it refuses (or is not made of JSON's own types) goes to the parser, so every error keeps the
parser's words.
"""

from __future__ import annotations

import collections
import copy
import json
import random

import pytest

import manila
from helpers.states import random_state
from manila import _core
from manila.voyage.evaluation import _Read

SEEDS = range(400)


def _parsed(state: dict, strict):
    try:
        return manila.VoyageState.from_dict(state, strict)
    except manila.StateError:
        return None


COMMON = [manila.EXAMPLE] + [random_state(random.Random(i), roll) for i, roll in enumerate((1, 2, 3, 3))]


@pytest.mark.parametrize("state", COMMON)
def test_the_common_shape_is_read_by_the_engine(state):
    assert isinstance(manila.evaluate(state, strict=False)._source, _Read)
    assert isinstance(manila.evaluate(manila.EXAMPLE)._source, _Read)


@pytest.mark.parametrize("seed", SEEDS)
def test_states_read_as_the_parser_reads_them(seed):
    state = random_state(random.Random(seed))
    for strict in (None, False, True):
        read = _core.evaluate_state(state, strict, 1)
        parsed = _parsed(state, strict)
        if parsed is None:
            assert read is None
            continue
        assert read is not None, state
        fast = manila.evaluate(state, strict=strict)
        slow = manila.evaluate(parsed)
        assert isinstance(fast._source, _Read) and not isinstance(slow._source, _Read)
        assert fast.state == parsed and fast._source.owners == parsed.owners
        assert fast._source.goods == tuple(parsed.boats)
        assert json.dumps(fast.state.to_dict()) == json.dumps(parsed.to_dict())  # the order too
        for exact in (False, True):
            assert json.dumps(fast.to_dict(exact)) == json.dumps(slow.to_dict(exact))
        assert fast.spots == slow.spots and fast.boats == slow.boats
        assert fast.incomes == slow.incomes and fast.payoffs == slow.payoffs
        assert fast.denominator == slow.denominator and fast.best_spot() == slow.best_spot()


# Ways to spoil a state, each at a place the parser checks (and a few it accepts).
def _spoilers(rng: random.Random, state: dict) -> list:
    good = rng.choice(list(state["boats"]))
    bad_values = [None, True, 1.0, -1, 14, 99, "", " ", "x", [], {}, ["red"], "arrived", 3, 0]
    pick = rng.choice

    def put(path, value):
        def spoil(s):
            target = s
            for key in path[:-1]:
                target = target.setdefault(key, {}) if isinstance(target, dict) else target[key]
            if isinstance(target, dict) or (isinstance(target, list) and path[-1] < len(target)):
                target[path[-1]] = value

        return spoil

    def drop(path):
        def spoil(s):
            target = s
            for key in path[:-1]:
                target = target[key]
            target.pop(path[-1], None)

        return spoil

    crew_path = ("boats", good, "crew")
    return [
        put(("next_roll",), pick(bad_values)),
        put(("player",), pick(bad_values)),
        put(("players",), pick(bad_values)),
        put(("exact",), pick(bad_values)),
        put(("strict",), pick(bad_values)),
        put(("version",), pick(bad_values)),
        put(("objective",), pick(["income", "wealth", "x"])),
        put(("moment",), {}),
        put(("extra",), 1),
        put(("rules",), pick(bad_values)),
        put(("rules", "thirteen_after_last_roll"), pick(bad_values + ["port", "shipyard"])),
        put(("rules", "pirate_variant"), pick(bad_values)),
        put(("rules", "other"), True),
        put(("boats",), pick(bad_values)),
        put(("boats", pick(["jade", "silk", "tea", "ginseng"])), {"position": 3}),
        put(("boats", good), pick(bad_values)),
        put(("boats", good, "position"), pick(bad_values)),
        put(("boats", good, "crew"), pick(bad_values)),
        put(("boats", good, "other"), 1),
        drop(("boats", good, "position")),
        drop(("boats", good, "crew")),
        drop(("boats", good)),
        drop(("next_roll",)),
        put((*crew_path, 0), pick(bad_values + ["red", "blue"])),
        lambda s: s["boats"][good].get("crew", []).extend(["red"] * rng.randint(1, 4)),
        put(("spots",), pick(bad_values)),
        put(("spots", pick(manila.SPOTS)), pick(bad_values + ["red", "blue", "green"])),
        put(("spots", "pirate_2"), "red"),
        drop(("spots", "pirate_1")),
        put(("spots", pick(["jade", "port_d", 3])), "red"),
        lambda s: s.update({"spots": {sp: "red" for sp in rng.sample(manila.SPOTS, 5)}}),
        put(("shares",), {"red": {"jade": 2}}),
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_engine_never_accepts_what_the_parser_refuses(seed):
    rng = random.Random(seed)
    state = random_state(rng)
    for spoil in rng.sample(_spoilers(rng, state), 6):
        spoilt = copy.deepcopy(state)
        try:
            spoil(spoilt)
        except (KeyError, TypeError, IndexError, AttributeError):
            continue  # this spoiler does not fit this state
        for strict in (None, False):
            read = _core.evaluate_state(spoilt, strict, 1)
            parsed = _parsed(spoilt, strict)
            if read is not None:
                assert parsed is not None, spoilt
                assert read[2] == parsed.owners, spoilt
                assert manila.evaluate(spoilt, strict=strict).state == parsed
            if parsed is None:
                with pytest.raises(manila.StateError) as fast:
                    manila.evaluate(spoilt, strict=strict)
                with pytest.raises(manila.StateError) as slow:
                    manila.VoyageState.from_dict(spoilt, strict)
                assert fast.value.problems == slow.value.problems and str(fast.value) == str(slow.value)


def _with_crew(crew):
    state = copy.deepcopy(manila.EXAMPLE)
    state["boats"]["jade"]["crew"] = crew
    return state


@pytest.mark.parametrize(
    "state",
    [
        _with_crew(("red",)),  # a tuple: from_dict reads the list JSON text makes of it
        {**manila.EXAMPLE, "boats": collections.OrderedDict(manila.EXAMPLE["boats"])},  # a mapping
        {**manila.EXAMPLE, 3: "x"},  # a key that is not a str
        _with_crew([True]),
        _with_crew(["red\ud800"]),  # no UTF-8 for a lone surrogate
        {**manila.EXAMPLE, "next_roll": 2**70},
    ],
)
def test_what_is_not_json_goes_to_the_parser(state):
    assert _core.evaluate_state(state, None, 1) is None
    try:
        parsed = manila.VoyageState.from_dict(state)
    except manila.StateError as slow:
        with pytest.raises(manila.StateError) as fast:
            manila.evaluate(state)
        assert str(fast.value) == str(slow)
    else:
        result = manila.evaluate(state)
        assert not isinstance(result._source, _Read) and result.state == parsed


def test_the_evaluation_keeps_the_state_it_evaluated():
    state = copy.deepcopy(manila.EXAMPLE)
    result = manila.evaluate(state)
    assert isinstance(result._source, _Read)
    expected = manila.VoyageState.from_dict(manila.EXAMPLE)
    state["next_roll"] = 1
    state["boats"]["jade"]["crew"].append("purple")
    state["spots"].clear()
    assert result.state == expected and result.state is result.state
    assert result.to_dict() == manila.evaluate(expected).to_dict()


def test_wealth_is_read_by_the_engine_and_player_by_the_parser():
    wealth = {**manila.EXAMPLE, "objective": "wealth", "shares": {"red": {"jade": 1}}, "prices": {"jade": 5}}
    result = manila.evaluate(wealth)
    assert isinstance(result._source, _Read)
    assert result.to_dict() == manila.evaluate(manila.VoyageState.from_dict(wealth)).to_dict()
    result = manila.evaluate(manila.EXAMPLE, player="green")
    assert result.state.player == "green" and not isinstance(result._source, _Read)

"""The fast path of manila.evaluate: plain JSON states read straight into one engine call.

Whatever the fast path accepts, the parser accepts too and reads the same way; whatever it
refuses goes to the parser, so every error keeps the parser's words.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import manila
from helpers.states import random_state
from manila import _core
from manila.voyage import evaluation as _evaluation
from manila.voyage.fast import PlainState, plain_state

SEEDS = range(400)


def _parsed(state: dict, strict):
    try:
        return manila.VoyageState.from_dict(state, strict)
    except manila.StateError:
        return None


@pytest.mark.parametrize("seed", SEEDS[:100])
def test_one_call_agrees_with_voyage_then_analyse(seed):
    state = random_state(random.Random(seed))
    parsed = manila.VoyageState.from_dict(state, strict=False)
    v = parsed.to_core()
    table = _core.analyse(v, parsed.point_of_view, parsed.max_accomplices, 1)
    rules = parsed.rules
    args = (v.next_roll, v.goods, v.positions, v.crews, v.spots, v.num_owners)
    row = _core.analyse_voyage(
        *args,
        rules.thirteen_after_last_roll == "port",
        rules.pirate_variant,
        parsed.point_of_view,
        parsed.max_accomplices,
        1,
    )
    assert row == table.row(0)
    den, legal, cost, net, boats, incomes, payoffs = row
    assert den == table.denominator[0] and legal == table.legal[0].tolist()
    assert cost == table.cost[0].tolist() and net == table.net[0].tolist()
    assert boats == table.boats[0].tolist()
    assert incomes == table.incomes[0].tolist() and payoffs == table.payoffs[0].tolist()


def test_one_call_checks_its_arguments_like_voyage():
    with pytest.raises(ValueError, match=r"boats.ginseng.crew\[0\]: owner id 5"):
        _core.analyse_voyage(3, [0, 1, 2], [1, 2, 3], [[5], [], []], [-1] * 11, 2, True, False, 0, 3, 1)
    with pytest.raises(ValueError, match="spots: one owner"):
        _core.analyse_voyage(3, [0, 1, 2], [1, 2, 3], [[], [], []], [-1] * 3, 2, True, False, 0, 3, 1)
    with pytest.raises(IndexError):
        _core.analyse(manila.VoyageState.from_dict(manila.EXAMPLE).to_core()).row(1)


COMMON = [manila.EXAMPLE] + [random_state(random.Random(i), roll) for i, roll in enumerate((1, 2, 3, 3))]


@pytest.mark.parametrize("state", COMMON)
def test_the_common_shape_takes_the_fast_path(state):
    assert isinstance(plain_state(state, False), PlainState)
    assert isinstance(manila.evaluate(state, strict=False)._source, PlainState)
    assert isinstance(manila.evaluate(manila.EXAMPLE)._source, PlainState)


@pytest.mark.parametrize("seed", SEEDS)
def test_plain_states_read_as_the_parser_reads_them(seed):
    state = random_state(random.Random(seed))
    for strict in (None, False, True):
        plain = plain_state(state, strict)
        parsed = _parsed(state, strict)
        if parsed is None:
            assert plain is None
            continue
        assert plain is not None, state
        assert plain.state() == parsed and plain.owners == parsed.owners
        assert plain.goods == tuple(parsed.boats)
        assert json.dumps(plain.state().to_dict()) == json.dumps(parsed.to_dict())  # the order too
        fast = manila.evaluate(state, strict=strict)
        slow = manila.evaluate(parsed)
        assert isinstance(fast._source, PlainState) and not isinstance(slow._source, PlainState)
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
def test_the_fast_path_never_accepts_what_the_parser_refuses(seed):
    rng = random.Random(seed)
    state = random_state(rng)
    for spoil in rng.sample(_spoilers(rng, state), 6):
        spoilt = copy.deepcopy(state)
        try:
            spoil(spoilt)
        except (KeyError, TypeError, IndexError, AttributeError):
            continue  # this spoiler does not fit this state
        for strict in (None, False):
            plain = plain_state(spoilt, strict)
            parsed = _parsed(spoilt, strict)
            if plain is not None:
                assert parsed is not None, spoilt
                assert plain.state() == parsed and plain.owners == parsed.owners, spoilt
            if parsed is None:
                with pytest.raises(manila.StateError) as fast:
                    manila.evaluate(spoilt, strict=strict)
                with pytest.raises(manila.StateError) as slow:
                    manila.VoyageState.from_dict(spoilt, strict)
                assert fast.value.problems == slow.value.problems and str(fast.value) == str(slow.value)


def test_an_engine_refusal_on_the_fast_path_gets_the_parsers_words(monkeypatch):
    """Should the engine refuse what the fast path let through, the parser reads the state."""
    bad = copy.deepcopy(manila.EXAMPLE)
    bad["boats"]["jade"]["crew"] = ["  "]  # no owner's name
    good = plain_state(manila.EXAMPLE)
    assert good is not None and plain_state(bad) is None
    broken = list(good.core_args)
    broken[5] = 0  # num_owners: every owner id out of range, so the engine throws
    monkeypatch.setattr(
        _evaluation, "plain_state", lambda *a: PlainState(tuple(broken), good.goods, good.owners, good._parts)
    )
    with pytest.raises(manila.StateError) as caught:
        manila.evaluate(bad)
    with pytest.raises(manila.StateError) as parser:
        manila.VoyageState.from_dict(bad)
    assert str(caught.value) == str(parser.value)
    assert caught.value.problems == parser.value.problems
    # A valid state the engine refused on the fast path is evaluated the parser's way.
    assert (
        manila.evaluate(manila.EXAMPLE).to_dict()
        == manila.evaluate(manila.VoyageState.from_dict(manila.EXAMPLE)).to_dict()
    )


def test_the_evaluation_keeps_the_state_it_evaluated():
    state = copy.deepcopy(manila.EXAMPLE)
    result = manila.evaluate(state)
    expected = manila.VoyageState.from_dict(manila.EXAMPLE)
    state["next_roll"] = 1
    state["boats"]["jade"]["crew"].append("purple")
    state["spots"].clear()
    assert result.state == expected and result.state is result.state
    assert result.to_dict() == manila.evaluate(expected).to_dict()


def test_player_and_wealth_keep_the_parsers_path():
    assert plain_state({**manila.EXAMPLE, "objective": "wealth"}) is None
    result = manila.evaluate(manila.EXAMPLE, player="green")
    assert result.state.player == "green" and not isinstance(result._source, PlainState)

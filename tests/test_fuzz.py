"""Arbitrary input: the only outcomes are a result or the documented exception."""

import copy
import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import manila
from helpers.states import states
from manila import _core
from manila.cli import main

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=25,
)

KEYS = [
    "next_roll",
    "boats",
    "spots",
    "player",
    "players",
    "rules",
    "position",
    "crew",
    "ginseng",
    "nutmeg",
    "silk",
    "jade",
    "pirate_1",
    "pirate_2",
    "insurance",
    "thirteen_after_last_roll",
    "pirate_variant",
    "strict",
    "exact",
]


def outcome(fn, *args, **kwargs):
    """Runs fn; returns 'ok' or 'refused'. Anything else propagates and fails the test."""
    try:
        fn(*args, **kwargs)
        return "ok"
    except manila.StateError as exc:
        assert exc.problems and all(isinstance(p.message, str) and p.message for p in exc.problems)
        return "refused"


@st.composite
def mutated_states(draw):
    """A valid state with one part replaced by an arbitrary JSON value or removed."""
    state = draw(states())
    node, key = state, None
    for _ in range(draw(st.integers(1, 3))):
        if not isinstance(node, dict) or not node:
            break
        key = draw(st.sampled_from(sorted(node) + [draw(st.sampled_from(KEYS))]))
        if isinstance(node.get(key), dict) and draw(st.booleans()):
            node = node[key]
        else:
            break
    if isinstance(node, dict) and key is not None:
        if draw(st.booleans()):
            node[key] = draw(JSON)
        else:
            node.pop(key, None)
    return state


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(JSON | mutated_states())
def test_arbitrary_json_is_evaluated_or_refused(data):
    before = copy.deepcopy(data)
    outcome(manila.VoyageState.from_dict, data)
    outcome(manila.evaluate, data)
    outcome(manila.evaluate, data, strict=False)
    assert isinstance(manila.validate(data), list)
    assert repr(data) == repr(before)  # inputs are never modified


@settings(max_examples=300)
@given(st.text(max_size=60) | st.builds(lambda s, t: s + " " + t, st.just("r2"), st.text(max_size=40)))
def test_arbitrary_text_is_parsed_or_refused(text):
    outcome(manila.parse, text)
    outcome(manila.parse, text, strict=False)
    outcome(manila.evaluate, text, strict=False)
    assert isinstance(manila.validate(text), list)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40) | mutated_states().map(json.dumps))
def test_command_line_never_shows_a_traceback(text):
    for argv in (["validate", text], ["evaluate", text, "--json"], ["evaluate", "--no-strict", "--", text]):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse usage errors
                code = exc.code
        assert code in (0, 2)
        assert "Traceback" not in err.getvalue()
        if code == 2 and argv[0] == "evaluate":
            assert err.getvalue().startswith(("manila: error: ", "usage:"))


@settings(max_examples=300)
@given(
    next_roll=st.integers(-3, 6),
    goods=st.lists(st.integers(-2, 5), min_size=0, max_size=4),
    positions=st.lists(st.integers(-2, 16), min_size=0, max_size=4),
    crews=st.lists(st.lists(st.integers(-3, 6), max_size=5), max_size=4),
    spots=st.lists(st.integers(-3, 6), min_size=9, max_size=12),
    num_owners=st.integers(-2, 70),
    owner=st.integers(-3, 7),
)
def test_the_core_checks_its_own_arguments(next_roll, goods, positions, crews, spots, num_owners, owner):
    try:
        voyage = _core.Voyage(
            next_roll=next_roll,
            goods=goods,
            positions=positions,
            crews=crews,
            spots=spots,
            num_owners=num_owners,
        )
    except ValueError:
        return
    try:
        table = _core.analyse(voyage, owner, 3, 1)
    except ValueError:
        assert not -1 <= owner < num_owners
        return
    assert (table.boats.sum(axis=2) == table.denominator[:, None]).all()


def test_huge_and_nested_inputs_are_refused_quickly():
    deep = []
    for _ in range(10000):
        deep = [deep]
    assert outcome(manila.evaluate, {"next_roll": 1, "boats": deep}) == "refused"
    assert outcome(manila.parse, "r1 " + "ginseng@3 " * 5000) == "refused"


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**100, -0.0, 2.0, "3"])
def test_numbers_that_are_not_small_integers(value):
    state = {**manila.EXAMPLE, "next_roll": value}
    assert [p.path for p in manila.validate(state)] == ["next_roll"]


# --------------------------------------------------------------------------- every entry


def _table() -> dict:
    state = manila.Game(players=4, seed=3).new_initial_state()
    while state.is_chance_node():
        state.apply_chance()
    return state.observation(0)


TABLE = _table()
EXTREMES = (
    st.sampled_from([0, -1, 1, 2**31 - 1, 2**31, 2**32, 2**63, 2**64, 10**30, -(2**63) - 1]) | st.floats()
)


@st.composite
def mutated(draw, base):
    """``base`` with one value somewhere inside replaced by an extreme or arbitrary one."""
    data = copy.deepcopy(base)
    node = data
    for _ in range(draw(st.integers(1, 4))):
        keys = (
            list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        )
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        if isinstance(node[key], (dict, list)) and node[key] and draw(st.booleans()):
            node = node[key]
            continue
        node[key] = draw(EXTREMES | JSON)
        break
    return data


def refused_or_done(fn, *args, **kwargs):
    """Runs fn within half a second of engine time: a result, a ValueError (StateError,
    TableError, ...) or the engine stopped; anything else fails the test."""
    try:
        with manila.cancellable(manila.CancelToken(0.5)):
            fn(*args, **kwargs)
    except (ValueError, manila.Cancelled) as exc:
        assert str(exc)


POSITION = {**manila.parse_position("r2 ginseng@5 nutmeg@7 silk@6 turn=a order=a,b,c").to_dict()}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON | mutated(POSITION))
def test_arbitrary_positions_are_advised_or_refused(data):
    refused_or_done(manila.advise, data, threads=1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON | mutated(TABLE))
def test_arbitrary_tables_are_read_or_refused(data):
    refused_or_done(manila.analyse, data, rollouts=2, threads=1, time_limit=0.1)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(
        ["rollouts", "seed", "time_limit", "max_rollouts", "threads", "max_bids", "screen", "target"]
    ),
    EXTREMES | JSON,
)
def test_arbitrary_effort_is_capped_or_refused(key, value):
    refused_or_done(manila.analyse, TABLE, **{key: value, **({} if key == "threads" else {"threads": 1})})


@settings(max_examples=100, deadline=None)
@given(st.lists(EXTREMES | st.integers(0, 3000), min_size=2, max_size=2) | JSON)
def test_arbitrary_actions_are_stepped_or_refused(actions):
    env = manila.VectorEnv(players=3, num_envs=2)
    env.reset(1)
    try:
        env.step(actions)
    except (ValueError, OverflowError) as exc:
        assert str(exc)


ROUTES = {
    "/v1/advise": {"notation": "r2 ginseng@5 nutmeg@7 silk@6 turn=a order=a,b,c"},
    "/v1/analyse": {"table": TABLE, "rollouts": 4},
    "/v1/play": {"new": {"players": 3, "bots": ["greedy", "greedy"]}},
    "/v1/evaluate": {"notation": "r1 ginseng@3 nutmeg@4 silk@2"},
}


@pytest.fixture(scope="module")
def quick_server():
    from helpers.serving import serving

    with serving(time_limit=1.0) as srv:
        yield srv


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(sorted(ROUTES)), data=st.data())
def test_the_api_answers_every_body_without_a_500(quick_server, route, data):
    from helpers.serving import call

    body = data.draw(JSON | mutated(ROUTES[route]))
    reply = call(quick_server, "POST", route, json.dumps(body).encode(), {"Content-Type": "application/json"})
    assert reply.status in (200, 400, 503), (route, body, reply.body)
    if reply.status != 200:
        assert reply.errors

"""Advice (positions) against the brute-force max^n reference, its invariants, and its
validation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import manila
from helpers.advice_reference import advice_reference
from helpers.positions import decision_position, placement_position, placement_positions, sample
from manila.view import PlayerView

# (seed, count, next_roll, movers, busy): a few hundred positions, both objectives.
PLACEMENT = [
    (1, 50, 3, 1, 0.7),
    (2, 50, 3, 2, 0.6),
    (3, 40, 3, 3, 0.5),
    (4, 15, 3, 4, 0.7),
    (5, 30, 2, 1, 0.7),
    (6, 15, 2, 2, 0.7),
    (7, 3, 1, 1, 0.8),
]


def _placements():
    out = []
    for seed, count, roll, movers, busy in PLACEMENT:
        out += sample(
            seed, count, lambda d: placement_position(d, roll, movers, wealth=d.chance(0.5), busy=busy)
        )
    return out


PLACEMENTS = _placements()
DECISIONS = [
    p
    for seed, kind in enumerate(("pilot_small", "pilot_large", "boarding"), 100)
    for p in sample(seed, 25, lambda d: decision_position(d, kind, wealth=d.chance(0.5)))
]


def engine(position):
    a = manila.advise(position, exact=True, strict=False)
    return {
        "to_move": a.to_move,
        "options": a.options,
        "best": a.best,
        "line": [list(turn) for turn in a.line],
        "payoffs": a.payoffs,
    }


@pytest.mark.reference
@pytest.mark.parametrize("position", PLACEMENTS, ids=[f"placement-{i}" for i in range(len(PLACEMENTS))])
def test_placement_advice_equals_the_brute_force_max_n(position):
    assert engine(position) == advice_reference(position)


@pytest.mark.parametrize(
    "position", DECISIONS, ids=[f"{p['moment']['kind']}-{i}" for i, p in enumerate(DECISIONS)]
)
def test_pilot_and_boarding_advice_equal_the_enumerated_moves(position):
    assert engine(position) == advice_reference(position)


def test_the_sample_covers_the_contract():
    positions = [manila.Position.from_dict(p, strict=False) for p in PLACEMENTS]
    movers = [len(p.movers) for p in positions]
    assert all(movers.count(n) >= 15 for n in (1, 2, 3, 4)), movers
    assert sum(p.state.objective == "wealth" for p in positions) >= 60
    assert sum(p.state.objective == "income" for p in positions) >= 60
    assert sum(bool(p.moment.declined) for p in positions) >= 30
    assert len(PLACEMENTS) >= 200
    # The replies matter: somewhere the best reply-aware choice differs from the best spot.
    differ = 0
    for p in positions:
        if len(p.movers) > 1:
            table = manila.evaluate(p.state, player=p.to_move, strict=False).spots
            spot = max(table, key=lambda s: table[s]["expected_net"]) if table else None
            best = manila.advise(p, strict=False).best
            differ += (spot if spot is not None and table[spot]["expected_net"] > 0 else "decline") != best
    assert differ >= 10
    kinds = [p["moment"]["kind"] for p in DECISIONS]
    assert all(kinds.count(k) == 25 for k in ("pilot_small", "pilot_large", "boarding"))


@settings(max_examples=60, deadline=None)
@given(placement_positions(movers=1, busy=0.4))
def test_with_one_player_left_the_advice_is_the_spot_table(position):
    pos = manila.Position.from_dict(position, strict=False)
    assert pos.movers == (pos.to_move,)
    advice = manila.advise(pos, exact=True)
    # The spot table, for the mover, with their hand as the only limit.
    table = manila.evaluate(pos.state, player=pos.to_move, exact=True).spots
    options = advice.options
    assert options.pop("decline") == {"cost": 0, "expected_net": 0}
    assert options == table


POSITION = "r3 ginseng@9:a silk@11:b jade@10:c,d order=a,b,c,d turn=b"

BAD = {
    "to_move not in order": (
        "r3 ginseng@9:a silk@11:b jade@10:c order=a,b turn=c",
        "moment.to_move",
        "not in the order",
    ),
    "no accomplice in hand": (
        "r3 ginseng@9:a silk@11:b jade@10:c order=a,b,c turn=b hand=b:0",
        "moment.to_move",
        "no accomplice in hand",
    ),
    "declined to move": (
        "r3 ginseng@9:a silk@11:b jade@10:c order=a,b,c turn=b declined=b",
        "moment.to_move",
        "declined",
    ),
    "pilots before roll 3": (
        "r2 ginseng@9:a silk@11:b jade@10:c pilot_small=a moment=pilot_small",
        "moment.kind",
        "before roll 3",
    ),
    "boarding without a boat on 13": (
        "r3 ginseng@9:a silk@11:b jade@10:c pirate_1=a moment=boarding",
        "moment.kind",
        "onto 13",
    ),
    "a seat to respect with two pirates on the ship": (
        "r3 ginseng@13:a silk@13:b jade@10:c pirate_1=c pirate_2=d moment=boarding variant protect=silk:1",
        "moment.protected",
        "the captain has not boarded: d is still on the ship",
    ),
    "boarding before roll 3": (
        "r2 ginseng@13:a silk@11:b jade@10:c pirate_1=a moment=boarding",
        "moment.kind",
        "right after roll 2",
    ),
    "large pilot before the small": (
        "r3 ginseng@9:a silk@11:b jade@10:c pilot_small=a pilot_large=b moment=pilot_large",
        "moment.kind",
        "small pilot moves first",
    ),
    "a pilot nobody holds": (
        "r3 ginseng@9:a silk@11:b jade@10:c moment=pilot_small",
        "moment.kind",
        "nobody holds",
    ),
    "misspelt kind": (
        "r3 ginseng@9:a silk@11:b jade@10:c pilot_small=a moment=pilot_smal",
        "moment.kind",
        'did you mean "pilot_small"',
    ),
    "too many in hand": (
        "r3 ginseng@9:a silk@11:b jade@10:c order=a,b,c turn=b hand=b:3",
        "moment.accomplices.b",
        "only 3",
    ),
}


@pytest.mark.parametrize("text, path, message", BAD.values(), ids=BAD.keys())
def test_bad_positions_are_named(text, path, message):
    with pytest.raises(manila.StateError) as info:
        manila.parse_position(text, strict=False)
    assert any(p.path == path and message in p.message for p in info.value.problems), info.value.problems


def test_a_position_is_not_a_state():
    with pytest.raises(manila.StateError, match="advise"):
        manila.evaluate(POSITION)


@settings(max_examples=60, deadline=None)
@given(placement_positions(next_roll=3, busy=0.4))
def test_position_notation_round_trips(position):
    pos = manila.Position.from_dict(position, strict=False)
    assert manila.parse_position(str(pos), strict=False) == pos
    assert manila.Position.from_dict(pos.to_dict(), strict=False) == pos


def test_json_shape_and_exact_strings():
    data = manila.advise(POSITION, exact=True).to_dict()
    assert set(data) >= {"to_move", "options", "best", "line", "payoffs"}
    assert data["to_move"] == "b" and data["line"][0] == ["b", data["best"]]
    assert [turn[0] for turn in data["line"]] == ["b", "c", "d"]
    assert all(isinstance(o["expected_net"], str) for o in data["options"].values())
    floats = manila.advise(POSITION).to_dict()
    assert floats["best"] == data["best"] and isinstance(floats["options"]["decline"]["expected_net"], float)


# --- the command line and the server ----------------------------------------------------


def _run_cli(*args):
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "manila", "advise", *args], capture_output=True, text=True, timeout=120
    )


def test_advise_on_the_command_line():
    import json

    out = _run_cli(POSITION, "--exact", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == manila.advise(POSITION, exact=True).to_dict()
    bad = _run_cli("r3 ginseng@9:a silk@11:b jade@10:c order=a,b turn=c")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "manila: error: moment.to_move: c is not in the order (a, b)"


@pytest.fixture()
def server():
    import threading

    from manila import server as web

    srv = web.make_server("127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _post(srv, body):
    import http.client
    import json

    conn = http.client.HTTPConnection(*srv.server_address[:2], timeout=30)
    conn.request("POST", "/v1/advise?exact=1", json.dumps(body), {"Content-Type": "application/json"})
    reply = conn.getresponse()
    data = json.loads(reply.read())
    conn.close()
    return reply.status, data


def test_advise_over_http(server):
    status, data = _post(server, {"notation": POSITION})
    assert status == 200 and data == manila.advise(POSITION, exact=True).to_dict()
    position = manila.parse_position(POSITION).to_dict()
    assert _post(server, position) == (200, data)
    status, data = _post(server, dict(position, moment={"kind": "placement", "order": ["a"], "to_move": "z"}))
    assert status == 400 and data["errors"][0]["path"] == "moment.to_move"


def test_a_busy_server_answers_503_at_once(server):
    import threading

    started, release = threading.Event(), threading.Event()
    real = server.adviser

    def slow(*args, **kwargs):
        started.set()
        release.wait(20)
        return real(*args, **kwargs)

    server.adviser = slow
    first = {}
    worker = threading.Thread(
        target=lambda: first.update(zip(("status", "data"), _post(server, {"notation": POSITION})))
    )
    worker.start()
    assert started.wait(20)
    status, data = _post(server, {"notation": POSITION})
    assert status == 503 and "busy" in data["errors"][0]["message"]
    release.set()
    worker.join(30)
    assert first["status"] == 200
    server.adviser = real
    assert _post(server, {"notation": POSITION})[0] == 200  # the slot was given back


def test_the_game_gives_the_position_of_its_moment():
    from manila.bots import bots_for

    kinds = set()
    for seed in range(12):
        state = manila.Game(4, seed).new_initial_state()
        bots = bots_for(["greedy"] * 4, seed)
        while not state.is_terminal() and len(kinds) < 4:
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            position = state.position()
            if position is not None and position["moment"]["kind"] not in kinds:
                kind = position["moment"]["kind"]
                kinds.add(kind)
                advice = manila.advise(position, strict=False)
                assert advice.to_move == f"p{state.current_player()}"
                if kind == "placement":
                    legal = state.legal_action_names()
                    assert (
                        advice.best == "decline" and "decline" in legal
                    ) or f"place {advice.best}" in legal
            else:
                assert position is None or position["moment"]["kind"] in kinds
            state.apply_action(bots[state.current_player()].step(PlayerView(state, state.current_player())))
    assert kinds == {"placement", "pilot_small", "pilot_large", "boarding"}

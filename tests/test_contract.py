"""One contract, two readers: the Python server and the engine's own ``call`` (C++,
``manila._core.call``; the page runs the same code compiled to WebAssembly, which
tests/test_wasm.py holds to the same answers) answer every body of every POST route they
share alike: the same status and the same JSON, to the byte (docs/architecture.md).

Hundreds of generated requests per format go to both (tests/helpers/contract.py): valid
voyage states and positions, the same broken field by field (wrong types, out of range,
unknown and misspelt names, too many accomplices or players, boards no voyage reaches),
notation bodies, JSON text cut or garbled character by character, the value and the
analysis of tables and game records from games played at random to every kind of decision,
as given and broken, and the play route's games (new, continued with legal and illegal
actions, tampered with, hints of a fixed number of rollouts). The server is the real one,
on a loopback port. An analysis's "seconds", its timing, is the one field left out of the
comparison.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import random
import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, example, given, settings

from helpers.contract import (
    ACCEPTED,
    EDGES,
    FEWER_EXAMPLES,
    PLAY_EDGES,
    PLAY_REQUESTS,
    REQUESTS,
    REVIEW_GAMES,
    WHOLE_REVIEWS,
    play_game_edges,
    review_record,
    served,
    timeless,
    whole_review,
)
from helpers.serving import serving
from manila import _core

EXAMPLES = 100  # per form (a notation goes to all three routes): a few seconds each
# The play route's games are played by the bots: few of them (CI's budget), seconds in all.
PLAY_EXAMPLES = {"play": 60, "play_expert": 3}


@pytest.fixture(scope="module")
def server():
    # Time enough for the bots of a game against experts on a loaded machine: the server
    # stops its bots at half the time limit (a "pending" answer), the engine never does.
    with serving(time_limit=120.0) as srv:
        conn = http.client.HTTPConnection(*srv.server_address[:2], timeout=60)
        yield conn
        conn.close()


def agree(conn: http.client.HTTPConnection, route: str, body: bytes) -> int:
    """Sends the body to both; they must answer alike. Returns the status."""
    answer = timeless(route, served(conn, route, body))
    assert timeless(route, _core.call(route, body)) == answer, (route, body)
    return answer[0]


@pytest.mark.parametrize("form", sorted(REQUESTS))
def test_both_answer_alike(server, form):
    statuses = set()

    def check(requests):
        for route, body in requests:
            statuses.add(agree(server, route, body))

    if form in ACCEPTED:
        check = example(ACCEPTED[form])(check)
    settings(
        max_examples=FEWER_EXAMPLES.get(form, EXAMPLES),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )(given(REQUESTS[form])(check))()
    # Each form reaches the engine and its refusals (a valid state: the engine only; garbled
    # text: the refusals, and now and then a 200 that survived the garbling).
    expected = {"states": {200}, "json_text": {400}, "reviews": {400}}.get(form, {200, 400})
    assert expected <= statuses <= {200, 400}, statuses


def test_printable_as_python_repr(server):
    """repr() escapes what str.isprintable refuses: every code point, through the messages
    that quote a value (the table lives in cpp/src/api_text.cpp)."""
    step = 4096
    for start in range(0, sys.maxunicode + 1, step):
        chunk = "".join(
            chr(c) for c in range(start, min(start + step, sys.maxunicode + 1)) if not 0xD800 <= c < 0xE000
        )
        body = json.dumps({"next_roll": chunk}).encode()
        if _core.call("/v1/validate", body) != served(server, "/v1/validate", body):
            ranges = unprintable_ranges()
            pytest.fail(
                f"repr differs in U+{start:04X}..U+{start + step - 1:04X}: Python {sys.version.split()[0]} "
                f"(Unicode {unicodedata.unidata_version}) finds these {len(ranges)} ranges unprintable:\n"
                + ", ".join(f"{{0x{a:X}, 0x{b:X}}}" for a, b in ranges)
            )
    lone = "x".join(chr(c) for c in range(0xD800, 0xE000, 97))
    agree(server, "/v1/validate", json.dumps({"next_roll": lone}).encode())


def unprintable_ranges() -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for c in range(sys.maxunicode + 1):
        if not chr(c).isprintable():
            if ranges and ranges[-1][1] == c - 1:
                ranges[-1] = (ranges[-1][0], c)
            else:
                ranges.append((c, c))
    return ranges


@pytest.mark.parametrize("route, body", EDGES)
def test_edges(server, route, body):
    agree(server, route, body)


@pytest.mark.parametrize("form", sorted(PLAY_REQUESTS))
def test_the_play_route_answers_alike(server, form):
    statuses = set()

    @settings(
        max_examples=PLAY_EXAMPLES[form],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(PLAY_REQUESTS[form])
    def check(requests):
        for route, body in requests:
            statuses.add(agree(server, route, body))

    check()
    assert statuses == ({200, 400} if form == "play" else {200}), statuses


@pytest.mark.parametrize("route, body", PLAY_EDGES)
def test_play_edges(server, route, body):
    agree(server, route, body)


def test_play_edges_of_a_whole_game(server):
    statuses = [agree(server, route, body) for route, body in play_game_edges()]
    assert statuses.count(200) >= 3 and statuses.count(400) > 20, statuses


def test_sha256_as_hashlib():
    """The engine's SHA-256 (the saved game's check) is hashlib's: every length around the
    block boundaries, and random bytes."""
    rng = random.Random(7)
    for n in [*range(0, 130), 1000, 4096, 100_003]:
        data = bytes(rng.randrange(256) for _ in range(n))
        assert _core.sha256_hex(data) == hashlib.sha256(data).hexdigest(), n


def hint_at(server, kind_of_phase, seed):
    """A game of greedy bots played by the engine to the player's first decision in one of
    these phases, and the hint (time-bounded) from both."""
    answer = json.loads(
        _core.call(
            "/v1/play", json.dumps({"new": {"players": 3, "seed": seed, "bots": ["greedy", "greedy"]}})
        )[1]
    )
    moves = random.Random(seed)
    while answer["phase"] not in kind_of_phase:
        assert not answer["terminal"]
        body = {"game": answer["game"], "action": moves.choice(answer["legal_actions"])}
        status, text = _core.call("/v1/play", json.dumps(body))
        assert status == 200, text
        answer = json.loads(text)
    body = json.dumps({"game": answer["game"], "hint": True}).encode()
    return served(server, "/v1/play", body), _core.call("/v1/play", body)


def test_a_hint_of_the_advice_is_the_servers_to_the_byte(server):
    """Where the exact advice covers the decision (a placement), the hint has no time in it."""
    (status, text), mine = hint_at(server, ("placement",), 4)
    assert status == 200 and json.loads(text)["hint"]["source"] == "advice"
    assert mine == (status, text)


def test_a_time_bounded_hint_says_the_same_things(server):
    """Rollouts bounded by time differ from run to run (their count, their values): the two
    hints agree on everything else, and with a fixed number of rollouts (the generated
    bodies) to the byte."""
    (status, text), (my_status, my_text) = hint_at(server, ("auction",), 5)
    assert status == my_status == 200
    theirs, mine = json.loads(text), json.loads(my_text)
    assert {k: v for k, v in theirs.items() if k != "hint"} == {k: v for k, v in mine.items() if k != "hint"}
    a, b = theirs["hint"], mine["hint"]
    assert a["source"] == b["source"] == "analysis" and a["kind"] == b["kind"] == "auction"
    assert [o["action"] for o in a["options"]] and sorted(o["action"] for o in a["options"]) == sorted(
        o["action"] for o in b["options"]
    )
    assert set(a["options"][0]) == set(b["options"][0]) == {"action", "value", "ci95", "exact", "line"}
    assert b["best"] in [o["action"] for o in b["options"]]
    assert len(a["words"]) == len(b["words"]) and b["words"][0].startswith("The office is worth")
    assert "to you" in b["words"][0] and b["words"][-1].startswith("Values: your equity")


@pytest.mark.parametrize("k", range(len(WHOLE_REVIEWS)))
def test_reviews_of_finished_games(server, k):
    """Whole reviews (helpers.contract.WHOLE_REVIEWS): every decision's class and table,
    every event's luck, the summaries and their words."""
    body = whole_review(k)
    assert agree(server, "/v1/review", body) == 200
    review = json.loads(_core.call("/v1/review", body)[1])
    assert len(review["players"]) == REVIEW_GAMES[WHOLE_REVIEWS[k][0]][0] and review["complete"]
    assert {d["class"] for d in review["decisions"]} >= {"fine", "blunder"}


def test_review_reports_progress_and_stops():
    body = json.dumps({"record": json.loads(review_record(0)), "rollouts": 2, "luck_rollouts": 2})
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        seen.append((done, total))
        return done < 5

    status, text = _core.call("/v1/review", body, progress=progress)
    assert status == 503 and json.loads(text) == {"errors": [{"path": "", "message": _core.STOPPED}]}
    assert seen == [(k, seen[0][1]) for k in range(1, 6)] and seen[0][1] > 50

"""The HTTP server (manila.server) over real sockets: every route, every error status."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import manila
from helpers.serving import call, serving
from helpers.states import states
from manila.server import app as web

ROLL3 = (
    "r3 ginseng@8:red,blue silk@arrived:green jade@12 port_c=green pirate_1=blue pilot_large=red player=red"
)
# The example state one roll early: a boat in Manila and one on 12 before roll 2, which no real voyage reaches.
UNREACHABLE = {
    "next_roll": 2,
    "player": "red",
    "boats": {
        "ginseng": {"position": 8, "crew": ["red", "blue"]},
        "silk": {"position": "arrived", "crew": ["green"]},
        "jade": {"position": 12, "crew": []},
    },
    "spots": {"pirate_1": "blue", "pilot_large": "red", "port_c": "green"},
}
START = {
    "next_roll": 1,
    "boats": {"ginseng": {"position": 3}, "silk": {"position": 2}, "nutmeg": {"position": 4}},
}


@pytest.fixture(scope="module")
def srv():
    with serving() as s:
        yield s


def raw(srv, data: bytes, *, wait: float = 10.0) -> tuple[int, dict, bytes]:
    """Sends bytes as they are; reads one answer (status, lower-cased headers, body)."""
    with socket.create_connection(srv.server_address[:2], timeout=wait) as sock:
        sock.sendall(data)
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = sock.recv(65536)
            assert chunk, got
            got += chunk
        head, _, body = got.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        while len(body) < int(headers.get("content-length", 0)):
            chunk = sock.recv(65536)
            assert chunk, body
            body += chunk
    return int(lines[0].split()[1]), headers, body


# --------------------------------------------------------------------------- the routes


def test_health(srv):
    r = call(srv, "GET", "/healthz")
    assert r.status == 200
    assert r.json() == {"status": "ok", "version": manila.__version__}
    assert r.headers["Server"] == f"manila/{manila.__version__}"


def test_example(srv):
    r = call(srv, "GET", "/v1/example")
    assert r.status == 200 and r.json() == manila.EXAMPLE
    r = call(srv, "GET", "/v1/example?format=x")
    assert r.status == 400 and r.errors[0]["path"] == "query.format"


def test_openapi_lists_exactly_the_routes(srv):
    r = call(srv, "GET", "/openapi.json")
    assert r.status == 200
    spec = r.json()
    assert spec["openapi"].startswith("3.") and spec["info"]["version"] == manila.__version__
    served = {(m, p) for p, methods in web.ROUTES.items() for m in methods}
    documented = {(m.upper(), p) for p, ops in spec["paths"].items() for m in ops}
    assert documented == served
    # Every status the tests below provoke is documented for the POST routes.
    for path in ("/v1/evaluate", "/v1/validate"):
        codes = set(spec["paths"][path]["post"]["responses"])
        assert {"200", "400", "408", "411", "413", "415", "500"} <= codes
    assert "503" in spec["paths"]["/v1/evaluate"]["post"]["responses"]
    # Any other status (a 405 here) is the operations' default: the same error JSON.
    r = call(srv, "GET", "/v1/value")
    assert r.status == 405 and r.errors[0]["path"] == "method"
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            default = operation["responses"]["default"]["content"]["application/json"]["schema"]
            assert default == {"$ref": "#/components/schemas/Errors"}, (method, path)


def test_page(srv):
    r = call(srv, "GET", "/")
    assert r.status == 200
    assert r.headers["Content-Type"] == "text/html; charset=utf-8"
    page = r.body.decode("utf-8")
    assert page.startswith("<!doctype html>") and '<script type="module" src="calculator.mjs">' in page
    # Its modules are served beside it, as JavaScript; the gateway asks the API's routes.
    for name in ("calculator.mjs", "ask.mjs", "words.mjs", "play.mjs", "play.html"):
        module = call(srv, "GET", "/" + name)
        assert module.status == 200, name
    assert call(srv, "GET", "/ask.mjs").headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert "'/v1/' + route" in call(srv, "GET", "/ask.mjs").body.decode()
    assert 'name="viewport"' in page
    # Self-contained: nothing is fetched from elsewhere, and the CSP forbids it anyway.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page, re.I)
    assert not re.search(r"https?://", page)
    assert "default-src 'none'" in r.headers["Content-Security-Policy"]
    assert "connect-src 'self'" in r.headers["Content-Security-Policy"]
    head = call(srv, "HEAD", "/")
    assert head.status == 200 and head.body == b""
    assert int(head.headers["Content-Length"]) == len(r.body)


def test_evaluate_state(srv):
    r = call(srv, "POST", "/v1/evaluate", manila.EXAMPLE)
    assert r.status == 200
    assert r.json() == manila.evaluate(manila.EXAMPLE).to_dict()


def test_evaluate_exact_by_query_or_body(srv):
    want = manila.evaluate(manila.EXAMPLE, exact=True).to_dict()
    assert call(srv, "POST", "/v1/evaluate?exact=1", manila.EXAMPLE).json() == want
    assert call(srv, "POST", "/v1/evaluate?exact=true", manila.EXAMPLE).json() == want
    assert call(srv, "POST", "/v1/evaluate", {**manila.EXAMPLE, "exact": True}).json() == want
    # The query parameter wins over the body.
    floats = call(srv, "POST", "/v1/evaluate?exact=0", {**manila.EXAMPLE, "exact": True}).json()
    assert floats == manila.evaluate(manila.EXAMPLE).to_dict()


def test_known_values_over_http(srv):
    # docs/numbers.md: from 3, 2, 4 with nothing occupied, a ginseng seat is worth 41/4, port_a 41/24.
    out = call(srv, "POST", "/v1/evaluate?exact=1", START).json()
    assert out["spots"]["ginseng"] == {"cost": 1, "expected_net": "41/4"}
    assert out["spots"]["port_a"]["expected_net"] == "41/24"


def test_evaluate_notation(srv):
    r = call(srv, "POST", "/v1/evaluate", {"notation": ROLL3})
    assert r.status == 200
    assert r.json() == manila.evaluate(manila.parse(ROLL3)).to_dict()
    exact = call(srv, "POST", "/v1/evaluate", {"notation": ROLL3, "exact": True}).json()
    assert exact == manila.evaluate(manila.parse(ROLL3), exact=True).to_dict()


def test_strictness(srv):
    r = call(srv, "POST", "/v1/evaluate", UNREACHABLE)
    assert r.status == 400
    assert any(e["path"].startswith("boats") and "strict" in e["message"] for e in r.errors)
    want = manila.evaluate(UNREACHABLE, strict=False).to_dict()
    assert call(srv, "POST", "/v1/evaluate?strict=0", UNREACHABLE).json() == want
    assert call(srv, "POST", "/v1/evaluate", {**UNREACHABLE, "strict": False}).json() == want
    text = str(manila.VoyageState.from_dict(UNREACHABLE, strict=False))
    assert call(srv, "POST", "/v1/evaluate", {"notation": text}).status == 400
    assert call(srv, "POST", "/v1/evaluate", {"notation": text, "strict": False}).json() == want
    assert call(srv, "POST", "/v1/evaluate?strict=false", {"notation": text}).json() == want


def test_evaluate_invalid_states_list_every_problem(srv):
    bad = {
        "next_roll": 4,
        "boats": {"ginseng": {"position": 3}, "tea": {"position": 1}},
        "spots": {"port_z": "red", "pirate_2": "blue"},
    }
    r = call(srv, "POST", "/v1/evaluate", bad)
    assert r.status == 400
    paths = {e["path"] for e in r.errors}
    assert {"next_roll", "boats.tea", "boats", "spots.port_z"} <= paths
    assert {p.path for p in manila.validate(bad)} == paths
    for body, path in [
        ([1, 2], ""),
        ("r1", ""),
        ({"notation": 5}, "notation"),
        ({"notation": "r9 x"}, None),
        ({"notation": "r1", "player": "x"}, "player"),
        ({"notation": ROLL3, "exact": "yes"}, "exact"),
        ({**manila.EXAMPLE, "version": True}, "version"),
        ({**manila.EXAMPLE, "exact": 1}, "exact"),
        ({**manila.EXAMPLE, "strict": {}}, "strict"),
    ]:
        r = call(srv, "POST", "/v1/evaluate", body)
        assert r.status == 400, body
        if path is not None:
            assert path in {e["path"] for e in r.errors}, (body, r.errors)


def test_validate(srv):
    r = call(srv, "POST", "/v1/validate", manila.EXAMPLE)
    assert r.status == 200
    out = r.json()
    assert out == {
        "valid": True,
        "state": manila.VoyageState.from_dict(manila.EXAMPLE).to_dict(),
        "notation": str(manila.VoyageState.from_dict(manila.EXAMPLE)),
    }
    again = call(srv, "POST", "/v1/validate", {"notation": out["notation"]}).json()
    assert again == out
    r = call(srv, "POST", "/v1/validate", UNREACHABLE)
    assert r.status == 400 and r.errors == [p.to_dict("http") for p in manila.validate(UNREACHABLE)]
    assert call(srv, "POST", "/v1/validate?strict=0", UNREACHABLE).json()["valid"] is True
    r = call(srv, "POST", "/v1/validate", {"notation": "r2 ginseng@3 silk jade@4"})
    assert r.status == 400
    assert r.errors == [p.to_dict("http") for p in manila.validate("r2 ginseng@3 silk jade@4")]
    assert call(srv, "POST", "/v1/validate?exact=1", manila.EXAMPLE).status == 400
    # A body's own option of the wrong type is refused even when the query overrides it.
    r = call(srv, "POST", "/v1/validate?strict=1", {**manila.EXAMPLE, "strict": {}})
    assert r.status == 400 and r.errors[0]["path"] == "strict"


# --------------------------------------------------------------------------- error statuses


def test_404_and_405(srv):
    for path in ("/nope", "/v1", "/v1/evaluate/", "/v2/evaluate", "/index.html"):
        r = call(srv, "GET", path)
        assert r.status == 404 and r.errors[0]["path"] == "url", path
    r = call(srv, "GET", "/v1/evaluate")
    assert r.status == 405 and r.headers["Allow"] == "POST, OPTIONS"
    assert r.errors[0]["path"] == "method"
    for method in ("PUT", "DELETE", "PATCH", "TRACE", "QUERY"):
        r = call(srv, method, "/healthz")
        assert r.status == 405 and r.headers["Allow"] == "GET, HEAD, OPTIONS", method
    r = call(srv, "POST", "/v1/example", {"a": 1})
    assert r.status == 405
    r = call(srv, "OPTIONS", "/v1/validate")
    assert r.status == 204 and r.headers["Allow"] == "POST, OPTIONS" and r.body == b""


def test_400_unreadable_bodies(srv):
    cases = {
        b"{": "not valid JSON",
        b"": "empty",
        b"  \n": "empty",
        b'{"next_roll": NaN}': "NaN",
        b"\xff\xfe{}": "UTF-8",
        b"[" * 30_000 + b"]" * 30_000: "nested too deeply",
        b'{"a": 1} x': "not valid JSON",
    }
    for body, words in cases.items():
        for path in ("/v1/evaluate", "/v1/validate"):
            r = call(srv, "POST", path, body, {"Content-Type": "application/json"})
            assert r.status == 400, (body[:20], r.body)
            assert words in r.errors[0]["message"], (words, r.errors)


_TABLE = json.loads(
    (Path(__file__).resolve().parent.parent / "docs/examples/analysis-auction.json").read_text()
)
_START_OF_GAME = manila.Game(4, seed=2).new_initial_state().to_json()
_FINISHED: list = []
manila.simulate(players=3, games=1, bots="greedy", seed=1, record=_FINISHED.append)


@pytest.mark.parametrize(
    ("path", "body", "at", "words"),
    [
        ("/v1/evaluate", [], "", "the body must be a JSON object (a voyage state, or"),
        ("/v1/evaluate", {"notation": "r1", "extra": 1}, "extra", "unknown key beside notation"),
        ("/v1/advise", {"notation": "r1", "exact": 1}, "exact", "must be true or false, got 1"),
        ("/v1/validate", {"notation": 3}, "notation", "must be a string such as"),
        ("/v1/analyse", [], "", "the body must be a JSON object with a table, not an array"),
        (
            "/v1/analyse",
            {"table": {}, "rollouts": 2001},
            "rollouts",
            "must be an integer from 2 to 2000 per option on this server, got 2001",
        ),
        (
            "/v1/analyse",
            {"table": {}, "rollouts": 0},
            "rollouts",
            "must be an integer from 2 to 2000 per option on this server, got 0",
        ),
        ("/v1/value", {"table": {}, "rollouts": "8"}, "rollouts", "from 2 to 1000 on this server, got '8'"),
        ("/v1/value", {"tabel": {}}, "tabel", "unknown key; allowed: table, policy, rollouts, seed"),
        ("/v1/value", {"table": {}, "seed": -1}, "seed", "must be an integer from 0 to 18446744073709551615"),
        ("/v1/analyse", {"table": {}, "policy": "nope"}, "policy", "must be one of greedy, greedy-wealth"),
        ("/v1/review", {"record": {}, "quick": 1}, "quick", "true or false, got 1"),
        ("/v1/value", {"seed": 1}, "table", "the table to value"),
        (
            "/v1/review",
            {"record": {}, "luck_rollouts": 65},
            "luck_rollouts",
            "from 0 to 64 on this server, got 65",
        ),
        ("/v1/review", {"record": {}, "rollouts": True}, "rollouts", "from 2 to 64 on this server, got True"),
        ("/v1/review", {"record": {}, "rollouts": 1}, "rollouts", "from 2 to 64 on this server, got 1"),
        # One rollout has no interval: luck is 0 rollouts (none) or 2 and more, said by the engine.
        (
            "/v1/review",
            {"record": _FINISHED[0], "luck_rollouts": 1},
            "luck_rollouts",
            "must be 0 (no luck) or at least 2, got 1",
        ),
        # A table's or a record's problem at its path within it (the reader's, or the
        # engine's once the reader let it through, as the voyage 0 here).
        ("/v1/analyse", {"table": _TABLE | {"players": []}}, "table.players", "a list with one object per"),
        ("/v1/value", {"table": _TABLE | {"voyage": 0}}, "table.voyage", "must be at least 1, got 0"),
        ("/v1/value", {"table": []}, "table", "a player's view, or a table (JSON), got list"),
        (
            "/v1/value",
            {"table": "{"},
            "table",
            "not valid JSON: a key in double quotes was expected at line 1",
        ),
        ("/v1/value", {"table": '{"voyage": NaN}'}, "table", "not valid JSON: NaN is not a JSON number"),
        ("/v1/analyse", {"table": _START_OF_GAME}, "table", "chance moves next (a deal or a roll)"),
        ("/v1/review", {"record": []}, "record", "not a game record: a game record is a JSON object"),
        (
            "/v1/review",
            {"record": {"seed": "x", "history": []}},
            "record.seed",
            "a whole number in 0..2**64-1",
        ),
        ("/v1/review", {"record": {"history": [9999]}}, "record.history[0]", "action 9999: no such action"),
        ("/v1/review", {"record": {"history": []}}, "record", "cut short: the game is not over after its 0"),
    ],
)
def test_bodies_of_the_wrong_shape_are_refused_at_their_key(srv, path, body, at, words):
    # The engine reads these bodies for the server and for the page alike: its words, pinned.
    r = call(srv, "POST", path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    assert r.status == 400, r.body
    assert r.errors[0]["path"] == at and words in r.errors[0]["message"], r.errors


def test_400_bad_query_parameters(srv):
    for query in (
        "exact=yes",
        "exact=",
        "exact",
        "exact=1&exact=0",
        "player=red",
        "strict=2",
        "&".join(f"strict=1&x{i}=1" for i in range(20)),
    ):
        r = call(srv, "POST", f"/v1/evaluate?{query}", START)
        assert r.status == 400, query
        assert r.errors[0]["path"].startswith("query"), r.errors


def test_411_no_length(srv):
    status, headers, body = raw(
        srv, b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\r\n"
    )
    assert status == 411 and json.loads(body)["errors"][0]["path"] == "headers.content-length"
    status, headers, body = raw(
        srv,
        b"POST /v1/validate HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    )
    assert status == 411 and headers["connection"] == "close"
    status, _, body = raw(
        srv,
        b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/json\r\nContent-Length: -5\r\n\r\n",
    )
    assert status == 400 and "Content-Length" in json.loads(body)["errors"][0]["message"]


def test_413_over_64_kib(srv):
    state = json.dumps(START).encode()
    at_limit = state + b" " * (web.MAX_BODY - len(state))
    r = call(srv, "POST", "/v1/evaluate", at_limit, {"Content-Type": "application/json"})
    assert r.status == 200  # exactly 64 KiB is still fine
    r = call(srv, "POST", "/v1/evaluate", at_limit + b" ", {"Content-Type": "application/json"})
    assert r.status == 413 and r.errors[0]["path"] == "headers.content-length"
    assert r.headers["Connection"] == "close"
    # Refused on the announced length alone: the server does not wait for a body it will not read.
    start = time.monotonic()
    status, _headers, _ = raw(
        srv,
        b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: "
        b"application/json\r\nContent-Length: 99999999\r\n\r\n{",
    )
    assert status == 413 and time.monotonic() - start < 2


def test_415_content_type(srv):
    body = json.dumps(START).encode()
    for ctype in (
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/json; charset=latin-1",
        "application/jsonx",
        None,
    ):
        headers = {"Content-Type": ctype} if ctype else {}
        for path in ("/v1/evaluate", "/v1/validate"):
            r = call(srv, "POST", path, body, headers)
            assert r.status == 415, (ctype, path)
            assert r.errors[0]["path"] == "headers.content-type"
    for ctype in ("application/json; charset=utf-8", "Application/JSON;charset=UTF-8"):
        assert call(srv, "POST", "/v1/evaluate", body, {"Content-Type": ctype}).status == 200


def test_malformed_requests_get_json_errors(srv):
    status, headers, body = raw(srv, b"GET / what HTTP/1.1\r\n\r\n")
    assert status == 400 and headers["content-type"] == "application/json"
    assert json.loads(body)["errors"][0]["message"]
    status, _, body = raw(srv, b"GET /healthz HTTP/1.1\r\n" + b"X-A: b\r\n" * 101 + b"\r\n")
    assert status == 431 and json.loads(body)["errors"]
    status, _, body = raw(srv, b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n")
    assert status == 414 and json.loads(body)["errors"]


@pytest.mark.parametrize(
    "line, status",
    [
        (b"GET /healthz", 505),  # HTTP/0.9: its answer would have no status line
        (b"GET /nope", 505),
        (b"GET  HTTP/1.1", 400),  # no path
        (b"GET /healthz HTTP/2.0", 505),
        (b"GET /healthz HTTP/1.1 x", 400),
    ],
)
def test_request_lines_no_one_serves_get_a_status_line_and_json(srv, line, status):
    got, headers, body = raw(srv, line + b"\r\n\r\n")
    assert got == status and headers["content-type"] == "application/json", body
    assert json.loads(body)["errors"][0]["message"] and headers["connection"] == "close"


def test_408_slow_body_and_503_slow_evaluation():
    with serving(time_limit=0.5) as s:
        start = time.monotonic()
        status, _headers, body = raw(
            s,
            b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b'application/json\r\nContent-Length: 100\r\n\r\n{"next_',
        )
        took = time.monotonic() - start
        assert status == 408 and "did not arrive" in json.loads(body)["errors"][0]["message"]
        assert 0.4 < took < 3

        def slow(*args, **kwargs):
            time.sleep(2)
            return manila.evaluate(*args, **kwargs)

        s.evaluator = slow
        start = time.monotonic()
        r = call(s, "POST", "/v1/evaluate", START)
        assert r.status == 503 and "time limit" in r.errors[0]["message"]
        assert r.headers["Retry-After"] == "1"
        assert time.monotonic() - start < 1.5
        s.evaluator = manila.evaluate
        time.sleep(1.6)  # let the abandoned evaluations finish
        assert call(s, "POST", "/v1/evaluate", START).status == 200


def test_500_hides_the_error_and_keeps_serving(capsys):
    with serving() as s:

        def broken(*args, **kwargs):
            raise RuntimeError("secret detail from the engine")

        s.evaluator = broken
        r = call(s, "POST", "/v1/evaluate", START)
        assert r.status == 500
        assert r.errors == [{"path": "", "message": "internal server error"}]
        assert b"secret" not in r.body and b"Traceback" not in r.body
        assert "secret detail from the engine" in capsys.readouterr().err  # logged, not sent
        s.evaluator = manila.evaluate
        assert call(s, "POST", "/v1/evaluate", START).status == 200
        assert call(s, "GET", "/healthz").status == 200


def test_keep_alive_and_close(srv):
    conn = http.client.HTTPConnection(*srv.server_address[:2], timeout=10)
    try:
        for _ in range(3):
            assert call(srv, "POST", "/v1/evaluate", START, conn=conn).status == 200
            assert call(srv, "GET", "/v1/evaluate", conn=conn).status == 405
        # An unread body must not be taken for the next request: the server closes instead.
        r = call(srv, "GET", "/healthz", b"GET /nope HTTP/1.1\r\n\r\n", conn=conn)
        assert r.status == 200 and r.headers["Connection"] == "close"
    finally:
        conn.close()


def test_a_last_roll_state_is_evaluated_without_the_pool():
    """A state at its last roll takes microseconds: it is answered on the connection's thread."""

    class NoPool:
        def submit(self, *args, **kwargs):
            raise RuntimeError("the pool was used")

        def shutdown(self, *args, **kwargs):
            pass

    with serving() as s:
        s.pool.shutdown()
        s.pool = NoPool()
        state = manila.parse(ROLL3).to_dict()
        r = call(s, "POST", "/v1/evaluate?exact=1", state)
        assert r.status == 200 and r.json() == manila.evaluate(state, exact=True).to_dict()
        bad = call(s, "POST", "/v1/evaluate", {**state, "player": " "})
        assert bad.status == 400
        assert bad.errors == [p.to_dict("http") for p in manila.validate({**state, "player": " "})]
        assert call(s, "POST", "/v1/evaluate", START).status == 500  # earlier rolls: the pool


def test_validate_reads_states_with_the_librarys_as_state(srv, monkeypatch):
    seen = []
    library = web.as_state
    monkeypatch.setattr(web, "as_state", lambda *args: seen.append(args) or library(*args))
    assert call(srv, "POST", "/v1/validate", {"notation": ROLL3}).status == 200
    assert call(srv, "POST", "/v1/validate?strict=0", UNREACHABLE).status == 200
    assert call(srv, "POST", "/v1/validate", UNREACHABLE).status == 400
    assert seen == [(ROLL3, None), (UNREACHABLE, False), (UNREACHABLE, None)]


def test_concurrent_requests(srv):
    bodies = [manila.EXAMPLE, START, {"notation": ROLL3}] * 20
    with ThreadPoolExecutor(16) as pool:
        replies = list(pool.map(lambda b: call(srv, "POST", "/v1/evaluate?exact=1", b), bodies))
    for body, r in zip(bodies, replies):
        state = manila.parse(body["notation"]) if "notation" in body else body
        assert r.status == 200 and r.json() == manila.evaluate(state, exact=True).to_dict()


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=states())
def test_random_states_match_the_library(srv, state):
    r = call(srv, "POST", "/v1/evaluate?exact=1&strict=0", state)
    assert r.status == 200, r.body
    assert r.json() == manila.evaluate(state, exact=True, strict=False).to_dict()
    v = call(srv, "POST", "/v1/validate?strict=0", state).json()
    assert manila.VoyageState.from_dict(v["state"], strict=False) == manila.VoyageState.from_dict(
        state, strict=False
    )
    assert manila.parse(v["notation"], strict=False) == manila.VoyageState.from_dict(state, strict=False)


# --------------------------------------------------------------------------- schemathesis

SCHEMATHESIS_CONFIG = """
# The schema cannot express every rule (reachability, accomplice limits, pirate_2 after
# pirate_1), so a schema-valid state may be refused with a 400: that is the only relaxation.
[[operations]]
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = ["200", "400"]
"""


def test_schemathesis_finds_no_server_error_or_spec_violation(srv, tmp_path):
    config = tmp_path / "schemathesis.toml"
    config.write_text(SCHEMATHESIS_CONFIG)
    url = f"http://127.0.0.1:{srv.server_address[1]}/openapi.json"
    cmd = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config),
        "run",
        url,
        "--checks",
        "all",
        "--max-examples",
        "60",
        "--seed",
        "20261129",
        "--workers",
        "1",
        "--phases",
        "examples,coverage,fuzzing",
        "--request-timeout",
        "10",
        "--report",
        "junit",
        "--report-dir",
        str(tmp_path / "report"),
    ]
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env, cwd=tmp_path)
    tail = done.stdout[-6000:] + done.stderr[-3000:]
    assert done.returncode == 0, tail
    assert re.search(r"\b\d+ generated, \d+ passed", done.stdout), tail


# --------------------------------------------------------------------------- the command


def _start(*args):
    proc = subprocess.Popen(
        [sys.executable, "-m", "manila", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, int(m.group(1))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_prints_its_address_and_stops_cleanly(sig):
    proc, port = _start("--port", "0", "--quiet")
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200  # an idle keep-alive connection stays open
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=10)
        conn.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "manila: stopped" in out and "Traceback" not in err
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_serve_logs_requests_unless_quiet_and_reports_a_busy_port():
    proc, port = _start("--port", "0")
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz")
        conn.getresponse().read()
        conn.close()
        busy = subprocess.run(
            [sys.executable, "-m", "manila", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert busy.returncode == 2 and "cannot listen" in busy.stderr
        assert "Traceback" not in busy.stderr
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=10)
    assert '"GET /healthz HTTP/1.1" 200' in err
    for bad in (["--port", "70000"], ["--time-limit", "0"], ["--workers", "0"]):
        done = subprocess.run(
            [sys.executable, "-m", "manila", "serve", *bad], capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 2 and "manila: error:" in done.stderr


# --------------------------------------------------------------------------- in the words of HTTP


def test_error_hints_fit_http(srv):
    r = call(srv, "POST", "/v1/evaluate", UNREACHABLE)
    assert r.status == 400
    for e in r.errors:
        assert '"strict": false' in e["message"] and "?strict=0" in e["message"]
        assert "--" not in e["message"] and "strict=False" not in e["message"]
    r = call(srv, "POST", "/v1/evaluate", {**START, "nextroll": 1})
    assert any(e["path"] == "nextroll" and 'did you mean "next_roll"?' in e["message"] for e in r.errors)
    r = call(srv, "POST", "/v1/evaluate", {"notation": "r1 ginsen@3 nutmeg@4 silk@2"})
    assert any('did you mean "ginseng"?' in e["message"] for e in r.errors), r.errors


@pytest.mark.parametrize(
    "body, words",
    [
        (b"null", "not null"),
        (b"[1, 2]", "not an array"),
        (b"{x", "not valid JSON: a key in double quotes"),
        (b'{"next_roll": 1,}', "not valid JSON"),
    ],
)
def test_no_python_wording_over_http(srv, body, words):
    r = call(srv, "POST", "/v1/evaluate", body, {"Content-Type": "application/json"})
    assert r.status == 400
    message = r.errors[0]["message"]
    assert words in message
    assert not re.search(r"NoneType|\blist\b|Expecting|JSONDecodeError", message), message


def test_413_is_decided_on_the_length_before_anything_else(srv):
    # Wrong content type, and a body that never comes: the size alone decides, at once.
    status, headers, body = raw(
        srv,
        b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: "
        b"text/plain\r\nContent-Length: 99999999\r\n\r\n",
    )
    assert status == 413 and headers["connection"] == "close"
    assert json.loads(body)["errors"][0]["path"] == "headers.content-length"
    # Two lengths that disagree: which would be meant cannot be told.
    status, _, body = raw(
        srv,
        b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: "
        b"application/json\r\nContent-Length: 2\r\nContent-Length: 99999999\r\n\r\n{}",
    )
    assert status == 400 and "more than once" in json.loads(body)["errors"][0]["message"]


def test_the_page_takes_its_names_from_python(srv):
    from manila.common.vocab import PRICES
    from manila.server.names import IN_WEALTH, NOBODY_AFTER_YOU, REPLY_AWARE, SPOT_LABELS, page_data

    page = call(srv, "GET", "/").body.decode("utf-8")
    own = (resources.files("manila.server") / "web" / "index.html").read_text(encoding="utf-8")
    for label in ("Pirate captain", "Small pilot", "Port A", NOBODY_AFTER_YOU, REPLY_AWARE, IN_WEALTH):
        assert label not in own and label in page  # served, not kept in the page's own copy
    assert json.dumps(SPOT_LABELS, ensure_ascii=False) in page
    assert page_data()["prices"] == list(PRICES) and '"prices": [0, 5, 10, 20]' in page
    assert "[0, 5, 10, 20]" not in own and "0, 5, 10, 20" not in own  # no copy of the price track
    assert "/*NAMES*/" not in page


def test_serve_on_every_interface_prints_the_address_for_a_phone():
    proc = subprocess.Popen(
        [sys.executable, "-m", "manila", "serve", "--host", "0.0.0.0", "--port", "0", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first, second = proc.stdout.readline(), proc.stdout.readline()
        port = re.search(r":(\d+)/", first).group(1)
        address = web.lan_address()
        assert address and not address.startswith(("0.", "127."))
        assert f"http://{address}:{port}/" in second and "phone" in second
        conn = http.client.HTTPConnection(address, int(port), timeout=10)
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200  # the printed address does reach the server
        conn.close()
    finally:
        proc.terminate()
        proc.communicate(timeout=10)

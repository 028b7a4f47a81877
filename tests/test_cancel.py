"""Cancellation: the engine stops when its token says so, the server cancels work whose
request ran out of time or whose client went away (freeing its slot at once), and Ctrl-C
stops the command line with no traceback."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

import manila
from helpers.serving import call, serving

# A legal 5-player placement early in a voyage: a search of a second or more on one thread.
LONG = "r1 ginseng@3 nutmeg@4 silk@2 pirate_1=a turn=a order=a,b,c,d,e"
# The last turn of a round before roll 3: a spot table, milliseconds.
CHEAP = "r3 ginseng@12:a silk@10:b jade@11:c turn=a order=a,b"


def _cancelled_within(token: manila.CancelToken, run, limit: float) -> float:
    """Runs ``run`` under ``token``; the seconds from the token's cancel to the Cancelled."""
    start = time.monotonic()
    with pytest.raises(manila.Cancelled), manila.cancellable(token):
        run()
    return time.monotonic() - start


def test_a_cancelled_search_stops_at_once_on_every_thread():
    token = manila.CancelToken()
    threading.Timer(0.2, token.cancel).start()
    took = _cancelled_within(token, lambda: manila.advise(LONG, threads=2), 0.2)
    assert took < 0.2 + 0.5, took  # the search alone takes a second or more
    assert token.cancelled


def test_a_token_with_a_time_limit_says_so():
    token = manila.CancelToken(0.1)
    with pytest.raises(manila.Cancelled, match=r"time limit of 0\.1 s"), manila.cancellable(token):
        manila.advise(LONG, threads=1)


def test_rollouts_stop_when_cancelled():
    game = manila.Game(players=4, seed=3)
    token = manila.CancelToken()
    token.cancel()
    with pytest.raises(manila.Cancelled), manila.cancellable(token):
        manila.simulate(players=4, games=50, bots=["greedy"] * 4, seed=1)
    # Outside the block the engine runs as before.
    assert manila.cancellable(None) is not None
    assert game.new_initial_state().is_chance_node()
    assert manila.evaluate("r1 ginseng@3 nutmeg@4 silk@2").best_spot()


def test_time_limits_are_bounded():
    for bad in (-1.0, float("nan"), float("inf"), 1e9):
        with pytest.raises(ValueError, match="time_limit"):
            manila.CancelToken(bad)


def _advise(srv, text):
    return call(srv, "POST", "/v1/advise", {"notation": text})


def test_the_slot_is_free_right_after_a_503():
    with serving(time_limit=0.4) as s:
        start = time.monotonic()
        r = _advise(s, LONG)
        assert r.status == 503 and "time limit" in r.errors[0]["message"], r.body
        assert time.monotonic() - start < 1.5
        r = _advise(s, CHEAP)  # at once: the search has stopped and freed the heavy slot
        assert r.status == 200, r.body
        assert r.json()["to_move"] == "a"


def test_a_client_that_goes_away_frees_its_slot():
    with serving(time_limit=30) as s:
        body = json.dumps({"notation": LONG}).encode()
        with socket.create_connection(s.server_address[:2]) as sock:
            sock.sendall(
                b"POST /v1/advise HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
            )
            time.sleep(0.2)  # the search has started
        start = time.monotonic()
        while not s.heavy.acquire(blocking=False):
            assert time.monotonic() - start < 1.0, "the search outlived its client"
            time.sleep(0.01)
        s.heavy.release()
        assert _advise(s, CHEAP).status == 200


def test_a_client_that_only_stops_writing_still_gets_its_answer():
    # nc -N and some clients shut down their writing side once the request is sent, and
    # read on: the end of their input is not their going away.
    with serving(time_limit=1) as s, socket.create_connection(s.server_address[:2], timeout=10) as sock:
        body = json.dumps({"notation": LONG}).encode()
        sock.sendall(
            b"POST /v1/advise HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        sock.shutdown(socket.SHUT_WR)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
    final = got.removeprefix(b"HTTP/1.1 100 Continue\r\n\r\n")  # an interim answer, which clients skip
    head, _, answer = final.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] in (b"200", b"503"), got  # advice, or its time limit (1 s)
    assert json.loads(answer)


@pytest.mark.parametrize("route", ["/v1/advise", "/v1/analyse", "/v1/value", "/v1/review", "/v1/play"])
def test_a_body_still_arriving_holds_no_slot(route):
    # The slots bound the searches running: a client slow to send its body (or one that
    # never finishes it) must not turn the others away for the whole time limit.
    with serving(time_limit=3) as s, socket.create_connection(s.server_address[:2]) as stalled:
        stalled.sendall(
            b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"hint": true, ' % route.encode()
        )
        time.sleep(0.2)  # the server is waiting for the rest of that body
        assert _advise(s, CHEAP).status == 200
        r = call(s, "POST", route, b"not json", {"Content-Type": "application/json"})
        assert r.status == 400 and "not valid JSON" in r.errors[0]["message"]
        r = call(s, "POST", f"{route}?x=1", {})
        assert r.status == 400 and r.errors[0]["path"] == "query.x"


LONG_SIMULATION = [
    "simulate",
    "--players",
    "4",
    "--games",
    "1000000",
    "--bots",
    "greedy,greedy,greedy,greedy",
]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize("command", [LONG_SIMULATION, ["advise", LONG, "--threads", "1"]])
def test_ctrl_c_stops_the_command_line_at_once(command):
    # The child says when its imports are done (Ctrl-C during Python's own imports is Python's).
    script = "import sys, manila.cli; print('ready', flush=True); sys.exit(manila.cli.main(sys.argv[1:]))"
    # As from a terminal: SIGINT at its default (a pytest-xdist worker ignores it, and a child
    # inherits that; Python then never turns it into KeyboardInterrupt).
    child = subprocess.Popen(
        [sys.executable, "-c", script, *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    time.sleep(0.3)  # at work in the engine
    start = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    finally:  # a child that did not stop is not left running (nor its pipes open)
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert time.monotonic() - start < 1.0
    assert child.returncode == 130, (out, err)
    assert out == "" and err == "manila: interrupted\n"

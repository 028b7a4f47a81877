"""The server at its edges: bodies over the limit, clients that send too much."""

from __future__ import annotations

import http.client
import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

from helpers.serving import call, serving
from manila.server import app as web

BIG = b"[" + b"0," * (1024 * 1024) + b"0]"  # 2 MB of JSON


def _paced(body: bytes, piece: int = 64 * 1024):
    """The body in pieces, a few milliseconds apart: a client on a real network, still
    writing when the server has answered."""
    for at in range(0, len(body), piece):
        yield body[at : at + piece]
        time.sleep(0.005)


def _post_big(address: tuple[str, int]) -> object:
    conn = http.client.HTTPConnection(*address, timeout=30)
    try:
        headers = {"Content-Type": "application/json", "Content-Length": str(len(BIG))}
        conn.request("POST", "/v1/evaluate", body=_paced(BIG), headers=headers)
        res = conn.getresponse()
        return res.status, json.loads(res.read())["errors"][0]["message"]
    except OSError as exc:  # a broken pipe or a reset instead of the answer
        return repr(exc)
    finally:
        conn.close()


def test_every_client_sending_too_much_reads_its_413():
    with serving() as s:
        address = s.server_address[:2]
        with ThreadPoolExecutor(20) as pool:
            answers = list(pool.map(_post_big, [address] * 20))
        limit = f"the limit is {web.MAX_BODY}"
        assert answers == [(413, f"the body is {len(BIG)} bytes; {limit}")] * 20
        assert call(s, "GET", "/healthz").status == 200


def test_a_refused_body_is_read_only_up_to_a_bound():
    with serving(time_limit=2) as s, socket.create_connection(s.server_address[:2], timeout=10) as sock:
        sock.sendall(
            b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (10 * web.LINGER_BYTES)
        )
        got = b""
        while b"\r\n\r\n" not in got:
            got += sock.recv(65536)
        assert got.startswith(b"HTTP/1.1 413 ")
        # The server reads and drops up to LINGER_BYTES, then closes: sending more fails.
        sent = 0
        try:
            chunk = b" " * 65536
            while sent < 4 * web.LINGER_BYTES:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass
        assert web.LINGER_BYTES <= sent < 4 * web.LINGER_BYTES

"""The HTTP server on a free loopback port, on a thread, and one request to it (the server,
browser, play, analysis and review tests)."""

import contextlib
import http.client
import json
import threading

from manila.server import app as web


@contextlib.contextmanager
def serving(**options):
    """A server on a free loopback port, serving on a thread; yields it, then stops it."""
    options.setdefault("quiet", True)
    srv = web.make_server("127.0.0.1", 0, **options)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


class Reply:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        assert self.headers.get("Content-Type") == "application/json", self.headers
        return json.loads(self.body)

    @property
    def errors(self):
        data = self.json()
        assert set(data) == {"errors"} and data["errors"], data
        for e in data["errors"]:
            assert set(e) == {"path", "message"} and isinstance(e["path"], str) and e["message"]
        return data["errors"]


def call(srv, method, path, body=None, headers=None, conn=None):
    """One request; body: bytes, or anything else sent as JSON."""
    own = conn is None
    conn = conn or http.client.HTTPConnection(*srv.server_address[:2], timeout=10)
    hdrs = dict(headers or {})
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
        hdrs.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, path, body=body, headers=hdrs)
        res = conn.getresponse()
        return Reply(res.status, res.headers, res.read())
    finally:
        if own:
            conn.close()

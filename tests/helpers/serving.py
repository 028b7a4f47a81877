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


class StaticSite:
    """A folder served by the standard library's static file server on 127.0.0.1, and
    nothing else: no manila route. ``paths`` records every path asked for."""

    def __init__(self, folder):
        import functools
        import http.server

        paths: list[str] = []

        class Recording(http.server.SimpleHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def send_head(self):  # every method the server answers passes here
                paths.append(self.path)
                return super().send_head()

            def do_POST(self) -> None:
                paths.append(self.path)
                self.send_error(501)

        self.paths = paths
        handler = functools.partial(Recording, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def engine_answers(site, route: str, body) -> bool:
    """Whether the site's engine (engine.js and manila.wasm, under Node) answers ``route``
    itself, as the page's worker asks it: the static site computes only what it answers."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        return False
    script = (
        "const site = process.argv[1];"
        "const {loadEngine} = await import(site + '/engine.js');"
        "const {readFileSync} = await import('node:fs');"
        "let e; try { e = await loadEngine(readFileSync(site + '/manila.wasm')); } catch (x) { process.exit(3); }"
        "if (typeof e.call !== 'function') process.exit(2);"
        "const a = await e.call('/v1/' + process.argv[2], JSON.parse(process.argv[3]));"
        "process.exit(a && a.status === 200 ? 0 : 1);"
    )
    run = subprocess.run(
        [node, "--input-type=module", "-e", script, str(site), route, json.dumps(body)],
        capture_output=True,
        timeout=60,
    )
    return run.returncode == 0

"""The HTTP server on a free loopback port, on a thread (the server and browser tests)."""

import contextlib
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

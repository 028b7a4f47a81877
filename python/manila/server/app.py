"""``python -m manila serve``: the JSON API and the players' page over HTTP, standard library only.

Routes (see docs/http.md, and ``GET /openapi.json`` for the full description)::

    POST /v1/evaluate     a state (JSON, or {"notation": "r2 ..."}) -> the evaluation JSON
    POST /v1/advise       a position (a state with a "moment") -> the advice JSON
    POST /v1/analyse      {"table": a table or serialized state, ...} -> the analysis JSON
    POST /v1/review       {"record": a finished game, ...} -> the review JSON
    POST /v1/play         {"new": {...}} or {"game": ..., "action": ...} -> the game after the bots' replies
    POST /v1/validate     a state -> {"valid": true, "state", "notation"} (canonical), or a 400
    GET  /v1/example      an example state
    GET  /healthz         {"status": "ok", "version": ...}
    GET  /openapi.json    the OpenAPI 3.1 description of all of this
    GET  /                the calculator page for players (manila/server/web/index.html),
                          with its engine (/manila.wasm, /engine.js, /worker.js, /sw.js;
                          server/site.py): the page computes in the browser when it can
    GET  /play            the page to play against the bots (manila/server/web/play.html)

Every error is JSON, ``{"errors": [{"path": ..., "message": ...}]}``, with its status: 400
(unreadable JSON, an invalid state, a bad query parameter), 404, 405 (with ``Allow``), 408
(the body did not arrive within the time limit), 411 (no Content-Length), 413 (a body over
64 KiB), 415 (not ``application/json``), 500 (an internal error: logged, never shown),
503 (the evaluation outran the time limit, or too many advice searches are running) and 505
(not HTTP/1.x: HTTP/0.9's request line without a version, or HTTP/2.0).

A state at its last roll is evaluated in microseconds, on the connection's own thread.
Other evaluations and advice run on a small pool of worker threads: the C++ core releases
the GIL, so they run in parallel. Each runs with a cancel token (manila.cancellable): a
request whose work outruns the time limit, or whose client goes away, has its work
cancelled (the engine stops within milliseconds, and its slot is free again before the
503 is sent).

A body over the limit is refused from its Content-Length before it is read; the server
then reads and discards what the client still sends (up to LINGER_BYTES, within the time
limit) before closing, so that a client still writing its body reads the 413 instead of a
broken pipe.
"""

from __future__ import annotations

import concurrent.futures
import email.message
import functools
import json
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Union, cast
from urllib.parse import parse_qs

from .. import _core
from ..analysis.analysis import analyse
from ..analysis.review import review
from ..analysis.value import value as position_value
from ..bots.builtin import bot_factory
from ..common.cancel import Cancelled, CancelToken, cancellable
from ..common.errors import Problem, StateError
from ..common.inputs import engine_read, json_error_text, no_json_constant
from ..common.limits import MAX_SECONDS, check_number
from ..common.version import __version__
from ..game.engine import RecordError
from ..game.table import TableError
from ..voyage.advice import advise
from ..voyage.evaluation import evaluate
from ..voyage.example import EXAMPLE
from ..voyage.state import as_state
from ..voyage.suggest import with_suggestions
from . import openapi as _openapi
from . import site as _site
from .names import page_data
from .play import HINT_SECONDS, play

if TYPE_CHECKING:
    from ..voyage.advice import Advice
    from ..voyage.evaluation import Evaluation

    # evaluate or advise, called as (state, exact, strict=..., threads=...).
    Compute = Callable[..., Union[Evaluation, Advice]]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
MAX_BODY = _openapi.MAX_BODY
TIME_LIMIT: float = _core.TIME_LIMIT  # seconds for one request, from its headers to its answer
HINT_TIME = HINT_SECONDS  # seconds of rollouts for a hint that the exact advice does not cover
HEAVY_LIMIT = 1  # advice searches (up to seconds each) that run at once
IDLE_TIMEOUT = 30.0  # seconds an idle keep-alive connection is kept open
WATCH = 0.05  # seconds between two looks at a waiting request's client (gone away?)
GRACE = 0.25  # seconds a cancelled computation is given to stop (the engine takes ms)
LINGER_BYTES = 32 * 1024 * 1024  # what is read and discarded of a refused body, at most
_RETRY = {"Retry-After": "1"}  # busy or too slow: try again in a second
JSON_TYPE = _openapi.JSON_TYPE
_FLAGS = {"1": True, "true": True, "0": False, "false": False}
# The page's own scripts, its worker and its service worker come from here; the engine is
# WebAssembly ('wasm-unsafe-eval' lets it compile, and nothing else).
_CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; "
    "worker-src 'self'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; "
    "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class ApiError(Exception):
    """An answer other than 200: its status, the problems to list, extra headers."""

    def __init__(
        self,
        status: int,
        message: str,
        path: str = "",
        *,
        problems: Optional[list[Problem]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ):
        super().__init__(message)
        self.status = status
        self.problems = problems or [Problem(path, message)]
        self.headers = dict(headers or {})


def _json_bytes(data: Any) -> bytes:
    """An answer's body. A lone surrogate (which a \\ud800 escape in the request makes) has
    no UTF-8: then the whole answer is written in ASCII, escapes and all."""
    text = json.dumps(data, allow_nan=False, ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, allow_nan=False).encode("ascii")


def _errors(problems: list[Problem]) -> dict[str, Any]:
    return {"errors": [p.to_dict("http") for p in with_suggestions(problems)]}


def lan_address() -> Optional[str]:
    """This machine's address on its local network (what a phone would connect to), or None.

    Connecting a UDP socket sends nothing; it only makes the system pick the interface,
    and so the address, it would route through.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "8.8.8.8"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                address: str = sock.getsockname()[0]
        except OSError:
            continue
        if address and not address.startswith(("0.", "127.")):
            return address
    return None


# --------------------------------------------------------------------------- the requests


def _cancellable(token: CancelToken, fn: Callable[..., Any], *args: Any) -> Any:
    """Runs on a worker thread: ``fn(*args)``, the engine obeying ``token``."""
    with cancellable(token):
        return fn(*args)


def _release(slots: threading.BoundedSemaphore, done: concurrent.futures.Future[Any]) -> None:
    slots.release()


def _compute(evaluator: Compute, state: Any, exact: Optional[bool], strict: Optional[bool]) -> dict[str, Any]:
    """Runs on a worker thread: parse, evaluate or advise (GIL released in C++), convert to JSON."""
    return evaluator(state, exact, strict=strict, threads=1).to_dict()


def _last_roll(given: Any) -> bool:
    """A state at its last roll: so little work that handing it to the pool costs more."""
    return type(given) is dict and given.get("next_roll") == 3


@functools.lru_cache(maxsize=64)
def _content_type_problem(ctype: str) -> Optional[str]:
    """Why a body with this Content-Type is refused, or None; it depends on the header alone,
    and clients send the same one again and again."""
    header = email.message.Message()
    header["Content-Type"] = ctype
    if header.get_content_type() != JSON_TYPE:
        return f"the body must be {JSON_TYPE}, not {ctype[:100]}"
    charset = header.get_param("charset")
    if isinstance(charset, str) and charset.lower().replace("-", "") != "utf8":
        return f"the body must be UTF-8, not {charset[:40]}"
    return None


def _state_input(data: Any) -> tuple[Any, Optional[bool], Optional[bool]]:
    """(what to hand to manila: a state dict or a notation string, body's exact, body's strict).

    The engine reads the body's shape (its reader of these bodies, the routes'); a state's
    own keys, "exact" and "strict" among them, are checked by the state's reader (even where
    a query parameter overrides them).
    """
    read = engine_read(_core.read_state_body, data)
    if "notation" not in read:
        return data, None, None
    return read["notation"], read.get("exact"), read.get("strict")


def _heavy_body(data: Any, route: str) -> dict[str, Any]:
    """The options of a POST body for one of the heavy routes: the engine checks its shape
    (an object of the route's keys that holds its table or record, within the server's
    bounds); a 400 names the key at fault."""
    try:
        engine_read(_core.read_heavy_body, data, route)
    except StateError as exc:
        raise ApiError(400, exc.problems[0].message, exc.problems[0].path) from None
    return dict(data)


def _refused(exc: ValueError, route: str) -> ApiError:
    """The 400 of an analysis, value or review that refused its input, placed as the
    engine's routes place it: an option's refusal ("seed: must be ...") at its key, a
    table's or a record's at its path within it (table.players[0].cash)."""
    path, message = _core.heavy_refusal(route, str(exc), isinstance(exc, (TableError, RecordError)))
    return ApiError(400, message, path)


def _analysis_input(data: Any, budget: float) -> dict[str, Any]:
    """The arguments of manila.analyse from a POST /v1/analyse body, bounded for a server:
    at most ANALYSIS_MAX_ROLLOUTS per option, and done well within ``budget``, the seconds
    the request has left once it is read."""
    kwargs = _heavy_body(data, "/v1/analyse")
    cap = _core.ANALYSIS_TIME_SHARE * budget  # it stops by itself before the request does
    limit = kwargs.get("time_limit", cap)
    if isinstance(limit, (int, float)) and not isinstance(limit, bool):
        # Compared as given: float() of an int past a float's range would raise (a 500). 0
        # is analyse's "no time limit", which the cap is for too.
        kwargs["time_limit"] = cap if limit == 0 else min(limit, cap)
    if kwargs.get("rollouts") is not None:
        # The time limit bounds the stop rule alone: analyse plays a fixed number of
        # rollouts to the end, which could outrun the request (a 503 with nothing to show).
        # The server cuts it short at the cap, between two batches (_analyse).
        kwargs["progress"] = _before(time.monotonic() + cap)
    kwargs["max_rollouts"] = _openapi.ANALYSIS_MAX_ROLLOUTS
    kwargs["threads"] = 1
    return kwargs


def _before(deadline: float) -> Callable[[int, float], bool]:
    """An analysis's progress that goes on until ``deadline`` (time.monotonic)."""
    return lambda done, gap: time.monotonic() < deadline


def _analyse(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Runs on a worker thread (GIL released in C++)."""
    args = dict(kwargs)
    answer: dict[str, Any] = analyse(args.pop("table"), **args).to_dict()
    if answer.get("stop") == "cancelled":  # by the server's clock, its only progress
        answer["stop"] = "time"
    return answer


def _value_input(data: Any) -> dict[str, Any]:
    """The arguments of manila.analysis.value.value from a POST /v1/value body, bounded."""
    kwargs = _heavy_body(data, "/v1/value")
    kwargs["threads"] = 1
    return kwargs


def _value(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Runs on a worker thread (GIL released in C++)."""
    args = dict(kwargs)
    return position_value(args.pop("table"), **args).to_dict()


class _ReviewCancelled(Exception):
    """The review ran past its deadline: it stopped itself."""


def _review_input(data: Any) -> dict[str, Any]:
    """The arguments of manila.review from a POST /v1/review body, bounded for a server."""
    kwargs = _heavy_body(data, "/v1/review")
    kwargs.setdefault("quick", _openapi.REVIEW_QUICK)
    cap = _openapi.REVIEW_MAX_ROLLOUTS
    max_rollouts = kwargs.pop("max_rollouts", cap)
    check_number(max_rollouts, "max_rollouts", 2, integer=True)
    kwargs["max_rollouts"] = min(cap, max_rollouts)
    kwargs["threads"] = 1
    return kwargs


def _review(kwargs: dict[str, Any], deadline: float) -> dict[str, Any]:
    """Runs on a worker thread (GIL released in C++); stops itself at the deadline."""
    args = dict(kwargs)

    def progress(done: int, total: int) -> bool:
        return time.monotonic() < deadline

    result = review(args.pop("record"), progress=progress, **args)
    if not result.complete:
        raise _ReviewCancelled()
    return result.to_dict()


class Handler(BaseHTTPRequestHandler):
    """One connection; requests are answered in turn (HTTP/1.1 keep-alive)."""

    server: ManilaServer
    protocol_version = "HTTP/1.1"
    server_version = f"manila/{__version__}"
    # What an answer is written as until the request line says otherwise: http.server's
    # default, HTTP/0.9, writes no status line and no headers, so a refusal of a malformed
    # request line (HTTP/2.0, a line of four words) would be a bare body.
    default_request_version = "HTTP/1.1"
    sys_version = ""
    timeout = IDLE_TIMEOUT
    error_content_type = JSON_TYPE
    disable_nagle_algorithm = True  # small answers: no 40 ms wait for a delayed ACK

    # ---- plumbing

    def __getattr__(self, name: str) -> Any:
        # http.server calls do_<METHOD>: every method, GET or QUERY or PROPFIND, goes to the one
        # dispatch (404 or 405 like the rest, not http.server's 501).
        if name.startswith("do_") and name[3:].isalpha() and name[3:].isupper():
            return lambda: self._dispatch(name[3:])
        raise AttributeError(name)

    def parse_request(self) -> bool:
        # A request line of two words is HTTP/0.9 to http.server ("GET /path", or "GET
        # HTTP/1.1" with its path left out), whose answer is a body alone: refused here,
        # before its headers are waited for, with a status line like any other refusal.
        line = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        words = line.split()
        if len(words) != 2:
            return super().parse_request()
        self.command, self.requestline = "", line
        self.request_version = self.default_request_version
        if words[1].startswith("HTTP/"):
            self.send_error(400, f"the request line has no path: {line[:100]!r}")
        else:
            self.send_error(
                505, f"HTTP/0.9 is not served: end the request line with HTTP/1.1 ({line[:100]!r})"
            )
        return False

    def _dispatch(self, method: str) -> None:
        self._deadline = time.monotonic() + self.server.time_limit
        self._body_read = False
        self._abandoned = False  # the client stalled or cut its body short: read no more
        self._probed = False  # an interim answer has asked a client at its input's end (_client_gone)
        head = method == "HEAD"
        try:
            path, _, query = self.path.partition("?")
            query = query.partition("#")[0]
            route = ROUTES.get(path.partition("#")[0])
            if route is None and path.lstrip("/") in self.server.site_scripts:
                route = {"GET": Handler.route_site_file}
            if route is None:
                raise ApiError(404, f"no such resource: {path[:200]}; see /openapi.json", "url")
            allowed = list(route) + (["HEAD"] if "GET" in route else []) + ["OPTIONS"]
            if method == "OPTIONS":
                self._send(204, b"", None, {"Allow": ", ".join(allowed)})
                return
            action = route.get("GET" if head else method)
            if action is None:
                raise ApiError(
                    405,
                    f"{method} is not allowed here; allowed: {', '.join(allowed)}",
                    "method",
                    headers={"Allow": ", ".join(allowed)},
                )
            status, body, ctype, headers = action(self, query)
            self._send(status, body, ctype, headers, head=head)
        except ApiError as exc:
            self._send_json(exc.status, _errors(exc.problems), exc.headers, head=head)
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the client went away or stalled; nothing to answer
        except Exception:  # a bug: log it here, say nothing of it to the client, keep serving
            self.log_error("internal error on %s %s:\n%s", method, self.path[:200], traceback.format_exc())
            self.close_connection = True
            self._headers_buffer: list[bytes] = []  # whatever half-made answer there was
            try:
                self._send_json(500, _errors([Problem("", "internal server error")]), head=head)
            except OSError:
                pass

    def _send(
        self,
        status: int,
        body: bytes,
        ctype: Optional[str],
        headers: Optional[Mapping[str, str]] = None,
        *,
        head: bool = False,
    ) -> None:
        if not self._body_read and self._pending_body():
            # A body we did not read would be taken for the next request: close after this,
            # once what the client still sends is read (finish): closing a socket with
            # unread data resets the connection, and a client still writing would never
            # read the answer.
            self.close_connection = True
            self._linger = not self._abandoned
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        if status != 204:
            self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        # Headers and body in one write (end_headers would send the headers on their own).
        self._headers_buffer.append(b"\r\n")
        if not head and status != 204:
            self._headers_buffer.append(body)
        self.wfile.write(b"".join(self._headers_buffer))
        self._headers_buffer = []

    def _send_json(
        self, status: int, data: Any, headers: Optional[Mapping[str, str]] = None, *, head: bool = False
    ) -> None:
        self._send(status, _json_bytes(data), JSON_TYPE, headers, head=head)

    def finish(self) -> None:
        super().finish()
        if getattr(self, "_linger", False):
            self._discard_input()

    def _discard_input(self) -> None:
        """Reads and drops what the client sends until it closes its end, LINGER_BYTES have
        come or the time limit has passed: the answer has been sent, and the connection is
        closed next."""
        sock = self.connection
        until = time.monotonic() + self.server.time_limit
        got = 0
        try:
            sock.shutdown(socket.SHUT_WR)  # the answer is complete: the client sees its end
            while got < LINGER_BYTES:
                remaining = until - time.monotonic()
                if remaining <= 0:
                    break
                sock.settimeout(remaining)
                chunk = sock.recv(65536)
                if not chunk:
                    break
                got += len(chunk)
        except OSError:
            pass

    def _client_gone(self) -> bool:
        """Whether the client has closed its connection (nobody would read an answer).

        The end of its input alone does not say so: a client may shut down its writing side
        once its request is sent and still read the answer (nc -N, some HTTP/1.0 clients).
        An HTTP/1.1 client is then sent an interim ``100 Continue``, which it must accept
        and skip: a client that has closed answers it with a reset, which the next look
        sees (as the socket's error: past the end of the input, recv reports no error). An
        HTTP/1.0 client may not be sent one: its work runs on (to the time limit).
        """
        sock = self.connection
        previous = sock.gettimeout()
        try:
            sock.settimeout(0)
            if sock.recv(1, socket.MSG_PEEK) != b"":
                return False  # it sent more (its next request): still there
        except (BlockingIOError, InterruptedError):
            return False  # connected, nothing sent: still waiting for its answer
        except OSError:
            return True
        finally:
            sock.settimeout(previous)
        if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            return True
        if self._probed or self.request_version == "HTTP/1.0":
            return False
        self._probed = True
        try:
            self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        except OSError:
            return True
        return False

    def _pending_body(self) -> bool:
        length = self.headers.get("Content-Length", "0").strip()
        return bool(self.headers.get("Transfer-Encoding")) or length not in ("", "0")

    def send_error(self, code: int, message: Optional[str] = None, explain: Optional[str] = None) -> None:
        """Malformed requests caught by http.server itself (400, 414, 431, 501, 505): JSON too."""
        self.close_connection = True
        self._body_read = True
        text = message or HTTPStatus(code).phrase
        body = json.dumps(_errors([Problem("", text)])).encode("utf-8")
        try:
            self.log_error("code %d, message %s", code, text)
            self.send_response(code, text)
            self.send_header("Content-Type", JSON_TYPE)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if getattr(self, "command", None) != "HEAD" and code >= 200 and code not in (204, 304):
                self.wfile.write(body)
        except OSError:
            pass

    def version_string(self) -> str:
        return self.server_version

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        if not self.server.quiet:
            super().log_request(code, size)

    # ---- reading a request

    def _params(self, query: str, allowed: tuple[str, ...]) -> dict[str, bool]:
        """The boolean query parameters (1/0/true/false); anything else is a 400."""
        try:
            pairs = parse_qs(query, keep_blank_values=True, strict_parsing=False, max_num_fields=16)
        except ValueError:
            raise ApiError(400, "too many query parameters", "query") from None
        out = {}
        for name, values in pairs.items():
            if name not in allowed:
                hint = f"; allowed: {', '.join(allowed)}" if allowed else "; this takes none"
                raise ApiError(400, f"unknown query parameter{hint}", f"query.{name}")
            if len(values) != 1 or values[0] not in _FLAGS:
                raise ApiError(400, "must be given once, as 1, 0, true or false", f"query.{name}")
            out[name] = _FLAGS[values[0]]
        return out

    def _check_length(self) -> int:
        """The body's announced length, refused (411, 400, 413) before a byte of it is read."""
        if self.headers.get("Transfer-Encoding"):
            raise ApiError(
                411,
                "send the body with a Content-Length (chunked bodies are not accepted)",
                "headers.content-length",
            )
        given = self.headers.get_all("Content-Length") or []
        if not given:
            raise ApiError(411, "a Content-Length is required", "headers.content-length")
        texts = {t.strip() for t in given}
        if len(texts) > 1:
            raise ApiError(
                400, "Content-Length is given more than once, with different values", "headers.content-length"
            )
        length_text = texts.pop()
        if not length_text.isdigit() or not length_text.isascii():
            raise ApiError(400, "Content-Length must be a number of bytes", "headers.content-length")
        length = int(length_text)
        if length > self.server.max_body:
            raise ApiError(
                413,
                f"the body is {length} bytes; the limit is {self.server.max_body}",
                "headers.content-length",
            )
        return length

    def _read_json(self) -> Any:
        length = self._check_length()  # first: too large is refused whatever else is wrong
        ctype = self.headers.get("Content-Type")
        if not ctype:
            raise ApiError(415, f"say what the body is: Content-Type: {JSON_TYPE}", "headers.content-type")
        problem = _content_type_problem(ctype)
        if problem is not None:
            raise ApiError(415, problem, "headers.content-type")
        raw = self._read_body(length)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError(400, f"the body is not UTF-8 (byte {exc.start})") from None
        if not text.strip():
            raise ApiError(400, "the body is empty: send a voyage state as JSON")
        try:
            return json.loads(text, parse_constant=no_json_constant)
        except json.JSONDecodeError as exc:
            raise ApiError(400, f"not valid JSON: {json_error_text(exc)}") from None
        except ValueError as exc:
            raise ApiError(400, f"not valid JSON: {exc}") from None
        except RecursionError:
            raise ApiError(400, "not valid JSON: nested too deeply") from None

    def _read_body(self, length: int) -> bytes:
        chunks, got = [], 0
        try:
            while got < length:
                remaining = self._deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                self.connection.settimeout(remaining)
                chunk = self.rfile.read1(min(length - got, 65536))
                if not chunk:
                    self.close_connection = True
                    self._abandoned = True
                    raise ApiError(400, f"the body ended after {got} of {length} bytes")
                chunks.append(chunk)
                got += len(chunk)
        except TimeoutError:
            self.close_connection = True
            self._abandoned = True
            raise ApiError(
                408, f"the body did not arrive within {self.server.time_limit:g} s ({got} of {length} bytes)"
            ) from None
        finally:
            self.connection.settimeout(self.timeout)
        self._body_read = True
        return b"".join(chunks)

    def _json(self, data: Any) -> tuple[int, bytes, str, dict[str, str]]:
        return 200, _json_bytes(data), JSON_TYPE, {}

    # ---- the routes

    def route_evaluate(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        return self._computed(query, self.server.evaluator, "the evaluation", inline=_last_roll)

    def route_advise(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        # A search can take seconds early in a voyage: only a few run at once, and a request
        # beyond them is turned away at once rather than queued behind them.
        return self._computed(
            query,
            self.server.adviser,
            "the advice",
            slots=self.server.heavy,
            busy=f"{self.server.heavy_limit} advice search(es)",
        )

    def _heavy_table_route(
        self,
        query: str,
        route: str,
        fn: Callable[[dict[str, Any]], dict[str, Any]],
        read: Callable[[Any], dict[str, Any]],
        what: str,
    ) -> tuple[int, bytes, str, dict[str, str]]:
        """A route that works on a table for up to the time limit (an analysis, a value): it
        shares the heavy searches' slots with the advice, and is turned away at once when
        those are taken; a bad table or argument is a 400 naming the field."""

        self._params(query, ())
        late = f"{what} took longer than the time limit of {self.server.time_limit:g} s"
        try:
            kwargs = read(self._read_json())
            result = self._on_pool(self.server.heavy, self._heavy_busy(), late, fn, kwargs)
        except ValueError as exc:
            raise _refused(exc, route) from None
        return self._json(result)

    def route_analyse(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        def read(data: Any) -> dict[str, Any]:
            return _analysis_input(data, max(0.0, self._deadline - time.monotonic()))

        return self._heavy_table_route(query, "/v1/analyse", _analyse, read, "the analysis")

    def route_value(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        return self._heavy_table_route(query, "/v1/value", _value, _value_input, "the value")

    def route_review(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        # A review runs many analyses: it takes a heavy slot like /v1/analyse, and stops
        # itself (503) rather than outlive the request.
        self._params(query, ())
        late = (
            f"the review took longer than the time limit of {self.server.time_limit:g} s "
            "(review long games with python -m manila review)"
        )
        try:
            kwargs = _review_input(self._read_json())
            deadline = time.monotonic() + 0.8 * max(0.0, self._deadline - time.monotonic())
            result = self._on_pool(self.server.heavy, self._heavy_busy(), late, _review, kwargs, deadline)
        except _ReviewCancelled:
            raise ApiError(503, late, headers=_RETRY) from None
        except ValueError as exc:  # a bad record or argument (the message names the action)
            raise _refused(exc, "/v1/review") from None
        return self._json(result)

    def _heavy_busy(self) -> str:
        return f"{self.server.heavy_limit} heavy search(es)"

    def _take(self, slots: threading.BoundedSemaphore, busy: str) -> None:
        """One of ``slots``, or a 503 at once: heavy work is turned away, not queued."""
        if not slots.acquire(blocking=False):
            raise ApiError(503, f"busy: {busy} already running; try again shortly", headers=_RETRY)

    def _on_pool(
        self,
        slots: Optional[threading.BoundedSemaphore],
        busy: str,
        late: str,
        fn: Callable[..., Any],
        *args: Any,
    ) -> Any:
        """``fn(*args)`` on the pool, in one of ``slots`` if given (see _take), its answer
        awaited (_await); the slot is released when ``fn`` ends. Callers read and check the
        request first: the slots bound the searches running, and a client slow to send its
        body, or sending a bad one, must not hold one."""
        if slots is not None:
            self._take(slots, busy)
        token = CancelToken()
        try:
            future = self.server.pool.submit(_cancellable, token, fn, *args)
        except BaseException:
            if slots is not None:
                slots.release()
            raise
        if slots is not None:
            future.add_done_callback(functools.partial(_release, slots))
        return self._await(future, token, late)

    def _await(self, future: concurrent.futures.Future[Any], token: CancelToken, late: str) -> Any:
        """The result of ``future`` (work under ``token``) within the request's time limit.
        Past the limit, or as soon as the client has gone away, the work is cancelled and
        given GRACE to stop (the engine stops within milliseconds, its slot freed when it
        does): then a 503 saying ``late``, or no answer to a client that has gone."""
        gone = False
        while True:
            remaining = self._deadline - time.monotonic()
            try:
                return future.result(timeout=max(0.0, min(remaining, WATCH)))
            except concurrent.futures.TimeoutError:
                pass
            except Cancelled:  # stopped by its own token, which only this request cancels
                break
            if remaining <= WATCH:
                break
            if self._client_gone():
                gone = True
                break
        future.cancel()  # not started yet: it never will
        token.cancel()
        concurrent.futures.wait([future], timeout=GRACE)
        if gone:
            self.close_connection = True
            raise ConnectionAbortedError("the client went away")
        raise ApiError(503, late, headers=_RETRY)

    def _computed(
        self,
        query: str,
        compute: Compute,
        what: str,
        inline: Optional[Callable[[Any], bool]] = None,
        slots: Optional[threading.BoundedSemaphore] = None,
        busy: str = "",
    ) -> tuple[int, bytes, str, dict[str, str]]:
        """Reads the body, runs ``compute`` within the time limit, answers JSON: on this
        thread when ``inline`` says the input is cheap, else on the pool (_on_pool, in one
        of ``slots`` if given)."""
        params = self._params(query, ("exact", "strict"))
        data = self._read_json()
        try:
            given, body_exact, body_strict = _state_input(data)
        except StateError as exc:
            raise ApiError(400, str(exc), problems=exc.problems) from None
        args = (compute, given, params.get("exact", body_exact), params.get("strict", body_strict))
        late = f"{what} took longer than the time limit of {self.server.time_limit:g} s"
        try:
            if inline is not None and inline(given):
                result = _compute(*args)
            else:
                result = self._on_pool(slots, busy, late, _compute, *args)
        except StateError as exc:
            raise ApiError(400, str(exc), problems=exc.problems) from None
        except ValueError as exc:  # the engine's own argument checks
            raise ApiError(400, str(exc)) from None
        return self._json(result)

    def route_validate(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        params = self._params(query, ("strict",))
        data = self._read_json()
        try:
            given, _, body_strict = _state_input(data)
            state = as_state(given, params.get("strict", body_strict))
        except StateError as exc:
            raise ApiError(400, str(exc), problems=exc.problems) from None
        except ValueError as exc:  # a number past int()'s limit in a notation, as elsewhere
            raise ApiError(400, str(exc)) from None
        return self._json({"valid": True, "state": state.to_dict(), "notation": str(state)})

    def route_example(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        self._params(query, ())
        return self._json(EXAMPLE)

    def route_health(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        return self._json({"status": "ok", "version": __version__})

    def route_openapi(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        return 200, self.server.openapi_bytes, JSON_TYPE, {}

    def route_site_file(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        name = self.path.partition("?")[0].lstrip("/")
        body = self.server.site[name]
        headers = {"Cache-Control": "no-cache"}  # the service worker keeps the offline copy
        if name.endswith(".html"):
            headers.update({"Content-Security-Policy": _CSP, "Referrer-Policy": "no-referrer"})
        return 200, body, _site.TYPES[Path(name).suffix], headers

    def route_play(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        # The bots' replies (an expert's move takes a fraction of a second) and hints (an
        # advice search or rollouts, up to seconds) run on the pool, bounded: hints share
        # the heavy slots with advice and analysis, moves have slots of their own; a request
        # beyond them is turned away at once. Bots stop at half the time limit and the
        # answer says the game is pending: the page sends it again to go on. The body is
        # read before a slot is taken; the engine checks the game (milliseconds) in the slot.
        self._params(query, ())
        data = self._read_json()
        want_hint = isinstance(data, dict) and data.get("hint") is True
        if want_hint:
            slots, busy = self.server.heavy, self._heavy_busy()
        else:
            slots, busy = self.server.play_slots, f"{self.server.play_limit} games"

        budget = max(0.0, self._deadline - time.monotonic())
        hint_time = min(self.server.hint_time, _core.PLAY_HINT_TIME_SHARE * budget)
        deadline = time.monotonic() + _core.PLAY_BOTS_TIME_SHARE * budget
        late = (
            f"{'the hint' if want_hint else 'the bots'} took longer than the time limit of "
            f"{self.server.time_limit:g} s"
        )
        status, text = self._on_pool(
            slots, busy, late, play, data, self.server.allowed_bots, deadline, hint_time
        )
        return status, text.encode("utf-8"), JSON_TYPE, {}

    def route_play_page(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        return (
            200,
            self.server.play_page,
            "text/html; charset=utf-8",
            {"Content-Security-Policy": _CSP, "Referrer-Policy": "no-referrer"},
        )

    def route_page(self, query: str) -> tuple[int, bytes, str, dict[str, str]]:
        return (
            200,
            self.server.page,
            "text/html; charset=utf-8",
            {"Content-Security-Policy": _CSP, "Referrer-Policy": "no-referrer"},
        )


ROUTES: dict[str, dict[str, Callable[..., tuple[int, bytes, str, dict[str, str]]]]] = {
    "/": {"GET": Handler.route_page},
    "/play": {"GET": Handler.route_play_page},
    "/v1/play": {"POST": Handler.route_play},
    "/healthz": {"GET": Handler.route_health},
    "/openapi.json": {"GET": Handler.route_openapi},
    "/v1/example": {"GET": Handler.route_example},
    "/v1/evaluate": {"POST": Handler.route_evaluate},
    "/v1/advise": {"POST": Handler.route_advise},
    "/v1/analyse": {"POST": Handler.route_analyse},
    "/v1/review": {"POST": Handler.route_review},
    "/v1/value": {"POST": Handler.route_value},
    "/v1/validate": {"POST": Handler.route_validate},
}


# --------------------------------------------------------------------------- the server


class ManilaServer(ThreadingHTTPServer):
    """A ThreadingHTTPServer answering the routes above; ``evaluator`` may be swapped in tests."""

    daemon_threads = True
    request_queue_size = 128  # socketserver's 5 drops connections when many clients start at once

    def __init__(
        self,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        *,
        time_limit: float = TIME_LIMIT,
        max_body: int = MAX_BODY,
        workers: Optional[int] = None,
        heavy_limit: int = HEAVY_LIMIT,
        play_limit: Optional[int] = None,
        hint_time: float = HINT_TIME,
        quiet: bool = False,
        allow_bots: Sequence[str] = (),
    ):
        if not 0 < time_limit <= MAX_SECONDS:
            raise ValueError(f"time_limit: must be more than 0 and at most {MAX_SECONDS:g} seconds")
        if heavy_limit < 1:
            raise ValueError("heavy_limit: at least one advice search must be allowed")
        self.time_limit = float(time_limit)
        self.max_body = int(max_body)
        self.quiet = quiet
        self.evaluator: Compute = evaluate
        self.adviser: Compute = advise
        self.heavy_limit = heavy_limit
        self.heavy = threading.BoundedSemaphore(heavy_limit)
        self.play_limit = play_limit or os.cpu_count() or 2
        self.play_slots = threading.BoundedSemaphore(self.play_limit)
        self.hint_time = float(hint_time)
        # Bots /v1/play plays beside the built-in ones, by their exact names: the operator's
        # choice, never a request's (a cmd: bot runs a program).
        for spec in allow_bots:
            try:
                bot_factory(spec)
            except ValueError as exc:
                raise ValueError(f"allow_bots: {exc}") from None
        self.allowed_bots = tuple(allow_bots)
        try:
            # The page and its engine; without manila.wasm the page computes here.
            self.site = _site.site_files(page_data(), need_engine=False)
            self.page = self.site[_site.PAGE]
            # The page itself is at / only.
            self.site_scripts = frozenset(self.site) - {_site.PAGE}
            self.play_page = self.site[_site.PLAY_PAGE]
        except OSError as exc:
            raise RuntimeError(
                f"the page manila/server/web/index.html is missing from this installation ({exc}); reinstall manila"
            ) from None
        self.openapi_bytes = json.dumps(_openapi.description(self.allowed_bots), indent=1).encode("utf-8")
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers or os.cpu_count() or 2, thread_name_prefix="manila-eval"
        )
        super().__init__((host, port), Handler)

    @property
    def url(self) -> str:
        host, port = cast("tuple[str, int]", self.server_address[:2])  # AF_INET or AF_INET6
        host = f"[{host}]" if ":" in str(host) else host
        return f"http://{host}:{port}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that resets its connection between two requests is not a server error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    def server_close(self) -> None:
        super().server_close()
        self.pool.shutdown(wait=True, cancel_futures=True)  # in-flight evaluations take ms


def make_server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, **options: Any) -> ManilaServer:
    """A bound server, not yet serving: call ``serve_forever()`` (port 0 picks a free port)."""
    return ManilaServer(host, port, **options)


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    time_limit: float = TIME_LIMIT,
    max_body: int = MAX_BODY,
    workers: Optional[int] = None,
    heavy_limit: int = HEAVY_LIMIT,
    quiet: bool = False,
    allow_bots: Sequence[str] = (),
) -> None:
    """Serves until Ctrl-C or SIGTERM, printing the address first; then closes cleanly.
    ``allow_bots``: bot names /v1/play plays besides the built-in ones (``cmd:...``,
    ``module:Class``), exactly as written."""
    server = make_server(
        host,
        port,
        time_limit=time_limit,
        max_body=max_body,
        workers=workers,
        heavy_limit=heavy_limit,
        quiet=quiet,
        allow_bots=allow_bots,
    )
    previous = {}
    if threading.current_thread() is threading.main_thread():
        stopping = threading.Event()

        def on_signal(signum: int, frame: Any) -> None:
            # shutdown() waits for serve_forever to return, so it cannot run on this thread.
            if not stopping.is_set():
                stopping.set()
                threading.Thread(target=server.shutdown, daemon=True).start()

        # SIGINT too, explicitly: a shell may have started us with it ignored.
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, on_signal)
    try:
        print(f"manila: serving on {server.url} (Ctrl-C to stop)", flush=True)
        if host in ("0.0.0.0", "::", ""):
            address = lan_address()
            port = server.server_address[1]
            where = (
                f"http://{address}:{port}/"
                if address
                else f"http://<this computer's address>:{port}/ (its local network address "
                f"could not be found)"
            )
            print(f"manila: on a phone on the same network, open {where}", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    finally:
        server.server_close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("manila: stopped", flush=True)

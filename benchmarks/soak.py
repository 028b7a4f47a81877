"""A soak of the HTTP server: minutes of mixed traffic, a share of it bad, oversized, slow
or cancelled, and what the server looks like at the end (a benchmark, not a test).

    python benchmarks/soak.py [--minutes 10] [--clients 8] [--time-limit 2] [--seed 1]

The server (manila.server, --time-limit seconds a request) runs in this process, so that
its threads, slots and memory can be read; the clients run in a child process (their own
GIL), each keeping its connection while the server keeps it. Every client draws its next
request from the mix below. At the end it prints the requests, the statuses, the latency
percentiles by kind, the server's memory (after warm-up, at its peak and at the end), its
threads and its free slots; it exits 1 if any answer was a 500, a slot was still taken or
a thread was left behind.

Kinds: evaluate (a cheap and an early state), validate, advise (cheap), advise_heavy (a
legal 5-player search early in a voyage: 503 when it runs out of time or the slot is
taken), analyse (16 rollouts), play (a new game), page (GET /, /openapi.json), bad (bad
JSON, invalid states, unknown keys: 400), oversized (2 MB, written in pieces: 413), slow (a
body that stops half way: 408) and cancelled (a heavy search whose client leaves after
0.2 s: no answer).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

CHEAP = "r3 ginseng@12:a silk@10:b jade@11:c turn=a order=a,b"
HEAVY = "r1 ginseng@3 nutmeg@4 silk@2 pirate_1=a turn=a order=a,b,c,d,e"
EARLY = {
    "next_roll": 1,
    "boats": {"ginseng": {"position": 3}, "nutmeg": {"position": 4}, "silk": {"position": 2}},
}
LATE = "r3 ginseng@8:red,blue silk@arrived:green jade@12 pirate_1=blue pilot_large=red player=red"
BIG = b"[" + b"0," * (1024 * 1024) + b"0]"
MIX = {
    "evaluate": 24,
    "validate": 8,
    "advise": 10,
    "advise_heavy": 2,
    "analyse": 4,
    "play": 5,
    "page": 8,
    "bad": 20,
    "oversized": 5,
    "slow": 6,
    "cancelled": 3,
}
BAD = [
    b"{",
    b'{"next_roll": 7}',
    b'{"notation": "r9 ginseng@3"}',
    b'{"notation": "r1 ginseng@3 nutmeg@4 silk@2", "extra": 1}',
    b"[1, 2, 3]",
    json.dumps({"notation": "r1 ginseng@3 nutmeg@4 silk@2 turn=a order=a,b,c,d,e,f"}).encode(),
]


def _rss_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# --------------------------------------------------------------------------- the clients


def _send(address, method, path, body=None, paced=False, timeout=30.0):
    conn = http.client.HTTPConnection(*address, timeout=timeout)
    try:
        headers = {}
        if body is not None:
            headers = {"Content-Type": "application/json", "Content-Length": str(len(body))}
        if paced:
            pieces = (body[i : i + 65536] for i in range(0, len(body), 65536))
            conn.request(method, path, body=pieces, headers=headers)
        else:
            conn.request(method, path, body=body, headers=headers)
        res = conn.getresponse()
        res.read()
        return res.status
    finally:
        conn.close()


def _raw(address, data: bytes, close_after: float | None, timeout: float = 30.0):
    """Sends ``data``; then either reads the status, or leaves after ``close_after`` s."""
    with socket.create_connection(address, timeout=timeout) as sock:
        sock.sendall(data)
        if close_after is not None:
            time.sleep(close_after)
            return "left"
        got = b""
        while b"\r\n" not in got:
            chunk = sock.recv(4096)
            if not chunk:
                return "closed"
            got += chunk
        return int(got.split()[1])


def _post(path: str, payload) -> tuple[str, str, bytes]:
    return "POST", path, json.dumps(payload).encode()


def _request(kind: str, rng: random.Random, address, table) -> object:
    if kind == "evaluate":
        return _send(address, *_post("/v1/evaluate", rng.choice([EARLY, {"notation": LATE}])))
    if kind == "validate":
        return _send(address, *_post("/v1/validate", {"notation": LATE}))
    if kind == "advise":
        return _send(address, *_post("/v1/advise", {"notation": CHEAP}))
    if kind == "advise_heavy":
        return _send(address, *_post("/v1/advise", {"notation": HEAVY}))
    if kind == "analyse":
        return _send(address, *_post("/v1/analyse", {"table": table, "rollouts": 16}))
    if kind == "play":
        return _send(address, *_post("/v1/play", {"new": {"players": 3, "bots": ["greedy", "greedy"]}}))
    if kind == "page":
        return _send(address, "GET", rng.choice(["/", "/openapi.json", "/healthz"]))
    if kind == "bad":
        return _send(
            address, "POST", rng.choice(["/v1/evaluate", "/v1/validate", "/v1/advise"]), rng.choice(BAD)
        )
    if kind == "oversized":
        return _send(address, "POST", "/v1/evaluate", BIG, paced=True)
    if kind == "slow":  # half a body, then nothing: the server answers 408 at its time limit
        head = "POST /v1/evaluate HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
        body = json.dumps(EARLY).encode()
        return _raw(
            address, f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body[: len(body) // 2], None
        )
    head = "POST /v1/advise HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
    body = json.dumps({"notation": HEAVY}).encode()  # cancelled: the client leaves after 0.2 s
    return _raw(address, f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body, 0.2)


def run_clients(host: str, port: int, seconds: float, clients: int, seed: int) -> None:
    """The child process: prints one JSON line of (kind, status, seconds) per request."""
    import manila

    state = manila.Game(players=4, seed=seed).new_initial_state()
    while state.is_chance_node():
        state.apply_chance()
    table = state.observation(0)
    kinds, weights = list(MIX), list(MIX.values())
    until = time.monotonic() + seconds
    results: list[tuple[str, object, float]] = []
    lock = threading.Lock()

    def client(k: int) -> None:
        rng = random.Random(seed * 1000 + k)
        while time.monotonic() < until:
            kind = rng.choices(kinds, weights)[0]
            start = time.monotonic()
            try:
                status: object = _request(kind, rng, (host, port), table)
            except OSError as exc:
                status = type(exc).__name__
            with lock:
                results.append((kind, status, time.monotonic() - start))

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    json.dump(results, sys.stdout)


# --------------------------------------------------------------------------- the server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--client-of", metavar="HOST:PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client_of:
        host, _, port = args.client_of.rpartition(":")
        run_clients(host, int(port), args.minutes * 60, args.clients, args.seed)
        return 0

    from manila.server import app

    srv = app.make_server("127.0.0.1", 0, time_limit=args.time_limit, quiet=True)
    serving = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    serving.start()
    threads_before = threading.active_count()
    host, port = srv.server_address[:2]
    out = tempfile.TemporaryFile("w+")  # noqa: SIM115 (a pipe would fill and stop the child)
    child = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--client-of",
            f"{host}:{port}",
            "--minutes",
            str(args.minutes),
            "--clients",
            str(args.clients),
            "--seed",
            str(args.seed),
        ],
        stdout=out,
    )
    samples: list[tuple[float, int]] = []
    start = time.monotonic()
    while child.poll() is None:
        time.sleep(5)
        samples.append((time.monotonic() - start, _rss_kb()))
    out.seek(0)
    results = json.load(out)
    time.sleep(args.time_limit + 1)  # the last requests' connections end
    heavy_free = srv.heavy._value  # type: ignore[attr-defined]
    play_free = srv.play_slots._value  # type: ignore[attr-defined]
    threads_after = threading.active_count()
    srv.shutdown()
    srv.server_close()

    statuses = Counter(str(s) for _, s, _ in results)
    by_kind: dict[str, list[float]] = defaultdict(list)
    kind_status: dict[str, Counter[str]] = defaultdict(Counter)
    for kind, status, took in results:
        by_kind[kind].append(took)
        kind_status[kind][str(status)] += 1

    def pct(values: list[float], q: float) -> float:
        values = sorted(values)
        return values[min(len(values) - 1, int(q * len(values)))] * 1000

    minutes = (time.monotonic() - start) / 60
    print(
        f"soak: {minutes:.1f} min, {args.clients} clients, time limit {args.time_limit:g} s, "
        f"{len(results)} requests ({len(results) / (minutes * 60):.1f}/s)"
    )
    print("statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    print(f"{'kind':<13}{'n':>7}  {'p50 ms':>8}{'p90 ms':>8}{'p99 ms':>8}{'max ms':>8}  statuses")
    for kind in MIX:
        t = by_kind.get(kind, [])
        if not t:
            continue
        counts = ", ".join(f"{k} {v}" for k, v in sorted(kind_status[kind].items()))
        print(
            f"{kind:<13}{len(t):>7}  {pct(t, 0.5):>8.0f}{pct(t, 0.9):>8.0f}{pct(t, 0.99):>8.0f}"
            f"{max(t) * 1000:>8.0f}  {counts}"
        )
    warm = next((kb for t, kb in samples if t >= 60), samples[0][1] if samples else 0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    end = samples[-1][1] if samples else 0
    print(
        f"server memory: {warm / 1024:.0f} MB after the first minute, {end / 1024:.0f} MB at the "
        f"end, peak {peak / 1024:.0f} MB"
    )
    print(
        f"server threads: {threads_before} before, {threads_after} at the end; heavy slots free "
        f"{heavy_free} of {srv.heavy_limit}, play slots free {play_free} of {srv.play_limit}"
    )
    ok = "500" not in statuses and heavy_free == srv.heavy_limit and play_free == srv.play_limit
    ok = ok and threads_after <= threads_before + srv.pool._max_workers  # idle pool workers stay
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

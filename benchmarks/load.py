"""Load on the HTTP server over loopback: N evaluate requests from C concurrent clients.

    python benchmarks/load.py [--requests 10000] [--clients 32] [--workers N] [--url URL]
                              [--mix all|roll3] [--client python|wrk] [--seconds 10]

Without --url it starts ``manila.server`` in a child process on a free loopback port (so the
clients' Python does not share a GIL with it) and stops it at the end. Each client keeps one
HTTP/1.1 connection and sends the benchmark states (benchmarks/suites/bench_states.py) in turn; an
answer counts as a failure unless it is a 200 whose JSON equals manila.evaluate on the same
state. Prints requests/s and latency percentiles; exits 1 if anything failed. Only loopback
addresses are accepted, and the run is bounded by --requests and --deadline.

``--mix roll3`` sends only the states at their last roll (what the server answers on the
connection's thread). ``--client wrk`` drives the load with wrk (Debian package ``wrk``) for
--seconds instead of Python clients, which on a small machine take the cores the server
needs; wrk checks only that every answer is a 200.
"""

from __future__ import annotations

import argparse
import http.client
import ipaddress
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import urlsplit

import manila
from suites.bench_states import STATES

SERVE = "import sys\nfrom manila.cli import main\nsys.exit(main(['serve'] + sys.argv[1:]))\n"


def _start_server(workers: int | None) -> tuple[subprocess.Popen, str]:
    args = [sys.executable, "-c", SERVE, "--port", "0", "--quiet"]
    if workers:
        args += ["--workers", str(workers)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not m:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, m.group(1)


def _loopback_only(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    host, port = parts.hostname or "", parts.port or 80
    addresses = {info[4][0] for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)}
    if not addresses or not all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses):
        raise SystemExit(f"refusing to load {host}: only loopback addresses are allowed")
    return host, port


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


MIXES = {
    "all": list(STATES.values()),
    "roll3": [s for s in STATES.values() if s["next_roll"] == 3],
}


def run_load(host: str, port: int, requests: int, clients: int, deadline: float, mix: str = "all") -> dict:
    bodies = [json.dumps(s).encode() for s in MIXES[mix]]
    expected = [manila.evaluate(s).to_dict() for s in MIXES[mix]]
    counter = iter(range(requests))
    taken = [0]
    lock = threading.Lock()
    latencies: list[float] = []
    failures: list[str] = []
    stop_at = time.monotonic() + deadline

    def client() -> None:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        mine: list[float] = []
        try:
            while time.monotonic() < stop_at:
                with lock:
                    i = next(counter, None)
                    taken[0] += i is not None
                if i is None:
                    break
                k = i % len(bodies)
                start = time.perf_counter()
                try:
                    conn.request(
                        "POST", "/v1/evaluate", body=bodies[k], headers={"Content-Type": "application/json"}
                    )
                    res = conn.getresponse()
                    data = res.read()
                    mine.append(time.perf_counter() - start)
                    if res.status != 200:
                        failures.append(f"status {res.status}: {data[:200]!r}")
                    elif json.loads(data) != expected[k]:
                        failures.append(f"wrong answer for state {k}")
                    if res.getheader("Connection", "").lower() == "close":
                        conn.close()
                except (OSError, http.client.HTTPException, ValueError) as exc:
                    failures.append(f"{type(exc).__name__}: {exc}")
                    conn.close()
        finally:
            conn.close()
            with lock:
                latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    done = len(latencies)
    unsent = requests - taken[0]
    if unsent > 0:
        failures.append(f"{unsent} requests not sent before the {deadline:g} s deadline")
    lat = sorted(latencies)
    return {
        "requests": requests,
        "answered": done,
        "clients": clients,
        "failures": failures,
        "elapsed": elapsed,
        "rps": done / elapsed if elapsed else 0.0,
        "p50": _percentile(lat, 0.50),
        "p90": _percentile(lat, 0.90),
        "p99": _percentile(lat, 0.99),
        "max": lat[-1] if lat else float("nan"),
        "mean": statistics.fmean(lat) if lat else float("nan"),
    }


_WRK_SCRIPT = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local bodies = {%s}
local i = 0
request = function()
  i = i %% #bodies + 1
  return wrk.format(nil, "/v1/evaluate", nil, bodies[i])
end
local failed = 0
response = function(status, headers, body)
  if status ~= 200 then failed = failed + 1 end
end
"""


def run_wrk(host: str, port: int, clients: int, seconds: float, mix: str = "all") -> dict:
    """requests/s from wrk (2 threads, `clients` connections) posting the mix in turn."""
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk)")
    # A JSON string is a valid Lua string literal: the bodies go in as json.dumps of the JSON.
    bodies = ", ".join(json.dumps(json.dumps(s)) for s in MIXES[mix])
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(_WRK_SCRIPT % bodies)
        script.flush()
        out = subprocess.run(
            [wrk, "-t2", f"-c{clients}", f"-d{seconds:g}s", "-s", script.name, f"http://{host}:{port}/"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    rps = re.search(r"Requests/sec:\s+([0-9.]+)", out)
    done = re.search(r"(\d+) requests in ([0-9.]+)s", out)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    failures = [f"{bad.group(1)} answers were not 200"] if bad else []
    failures += [f"socket errors: {errors.group(1)}"] if errors else []
    return {
        "rps": float(rps.group(1)) if rps else 0.0,
        "answered": int(done.group(1)) if done else 0,
        "elapsed": float(done.group(2)) if done else 0.0,
        "failures": failures,
        "clients": clients,
    }


def start_local_server(workers: int | None = None) -> tuple[subprocess.Popen, str]:
    """``manila serve`` in a child process on a free loopback port, warmed up."""
    proc, url = _start_server(workers)
    host, port = _loopback_only(url)
    conn = http.client.HTTPConnection(host, port, timeout=30)
    for s in STATES.values():
        conn.request(
            "POST", "/v1/evaluate", body=json.dumps(s).encode(), headers={"Content-Type": "application/json"}
        )
        res = conn.getresponse()
        res.read()
        if res.status != 200:
            proc.kill()
            raise SystemExit(f"warm-up request failed with {res.status}")
    conn.close()
    return proc, url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument(
        "--workers", type=int, default=None, help="the server's evaluation threads (default: one per core)"
    )
    parser.add_argument("--url", help="a server already running on loopback (default: start one)")
    parser.add_argument(
        "--deadline", type=float, default=600.0, help="stop sending after this many seconds (default 600)"
    )
    parser.add_argument("--mix", choices=sorted(MIXES), default="all", help="the states sent (default all)")
    parser.add_argument("--client", choices=("python", "wrk"), default="python", help="what drives the load")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long wrk runs (default 10)")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.clients < 1:
        parser.error("--requests and --clients must be positive")

    proc = None
    url = args.url
    if url is None:
        proc, url = start_local_server(args.workers)
    try:
        host, port = _loopback_only(url)
        if args.client == "wrk":
            r = run_wrk(host, port, args.clients, args.seconds, args.mix)
        else:
            r = run_load(host, port, args.requests, args.clients, args.deadline, args.mix)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)

    print(f"server: {url} ({os.cpu_count()} cores here; states: {args.mix}, driven by {args.client})")
    if args.client == "wrk":
        print(
            f"{r['answered']} requests answered on {r['clients']} connections in {r['elapsed']:.2f} s: "
            f"{r['rps']:.0f} requests/s"
        )
        print(f"failures: {len(r['failures'])}")
        for f in r["failures"]:
            print(f"  {f}")
        return 1 if r["failures"] else 0
    ms = 1000.0
    print(
        f"{r['answered']} of {r['requests']} requests answered by {r['clients']} clients "
        f"in {r['elapsed']:.2f} s: {r['rps']:.0f} requests/s"
    )
    print(
        f"latency: p50 {r['p50'] * ms:.2f} ms, p90 {r['p90'] * ms:.2f} ms, "
        f"p99 {r['p99'] * ms:.2f} ms, max {r['max'] * ms:.2f} ms, mean {r['mean'] * ms:.2f} ms"
    )
    print(f"failures: {len(r['failures'])}")
    for f in r["failures"][:10]:
        print(f"  {f}")
    return 1 if r["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())

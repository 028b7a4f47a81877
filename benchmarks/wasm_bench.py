"""The engine in the browser against the native one, state by state, on one thread.

    python benchmarks/wasm_bench.py [--repeat 5] [--budget-ms 200]

Writes the static site (python -m manila web) into a temporary folder, serves it on
127.0.0.1, and times in headless Chromium (Debian's chromium and chromium-driver) one
evaluation through engine.js and manila.wasm: the JSON state in, the page's JSON out.
Beside it, the native time of the same work: manila.evaluate(state, threads=1) end to end,
and the engine call alone (_core.analyse on one thread). The goal (issue 23): browser
at most 3x the native end-to-end time. Prints a Markdown table (docs/performance.md).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

import manila
from manila import _core
from manila.server.names import page_data
from manila.server.site import write_site
from manila.voyage.state import as_state
from suites.bench_states import STATES
from timing import best_time

GOAL = 3.0

BENCH_PAGE = """<!doctype html><meta charset="utf-8"><title>bench</title>
<script type="module">
import {loadEngine} from './engine.js';
const names = await (await fetch('names.json')).json();
const engine = await loadEngine('manila.wasm', names);
window.bench = (states, repeat, budgetMs) => states.map(state => {
  // The clock is coarse (0.1 ms without cross-origin isolation): double the loop until a
  // tenth of the budget is measured, then size it to the budget.
  let loops = 1, took = 0, t0;
  for (;;) {
    t0 = performance.now();
    for (let i = 0; i < loops; i++) engine.evaluate(state);
    took = performance.now() - t0;
    if (took >= budgetMs / 10) break;
    loops *= 2;
  }
  loops = Math.max(1, Math.round(loops * budgetMs / took));
  let best = Infinity;
  for (let r = 0; r < repeat; r++) {
    t0 = performance.now();
    for (let i = 0; i < loops; i++) engine.evaluate(state);
    best = Math.min(best, (performance.now() - t0) / loops);
  }
  return best;
});
window.ready = true;
</script>"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def browser_times(
    states: list[dict[str, Any]], repeat: int, budget_ms: float, rounds: int, native: Callable[[], None]
) -> list[float]:
    """Seconds per evaluation in the browser, best of ``rounds`` rounds; ``native()`` runs
    between the rounds, so that both sides see the same load on a shared machine."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        write_site(site, page_data())
        (site / "bench.html").write_text(BENCH_PAGE)
        handler = functools.partial(_Quiet, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or ""
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
            options.add_argument(arg)
        driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
        try:
            driver.set_script_timeout(600)
            driver.get(f"http://127.0.0.1:{server.server_address[1]}/bench.html")
            deadline = time.time() + 30
            while not driver.execute_script("return window.ready === true") and time.time() < deadline:
                time.sleep(0.1)
            ms = [float("inf")] * len(states)
            for _ in range(rounds):
                got = [  # one state a call: WebDriver gives up on a call after two minutes
                    driver.execute_script(
                        "return window.bench([arguments[0]], arguments[1], arguments[2])[0]",
                        state,
                        repeat,
                        budget_ms,
                    )
                    for state in states
                ]
                ms = [min(a, b) for a, b in zip(ms, got)]
                native()
        finally:
            driver.quit()
            server.shutdown()
    return [m / 1000 for m in ms]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--budget-ms", type=float, default=200.0)
    parser.add_argument("--rounds", type=int, default=3, help="browser and native in turn, best of each")
    args = parser.parse_args()
    budget = args.budget_ms / 1000
    names = list(STATES)
    states = [STATES[n] for n in names]
    native = {n: float("inf") for n in names}
    core = {n: float("inf") for n in names}

    def native_round() -> None:
        for name, state in zip(names, states):
            native[name] = min(
                native[name], best_time(lambda: manila.evaluate(state, threads=1), args.repeat, budget)
            )
            parsed = as_state(state)
            voyage, pov, limit = parsed.to_core(), parsed.point_of_view, parsed.max_accomplices
            core[name] = min(
                core[name], best_time(lambda: _core.analyse(voyage, pov, limit, 1), args.repeat, budget)
            )

    browser = browser_times(states, args.repeat, args.budget_ms, args.rounds, native_round)
    print("| state | native evaluate (µs) | native engine call (µs) | browser (µs) | browser / native |")
    print("| --- | ---: | ---: | ---: | ---: |")
    worst = 0.0
    for name, web in zip(names, browser):
        ratio = web / native[name]
        worst = max(worst, ratio)
        print(
            f"| {name} | {native[name] * 1e6:,.0f} | {core[name] * 1e6:,.0f} | {web * 1e6:,.0f} | {ratio:.2f}x |"
        )
    print(f"\nworst browser / native: {worst:.2f}x (goal: at most {GOAL:g}x)")
    wasm = Path(manila.__file__).parent / "server" / "web" / "manila.wasm"
    print(f"manila.wasm: {wasm.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()

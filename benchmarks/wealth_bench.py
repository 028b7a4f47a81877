"""What the wealth objective costs: each benchmark state timed as it is (income) and with
shares for three players and prices (wealth), side by side, on one thread.

    python benchmarks/wealth_bench.py [--repeat 7] [--budget-ms 20]

For every state (next_roll 1, 2 and 3; benchmarks/suites/wealth_states.py) it prints the best-of-N
time of the engine alone (``manila._core.analyse(voyage, owner, max_accomplices, 1)`` on a
prepared voyage) and of ``manila.evaluate(state)`` end to end (parsing included), under
each objective, and their ratio. The target is a ratio of at most 1.3 (issue 9).
Income and wealth runs alternate, so that a busy machine slows both alike.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable

import manila
from manila import _core
from suites.wealth_states import INCOME, WEALTH
from timing import best_times

LIMIT = 1.3


def _engine(state: dict) -> Callable[[], object]:
    s = manila.VoyageState.from_dict(state)
    voyage, owner, limit = s.to_core(), s.point_of_view, s.max_accomplices
    return lambda: _core.analyse(voyage, owner, limit, 1)


def _evaluate(state: dict) -> Callable[[], object]:
    return lambda: manila.evaluate(state, threads=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="best of N batches (default 7)")
    parser.add_argument(
        "--budget-ms", type=float, default=20.0, help="length of one timed batch in milliseconds (default 20)"
    )
    args = parser.parse_args(argv)
    budget = args.budget_ms / 1000

    head = (
        "state",
        "roll",
        "analyse income",
        "analyse wealth",
        "ratio",
        "evaluate income",
        "evaluate wealth",
        "ratio",
    )
    rows, worst = [], 0.0
    for name, state in INCOME.items():
        core = best_times((_engine(state), _engine(WEALTH[name])), args.repeat, budget)
        full = best_times((_evaluate(state), _evaluate(WEALTH[name])), args.repeat, budget)
        ratios = (core[1] / core[0], full[1] / full[0])
        worst = max(worst, *ratios)
        rows.append(
            (
                name,
                str(state["next_roll"]),
                f"{core[0] * 1e6:.1f} us",
                f"{core[1] * 1e6:.1f} us",
                _ratio(ratios[0]),
                f"{full[0] * 1e6:.1f} us",
                f"{full[1] * 1e6:.1f} us",
                _ratio(ratios[1]),
            )
        )
    widths = [max(len(r[k]) for r in (head, *rows)) for k in range(len(head))]
    for r in (head, *rows):
        print("  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths))))
    verdict = "within" if worst <= LIMIT else "OVER"
    print(
        f"\nworst ratio {worst:.2f} ({verdict} the {LIMIT} target); one thread, best of "
        f"{args.repeat} batches of about {args.budget_ms:g} ms"
    )
    return 0


def _ratio(r: float) -> str:
    return f"{r:.2f}" + (" !" if r > LIMIT else "")


if __name__ == "__main__":
    sys.exit(main())

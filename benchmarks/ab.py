"""Runs one benchmark script under two installations of manila, alternately, and prints
their outputs side by side: the before and after of a change in one run.

    python benchmarks/ab.py --before /path/to/old/python --after /path/to/new/python \\
        [--rounds 2] -- benchmarks/seed_bench.py --no-suite

Each round runs the script under ``before`` and then ``after`` (so that both see the same
load), and the last round's outputs are printed in two columns. The script must use only
the public API that both installations have.
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys


def run(python: str, script: list[str]) -> list[str]:
    done = subprocess.run([python, *script], capture_output=True, text=True, check=False)
    if done.returncode and not done.stdout:
        sys.exit(f"{python} {' '.join(script)} failed:\n{done.stderr}")
    # A benchmark that printed its table and then missed a goal still has a column to show.
    return done.stdout.splitlines() + ([f"(exit status {done.returncode})"] if done.returncode else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the Python of the installation before")
    parser.add_argument("--after", default=sys.executable, help="the Python after (default: this one)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds; the last is shown")
    parser.add_argument("script", nargs=argparse.REMAINDER, help="-- the script and its arguments")
    args = parser.parse_args()
    script = args.script[1:] if args.script[:1] == ["--"] else args.script
    if not script:
        parser.error("give the script to run after --")
    before: list[str] = []
    after: list[str] = []
    for _ in range(max(1, args.rounds)):
        before, after = run(args.before, script), run(args.after, script)
    width = max((len(line) for line in before), default=0)
    print(f"{'before':<{width}} | after")
    for a, b in itertools.zip_longest(before, after, fillvalue=""):
        print(f"{a:<{width}} | {b}")


if __name__ == "__main__":
    main()

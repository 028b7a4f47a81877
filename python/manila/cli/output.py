"""JSON or the report: the one rule of the commands that print either."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable


def add_output_flags(parser: argparse.ArgumentParser, json_help: str) -> None:
    """``--json`` and ``--text``; without either, JSON when standard output is no terminal."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true", help=f"{json_help} (the default when piped)")
    group.add_argument(
        "--text", action="store_true", help="print the report even when piped (e.g. into less)"
    )


def wants_json(args: argparse.Namespace) -> bool:
    return bool(args.json or (not args.text and not sys.stdout.isatty()))


def wants_color() -> bool:
    """Colours only on a terminal, and never under NO_COLOR."""
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def print_result(args: argparse.Namespace, result: Any, report: Callable[[], str]) -> None:
    """The answer as its JSON (``result.to_dict()``, indented) or as the report ``report()``
    writes, by :func:`wants_json`."""
    if wants_json(args):
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(report())

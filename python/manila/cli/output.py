"""JSON or the report: the one rule of the commands that print either."""

from __future__ import annotations

import argparse
import os
import sys


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

"""The rule options as command-line flags, declared once for every command that takes them."""

from __future__ import annotations

import argparse
from typing import Any

from ..common.vocab import THIRTEEN_OPTIONS
from ..voyage.board import Rules


def add_rule_arguments(parser: Any) -> None:
    """The rule options as flags, on a parser or an argument group."""
    parser.add_argument(
        "--thirteen-after-last-roll",
        "--thirteen",
        dest="thirteen_after_last_roll",
        choices=THIRTEEN_OPTIONS,
        default=Rules.thirteen_after_last_roll,
        help="where a boat on 13 after roll 3 goes when no pirate is aboard (default: port)",
    )
    parser.add_argument(
        "--pirate-variant",
        action="store_true",
        help="boarding pirates may displace crew (rule option pirate_variant)",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    return Rules(args.thirteen_after_last_roll, bool(args.pirate_variant))


def rules_text(rules: Rules) -> str:
    """The options as a reader sees them in a summary line."""
    return ", ".join(f"{k}={str(v).lower()}" for k, v in rules.to_dict().items())

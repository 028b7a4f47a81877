"""The parts of a voyage state: a boat, and the rule options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..common.errors import Problem
from ..common.text import is_mapping
from ..common.vocab import THIRTEEN_OPTIONS, Space


@dataclass(frozen=True)
class Rules:
    thirteen_after_last_roll: str = "port"
    pirate_variant: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "thirteen_after_last_roll": self.thirteen_after_last_roll,
            "pirate_variant": self.pirate_variant,
        }


RULE_OPTIONS: tuple[str, ...] = tuple(Rules.__dataclass_fields__)


def read_rules(data: Any) -> tuple[Rules, list[Problem]]:
    """The rule options of a JSON object (None: the defaults), with every problem found;
    the defaults stand in for a bad value."""
    default = Rules()
    if data is None:
        return default, []
    if not is_mapping(data):
        return default, [Problem("rules", "must be an object of rule options")]
    options = " and ".join(RULE_OPTIONS)
    problems = [
        Problem(f"rules.{key}", f"unknown rule option; the options are {options}")
        for key in data
        if key not in RULE_OPTIONS
    ]
    thirteen = data.get("thirteen_after_last_roll", default.thirteen_after_last_roll)
    if thirteen not in THIRTEEN_OPTIONS:
        problems.append(
            Problem("rules.thirteen_after_last_roll", f'must be "port" or "shipyard", got {thirteen!r}')
        )
        thirteen = default.thirteen_after_last_roll
    variant = data.get("pirate_variant", default.pirate_variant)
    if not isinstance(variant, bool):
        problems.append(Problem("rules.pirate_variant", f"must be true or false, got {variant!r}"))
        variant = default.pirate_variant
    return Rules(thirteen, variant), problems


@dataclass(frozen=True)
class Boat:
    position: Space
    crew: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"position": self.position, "crew": list(self.crew)}

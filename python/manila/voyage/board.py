"""The parts of a voyage state: a boat, and the rule options (the engine reads both)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..common.vocab import Space


@dataclass(frozen=True)
class Rules:
    thirteen_after_last_roll: str = "port"
    pirate_variant: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "thirteen_after_last_roll": self.thirteen_after_last_roll,
            "pirate_variant": self.pirate_variant,
        }


@dataclass(frozen=True)
class Boat:
    position: Space
    crew: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"position": self.position, "crew": list(self.crew)}

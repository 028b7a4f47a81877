"""The parts of a voyage state: a boat, and the rule options (the engine reads both)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import _core
from ..common.inputs import engine_json
from ..common.vocab import Space


@dataclass(frozen=True)
class Rules:
    thirteen_after_last_roll: str = "port"
    pirate_variant: bool = False

    def __post_init__(self) -> None:
        # The engine reads rule options (its reader of records, tables and the play route),
        # so that a wrong one is refused where it is written, not where a game reads it.
        _core.read_game_rules(engine_json(self.to_dict()))

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

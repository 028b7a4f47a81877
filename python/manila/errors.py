"""The one exception type for a state or action the rules do not allow."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where (a JSON path such as ``boats.silk.crew``) and why."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def to_dict(self) -> dict:
        return {"path": self.path, "message": self.message}


class StateError(ValueError):
    """An invalid voyage state; ``problems`` lists every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems) or "invalid state")

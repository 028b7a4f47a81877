"""The one exception type for a state or action the rules do not allow."""

from __future__ import annotations

from dataclasses import dataclass

# How each interface lets a user past a refusal, by remedy: a problem names its remedy,
# and whoever shows it says it in the words of the interface at hand.
REMEDIES = {
    "strict": {
        "python": "strict=False evaluates hypothetical positions",
        "cli": "--no-strict evaluates hypothetical positions",
        "http": '"strict": false in the body, or ?strict=0, evaluates hypothetical positions',
    },
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where (a JSON path such as ``boats.silk.crew``) and why.

    ``remedy`` names an entry of REMEDIES when an option would accept the input anyway.
    """

    path: str
    message: str
    remedy: str = ""

    def text(self, interface: str = "python") -> str:
        """The message, with the remedy as ``interface`` (python, cli or http) offers it."""
        if not self.remedy:
            return self.message
        return f"{self.message} ({REMEDIES[self.remedy][interface]})"

    def line(self, interface: str = "python") -> str:
        """``path: message`` (just the message when there is no path)."""
        text = self.text(interface)
        return f"{self.path}: {text}" if self.path else text

    def __str__(self) -> str:
        return self.line()

    def to_dict(self, interface: str = "python") -> dict[str, str]:
        return {"path": self.path, "message": self.text(interface)}


class StateError(ValueError):
    """An invalid voyage state; ``problems`` lists every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems) or "invalid state")

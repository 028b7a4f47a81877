"""The learned value of a position: every player's expected final wealth, equity and chance
of winning (docs/value.md).

    >>> from manila.game import Game
    >>> state = Game(4, seed=1).new_initial_state()
    >>> while state.is_chance_node():
    ...     _ = state.apply_chance()
    >>> v = value(state)
    >>> v.exact, round(sum(v.win.values()), 6), abs(round(sum(v.equity.values()), 6))
    (True, 1.0, 0.0)

At a voyage boundary (an auction about to start) the shipped network answers; once no
placement remains in a voyage the answer is the exact expectation over its remaining dice
of the boundary value of each outcome; from any other moment it is the mean of seeded
play-outs of a continuation policy up to such a moment, with 95% intervals. From a table
(a player's view) the answer averages over the others' face-down shares: exactly, over every
deal consistent with the view, where the value is exact; else dealt anew in every play-out.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Union

from .. import _core
from ..common.limits import MIN_ROLLOUTS
from ..game.engine import State
from ..game.table import TableLike
from .analysis import DEFAULT_POLICY, POLICIES, _state_of, check_choice, check_number

__all__ = ["DEFAULT_ROLLOUTS", "Value", "model_info", "value"]

DEFAULT_ROLLOUTS: int = _core.VALUE_ROLLOUTS


@lru_cache(maxsize=1)
def model_info() -> dict[str, Any]:
    """The shipped model's record: its version, training policy, games and accuracy."""
    info: dict[str, Any] = json.loads(_core.shipped_value_model().info)
    return info


@dataclass(frozen=True)
class Value:
    """Every player's expected final ``wealth``, ``equity`` (wealth minus the mean of the
    others') and ``win`` probability (ties shared), with 95% half-widths (0 where exact)."""

    players: tuple[str, ...]
    wealth: dict[str, float]
    equity: dict[str, float]
    win: dict[str, float]
    wealth_ci95: dict[str, float]
    equity_ci95: dict[str, float]
    win_ci95: dict[str, float]
    exact: bool
    rollouts: int
    policy: str
    seed: int
    phase: str
    report: dict[str, Any] = field(default_factory=dict, repr=False)  # the engine's JSON of it

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON (docs/value.md), as the engine wrote it."""
        return copy.deepcopy(self.report)

    def render(self) -> str:
        how = (
            "exact up to the next voyage, the learned value there"
            if self.exact
            else f"{self.rollouts} play-outs of {self.policy}, seed {self.seed}"
        )
        lines = [f"value at {self.phase} ({how}; equity = wealth minus the others' mean)"]
        lines.append(f"{'player':<8} {'wealth':>16} {'equity':>16} {'win':>14}")
        for p in self.players:
            lines.append(
                f"{p:<8} {self.wealth[p]:8.1f} ± {self.wealth_ci95[p]:5.1f} "
                f"{self.equity[p]:+8.1f} ± {self.equity_ci95[p]:5.1f} "
                f"{100 * self.win[p]:6.1f}% ± {100 * self.win_ci95[p]:4.1f}"
            )
        return "\n".join(lines)


def value(
    table_or_state: Union[State, TableLike],
    *,
    policy: str = DEFAULT_POLICY,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
    threads: int = 0,
) -> Value:
    """Every player's expected final wealth, equity and chance of winning (docs/value.md).

    ``policy`` takes the decisions up to the next voyage boundary (and in the play-outs
    from a moment where placements remain); ``rollouts`` play-outs from such a moment.
    """
    policy = check_choice(policy, "policy", POLICIES)
    check_number(rollouts, "rollouts", MIN_ROLLOUTS, integer=True)
    check_number(seed, "seed", 0, integer=True)
    check_number(threads, "threads", 0, integer=True)
    state, viewer = _state_of(table_or_state, seed)
    raw = _core.position_value(
        state._s,
        _core.shipped_value_model(),
        policy,
        rollouts,
        seed,
        viewer=-1 if viewer is None else viewer,
        threads=threads,
    )
    names = tuple(state.player_name(p) for p in range(len(raw["wealth"])))

    def per(key: str) -> dict[str, float]:
        return dict(zip(names, (float(x) for x in raw[key])))

    return Value(
        players=names,
        wealth=per("wealth"),
        equity=per("equity"),
        win=per("win"),
        wealth_ci95=per("wealth_ci95"),
        equity_ci95=per("equity_ci95"),
        win_ci95=per("win_ci95"),
        exact=bool(raw["exact"]),
        rollouts=int(raw["rollouts"]),
        policy=policy,
        seed=seed,
        phase=state.phase,
        report=raw["report"],
    )

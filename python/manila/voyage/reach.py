"""Which boat positions can arise in a real voyage.

The harbour master puts the boats on spaces 0..5 summing to exactly 9; before roll r
each boat has made r - 1 rolls of one die. A position triple is reachable when some
such start leads to it. The engine decides it (the check its voyage state reader makes of
strict states); this asks it of any boats.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import _core
from ..common.errors import Problem
from ..common.vocab import ARRIVED, Space


def reachability_problems(next_roll: int, positions: Mapping[str, Space]) -> list[Problem]:
    """Why these positions (each boat's name and space) cannot stand before roll
    `next_roll`; empty if they can."""
    spaces = [(name, _core.ARRIVED if space == ARRIVED else space) for name, space in positions.items()]
    return [Problem(*p) for p in _core.reachability_problems(next_roll, spaces)]

"""Which boat positions can arise in a real voyage.

The harbour master puts the boats on spaces 0..5 summing to exactly 9; before roll r
each boat has made r - 1 rolls of one die. A position triple is reachable when some
such start leads to it, which a closed form per boat and a search over the 25 start
triples decide exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import product

from ..common.errors import Problem
from ..common.vocab import ARRIVED, DIE_FACES, LAST_SPACE, START_SPACES, START_SUM, Space


def starts_reaching(position: Space, rolls: int) -> set[int]:
    """Start spaces from which a boat can be at `position` after `rolls` dice."""
    if position == ARRIVED:
        # From space s the boat passes 13 only if s + 6 * rolls > 13.
        return {s for s in START_SPACES if s + DIE_FACES * rolls > LAST_SPACE}
    # Before it arrives a boat advances 1..6 per roll, so it is between s + rolls and
    # s + 6 * rolls, every space between being possible.
    return {s for s in START_SPACES if s + rolls <= position <= s + DIE_FACES * rolls}


def reachability_problems(next_roll: int, positions: Mapping[str, Space]) -> list[Problem]:
    """Why these positions cannot stand before roll `next_roll`; empty if they can."""
    try:
        return list(_problems(next_roll, tuple(positions.items())))
    except TypeError:  # unhashable positions: nothing to remember them by
        return _find_problems(next_roll, positions)


@lru_cache(maxsize=4096)
def _problems(next_roll: int, positions: tuple[tuple[str, Space], ...]) -> tuple[Problem, ...]:
    # Every evaluation asks; a few thousand boards cover what a game or a sweep comes back to.
    return tuple(_find_problems(next_roll, dict(positions)))


def _find_problems(next_roll: int, positions: Mapping[str, Space]) -> list[Problem]:
    rolls = next_roll - 1
    options = {}
    problems = []
    for good, position in positions.items():
        options[good] = starts_reaching(position, rolls)
        if not options[good]:
            where = "have arrived" if position == ARRIVED else f"be on {position}"
            made = "no roll yet" if rolls == 0 else f"{rolls} roll{'s' * (rolls > 1)}"
            problems.append(
                Problem(
                    f"boats.{good}.position",
                    f"a boat cannot {where} before roll {next_roll}: it started on "
                    f"{START_SPACES[0]}..{START_SPACES[-1]} and has made {made}",
                    remedy="strict",
                )
            )
    if problems:
        return problems
    if not any(sum(starts) == START_SUM for starts in product(*options.values())):
        spans = ", ".join(f"{g} {min(s)}..{max(s)}" for g, s in options.items())
        problems.append(
            Problem(
                "boats",
                f"these positions cannot arise together: the start spaces must sum to {START_SUM}, but "
                f"they could only have been {spans}",
                remedy="strict",
            )
        )
    return problems

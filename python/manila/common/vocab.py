"""One home for the game's vocabulary in Python: goods, spots, seats, payouts, limits.

Every value is read from the engine (manila._core, whose one home is rules.hpp); the rest
of the package reads them from here.
"""

from __future__ import annotations

from typing import Final, Literal, Optional, Union

from .. import _core

GOODS: tuple[str, ...] = tuple(_core.GOODS)
SPOTS: tuple[str, ...] = tuple(_core.SPOTS)
GOOD_INDEX: dict[str, int] = {g: i for i, g in enumerate(GOODS)}
SEATS: dict[str, tuple[int, ...]] = {g: tuple(c) for g, c in _core.SEAT_COSTS.items()}  # seat costs
CARGO_VALUES: dict[str, int] = dict(_core.CARGO_VALUES)
MAX_SEATS: int = _core.MAX_SEATS
SPOT_COSTS: dict[str, int] = dict(_core.SPOT_COSTS)  # insurance: -10, it pays the player
SLOT_PAYOUTS: tuple[int, ...] = tuple(_core.SLOT_PAYOUTS)  # port and shipyard slots A, B, C
INSURANCE_CLAIM: tuple[int, ...] = tuple(_core.INSURANCE_CLAIM)  # for 0..3 boats in the shipyard
THIRTEEN_OPTIONS = ("port", "shipyard")
OBJECTIVES = ("income", "wealth")
PRICE_TRACK: tuple[int, ...] = tuple(_core.PRICE_TRACK)
PRICES: tuple[int, ...] = PRICE_TRACK[:-1]  # a good at the top has ended the game
SHARES_PER_GOOD: int = _core.SHARES_PER_GOOD
LOAN_AMOUNT: int = _core.LOAN_AMOUNT
MAX_CASH: int = _core.MAX_CASH  # the most cash a table may show (a bound, not a rule)
MAX_BUDGET: int = _core.MAX_BUDGET  # the most a voyage state's budget may say
PLAYER_COUNTS: tuple[int, ...] = tuple(range(_core.MIN_PLAYERS, _core.MAX_PLAYERS + 1))
ROLLS: tuple[int, ...] = tuple(range(1, _core.NUM_ROLLS + 1))  # the values of next_roll
START_SPACES = range(0, _core.MAX_START_SPACE + 1)
START_SUM: int = _core.START_SUM
ARRIVED: Final = "arrived"
LAST_SPACE: int = _core.THIRTEEN
DIE_FACES: int = _core.DIE_FACES

# Where a boat stands: a space of its track, or in Manila.
Space = Union[int, Literal["arrived"]]


def accomplice_limit(players: Optional[int]) -> int:
    """How many accomplices one player has (the rules' table; unknown players: the usual count)."""
    return _core.ACCOMPLICES if players is None else _core.accomplices_per_player(players)

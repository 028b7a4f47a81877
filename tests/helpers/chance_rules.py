"""The chance of Manila as the rules define it, written from the rules alone (docs/rules.md):
the deal from a shuffled pile of 3 shares per good, and one fair die per boat not in Manila.
The engine's chance outcomes (VectorEnv with explicit chance, the OpenSpiel game) are checked
against it. Outcome k is the engine's action ACTION_OFFSETS["deal"] + k."""

import functools
import itertools
import math
from fractions import Fraction

import numpy as np

from manila import _core
from manila.view import observation_layout

GOODS, PER_GOOD = 4, 3  # shares shuffled for the deal: 3 of each good (set-up)
ROLL = _core.ACTION_OFFSETS["roll"] - _core.ACTION_OFFSETS["deal"]  # the first roll outcome
DEAL_PHASE = 0  # the phase one-hot's first entry (docs/observation.md)


def arrangements(counts):
    """The distinct orders of a pile holding counts[g] shares of good g."""
    return math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts)


@functools.cache
def deal_probability(dealt):
    """The probability that a shuffled pile of 3 shares per good deals `dealt` (a tuple of
    goods, in order) first: the orders of the pile that begin so, over all its orders."""
    left = [PER_GOOD - dealt.count(g) for g in range(GOODS)]
    if min(left) < 0:
        return Fraction(0)
    return Fraction(arrangements(left), arrangements([PER_GOOD] * GOODS))


@functools.cache
def roll_outcomes(sailing):
    """Every roll outcome with the boats `sailing` (flags, in good order of the three boats):
    a die 1..6 for each, the die of a boat in Manila fixed at 1 (the engine's numbering)."""
    faces = [range(6) if s else range(1) for s in sailing]
    return [ROLL + d0 * 36 + d1 * 6 + d2 for d0, d1, d2 in itertools.product(*faces)]


class Layout:
    """Where a chance node's kind and the boats are read in an observation tensor."""

    def __init__(self, players):
        sections = {name: (offset, shape) for name, offset, shape in observation_layout(players)}
        self.phase = sections["phase"][0]
        offset, shape = sections["boat_position"]
        self.boats = slice(offset, offset + int(np.prod(shape)))
        self.boats_shape = shape

    def is_deal(self, obs):
        return obs[self.phase + DEAL_PHASE] == 1

    def sailing(self, obs):
        """For the three boats that sail, in good order: not yet in Manila (last column)."""
        rows = obs[self.boats].reshape(self.boats_shape)
        return tuple(bool(row[-1] == 0) for row in rows if row.any())


@functools.cache
def _roll_chance(sailing):
    outcomes = roll_outcomes(sailing)
    return outcomes, np.ones(len(outcomes), np.int64), 6 ** sum(sailing)


def rules_chance(obs, layout, dealt):
    """("deal" or "roll", the outcomes in order, their probabilities as integer numerators
    over a common denominator) at a chance node seen in observation `obs`, `dealt` the goods
    dealt so far in the game."""
    if layout.is_deal(obs):
        dealt = tuple(dealt)
        before = deal_probability(dealt)
        outcomes = [g for g in range(GOODS) if deal_probability((*dealt, g))]
        probs = [deal_probability((*dealt, g)) / before for g in outcomes]
        den = math.lcm(*(p.denominator for p in probs))
        return "deal", outcomes, np.array([p.numerator * (den // p.denominator) for p in probs]), den
    sailing = layout.sailing(obs)
    assert len(sailing) == 3 and any(sailing)
    return ("roll", *_roll_chance(sailing))

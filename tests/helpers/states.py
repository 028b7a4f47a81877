"""Random valid voyage states for tests, from one builder and two sources of choices.

The builder (``build_state``, ``add_wealth``) asks a ``Draws`` for every choice it makes.
``SeededDraws`` answers from a ``random.Random``: the fixed samples the reference
comparisons check, reproducible from their seed. ``HypothesisDraws`` answers from
hypothesis, so that the strategies ``states()`` and ``wealth_states()`` shrink a failure
to a small board: each choice shrinks towards its simplest answer (the first option, the
lowest number, "no", the order given), which means fewer goods far along, fewer
accomplices, fewer spots taken and fewer shares.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Callable, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

GOODS = ("ginseng", "nutmeg", "silk", "jade")
SEATS = {"ginseng": 3, "nutmeg": 3, "silk": 3, "jade": 4}
SPOTS = (
    "port_a",
    "port_b",
    "port_c",
    "shipyard_a",
    "shipyard_b",
    "shipyard_c",
    "pirate_1",
    "pirate_2",
    "pilot_small",
    "pilot_large",
    "insurance",
)
PLAYERS = ("red", "blue", "green", "yellow", "purple")


class Draws:
    """Where the builder's choices come from."""

    def pick(self, options: Sequence[T]) -> T:
        """One of the options."""
        raise NotImplementedError

    def number(self, low: int, high: int) -> int:
        """An integer in low..high."""
        raise NotImplementedError

    def chance(self, p: float) -> bool:
        """True with probability about p."""
        raise NotImplementedError

    def sample(self, options: Sequence[T], k: int) -> list[T]:
        """k distinct options, in some order."""
        raise NotImplementedError

    def shuffle(self, items: list) -> None:
        """Puts the list in some order, in place."""
        raise NotImplementedError


class SeededDraws(Draws):
    """Choices from a seeded generator: a fixed, reproducible sample."""

    def __init__(self, rng: random.Random | int):
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def pick(self, options):
        return self.rng.choice(options)

    def number(self, low, high):
        return self.rng.randint(low, high)

    def chance(self, p):
        return self.rng.random() < p

    def sample(self, options, k):
        return self.rng.sample(options, k)

    def shuffle(self, items):
        self.rng.shuffle(items)


class HypothesisDraws(Draws):
    """Choices drawn by hypothesis (inside ``@st.composite``), each shrinking to the simplest."""

    def __init__(self, draw: Callable[[st.SearchStrategy], Any]):
        self.draw = draw

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def number(self, low, high):
        return self.draw(st.integers(low, high))

    def chance(self, p):
        if p <= 0 or p >= 1:
            return p >= 1
        # A percentile that shrinks to 0, i.e. to "no".
        return self.draw(st.integers(0, 99)) >= round(100 * (1 - p))

    def sample(self, options, k):
        if k == 0:
            return []  # sampled_from refuses an empty sequence
        return self.draw(st.lists(st.sampled_from(options), min_size=k, max_size=k, unique=True))

    def shuffle(self, items):
        items[:] = self.draw(st.permutations(items))


def build_state(
    d: Draws, next_roll: int | None = None, *, busy: float = 0.5, decision_makers: bool | None = None
) -> dict:
    """A valid state; positions are biased towards the interesting spaces near 13."""
    next_roll = next_roll or d.pick((1, 2, 3))
    goods = sorted(d.sample(GOODS, 3), key=GOODS.index)
    d.shuffle(goods)  # dict order must not matter
    players = d.pick((3, 4, 5))
    names = list(PLAYERS[:players])
    limit = 4 if players == 3 else 3
    held = {n: 0 for n in names}

    def someone():
        free = [n for n in names if held[n] < limit]
        if not free:
            return None
        n = d.pick(free)
        held[n] += 1
        return n

    boats = {}
    for g in goods:
        if next_roll == 1:
            pos = d.number(0, 5) if d.chance(0.7) else d.number(0, 13)
        else:
            # Anywhere, late on the track, or in Manila.
            pos = d.pick([d.number(0, 13), d.number(6, 13), "arrived"])
        crew = []
        for _ in range(SEATS[g]):
            if d.chance(busy):
                o = someone()
                if o:
                    crew.append(o)
        boats[g] = {"position": pos, "crew": crew}
    spots = {}
    order = list(SPOTS)
    d.shuffle(order)
    for s in order:
        chance = busy
        if s.startswith(("pilot", "pirate")) and decision_makers is not None:
            chance = 0.9 if decision_makers else 0.0
        if d.chance(chance):
            o = someone()
            if o:
                spots[s] = o
    if "pirate_2" in spots and "pirate_1" not in spots:
        spots["pirate_1"] = spots.pop("pirate_2")
    state = {
        "rules": {
            "thirteen_after_last_roll": d.pick(("port", "shipyard")),
            "pirate_variant": d.chance(0.5),
        },
        "next_roll": next_roll,
        "boats": boats,
        "spots": spots,
    }
    if players == 3:
        state["players"] = 3
    if d.chance(0.8):
        state["player"] = d.pick(names)
    return state


def add_wealth(d: Draws, state: dict, *, objective: str | None = None) -> dict:
    """The state with random shares, prices and budgets (the wealth keys)."""
    names = sorted(
        {o for b in state["boats"].values() for o in b["crew"]}
        | set(state["spots"].values())
        | ({state["player"]} if "player" in state else set())
    )
    names += [n for n in PLAYERS if n not in names][: d.number(0, 1)]  # a shareholder with no accomplice
    shares: dict = {}
    for good in GOODS:
        left = 5
        for name in d.sample(names, len(names)):
            n = d.number(0, min(left, 3)) if d.chance(0.5) else 0
            left -= n
            if n:
                shares.setdefault(name, {})[good] = n
    state["shares"] = shares
    state["prices"] = {g: d.pick((0, 5, 10, 20)) for g in GOODS if d.chance(0.7)}
    # Small budgets make blind passengers and unaffordable spots common.
    state["budget"] = {n: d.pick((0, 1, 2, 3, 4, 5, 30)) for n in names if d.chance(0.5)}
    state["objective"] = objective or d.pick(("wealth", "wealth", "income"))
    return state


def random_state(
    rng: random.Random,
    next_roll: int | None = None,
    *,
    busy: float = 0.5,
    decision_makers: bool | None = None,
) -> dict:
    """A state from a seeded generator (the fixed samples; benchmarks/compare.py too)."""
    return build_state(SeededDraws(rng), next_roll, busy=busy, decision_makers=decision_makers)


@st.composite
def states(draw, next_roll=None, busy=0.5, decision_makers=None):
    """Valid states, every choice drawn by hypothesis."""
    return build_state(HypothesisDraws(draw), next_roll, busy=busy, decision_makers=decision_makers)


@st.composite
def wealth_states(draw, next_roll=None, busy=0.5, decision_makers=None, objective=None):
    """Valid states with shares, prices and budgets, every choice drawn by hypothesis."""
    d = HypothesisDraws(draw)
    state = build_state(d, next_roll, busy=busy, decision_makers=decision_makers)
    return add_wealth(d, state, objective=objective)

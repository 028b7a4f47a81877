"""Random valid voyage states for tests: a plain generator and hypothesis strategies."""

from __future__ import annotations

import random

from hypothesis import strategies as st

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


def random_state(
    rng: random.Random,
    next_roll: int | None = None,
    *,
    busy: float = 0.5,
    decision_makers: bool | None = None,
) -> dict:
    """A valid state; positions are biased towards the interesting spaces near 13."""
    next_roll = next_roll or rng.choice((1, 2, 3))
    goods = sorted(rng.sample(GOODS, 3), key=GOODS.index)
    rng.shuffle(goods)  # dict order must not matter
    players = rng.choice((3, 4, 5))
    names = list(PLAYERS[:players])
    limit = 4 if players == 3 else 3
    held = {n: 0 for n in names}

    def someone():
        free = [n for n in names if held[n] < limit]
        if not free:
            return None
        n = rng.choice(free)
        held[n] += 1
        return n

    boats = {}
    for g in goods:
        if next_roll == 1:
            pos = rng.randint(0, 5) if rng.random() < 0.7 else rng.randint(0, 13)
        else:
            pos = rng.choice([rng.randint(0, 13), rng.randint(6, 13), "arrived"])
        crew = []
        for _ in range(SEATS[g]):
            if rng.random() < busy:
                o = someone()
                if o:
                    crew.append(o)
        boats[g] = {"position": pos, "crew": crew}
    spots = {}
    order = list(SPOTS)
    rng.shuffle(order)
    for s in order:
        chance = busy
        if s.startswith(("pilot", "pirate")) and decision_makers is not None:
            chance = 0.9 if decision_makers else 0.0
        if rng.random() < chance:
            o = someone()
            if o:
                spots[s] = o
    if "pirate_2" in spots and "pirate_1" not in spots:
        spots["pirate_1"] = spots.pop("pirate_2")
    state = {
        "rules": {
            "thirteen_after_last_roll": rng.choice(("port", "shipyard")),
            "pirate_variant": rng.random() < 0.5,
        },
        "next_roll": next_roll,
        "boats": boats,
        "spots": spots,
    }
    if players == 3:
        state["players"] = 3
    if rng.random() < 0.8:
        state["player"] = rng.choice(names)
    return state


def add_wealth(rng: random.Random, state: dict, *, objective: str | None = None) -> dict:
    """The state with random shares, prices and budgets (the wealth keys)."""
    names = sorted(
        {o for b in state["boats"].values() for o in b["crew"]}
        | set(state["spots"].values())
        | ({state["player"]} if "player" in state else set())
    )
    names += [n for n in PLAYERS if n not in names][: rng.randint(0, 1)]  # a shareholder with no accomplice
    shares: dict = {}
    for good in GOODS:
        left = 5
        for name in rng.sample(names, len(names)):
            n = rng.randint(0, min(left, 3)) if rng.random() < 0.5 else 0
            left -= n
            if n:
                shares.setdefault(name, {})[good] = n
    state["shares"] = shares
    state["prices"] = {g: rng.choice((0, 5, 10, 20)) for g in GOODS if rng.random() < 0.7}
    # Small budgets make blind passengers and unaffordable spots common.
    state["budget"] = {n: rng.choice((0, 1, 2, 3, 4, 5, 30)) for n in names if rng.random() < 0.5}
    state["objective"] = objective or rng.choice(("wealth", "wealth", "income"))
    return state


@st.composite
def states(draw, next_roll=None, busy=0.5):
    """A hypothesis strategy drawing states from the generator above."""
    seed = draw(st.integers(0, 2**32 - 1))
    roll = next_roll if next_roll is not None else draw(st.sampled_from((1, 2, 3)))
    return random_state(random.Random(seed), roll, busy=busy)

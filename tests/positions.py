"""Random valid positions (a voyage state with a moment) for the advice tests."""

from __future__ import annotations

import random

import manila
from states import PLAYERS, SEATS, add_wealth, random_state


def placement_position(
    rng: random.Random, next_roll: int, movers: int, *, wealth: bool, busy: float = 0.7
) -> dict | None:
    """A placement turn with exactly `movers` players still to choose, or None if the drawn
    state does not allow it."""
    state = random_state(rng, next_roll, busy=busy)
    if wealth:
        add_wealth(rng, state, objective="wealth")
        state["budget"] = {p: b for p, b in state["budget"].items() if rng.random() < 0.5}
    players = state.get("players") or rng.choice((4, 5))
    names = list(PLAYERS[:players]) if state.get("players") else list(PLAYERS[:4])
    order = rng.sample(names, len(names))
    to_move = rng.randrange(max(1, len(order) - movers + 1))
    declined = [p for p in order[:to_move] if rng.random() < 0.3]
    declined += [p for p in order[to_move + movers :] if rng.random() < 0.5]
    moment = {"kind": "placement", "order": order, "to_move": order[to_move]}
    if declined:
        moment["declined"] = declined
    if rng.random() < 0.3:
        moment["accomplices"] = {p: 1 for p in order[to_move:] if rng.random() < 0.5}
    position = dict(state, moment=moment)
    try:
        parsed = manila.Position.from_dict(position, strict=False)
    except manila.StateError:
        return None
    return position if len(parsed.movers) == movers else None


def decision_position(rng: random.Random, kind: str, *, wealth: bool) -> dict | None:
    """A pilot's or pirate's decision at next_roll 3."""
    state = random_state(rng, 3, busy=0.5, decision_makers=True)
    names = PLAYERS[:4]
    if kind.startswith("pilot"):
        state["spots"].setdefault(kind, rng.choice(names))
        if kind == "pilot_large":
            state["spots"].pop("pilot_small", None)
    else:
        goods = list(state["boats"])
        for g in rng.sample(goods, rng.randint(1, 2)):
            state["boats"][g]["position"] = 13
        state["spots"].setdefault("pirate_1", rng.choice(names))
        if rng.random() < 0.6:
            state["spots"].setdefault("pirate_2", rng.choice(names))
    if wealth:
        add_wealth(rng, state, objective="wealth")
    position = dict(state, moment={"kind": kind})
    if kind == "boarding" and "pirate_2" in state["spots"] and rng.random() < 0.3:
        position["moment"]["to_move"] = state["spots"]["pirate_2"]
    try:
        manila.Position.from_dict(position, strict=False)
    except manila.StateError:
        return None
    return position


def sample(seed: int, count: int, make) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < count:
        position = make(rng)
        if position is not None:
            out.append(position)
    return out


__all__ = ["SEATS", "decision_position", "placement_position", "sample"]

"""Random valid positions (a voyage state with a moment) for the advice tests: the fixed
samples the reference checks (``sample``) and a hypothesis strategy
(``placement_positions``), from the same builders (see states.py)."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

import manila
from helpers.states import PLAYERS, SEATS, Draws, HypothesisDraws, SeededDraws, add_wealth, build_state


def _on_board(state: dict, player: str) -> int:
    return sum(b["crew"].count(player) for b in state["boats"].values()) + sum(
        o == player for o in state["spots"].values()
    )


def placement_position(
    d: Draws, next_roll: int, movers: int | None = None, *, wealth: bool, busy: float = 0.7
) -> dict | None:
    """A placement turn, valid by construction, with exactly ``movers`` players still to
    choose (any number if None); None when the drawn board leaves too few with room."""
    state = build_state(d, next_roll, busy=busy)
    if wealth:
        add_wealth(d, state, objective="wealth")
        state["budget"] = {p: b for p, b in state["budget"].items() if d.chance(0.5)}
    # Three or four players in the round's order: a fifth (purple, in a 5-player state)
    # sits it out, which keeps the brute-force reference quick.
    three = state.get("players") == 3
    names = list(PLAYERS[: 3 if three else 4])
    order = list(names)
    d.shuffle(order)
    limit = 4 if three else 3
    room = {p: limit - _on_board(state, p) for p in order}
    need = 0 if movers is None else movers - 1  # movers after the one to move

    def able(players):
        return [p for p in players if room[p] > 0]

    turns = [i for i, p in enumerate(order) if room[p] > 0 and len(able(order[i + 1 :])) >= need]
    if not turns:
        return None
    turn = d.pick(turns)
    to_move, later = order[turn], order[turn + 1 :]
    if movers is None:
        moving = [p for p in able(later) if d.chance(0.6)]
    else:
        moving = d.sample(able(later), need)
    declined = [p for p in order[:turn] if d.chance(0.3)]
    hands = {}
    for p in later:
        if p in moving:
            continue
        # Not moving again this round: declined, or nothing left in hand.
        if room[p] > 0 and d.chance(0.5):
            declined.append(p)
        elif room[p] > 0:
            hands[p] = 0
    for p in [to_move, *moving]:
        if d.chance(0.3):
            hands[p] = d.number(1, room[p])
    moment: dict = {"kind": "placement", "order": order, "to_move": to_move}
    if declined:
        moment["declined"] = [p for p in order if p in declined]
    if hands:
        moment["accomplices"] = hands
    position = dict(state, moment=moment)
    parsed = manila.Position.from_dict(position, strict=False)  # the builder makes only valid ones
    assert parsed.movers == (to_move, *[p for p in later if p in moving]), position
    return position


def decision_position(d: Draws, kind: str, *, wealth: bool) -> dict | None:
    """A pilot's or pirate's decision at next_roll 3; None if the drawn state does not allow it."""
    state = build_state(d, 3, busy=0.5, decision_makers=True)
    names = PLAYERS[:4]
    if kind.startswith("pilot"):
        state["spots"].setdefault(kind, d.pick(names))
        if kind == "pilot_large":
            state["spots"].pop("pilot_small", None)
    else:
        goods = list(state["boats"])
        for g in d.sample(goods, d.number(1, 2)):
            state["boats"][g]["position"] = 13
        state["spots"].setdefault("pirate_1", d.pick(names))
        if d.chance(0.6):
            state["spots"].setdefault("pirate_2", d.pick(names))
    if wealth:
        add_wealth(d, state, objective="wealth")
    position = dict(state, moment={"kind": kind})
    if kind == "boarding" and "pirate_2" in state["spots"] and d.chance(0.3):
        position["moment"]["to_move"] = state["spots"]["pirate_2"]
    try:
        manila.Position.from_dict(position, strict=False)
    except manila.StateError:
        return None  # e.g. a player now holds too many accomplices
    return position


def sample(seed: int, count: int, make) -> list[dict]:
    """``count`` positions from ``make(draws)`` with a generator seeded ``seed``."""
    d = SeededDraws(seed)
    out: list[dict] = []
    while len(out) < count:
        position = make(d)
        if position is not None:
            out.append(position)
    return out


@st.composite
def placement_positions(draw, next_roll=None, movers=None, wealth=None, busy=0.6):
    """Valid placement turns, every choice drawn by hypothesis."""
    d = HypothesisDraws(draw)
    roll = next_roll or d.pick((1, 2, 3))
    position = placement_position(
        d, roll, movers, wealth=d.chance(0.5) if wealth is None else wealth, busy=busy
    )
    assume(position is not None)
    return position


__all__ = ["SEATS", "decision_position", "placement_position", "placement_positions", "sample"]

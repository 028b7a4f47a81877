"""The states of the wealth benchmark: each once as it is (income) and once with shares for
several players and prices (wealth), so that the two objectives are timed on one board.

Besides the states of bench_states.py, the heaviest cases of each roll among the voyage
states equivalent to the published seed calculator's own test cases (framist/manila, seed
004; seed_states.json), under their case ids.
"""

from __future__ import annotations

from .bench_states import STATES
from .seed_states import SEED_STATES

_HEAVIEST_SEED_CASES = (
    "c03_start_jade_seats_portA_captain",
    "c12_round1_pilots_crew_pirate",
    "c04_round2_mid",
    "c08_round2_arrived_boat_as13",
    "c06_round3_near13_both_pirates",
    "c07_round3_no_pirate",
)
SEED_CASES = {name: SEED_STATES[name] for name in _HEAVIEST_SEED_CASES}

# Every state of the benchmark, by next_roll (1, 2, 3) and name.
INCOME = dict(sorted({**STATES, **SEED_CASES}.items(), key=lambda kv: kv[1]["next_roll"]))


def _holders(state: dict) -> list[str]:
    """Three share holders: the state's own owners first (the point of view among them, since
    its spot values then move with the shares), then fresh names."""
    named = [state["player"]] if state.get("player") else []
    for boat in state["boats"].values():
        named += boat["crew"]
    named += list(state.get("spots", {}).values())
    seen = list(dict.fromkeys(named))
    return (seen + [n for n in ("red", "blue", "green") if n not in seen])[:3]


def with_wealth(state: dict) -> dict:
    """The same state valued in wealth: three players hold shares of the sailing goods (at
    most 5 of a good in all) and every sailing good has a price with a rise ahead."""
    goods = list(state["boats"])
    a, b, c = _holders(state)
    return {
        **state,
        "objective": "wealth",
        "shares": {
            a: {goods[0]: 2, goods[1]: 1},
            b: {goods[1]: 2, goods[2]: 1},
            c: {goods[2]: 2, goods[0]: 1},
        },
        "prices": {goods[0]: 5, goods[1]: 10, goods[2]: 0},
    }


WEALTH = {name: with_wealth(state) for name, state in INCOME.items()}

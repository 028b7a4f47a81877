"""The sampled random states on which the engine is checked exactly against the brute-force
reference (test_reference; benchmarks/seed_bench.py times the heaviest), and the engine's tables
in the reference's shape."""

import random
from functools import cache

import manila
from helpers.states import random_state

# (next_roll, how many states): a few hundred in all; roll 1 states are the slowest to check.
SAMPLES = [(3, 300), (2, 200), (1, 40)]


def sample(next_roll, count):
    rng = random.Random(1000 + next_roll)
    return [
        random_state(
            rng, next_roll, busy=rng.choice((0.2, 0.5, 0.9)), decision_makers=(True, False, None)[i % 3]
        )
        for i in range(count)
    ]


@cache
def sampled_cases() -> list[tuple[int, int, dict]]:
    """(next_roll, index, state) of every sampled state (a few seconds to make: made once, on
    first use)."""
    return [(roll, i, s) for roll, n in SAMPLES for i, s in enumerate(sample(roll, n))]


def engine_tables(state, strict=False):  # random positions may be hypothetical
    result = manila.evaluate(state, exact=True, strict=strict)
    return {
        "spots": result.spots,
        "boats": result.boats,
        "incomes": result.incomes,
        "payoffs": result.payoffs,
    }

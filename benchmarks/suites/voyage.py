"""asv benchmarks: the spot table at each roll, with and without decisions, and batches.

Run with ``asv run --python=same`` (the installed package) or ``asv run`` (builds a wheel).
"""

import manila
from manila import _core

from .advice_states import POSITIONS
from .bench_states import STATES
from .seed_states import SEED_STATES
from .wealth_states import INCOME as INCOME_STATES
from .wealth_states import WEALTH as WEALTH_STATES


def _prepared(name):
    state = manila.VoyageState.from_dict(STATES[name])
    return state.to_core(), state.point_of_view, state.max_accomplices


class SpotTable:
    """The full spot table (plus incomes and boat odds) of one prepared state."""

    params = [list(STATES), [1, 2]]
    param_names = ["state", "threads"]

    def setup(self, name, threads):
        self.voyage, self.owner, self.limit = _prepared(name)

    def time_spot_table(self, name, threads):
        _core.analyse(self.voyage, self.owner, self.limit, threads)


class Evaluate:
    """From a JSON-like dict to the evaluation JSON, the whole Python path."""

    params = [list(STATES)]
    param_names = ["state"]

    def time_evaluate_to_dict(self, name):
        manila.evaluate(STATES[name]).to_dict()

    def time_evaluate_exact_to_dict(self, name):
        manila.evaluate(STATES[name], exact=True).to_dict()

    def peakmem_evaluate(self, name):
        manila.evaluate(STATES[name])


class Overhead:
    """manila.evaluate(dict) end to end against the spot table alone, at the last roll, where
    Python's share is largest (issue 12: at most 2x; benchmarks/overhead.py prints the ratio)."""

    params = [[n for n, s in STATES.items() if s["next_roll"] == 3]]
    param_names = ["state"]

    def setup(self, name):
        self.state = STATES[name]
        self.voyage, self.owner, self.limit = _prepared(name)

    def time_spot_table(self, name):
        _core.analyse(self.voyage, self.owner, self.limit, 0)

    def time_evaluate_dict(self, name):
        manila.evaluate(self.state)

    def time_evaluate_dict_to_dict(self, name):
        manila.evaluate(self.state).to_dict()


class Batch:
    """Many states in one call, spread over threads with the GIL released."""

    params = [[1, 2]]
    param_names = ["threads"]

    def setup(self, threads):
        roll2 = [s for s in STATES.values() if s["next_roll"] >= 2]
        self.voyages = [manila.VoyageState.from_dict(s) for s in roll2] * 50
        self.cores = [s.to_core() for s in self.voyages]
        self.owners = [s.point_of_view for s in self.voyages]
        self.limits = [3] * len(self.cores)

    def time_batch_200(self, threads):
        _core.analyse_batch(self.cores, self.owners, self.limits, threads)

    def time_evaluate_many_200(self, threads):
        manila.evaluate_many(self.voyages, threads=threads)


class Objective:
    """Income against wealth on the same boards (wealth_states.py): the wealth
    state adds shares for three players and prices. Issue 9 asks for at most 1.3x."""

    params = [list(WEALTH_STATES), ["income", "wealth"]]
    param_names = ["state", "objective"]

    def setup(self, name, objective):
        self.state = (WEALTH_STATES if objective == "wealth" else INCOME_STATES)[name]
        prepared = manila.VoyageState.from_dict(self.state)
        self.voyage, self.owner = prepared.to_core(), prepared.point_of_view
        self.limit = prepared.max_accomplices

    def time_spot_table(self, name, objective):
        _core.analyse(self.voyage, self.owner, self.limit, 1)

    def time_evaluate(self, name, objective):
        manila.evaluate(self.state, threads=1)


class Advise:
    """The placement-round solver: four players to move from the start of a round."""

    params = [list(POSITIONS)]
    param_names = ["position"]
    timeout = 120

    def setup(self, name):
        self.position = manila.parse_position(POSITIONS[name])

    def time_advise_one_thread(self, name):
        manila.advise(self.position, threads=1)


class SeedCases:
    """The published seed calculator's own test cases, end to end on one thread (at least
    10x its recorded times, which benchmarks/seed_bench.py prints beside ours)."""

    params = [list(SEED_STATES)]
    param_names = ["case"]

    def setup(self, name):
        self.state = SEED_STATES[name]
        prepared = manila.VoyageState.from_dict(self.state)
        self.voyage, self.owner = prepared.to_core(), prepared.point_of_view
        self.limit = prepared.max_accomplices

    def time_evaluate(self, name):
        manila.evaluate(self.state, threads=1)

    def time_spot_table(self, name):
        _core.analyse(self.voyage, self.owner, self.limit, 1)

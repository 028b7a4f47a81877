"""asv benchmarks: the enumerator and exhaustive sweeps.

The acceptance case is ``SweepRoll3.time_sweep``: the spot table of every reachable
next_roll 3 position of every legal start (7408 distinct states) for one crew/pirate
pattern, which must take under 1 s on the 2-core machine; ``threads`` 1 vs 2 shows how it
scales. ``python benchmarks/sweep_compare.py`` prints the same numbers in one run.
"""

import concurrent.futures as cf
import multiprocessing

from manila import _core
from manila.sweeps.starts import rank_starts
from manila.sweeps.sweep import sweep

# One crew/pirate pattern: a crew member on each of the first two boats, a captain on the ship.
PATTERN = {"crews": (1, 1, 0), "pirates": 1}


class Enumerate:
    """The C++ enumerator alone."""

    def time_legal_starts(self):
        _core.legal_starts()

    def time_reachable_one_start_roll3(self):
        _core.reachable([0, 2, 3], [3, 2, 4], 3)

    def time_family_roll3_every_start(self):
        _core.enumerate_family(3)

    def time_family_all_positions(self):
        _core.enumerate_family(3, reachable=False)


class SweepRoll3:
    """Every reachable roll-3 position of every start, one pattern, C++ threads."""

    params = [[1, 2]]
    param_names = ["threads"]

    def time_sweep(self, threads):
        sweep(3, threads=threads, **PATTERN)

    def peakmem_sweep(self, threads):
        sweep(3, threads=threads, **PATTERN)

    def track_states(self, threads):
        return len(sweep(3, threads=threads, **PATTERN))

    track_states.unit = "states"


class SweepRoll2:
    """Every reachable roll-2 position of every start (3900 states), two pirates."""

    params = [[1, 2]]
    param_names = ["threads"]

    def time_sweep(self, threads):
        sweep(2, threads=threads, crews=(1, 1, 0), pirates=2)


class SweepExecutors:
    """The roll-3 sweep spread over a pool of two workers (one C++ thread each)."""

    params = [["thread", "process"]]
    param_names = ["executor"]

    def setup(self, kind):
        if kind == "thread":
            self.pool = cf.ThreadPoolExecutor(2)
        else:
            self.pool = cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
        sweep(1, executor=self.pool)  # start the workers before timing

    def teardown(self, kind):
        self.pool.shutdown()

    def time_sweep(self, kind):
        sweep(3, executor=self.pool, **PATTERN)


class Starts:
    """Ranking the 25 starts of three goods (a next_roll 1 sweep)."""

    def time_rank_cargo(self):
        rank_starts("ginseng,silk,jade")

    def time_rank_with_pirate(self):
        rank_starts("ginseng,silk,jade", "best", pirates=1)

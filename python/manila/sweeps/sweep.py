"""Exhaustive sweeps: the exact spot table of every state of a family, into numpy.

    >>> import manila
    >>> s = manila.sweep(next_roll=3, pirates=1)   # every reachable roll-3 position of every start
    >>> s.values.shape                             # states x spots: floats, NaN where not legal
    (7408, 15)
    >>> s.spots[:5]
    ('ginseng', 'nutmeg', 'silk', 'jade', 'port_a')

A family is chosen by the roll that comes next, the goods, whether positions must be
reachable from a legal start (and from which starts), and positions held fixed; every state
of the family shares one pattern of crews, occupied spots, point of view and rules. The
states are enumerated in C++ (manila.sweeps.enumerate.family), split into chunks of rows, and each
chunk is evaluated by the C++ engine with the GIL released. Pass any
``concurrent.futures.Executor`` to spread the chunks: a ``ThreadPoolExecutor`` uses every core
of this machine, a ``ProcessPoolExecutor`` too, and a Dask cluster several machines::

    from distributed import Client
    with Client("scheduler-address:8786") as client:       # or Client(LocalCluster(...))
        result = manila.sweep(next_roll=2, pirates=2, executor=client.get_executor())

(the workers need the same version of manila installed). Every executor gives the same
arrays, bit for bit: each row is an exact integer computation.

Results are exact: ``net`` holds integer numerators over ``denominator`` (6^(3 rolls left)),
``values`` the same as floats. ``frame`` (pandas) and ``save`` (.npz, .csv, .parquet) write
one row per state; ``read_frame`` reads a .csv or .parquet back with the frame's types.

Positions are stored as small integers everywhere: 0..13 for a space, 14 for a boat that
has arrived in Manila. In .npz, ``positions`` (int8, one column per sailing boat, in the
order of ``goods``); in the frame, .csv and .parquet, one column ``position_<good>`` per
good (int8; empty / NA when the good stays home). pandas and Parquet need the extra
``pip install 'manila-boardgame[sweep]'``.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import os
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

from .. import _core
from ..common.limits import check_threads
from ..common.progress import ProgressBar
from ..common.text import is_int
from ..common.version import install_hint
from ..common.vocab import GOODS, Space
from ..voyage.evaluation import OUTCOMES, TABLE_SPOTS
from .enumerate import family, good_triples, position_name
from .pattern import CorePattern, Pattern

if TYPE_CHECKING:
    import pandas as pd
Progress = Union[bool, Callable[[int, int], None]]
PROGRESS_DELAY = 0.5  # seconds of sweeping before a bar appears: short sweeps stay quiet


def _run_chunk(
    goods: np.ndarray,
    positions: np.ndarray,
    next_roll: int,
    pattern: CorePattern,
    owner: int,
    max_accomplices: int,
    threads: int,
) -> dict[str, np.ndarray]:
    """Evaluates one chunk of rows in C++ (the GIL released): what an executor runs."""
    crews, spots, num_owners, to_port, variant, wealth, prices, shares, budgets = pattern
    table = _core.analyse_rows(
        goods,
        positions,
        next_roll,
        [list(c) for c in crews],
        list(spots),
        num_owners,
        to_port,
        variant,
        owner,
        max_accomplices,
        threads,
        wealth=wealth,
        prices=list(prices),
        shares=[list(s) for s in shares],
        budgets=list(budgets),
    )
    # Views on the Table: they keep it alive here, and are pickled as plain arrays when the
    # chunk travels back from another process.
    return {
        "denominator": table.denominator,
        "incomes": table.incomes,
        "payoffs": table.payoffs,
        "boats": table.boats,
        "legal": table.legal,
        "cost": table.cost,
        "net": table.net,
    }


def sweep(
    next_roll: int = 1,
    *,
    goods: Any = None,
    start: Any = None,
    reachable: bool = True,
    fixed: Any = None,
    pattern: Optional[Pattern] = None,
    executor: Optional[cf.Executor] = None,
    chunk_size: Optional[int] = None,
    threads: Optional[int] = None,
    progress: Progress = False,
    **fields: Any,
) -> Sweep:
    """The exact spot table (and boat table and incomes) of every state of a family.

    Family: ``next_roll`` (1, 2, 3); ``goods`` (one triple of names, a list of triples, or
    None for all four); ``reachable`` (default: only positions some legal start reaches
    before ``next_roll``; False: every triple of 0..13 and arrived); ``start`` (a
    ``{good: space}`` start or a list: only what they reach; each row then has its exact
    probability); ``fixed`` (positions held fixed, ``{good: position}``).
    With the defaults, ``sweep()`` evaluates the 100 legal starts before roll 1.

    What every state shares: ``pattern`` (a manila.Pattern: crews, pirates, spots, player,
    players, rules and the wealth keys), or its fields one by one as keywords (``crews=``,
    ``pirates=``, ...), on top of ``pattern`` when both are given. Every row has ``payoffs``
    beside ``incomes``.

    Work: the rows are split into chunks of ``chunk_size`` and evaluated by ``executor``
    (any ``concurrent.futures.Executor``; None: here, in C++ threads). ``threads`` is the
    number of C++ threads per chunk (default: every core without an executor, 1 with one).
    ``progress``: True for a bar on standard error, or a callable ``f(done, total)``.
    """
    if threads is None:
        threads = 0 if executor is None else 1
    check_threads(threads)
    pattern = Pattern.of(pattern, **fields)
    fam = family(next_roll, goods=goods, start=start, reachable=reachable, fixed=fixed)
    present = sorted({tuple(row) for row in fam.goods.tolist()})
    triples = [tuple(GOODS[g] for g in t) for t in present] or good_triples(goods) or [GOODS[:3]]
    core, owner, limit, owners = pattern.core(next_roll, triples)

    n = fam.n
    if chunk_size is None:
        chunk_size = max(64, math.ceil(n / 64))
    elif not (is_int(chunk_size) and chunk_size > 0):
        raise ValueError(f"chunk_size: must be a positive integer, got {chunk_size!r}")
    bounds = [(a, min(a + chunk_size, n)) for a in range(0, n, chunk_size)]
    goods_rows, position_rows = np.asarray(fam.goods), np.asarray(fam.positions)

    arrays = {
        "denominator": np.zeros(n, np.int64),
        "incomes": np.zeros((n, len(owners)), np.int64),
        "payoffs": np.zeros((n, len(owners)), np.int64),
        "boats": np.zeros((n, 3, 3), np.int64),
        "legal": np.zeros((n, len(TABLE_SPOTS)), np.bool_),
        "cost": np.zeros((n, len(TABLE_SPOTS)), np.int32),
        "net": np.zeros((n, len(TABLE_SPOTS)), np.int64),
    }
    report: Optional[Callable[[int, int], None]]
    bar = ProgressBar(n, "state", "sweep", delay=PROGRESS_DELAY, keep=False) if progress is True else None
    report = (
        (lambda done, total: bar.update_to(done))
        if bar is not None
        else (progress if callable(progress) else None)
    )

    def store(a: int, b: int, chunk: Mapping[str, np.ndarray]) -> None:
        if (a, b) == (0, n):
            arrays.update(chunk)  # one chunk: keep the engine's arrays, no copy
            return
        for key, out in arrays.items():
            out[a:b] = chunk[key]

    def args(
        a: int, b: int
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], int, CorePattern, int, int, int]:
        return (goods_rows[a:b].copy(), position_rows[a:b].copy(), next_roll, core, owner, limit, threads)

    done = 0
    try:
        if executor is None:
            for a, b in bounds:
                store(a, b, _run_chunk(*args(a, b)))
                done += b - a
                if report:
                    report(done, n)
        else:
            futures = {executor.submit(_run_chunk, *args(a, b)): (a, b) for a, b in bounds}
            try:
                for future in cf.as_completed(futures):
                    a, b = futures[future]
                    store(a, b, future.result())
                    done += b - a
                    if report:
                        report(done, n)
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        if bar is not None:
            bar.close()
    return Sweep(fam, pattern, owners, arrays)


class Sweep:
    """The result of manila.sweep: one row per state, exact numerators and their floats.

    Coordinates: ``next_roll``, ``goods`` and ``positions`` (int8, shape (n, 3), boats in
    good order; good ids index ``manila.GOODS``, position 14 is "arrived").
    Values: ``spots`` names the 15 columns (the four cargo goods, then the 11 spots);
    ``legal`` (bool), ``cost`` (what is paid, -10 for insurance), ``net`` (expected_net
    numerators over ``denominator``), ``values`` (floats, NaN where not legal); ``boats``
    (numerators, shape (n, 3, 3): boat x port/shipyard/plundered); ``incomes`` (numerators,
    one column per name in ``owners``) and ``payoffs`` (the same plus each owner's share
    gains under the wealth objective; equal to ``incomes`` under the income objective).
    Reachable families also have their starts (``starts``) and every (start, row) path
    (``path_start``, ``path_row``, ``path_count`` over ``path_denominator``):
    ``probability`` is each row's exact probability when there is one start.
    """

    spots = TABLE_SPOTS

    def __init__(
        self, fam: _core.Family, pattern: Pattern, owners: Sequence[str], arrays: Mapping[str, np.ndarray]
    ):
        self.next_roll: int = fam.next_roll
        self.pattern = pattern
        self.owners: tuple[str, ...] = tuple(owners)
        self.goods: npt.NDArray[np.int8] = np.asarray(fam.goods)
        self.positions: npt.NDArray[np.int8] = np.asarray(fam.positions)
        self.denominator: npt.NDArray[np.int64] = arrays["denominator"]
        self.incomes: npt.NDArray[np.int64] = arrays["incomes"]
        self.payoffs: npt.NDArray[np.int64] = arrays["payoffs"]
        self.boats: npt.NDArray[np.int64] = arrays["boats"]
        self.legal: npt.NDArray[np.bool_] = arrays["legal"]
        self.cost: npt.NDArray[np.int32] = arrays["cost"]
        self.net: npt.NDArray[np.int64] = arrays["net"]
        self.start_goods: npt.NDArray[np.int8] = np.asarray(fam.start_goods)
        self.start_spaces: npt.NDArray[np.int8] = np.asarray(fam.start_spaces)
        self.path_start: npt.NDArray[np.int32] = np.asarray(fam.path_start)
        self.path_row: npt.NDArray[np.int32] = np.asarray(fam.path_row)
        self.path_count: npt.NDArray[np.int64] = np.asarray(fam.path_count)
        self.path_denominator: int = _core.reach_denominator(fam.next_roll)

    def __len__(self) -> int:
        return len(self.net)

    def __repr__(self) -> str:
        return f"<Sweep: {len(self)} states before roll {self.next_roll}, {len(self.start_goods)} starts>"

    @property
    def values(self) -> np.ndarray:
        """expected_net of every spot as floats (correctly rounded), NaN where not legal."""
        out = self.net / self.denominator[:, None]
        out[~self.legal] = np.nan
        return out

    @property
    def starts(self) -> list[dict[str, int]]:
        """The starts of a reachable family, as {good: space} dicts."""
        return [
            {GOODS[g]: int(s) for g, s in zip(gs, ss)}
            for gs, ss in zip(self.start_goods.tolist(), self.start_spaces.tolist())
        ]

    @property
    def probability(self) -> Optional[np.ndarray]:
        """Each row's probability from the family's only start (None unless there is one)."""
        if len(self.start_goods) != 1:
            return None
        out = np.zeros(len(self))
        out[self.path_row] = self.path_count / self.path_denominator
        return out

    def goods_names(self, row: int) -> tuple[str, ...]:
        return tuple(GOODS[g] for g in self.goods[row].tolist())

    def position_names(self, row: int) -> tuple[Space, ...]:
        return tuple(position_name(p) for p in self.positions[row].tolist())

    def state(self, row: int) -> dict[str, Any]:
        """The voyage-state JSON of one row, for manila.evaluate (with strict=False when the
        family is not reachable)."""
        return self.pattern.state(self.next_roll, self.goods_names(row), self.position_names(row))

    def value(self, row: int, spot: str, exact: bool = True) -> Union[Fraction, float, None]:
        """expected_net of one spot in one row (None when the spot is not legal there)."""
        k = TABLE_SPOTS.index(spot)
        if not self.legal[row, k]:
            return None
        num, den = int(self.net[row, k]), int(self.denominator[row])
        return Fraction(num, den) if exact else num / den

    def by_start(self, field: str = "net", exact: bool = False) -> np.ndarray:
        """Per start, the expectation over the rows it reaches of ``field`` ("net", "boats",
        "incomes" or "payoffs"): shape (starts, ...), floats (NaN for spots not legal) or
        Fractions.

        With ``fixed`` positions only the rows kept are summed: a partial expectation,
        weighted by the probability of reaching them."""
        if field not in ("net", "boats", "incomes", "payoffs"):
            raise ValueError(f'field: must be "net", "boats", "incomes" or "payoffs", got {field!r}')
        data = getattr(self, field)
        sums = np.zeros((len(self.start_goods),) + data.shape[1:], np.int64)
        weight = self.path_count.reshape((-1,) + (1,) * (data.ndim - 1))
        np.add.at(sums, self.path_start, weight * data[self.path_row])
        # Every row of a family has the same denominator (the same roll comes next).
        den = self.path_denominator * (int(self.denominator[0]) if len(self) else 1)
        if exact:
            out: np.ndarray = np.vectorize(lambda x: Fraction(int(x), den), otypes=[object])(sums)
        else:
            out = sums / den
        if field == "net":
            legal = np.zeros(sums.shape, np.bool_)
            legal[self.path_start] = self.legal[self.path_row]
            out[~legal] = None if exact else np.nan
        return out

    def columns(self, exact: bool = False) -> dict[str, tuple[np.ndarray, Optional[np.ndarray]]]:
        """Named columns, one row per state: {name: (values, mask of missing entries or None)}.

        ``position_<good>``: 0..13, or 14 once the boat has arrived in Manila;
        missing when the good stays home; int8, with a mask (pandas: ``Int8``). ``next_roll``,
        ``probability`` (one start only), ``net_<spot>`` (missing when not legal),
        ``boat_<good>_<outcome>``, ``income_<owner>``, ``payoff_<owner>``. With ``exact`` the values are integer
        numerators over the column ``denominator`` (and ``probability`` over
        ``probability_denominator``).
        """
        n = len(self)
        cols: dict[str, tuple[np.ndarray, Optional[np.ndarray]]] = {}
        where = np.full((n, len(GOODS)), -1, np.int64)
        for boat in range(3):
            where[np.arange(n), self.goods[:, boat]] = boat
        for g, good in enumerate(GOODS):
            pos = np.where(where[:, g] >= 0, self.positions[np.arange(n), np.maximum(where[:, g], 0)], 0)
            # Always with a mask, even with nothing missing: every position column then
            # has one type (nullable int8) in the frame and every file.
            cols[f"position_{good}"] = (pos.astype(np.int8), where[:, g] < 0)
        cols["next_roll"] = (np.full(n, self.next_roll, np.int8), None)
        if len(self.start_goods) == 1:
            counts = np.zeros(n, np.int64)
            counts[self.path_row] = self.path_count
            if exact:
                cols["probability"] = (counts, None)
                cols["probability_denominator"] = (np.full(n, self.path_denominator, np.int64), None)
            else:
                cols["probability"] = (counts / self.path_denominator, None)
        den = self.denominator[:, None]
        net = self.net if exact else self.net / den
        for k, spot in enumerate(TABLE_SPOTS):
            cols[f"net_{spot}"] = (net[:, k], ~self.legal[:, k])
        boats = self.boats if exact else self.boats / den[:, :, None]
        for g, good in enumerate(GOODS):
            b = np.maximum(where[:, g], 0)
            for o, outcome in enumerate(OUTCOMES):
                cols[f"boat_{good}_{outcome}"] = (boats[np.arange(n), b, o], where[:, g] < 0)
        incomes = self.incomes if exact else self.incomes / den
        for i, name in enumerate(self.owners):
            cols[f"income_{name}"] = (incomes[:, i], None)
        payoffs = self.payoffs if exact else self.payoffs / den
        for i, name in enumerate(self.owners):
            cols[f"payoff_{name}"] = (payoffs[:, i], None)
        if exact:
            cols["denominator"] = (self.denominator, None)
        return cols

    def to_frame(self, exact: bool = False) -> pd.DataFrame:
        """A pandas DataFrame of ``columns(exact)`` (missing entries as NA)."""
        pd = _pandas("Sweep.frame")

        data = {}
        for name, (values, mask) in self.columns(exact).items():
            if mask is None or (not mask.any() and not name.startswith("position_")):
                data[name] = values
            elif values.dtype.kind in "iu":
                data[name] = pd.arrays.IntegerArray(np.where(mask, 0, values).astype(values.dtype), mask)
            else:
                data[name] = np.where(mask, np.nan, values)
        return pd.DataFrame(data)

    @property
    def frame(self) -> pd.DataFrame:
        """The float DataFrame (needs pandas: the ``sweep`` extra)."""
        return self.to_frame()

    def save(self, path: Union[str, os.PathLike[str]], exact: bool = False) -> str:
        """Writes the sweep to ``path``: .npz (every array), .csv or .parquet (one row per
        state, the columns of ``columns``). Returns the format written."""
        suffix = os.path.splitext(os.fspath(path))[1].lower()
        if suffix == ".npz":
            np.savez_compressed(
                path,
                next_roll=np.int8(self.next_roll),
                goods=self.goods,
                positions=self.positions,
                spots=np.array(TABLE_SPOTS),
                good_names=np.array(GOODS),
                owners=np.array(self.owners, dtype=str),
                denominator=self.denominator,
                net=self.net,
                legal=self.legal,
                cost=self.cost,
                values=self.values,
                boats=self.boats,
                incomes=self.incomes,
                payoffs=self.payoffs,
                start_goods=self.start_goods,
                start_spaces=self.start_spaces,
                path_start=self.path_start,
                path_row=self.path_row,
                path_count=self.path_count,
                path_denominator=np.int64(self.path_denominator),
            )
            return "npz"
        if suffix == ".csv":
            self._write_csv(path, exact)
            return "csv"
        if suffix == ".parquet":
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise RuntimeError(f"writing Parquet needs pyarrow: {SWEEP_EXTRA}") from None
            table = pa.table(
                {name: pa.array(values, mask=mask) for name, (values, mask) in self.columns(exact).items()}
            )
            pq.write_table(table, path)
            return "parquet"
        raise ValueError(
            f"{os.fspath(path)}: unknown format {suffix or '(none)'!r}; use .npz, .csv or .parquet"
        )

    def _write_csv(self, path: Union[str, os.PathLike[str]], exact: bool) -> None:
        import csv

        cols = self.columns(exact)
        text = {}
        for name, (values, mask) in cols.items():
            cells = [repr(v) if isinstance(v, float) else str(v) for v in values.tolist()]
            if mask is not None:
                cells = ["" if m else c for c, m in zip(cells, mask.tolist())]
            text[name] = cells
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(cols)
            writer.writerows(zip(*text.values()))


SWEEP_EXTRA = install_hint("sweep")  # pandas, pyarrow and tqdm


def _pandas(what: str) -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError(f"{what} needs pandas: {SWEEP_EXTRA}") from None
    return pandas


def read_frame(path: Union[str, os.PathLike[str]]) -> pd.DataFrame:
    """A sweep saved as .csv or .parquet, read back into pandas with the types of
    ``Sweep.frame``: every ``position_<good>`` column nullable int8 (``Int8``)."""
    pd = _pandas("read_frame")
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix == ".csv":
        frame = pd.read_csv(path)
    elif suffix == ".parquet":
        frame = pd.read_parquet(path)
    else:
        raise ValueError(f"{os.fspath(path)}: read_frame reads .csv or .parquet; np.load reads .npz")
    for name in frame.columns:
        if str(name).startswith("position_"):
            frame[name] = frame[name].astype("Int8")
    return frame

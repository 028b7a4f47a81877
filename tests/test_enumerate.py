"""The enumerator against independent counting in plain Python.

Starts are listed with itertools; reachable positions and their probabilities come from
rolling every die of every boat (a few starts) and from a per-boat recursion over
fractions (every start); families are rebuilt as sets; reachability is checked against
the state validator's own closed form (manila.validate with strict=True).
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import manila
from manila import _core
from manila.sweeps.enumerate import enumerate_starts, family, reachable

GOODS = ("ginseng", "nutmeg", "silk", "jade")
ARRIVED = "arrived"


def plain_starts():
    return [
        dict(zip(goods, spaces))
        for goods in itertools.combinations(GOODS, 3)
        for spaces in itertools.product(range(6), repeat=3)
        if sum(spaces) == 9
    ]


def move(position, die):
    """One die for one boat: a boat passing 13 reaches Manila and stays there."""
    if position == ARRIVED:
        return ARRIVED
    return ARRIVED if position + die > 13 else position + die


def brute_force(spaces, next_roll):
    """Every dice sequence of every boat, rolled out one by one."""
    rolls = next_roll - 1
    counts = Counter()
    for dice in itertools.product(range(1, 7), repeat=3 * rolls):
        positions = list(spaces)
        for r in range(rolls):
            positions = [move(p, dice[3 * r + b]) for b, p in enumerate(positions)]
        counts[tuple(positions)] += 1
    return {k: Fraction(c, 6 ** (3 * rolls)) for k, c in counts.items()}


def per_boat(space, rolls):
    """One boat's distribution after `rolls` dice, by recursion over fractions."""
    if rolls == 0:
        return {space: Fraction(1)}
    out = {}
    for p, q in per_boat(space, rolls - 1).items():
        for die in range(1, 7):
            to = move(p, die)
            out[to] = out.get(to, 0) + q / 6
    return out


def by_recursion(spaces, next_roll):
    dists = [per_boat(s, next_roll - 1) for s in spaces]
    return {
        (a, b, c): pa * pb * pc
        for a, pa in dists[0].items()
        for b, pb in dists[1].items()
        for c, pc in dists[2].items()
    }


def code(p):
    return 14 if p == ARRIVED else p


# -- starts ----------------------------------------------------------------------------------


def test_there_are_100_starts_in_the_documented_order():
    starts = enumerate_starts()
    assert len(starts) == 100
    assert starts == plain_starts()
    assert all(list(s) == [g for g in GOODS if g in s] for s in starts)  # canonical good order


def test_core_starts_are_numpy_arrays_without_copies():
    goods, spaces = _core.legal_starts()
    assert goods.shape == spaces.shape == (100, 3)
    assert goods.dtype == spaces.dtype == np.int8
    assert not goods.flags.owndata and goods.base is not None  # owned by a capsule
    assert (spaces.sum(axis=1) == 9).all() and spaces.min() == 0 and spaces.max() == 5


# -- reachable positions -------------------------------------------------------------------


@pytest.mark.parametrize(
    "start",
    [
        {"ginseng": 5, "nutmeg": 4, "silk": 0},
        {"ginseng": 3, "silk": 2, "jade": 4},
        {"nutmeg": 5, "silk": 1, "jade": 3},
        {"ginseng": 0, "nutmeg": 4, "jade": 5},
    ],
)
@pytest.mark.parametrize("next_roll", [1, 2, 3])
def test_reachable_equals_rolling_every_die(start, next_roll):
    assert reachable(start, next_roll) == brute_force(list(start.values()), next_roll)


def test_reachable_equals_the_recursion_for_every_start_and_sums_to_one():
    for start in plain_starts():
        for next_roll in (1, 2, 3):
            odds = reachable(start, next_roll)
            assert odds == by_recursion(list(start.values()), next_roll)
            assert sum(odds.values()) == 1  # exactly: Fractions
            assert all(p > 0 for p in odds.values())


def test_reachable_floats_and_order():
    start = {"ginseng": 5, "nutmeg": 4, "silk": 0}
    exact, floats = reachable(start, 3), reachable(start, 3, exact=False)
    assert list(exact) == list(floats)
    assert all(floats[k] == float(v) for k, v in exact.items())
    keys = [tuple(code(p) for p in k) for k in exact]
    assert keys == sorted(keys)  # lexicographic, arrived last
    assert reachable(start, 1) == {(5, 4, 0): 1}


@given(st.sampled_from(plain_starts()), st.sampled_from([1, 2, 3]))
def test_reachable_positions_respect_the_dice_bounds(start, next_roll):
    rolls = next_roll - 1
    for key in reachable(start, next_roll):
        for space, p in zip(start.values(), key):
            if p == ARRIVED:
                assert space + 6 * rolls > 13
            else:
                assert space + rolls <= p <= space + 6 * rolls


@pytest.mark.parametrize(
    "start, path",
    [
        ({"ginseng": 3, "silk": 2}, "start"),
        ({"ginseng": 3, "silk": 2, "tea": 4}, "start"),
        ({"ginseng": 3, "silk": 2, "jade": 5}, "start"),
        ({"ginseng": 6, "silk": 2, "jade": 1}, "start.ginseng"),
        ({"ginseng": 3.0, "silk": 2, "jade": 4}, "start.ginseng"),
        ([3, 2, 4], "start"),
    ],
)
def test_bad_starts_are_refused_with_their_path(start, path):
    with pytest.raises(manila.StateError) as info:
        reachable(start, 2)
    assert info.value.problems[0].path == path


def test_bad_next_roll_is_refused():
    with pytest.raises(manila.StateError, match="next_roll"):
        reachable({"ginseng": 3, "silk": 2, "jade": 4}, 4)


def test_core_checks_its_arguments():
    with pytest.raises(ValueError, match=r"start\.spaces: the start spaces must sum to 9"):
        _core.reachable([0, 1, 2], [3, 3, 4], 2)
    with pytest.raises(ValueError, match=r"start\.goods"):
        _core.reachable([2, 1, 0], [3, 3, 3], 2)
    with pytest.raises(ValueError, match="next_roll"):
        _core.reachable([0, 1, 2], [3, 3, 3], 0)
    with pytest.raises(ValueError, match="goods: three numbers"):
        _core.reachable([0, 1], [3, 3, 3], 2)
    with pytest.raises(ValueError, match="rolls"):
        _core.boat_counts(3, 4)
    assert _core.boat_counts(8, 1) == [0] * 9 + [1] * 5 + [1]
    assert sum(_core.boat_counts(0, 3)) == 216


# -- families --------------------------------------------------------------------------------


def plain_family(next_roll, triples=None):
    """Rows and paths of a reachable family, rebuilt from the recursion."""
    triples = triples or list(itertools.combinations(GOODS, 3))
    rows, paths = set(), []
    for start in plain_starts():
        if tuple(start) not in triples:
            continue
        for key, p in by_recursion(list(start.values()), next_roll).items():
            row = (tuple(GOODS.index(g) for g in start), tuple(code(x) for x in key))
            rows.add(row)
            paths.append((tuple(start.items()), row, p))
    return sorted(rows), paths


@pytest.mark.parametrize("next_roll", [1, 2, 3])
def test_reachable_family_equals_the_union_of_every_start(next_roll):
    f = family(next_roll)
    rows, paths = plain_family(next_roll)
    got = [(tuple(g), tuple(p)) for g, p in zip(f.goods.tolist(), f.positions.tolist())]
    assert got == rows  # same rows, each once, in (goods, positions) order
    assert f.num_starts == 100 and len(f.path_row) == len(paths)
    starts = [
        tuple((GOODS[g], s) for g, s in zip(gs, ss))
        for gs, ss in zip(f.start_goods.tolist(), f.start_spaces.tolist())
    ]
    den = _core.reach_denominator(next_roll)
    got_paths = sorted(
        (starts[s], got[r], Fraction(c, den))
        for s, r, c in zip(f.path_start.tolist(), f.path_row.tolist(), f.path_count.tolist())
    )
    assert got_paths == sorted(paths)
    # The paths of each start are a probability distribution: exactly 1 in all.
    assert (np.bincount(f.path_start, weights=f.path_count) == den).all()


def test_family_counts():
    assert family(1).n == 100
    assert family(2).n == 3900  # no boat can arrive after one roll: 216 per start, all distinct
    assert family(3).n == 7408
    assert family(2, reachable=False).n == 4 * 15**3
    assert family(3, goods="ginseng,silk,jade", reachable=False, fixed={"silk": 7}).n == 15**2
    start = {"ginseng": 3, "silk": 2, "jade": 4}
    one = family(3, start=start)
    assert one.n == len(reachable(start, 3)) and one.num_starts == 1
    two = family(2, goods=[("ginseng", "nutmeg", "silk"), ("nutmeg", "silk", "jade")])
    assert two.num_starts == 50 and set(map(tuple, two.goods.tolist())) == {(0, 1, 2), (1, 2, 3)}


def test_fixed_positions_keep_only_matching_rows_and_paths():
    f = family(3, goods=["ginseng", "silk", "jade"], fixed={"jade": "arrived"})
    assert (f.positions[:, 2] == 14).all()
    rows, _ = plain_family(3, [("ginseng", "silk", "jade")])
    assert f.n == sum(1 for _, p in rows if p[2] == 14)
    by_boat = family(3, goods=["ginseng", "silk", "jade"], fixed=(None, None, "arrived"))
    assert (by_boat.positions == f.positions).all()


def test_reachable_rows_are_exactly_the_states_the_validator_accepts():
    goods = ("ginseng", "silk", "jade")
    for next_roll in (2, 3):
        rows = {tuple(p) for p in family(next_roll, goods=goods).positions.tolist()}
        for p in itertools.product(range(15), repeat=3):
            state = {
                "next_roll": next_roll,
                "boats": {g: {"position": ARRIVED if x == 14 else x, "crew": []} for g, x in zip(goods, p)},
            }
            assert (manila.validate(state, strict=True) == []) == (p in rows), (next_roll, p)


def test_family_arrays_are_views_of_the_engine_memory():
    f = _core.enumerate_family(3)
    assert not f.goods.flags.owndata and f.goods.base is f
    assert f.positions.shape == (f.n, 3) and f.path_count.dtype == np.int64


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: _core.enumerate_family(4), "next_roll"),
        (lambda: _core.enumerate_family(2, [[0, 1, 1]]), r"goods\[0\]"),
        (lambda: _core.enumerate_family(2, [[0, 1, 2], [0, 1, 2]]), r"goods\[1\]: the same goods"),
        (lambda: _core.enumerate_family(2, [], False, [([0, 1, 2], [3, 3, 3])]), "starts: only"),
        (
            lambda: _core.enumerate_family(2, [[0, 1, 3]], True, [([0, 1, 2], [3, 3, 3])]),
            r"starts\[0\]\.goods",
        ),
        (lambda: _core.enumerate_family(2, [], True, [([0, 1, 2], [3, 3, 4])]), r"starts\[0\]\.spaces"),
        (lambda: _core.enumerate_family(2, fixed=[15, -1, -1]), r"fixed\[0\]"),
        (lambda: _core.shape_pattern([1, 5, 0], 0), r"crew_sizes\[1\]"),
        (lambda: _core.shape_pattern([1, 1, 0], 3), "pirates"),
    ],
)
def test_core_family_errors_name_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_python_family_errors():
    with pytest.raises(manila.StateError, match="fixed"):
        family(3, fixed={"silk": 7})  # by good needs one good triple
    with pytest.raises(manila.StateError, match="start"):
        family(3, start={"ginseng": 3, "silk": 2, "jade": 4}, reachable=False)
    with pytest.raises(manila.StateError, match="unknown good"):
        family(3, goods="ginseng,tea,jade")
    with pytest.raises(manila.StateError, match=r"fixed\.silk"):
        family(3, goods="ginseng,silk,jade", fixed={"silk": 14})


def test_shape_pattern_gives_every_accomplice_its_own_owner():
    crews, spots, owners = _core.shape_pattern([2, 0, 1], 2)
    assert crews == [[0, 1], [], [2]]
    assert spots[6:8] == [3, 4] and owners == 5


# The wealth keys as Python passes them to the engine: prices by good, shares and budgets by
# owner id (-1: no limit).
WEALTH = dict(
    wealth=True, prices=[0, 5, 10, 20], shares=[[0, 0, 1, 2], [0, 0, 3, 0], [1, 0, 0, 0]], budgets=[4, -1, -1]
)


def test_analyse_rows_carries_the_wealth_keys_into_every_voyage():
    f = family(3, goods="ginseng,silk,jade", start={"ginseng": 2, "silk": 3, "jade": 4})
    crews, spots = [[0], [], [1]], [-1] * 6 + [2] + [-1] * 4  # pirate_1 is owner 2
    table = _core.analyse_rows(f.goods, f.positions, 3, crews, spots, 3, owner=0, threads=1, **WEALTH)
    voyages = [
        _core.Voyage(next_roll=3, goods=g, positions=p, crews=crews, spots=spots, num_owners=3, **WEALTH)
        for g, p in zip(f.goods.tolist(), f.positions.tolist())
    ]
    want = _core.analyse_batch(voyages, [0] * len(voyages), [3] * len(voyages), 1)
    for key in ("payoffs", "incomes", "net", "legal", "cost", "boats"):
        assert np.array_equal(getattr(table, key), getattr(want, key)), key
    assert not np.array_equal(table.payoffs, table.incomes)
    plain = _core.analyse_rows(f.goods, f.positions, 3, crews, spots, 3, owner=0, threads=1)
    assert np.array_equal(plain.payoffs, plain.incomes)


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(prices=[0, 5, 10]), "prices: one price per good"),
        (dict(prices=[0, 5, 10, 30]), r"rows\[0\]\.prices\.jade"),
        (dict(shares=[[0, 0, 6, 0]]), r"shares\[0\]: counts must be 0\.\.5"),
        (dict(shares=[[0, 0, 0, 0]] * 3 + [[0, 1, 0, 0]]), r"rows\[0\]\.shares: owner id 3"),
        (dict(shares=[[0, 0, 0]]), r"shares\[0\]: one count per good"),
    ],
)
def test_analyse_rows_wealth_errors_name_the_argument(change, message):
    f = family(1, goods="ginseng,silk,jade")
    with pytest.raises(ValueError, match=message):
        _core.analyse_rows(f.goods, f.positions, 1, [[0], [], [1]], [-1] * 11, 3, **dict(WEALTH, **change))

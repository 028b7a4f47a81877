"""Sweeps: rows equal manila.evaluate, executors agree bit for bit, files and commands work."""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import multiprocessing
import random
import sys
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import manila
from helpers.dask_cluster import local_cluster
from manila.cli.plot import add_plot_arguments, run_plot
from manila.cli.sweep import add_starts_arguments, add_sweep_arguments, run_starts, run_sweep
from manila.plot import heatmap_grid
from manila.sweeps import sweep as _sweep
from manila.sweeps.enumerate import enumerate_starts, reachable
from manila.sweeps.starts import rank_starts
from manila.sweeps.sweep import Sweep, read_frame, sweep

ARRAYS = (
    "goods",
    "positions",
    "denominator",
    "net",
    "legal",
    "cost",
    "boats",
    "incomes",
    "payoffs",
    "start_goods",
    "start_spaces",
    "path_start",
    "path_row",
    "path_count",
)

# Families of every kind, each with a different pattern; (keywords, strict) where strict
# is what manila.evaluate needs to accept the rows.
FAMILIES = {
    "starts": (dict(next_roll=1), True),
    "starts-with-pirate": (
        dict(next_roll=1, goods="ginseng,silk,jade", crews=(1, 0, 2), pirates=1, player="crew1"),
        True,
    ),
    "roll2-two-pirates": (dict(next_roll=2, pirates=2, crews=(1, 1, 0)), True),
    "roll2-one-start-pilot": (
        dict(
            next_roll=2,
            start={"ginseng": 1, "silk": 3, "jade": 5},
            spots={"pilot_large": "blue"},
            crews={"silk": ["red"]},
            player="red",
        ),
        True,
    ),
    "roll2-three-players": (
        dict(
            next_roll=2,
            start={"ginseng": 1, "silk": 3, "jade": 5},
            players=3,
            player="red",
            crews={"silk": ["red", "red"]},
            spots={"port_a": "red"},
        ),
        True,
    ),
    "roll3-pilots": (
        dict(
            next_roll=3,
            goods="nutmeg,silk,jade",
            crews={"jade": ["red", "blue", "red"]},
            spots={"pilot_large": "blue", "pilot_small": "red", "insurance": "green"},
            player="red",
        ),
        True,
    ),
    "roll3-all-positions-variant": (
        dict(
            next_roll=3,
            goods="ginseng,nutmeg,jade",
            reachable=False,
            fixed={"nutmeg": 13},
            pirates=2,
            crews=(0, 2, 3),
            rules={"thirteen_after_last_roll": "shipyard", "pirate_variant": True},
        ),
        False,
    ),
    # The wealth keys: shares change the pilots' and the captain's choices, and so every
    # number; the budget (below every free spot) makes the player a blind passenger.
    "roll2-wealth-pirates": (
        dict(
            next_roll=2,
            goods="ginseng,silk,jade",
            pirates=1,
            crews={"silk": ["red"], "jade": ["blue"]},
            spots={"pilot_large": "red"},
            player="red",
            objective="wealth",
            shares={"red": {"jade": 2, "silk": 1}, "pirate1": {"jade": 3}, "green": {"ginseng": 1}},
            prices={"jade": 10, "silk": 5},
        ),
        True,
    ),
    "roll3-wealth-budget": (
        dict(
            next_roll=3,
            goods="nutmeg,silk,jade",
            pirates=2,
            crews={"nutmeg": ["red"]},
            spots={"pilot_small": "blue"},
            player="red",
            objective="wealth",
            shares={"blue": {"silk": 2}},
            prices={"silk": 20},
            budget={"red": 1},
        ),
        True,
    ),
}


def row_as_evaluation(s: Sweep, row: int) -> dict:
    den = int(s.denominator[row])
    return {
        "spots": {
            name: {"cost": int(s.cost[row, k]), "expected_net": Fraction(int(s.net[row, k]), den)}
            for k, name in enumerate(s.spots)
            if s.legal[row, k]
        },
        "boats": {
            g: {
                o: Fraction(int(s.boats[row, b, k]), den)
                for k, o in enumerate(("port", "shipyard", "plundered"))
            }
            for b, g in enumerate(s.goods_names(row))
        },
        "incomes": {o: Fraction(int(s.incomes[row, i]), den) for i, o in enumerate(s.owners)},
        "payoffs": {o: Fraction(int(s.payoffs[row, i]), den) for i, o in enumerate(s.owners)},
    }


@pytest.mark.parametrize("name", list(FAMILIES))
def test_random_rows_equal_evaluate(name):
    kwargs, strict = FAMILIES[name]
    s = sweep(**kwargs)
    assert len(s) > 0
    rng = random.Random(name)
    for row in rng.sample(range(len(s)), min(6, len(s))):
        ev = manila.evaluate(s.state(row), exact=True, strict=strict)
        want = {"spots": ev.spots, "boats": ev.boats, "incomes": ev.incomes, "payoffs": ev.payoffs}
        assert row_as_evaluation(s, row) == want, (name, row, s.state(row))
        # The floats are the same fractions, rounded once.
        legal = s.legal[row]
        assert s.values[row, legal].tolist() == [float(v["expected_net"]) for v in ev.spots.values()]
        assert np.isnan(s.values[row, ~legal]).all()


def test_wealth_families_are_not_their_income_families():
    """The wealth keys reach the engine: the same family under the income objective differs
    (in the payoffs, and in the values of the spots the shares make worth more or less)."""
    for name in ("roll2-wealth-pirates", "roll3-wealth-budget"):
        kwargs, _ = FAMILIES[name]
        wealth = sweep(**kwargs)
        income = sweep(**dict(kwargs, objective="income"))
        assert np.array_equal(income.payoffs, income.incomes)
        assert not np.array_equal(wealth.payoffs, wealth.incomes), name
        assert not np.array_equal(wealth.net, income.net), name
        assert wealth.state(0)["objective"] == "wealth" and "objective" not in sweep(2).state(0)
    # A budget of 1 is below every free spot of the player: a blind passenger, charged 1 for
    # every spot but insurance, which is not offered (docs/numbers.md, budgets).
    blind = sweep(**FAMILIES["roll3-wealth-budget"][0])
    insurance = blind.spots.index("insurance")
    assert not blind.legal[:, insurance].any()
    assert set(blind.cost[blind.legal].tolist()) == {1}


def test_the_default_sweep_is_every_start():
    s = sweep()
    assert len(s) == 100 and s.next_roll == 1
    starts = [dict(zip(s.goods_names(r), map(int, s.positions[r]))) for r in range(len(s))]
    assert starts == enumerate_starts() == s.starts
    assert (s.path_row == np.arange(100)).all() and (s.path_count == 1).all()


# -- executors -------------------------------------------------------------------------------

EXECUTOR_FAMILY = dict(next_roll=2, goods="ginseng,silk,jade", pirates=1, crews=(1, 0, 1))


@pytest.fixture(scope="module")
def reference():
    return sweep(**EXECUTOR_FAMILY)


def assert_same(a: Sweep, b: Sweep):
    for key in ARRAYS:
        x, y = getattr(a, key), getattr(b, key)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), key
    assert a.owners == b.owners


def test_thread_pool_gives_identical_arrays(reference):
    with cf.ThreadPoolExecutor(2) as pool:
        assert_same(sweep(**EXECUTOR_FAMILY, executor=pool, chunk_size=97), reference)


def test_process_pool_gives_identical_arrays(reference):
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert_same(sweep(**EXECUTOR_FAMILY, executor=pool, chunk_size=200), reference)


def test_dask_local_cluster_gives_identical_arrays(reference):
    distributed = pytest.importorskip("distributed")  # in the test extras: runs by default
    with local_cluster() as cluster, distributed.Client(cluster) as client:
        assert_same(sweep(**EXECUTOR_FAMILY, executor=client.get_executor(), chunk_size=150), reference)


def test_chunking_and_threads_do_not_change_anything(reference):
    assert_same(sweep(**EXECUTOR_FAMILY, chunk_size=1, threads=1), reference)
    assert_same(sweep(**EXECUTOR_FAMILY, chunk_size=10_000, threads=2), reference)


def test_progress_reports_every_row(capsys, monkeypatch):
    seen = []
    s = sweep(**EXECUTOR_FAMILY, chunk_size=300, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(300, len(s)), (600, len(s)), (900, len(s)), (len(s), len(s))]
    sweep(next_roll=1, progress=True)
    assert capsys.readouterr().err == ""  # a short sweep shows no bar
    monkeypatch.setattr(_sweep, "PROGRESS_DELAY", 0)
    sweep(next_roll=1, progress=True)
    assert "sweep" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "tqdm", None)  # without tqdm: a plain line
    sweep(next_roll=1, progress=True)
    assert capsys.readouterr().err.endswith("sweep: 100/100 states (100%)\n")


class FailingExecutor(cf.Executor):
    """Runs chunks at once, except that the second one fails."""

    def __init__(self):
        self.submitted = []

    def submit(self, fn, /, *args, **kwargs):
        future = cf.Future()
        self.submitted.append(future)
        if len(self.submitted) == 2:
            future.set_exception(RuntimeError("worker lost"))
        else:
            future.set_result(fn(*args, **kwargs))
        return future


def test_a_failing_chunk_raises():
    pool = FailingExecutor()
    with pytest.raises(RuntimeError, match="worker lost"):
        sweep(**EXECUTOR_FAMILY, executor=pool, chunk_size=100)
    assert len(pool.submitted) == 10


def test_an_invalid_pattern_is_refused_before_any_work():
    pool = FailingExecutor()
    with pytest.raises(manila.StateError, match="accomplices"):
        sweep(next_roll=3, crews=[["red"] * 2, ["red"], ["red"]], player="red", executor=pool)
    assert pool.submitted == []


# -- results ---------------------------------------------------------------------------------


def test_by_start_is_the_expectation_over_the_dice():
    start = {"ginseng": 2, "nutmeg": 3, "jade": 4}
    s = sweep(3, start=start, pirates=1)
    odds = reachable(start, 3)
    assert s.probability.sum() == pytest.approx(1.0)
    rows = {s.position_names(r): r for r in range(len(s))}
    assert set(rows) == set(odds)
    expected = [
        sum(p * s.value(rows[k], spot) for k, p in odds.items()) if s.legal[0, j] else None
        for j, spot in enumerate(s.spots)
    ]
    assert s.by_start("net", exact=True)[0].tolist() == expected
    incomes = s.by_start("incomes", exact=True)[0].tolist()
    assert incomes == [
        sum(p * Fraction(int(s.incomes[rows[k], 0]), int(s.denominator[0])) for k, p in odds.items())
    ]
    # The same start inside the sweep of every start gives the same expectations.
    every = sweep(3, pirates=1)
    k = every.starts.index(start)
    assert every.by_start("net", exact=True)[k].tolist() == expected
    assert np.array_equal(every.by_start("boats")[k], s.by_start("boats")[0])


def test_frame_columns_and_values():
    s = sweep(
        3,
        goods="ginseng,silk,jade",
        crews={"silk": ["red"]},
        pirates=1,
        player="red",
        objective="wealth",
        shares={"red": {"silk": 2}, "pirate1": {"jade": 1}},
    )
    df = s.frame
    assert len(df) == len(s)
    assert df["position_nutmeg"].isna().all() and str(df["position_silk"].dtype) == "Int8"
    np.testing.assert_array_equal(df[[f"net_{x}" for x in s.spots]].to_numpy(), s.values)
    assert (df["position_silk"] == s.positions[:, 1]).all()
    assert list(df.filter(like="income_").columns) == ["income_red", "income_pirate1"]
    assert list(df.filter(like="payoff_").columns) == ["payoff_red", "payoff_pirate1"]
    np.testing.assert_array_equal(df["payoff_red"].to_numpy(), s.payoffs[:, 0] / 216)
    # Each share of silk at price 0 gains 5 when silk ends in Manila.
    assert (df["payoff_red"] >= df["income_red"]).all() and (df["payoff_red"] > df["income_red"]).any()
    exact = s.to_frame(exact=True)
    assert (exact["net_silk"] == s.net[:, 2]).all() and (exact["denominator"] == 216).all()
    assert exact["net_nutmeg"].isna().all() and str(exact["net_nutmeg"].dtype) == "Int64"
    assert (exact["payoff_pirate1"] == s.payoffs[:, 1]).all()


def test_save_and_read_back(tmp_path):
    s = sweep(
        2,
        start={"ginseng": 3, "silk": 2, "jade": 4},
        crews=(1, 0, 0),
        objective="wealth",
        shares={"crew1": {"ginseng": 2}},
        prices={"ginseng": 5},
    )
    assert not np.array_equal(s.payoffs, s.incomes)
    assert s.save(tmp_path / "s.npz") == "npz"
    z = np.load(tmp_path / "s.npz")
    for key in ARRAYS:
        assert np.array_equal(z[key], getattr(s, key)), key
    assert list(z["spots"]) == list(s.spots) and int(z["path_denominator"]) == 216
    s.save(tmp_path / "s.csv")
    csv = pd.read_csv(tmp_path / "s.csv")
    np.testing.assert_array_equal(csv["net_port_a"].to_numpy(), s.values[:, 4])
    assert csv["probability"].sum() == pytest.approx(1.0) and csv["position_nutmeg"].isna().all()
    np.testing.assert_array_equal(csv["payoff_crew1"].to_numpy(), s.payoffs[:, 0] / s.denominator)
    s.save(tmp_path / "s.parquet", exact=True)
    pq = pd.read_parquet(tmp_path / "s.parquet")
    assert (pq["net_insurance"] == s.net[:, -1]).all() and (pq["probability_denominator"] == 216).all()
    assert (pq["payoff_crew1"] == s.payoffs[:, 0]).all()
    with pytest.raises(ValueError, match="unknown format"):
        s.save(tmp_path / "s.txt")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(crews={"silk": ["red"]}), "crews by good need exactly one good triple"),
        (dict(goods="ginseng,silk,jade", crews={"nutmeg": ["red"]}), "crews.nutmeg"),
        (dict(crews=(1, 2)), "three crews"),
        (dict(crews=(1, ["red"], 0)), "crew sizes or three lists"),
        (dict(pirates=1, spots={"pirate_1": "x"}), "spots.pirate_1"),
        (dict(pirates=3), "pirates"),
        (dict(spots={"pirate_2": "x"}), "pirate_2"),
        (dict(goods="ginseng,nutmeg,silk", crews=(0, 0, 4)), "seats"),
        (dict(chunk_size=0), "chunk_size"),
        # The wealth keys are checked by the state's parser, under the state's field names.
        (dict(objective="welth"), 'objective: must be "income" or "wealth"'),
        (dict(shares={"red": {"tea": 1}}), "shares.red.tea: unknown good"),
        (dict(shares={"red": {"jade": 4}, "blue": {"jade": 2}}), "6 shares of jade"),
        (dict(prices={"jade": 30}), "prices.jade: a good at 30 has ended the game"),
        (dict(budget={"red": -1}), "budget.red"),
    ],
)
def test_bad_sweeps_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sweep(3, **kwargs)


# -- the pattern -----------------------------------------------------------------------------


def test_a_pattern_is_what_its_keywords_are():
    fields = dict(crews=(1, 0, 1), pirates=1, spots={"pilot_small": "blue"}, player="crew1")
    pattern = manila.Pattern(**fields)
    by_keywords = sweep(3, goods="ginseng,silk,jade", **fields)
    by_pattern = sweep(3, goods="ginseng,silk,jade", pattern=pattern)
    assert by_keywords.pattern == by_pattern.pattern == pattern
    assert np.array_equal(by_keywords.net, by_pattern.net)
    # Keywords go on top of a pattern.
    on_top = sweep(3, goods="ginseng,silk,jade", pattern=manila.Pattern(crews=(1, 0, 1)), pirates=1)
    assert on_top.pattern == manila.Pattern(crews=(1, 0, 1), pirates=1)
    assert not np.array_equal(on_top.net, by_pattern.net)  # no blue pilot, another point of view
    assert rank_starts("ginseng,silk,jade", pattern=pattern) == rank_starts("ginseng,silk,jade", **fields)
    grids = [
        heatmap_grid("port_a", "silk", "jade", goods="ginseng,silk,jade", at={"ginseng": 8}, **how)
        for how in (dict(pattern=pattern), fields)
    ]
    assert np.array_equal(*grids, equal_nan=True)


def test_a_misspelt_pattern_keyword_is_named():
    with pytest.raises(TypeError, match=r"'pirate' \(did you mean \"pirates\"\?\)"):
        sweep(3, pirate=1)
    with pytest.raises(TypeError, match="'colour'"):
        rank_starts("ginseng,silk,jade", colour="red")
    with pytest.raises(TypeError, match=r"expected a manila\.Pattern"):
        sweep(3, pattern={"pirates": 1})
    with pytest.raises(manila.StateError, match="pirates"):
        manila.Pattern(pirates=3)


# -- ranking starts --------------------------------------------------------------------------

# docs/numbers.md, known values: from space s with three rolls left and nothing else on the board,
# a boat passes 13, or ends on 13 (and goes to port), out of 216.
PASSES = [35, 56, 81, 108, 135, 160]
ON_13 = [21, 25, 27, 27, 25, 21]
PORT = [Fraction(p + t, 216) for p, t in zip(PASSES, ON_13)]


def test_cargo_ranking_matches_the_known_odds():
    ranking = rank_starts("ginseng,silk,jade")
    assert len(ranking) == 25
    for e in ranking:
        g, s, j = e["start"]["ginseng"], e["start"]["silk"], e["start"]["jade"]
        assert e["port"] == {"ginseng": PORT[g], "silk": PORT[s], "jade": PORT[j]}
        assert e["score"] == 18 * PORT[g] + 30 * PORT[s] + 36 * PORT[j]
    scores = [e["score"] for e in ranking]
    assert scores == sorted(scores, reverse=True)
    assert ranking[0]["start"] == {"ginseng": 0, "silk": 4, "jade": 5}
    assert [e["score"] for e in rank_starts("ginseng,silk,jade", "arrive:silk")][:2] == [PORT[5]] * 2


def test_payoff_ranking_adds_the_share_price_rise():
    wealth = dict(objective="wealth", shares={"red": {"silk": 2, "nutmeg": 5}}, prices={"silk": 10})
    ranking = rank_starts(["ginseng", "silk", "jade"], crews={"jade": ["red"]}, player="red", **wealth)
    for e in ranking:
        s, j = e["start"]["silk"], e["start"]["jade"]
        assert e["score"] == 36 * PORT[j] + 2 * 10 * PORT[s]  # nutmeg does not sail
    incomes = rank_starts(
        ["ginseng", "silk", "jade"], "income", crews={"jade": ["red"]}, player="red", **wealth
    )
    assert all(e["score"] == 36 * PORT[e["start"]["jade"]] for e in incomes)  # no share gains
    with pytest.raises(ValueError, match="--player"):
        rank_starts("ginseng,silk,jade", "income")
    with pytest.raises(ValueError, match="--player"):
        rank_starts("ginseng,silk,jade", "payoff")
    with pytest.raises(ValueError, match=r"shares are now given per player.*\{player: \{good: count\}\}"):
        rank_starts("ginseng,silk,jade", player="red", shares={"silk": 1})
    with pytest.raises(ValueError, match="unknown criterion"):
        rank_starts("ginseng,silk,jade", "luck")
    with pytest.raises(ValueError, match="does not sail"):
        rank_starts("ginseng,silk,jade", "cargo:nutmeg")


def test_payoff_ranking_with_pirates_is_the_evaluators_payoff():
    """A plundered boat the captain sends to Manila raises its price too: the ranking's
    payoff is manila.evaluate's, with pirates and a budget as well."""
    pattern = dict(
        crews={"jade": ["red"]},
        pirates=1,
        spots={"pilot_small": "blue"},
        player="red",
        objective="wealth",
        shares={"red": {"jade": 1, "silk": 2}, "pirate1": {"silk": 3}},
        prices={"silk": 10, "jade": 5},
        budget={"red": 3},
    )
    ranking = rank_starts("ginseng,silk,jade", **pattern)
    assert len(ranking) == 25
    for e in ranking[:3] + ranking[-2:]:
        state = {
            "next_roll": 1,
            "boats": {g: {"position": p, "crew": pattern["crews"].get(g, [])} for g, p in e["start"].items()},
            "spots": {"pirate_1": "pirate1", **pattern["spots"]},
            "player": "red",
            **{k: pattern[k] for k in ("objective", "shares", "prices", "budget")},
        }
        ev = manila.evaluate(state, exact=True)
        assert e["score"] == ev.payoffs["red"] != ev.incomes["red"]
        best = ev.best_spot()
        assert e["best_spot"] == (None if best is None else (best, ev.spots[best]["expected_net"]))


# -- command line ----------------------------------------------------------------------------


def parser():
    """The commands as cli.py wires them."""
    p = argparse.ArgumentParser(prog="python -m manila")
    sub = p.add_subparsers(dest="command", required=True)
    for name, add, run in (
        ("sweep", add_sweep_arguments, run_sweep),
        ("starts", add_starts_arguments, run_starts),
        ("plot", add_plot_arguments, run_plot),
    ):
        add(sub.add_parser(name))
        sub.choices[name].set_defaults(run=run)
    return p


def run(*argv):
    args = parser().parse_args(argv)
    return args.run(args)


@pytest.mark.parametrize("suffix", ["npz", "csv", "parquet"])
def test_sweep_command_writes_every_format(tmp_path, suffix, capsys):
    out = tmp_path / f"out.{suffix}"
    assert (
        run(
            "sweep",
            "--next-roll",
            "3",
            "--goods",
            "ginseng,silk,jade",
            "--crew",
            "silk=red,blue",
            "--pirates",
            "1",
            "--occupy",
            "pilot_small=blue",
            "--player",
            "red",
            "--executor",
            "thread",
            "--workers",
            "2",
            "--progress",
            "-o",
            str(out),
        )
        == 0
    )
    want = sweep(
        3,
        goods="ginseng,silk,jade",
        crews={"silk": ["red", "blue"]},
        pirates=1,
        spots={"pilot_small": "blue"},
        player="red",
    )
    if suffix == "npz":
        assert np.array_equal(np.load(out)["net"], want.net)
    else:
        got = pd.read_csv(out) if suffix == "csv" else pd.read_parquet(out)
        np.testing.assert_array_equal(got["net_insurance"].to_numpy(), want.values[:, -1])
    err = capsys.readouterr().err
    assert f"{len(want)} states before roll 3" in err


def test_sweep_command_options(tmp_path):
    out = tmp_path / "o.npz"
    assert (
        run(
            "sweep",
            "--next-roll",
            "2",
            "--start",
            "ginseng=3,silk=2,jade=4",
            "--crew-sizes",
            "1,0,1",
            "--thirteen",
            "shipyard",
            "--executor",
            "process",
            "--workers",
            "2",
            "-o",
            str(out),
        )
        == 0
    )
    z = np.load(out)
    assert z["net"].shape == (216, 15) and list(z["owners"]) == ["crew1", "crew2"]
    assert (
        run(
            "sweep",
            "--next-roll",
            "3",
            "--goods",
            "ginseng,silk,jade",
            "--all-positions",
            "--fix",
            "silk=arrived",
            "--exact",
            "-o",
            str(tmp_path / "o.csv"),
        )
        == 0
    )
    csv = pd.read_csv(tmp_path / "o.csv")
    assert len(csv) == 225 and (csv["position_silk"] == 14).all() and (csv["denominator"] == 216).all()
    with pytest.raises(ValueError, match="--output"):
        run("sweep", "-o", str(tmp_path / "o.xlsx"))
    with pytest.raises(ValueError, match="--crew"):
        run("sweep", "--crew", "silk", "-o", str(out))
    with pytest.raises(ValueError, match="--workers"):
        run("sweep", "--workers", "2", "-o", str(out))


def test_sweep_command_wealth_options(tmp_path):
    out = tmp_path / "w.npz"
    assert (
        run(
            "sweep",
            "--next-roll",
            "2",
            "--start",
            "ginseng=3,silk=2,jade=4",
            "--crew",
            "jade=red",
            "--pirates",
            "1",
            "--player",
            "red",
            "--objective",
            "wealth",
            "--shares",
            "red:jade2,silk1",
            "--shares",
            "pirate1:jade3",
            "--prices",
            "jade10,silk5",
            "--budget",
            "red:9",
            "-o",
            str(out),
        )
        == 0
    )
    want = sweep(
        2,
        start={"ginseng": 3, "silk": 2, "jade": 4},
        crews={"jade": ["red"]},
        pirates=1,
        player="red",
        objective="wealth",
        shares={"red": {"jade": 2, "silk": 1}, "pirate1": {"jade": 3}},
        prices={"jade": 10, "silk": 5},
        budget={"red": 9},
    )
    z = np.load(out)
    assert np.array_equal(z["payoffs"], want.payoffs) and np.array_equal(z["net"], want.net)
    assert not np.array_equal(want.payoffs, want.incomes)
    for argv, message in [
        (["--shares", "red:jade"], r"--shares: expected a good and its share count such as jade2"),
        (["--shares", "red:jade2", "--shares", "red:silk1"], "--shares: shares of red is given twice"),
        (["--shares", "red:jade6"], "shares: 6 shares of jade"),
        (["--prices", "jade15"], "prices.jade: must be a price on the track"),
        (["--budget", "red"], "--budget: expected owner:7"),
        (
            ["--shares", "jade=2"],
            r"--shares: 'jade=2' is the old GOOD=N form; the syntax is now "
            r"PLAYER:GOODN",
        ),
        (
            ["--prices", "jade=10"],
            r"--prices: 'jade=10' is the old GOOD=N form; the syntax is now "
            r"GOODPRICE",
        ),
    ]:
        with pytest.raises(ValueError, match=message):
            run("sweep", "--next-roll", "3", *argv, "-o", str(out))


def test_starts_command_values_in_wealth(capsys):
    assert (
        run(
            "starts",
            "--goods",
            "ginseng,silk,jade",
            "--crew",
            "jade=red",
            "--player",
            "red",
            "--pirates",
            "1",
            "--objective",
            "wealth",
            "--shares",
            "red:silk2",
            "--prices",
            "silk10",
            "--json",
            "--exact",
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["criterion"] == "payoff"
    want = rank_starts(
        "ginseng,silk,jade",
        crews={"jade": ["red"]},
        player="red",
        pirates=1,
        objective="wealth",
        shares={"red": {"silk": 2}},
        prices={"silk": 10},
    )
    assert [(e["start"], e["score"]) for e in data["starts"]] == [
        (e["start"], f"{e['score'].numerator}/{e['score'].denominator}") for e in want
    ]
    with pytest.raises(ValueError, match="the syntax is now PLAYER:GOODN"):
        run("starts", "--goods", "ginseng,silk,jade", "--player", "red", "--shares", "silk=2,jade=1")


def test_starts_command(capsys):
    assert run("starts", "--goods", "ginseng,silk,jade", "--top", "3") == 0
    text = capsys.readouterr().out
    assert text.startswith("Starts ranked by cargo: expected income of the three cargoes")
    assert len(text.splitlines()) == 5  # criterion, header, 3 starts
    assert run("starts", "--goods", "jade,silk,ginseng", "--by", "spot:insurance", "--json", "--exact") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["criterion"] == "spot:insurance" and len(data["starts"]) == 25
    best = data["starts"][0]
    state = {"next_roll": 1, "boats": {g: {"position": p, "crew": []} for g, p in best["start"].items()}}
    assert manila.evaluate(state, exact=True).to_dict()["spots"]["insurance"]["expected_net"] == best["score"]


def test_plot_command_writes_pngs(tmp_path, capsys):
    heat, bars = tmp_path / "heat.png", tmp_path / "bars.png"
    assert (
        run(
            "plot",
            "heatmap",
            "--goods",
            "ginseng,silk,jade",
            "--spot",
            "insurance",
            "--x",
            "silk",
            "--y",
            "jade",
            "--at",
            "ginseng=8",
            "--pirates",
            "1",
            "-o",
            str(heat),
        )
        == 0
    )
    assert (
        run("plot", "starts", "--goods", "ginseng,nutmeg,silk", "--by", "arrive:nutmeg", "-o", str(bars)) == 0
    )
    for path in (heat, bars):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_heatmap_grid_holds_the_spot_values():
    grid = heatmap_grid("port_a", "silk", "jade", goods="ginseng,silk,jade", at={"ginseng": 8}, pirates=1)
    assert grid.shape == (15, 15) and np.isfinite(grid).all()
    for silk, jade in [(0, 0), (12, 14), (13, 3)]:
        state = {
            "next_roll": 3,
            "spots": {"pirate_1": "pirate1"},
            "boats": {
                "ginseng": {"position": 8, "crew": []},
                "silk": {"position": "arrived" if silk == 14 else silk, "crew": []},
                "jade": {"position": "arrived" if jade == 14 else jade, "crew": []},
            },
        }
        want = manila.evaluate(state, strict=False).spots["port_a"]["expected_net"]
        assert grid[jade, silk] == want
    reach = heatmap_grid(
        "pirate_2", "silk", "jade", goods="ginseng,silk,jade", at={"ginseng": 8}, reachable=True
    )
    assert np.isnan(reach).all()  # pirate_2 is not legal while pirate_1 is free
    with pytest.raises(ValueError, match="third boat"):
        heatmap_grid("port_a", "silk", "jade", goods="ginseng,silk,jade", at={"silk": 8})


def test_positions_have_one_type_in_every_format(tmp_path):
    # Silk held in Manila: "arrived" is stored as 14; nutmeg stays home: missing.
    s = sweep(3, goods="ginseng,silk,jade", fixed={"silk": "arrived"})
    assert s.positions.dtype == np.int8 and (s.positions[:, 1] == 14).all()
    frames = {"frame": s.frame}
    for suffix in ("csv", "parquet"):
        s.save(tmp_path / f"s.{suffix}")
        frames[suffix] = read_frame(tmp_path / f"s.{suffix}")
    s.save(tmp_path / "s.npz")
    assert np.load(tmp_path / "s.npz")["positions"].dtype == np.int8
    names = [f"position_{g}" for g in manila.GOODS]
    for where, frame in frames.items():
        assert {str(frame[n].dtype) for n in names} == {"Int8"}, where
        assert (frame["position_silk"] == 14).all() and frame["position_nutmeg"].isna().all(), where
        pd.testing.assert_frame_equal(frame[names], frames["frame"][names])


def test_frame_without_pandas_names_the_extra(monkeypatch):
    s = sweep(1, goods="ginseng,silk,jade")
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if it were not installed
    with pytest.raises(ImportError, match=r"pip install 'manila-boardgame\[sweep\]'"):
        s.frame
    with pytest.raises(ImportError, match=r"pip install 'manila-boardgame\[sweep\]'"):
        read_frame("s.csv")

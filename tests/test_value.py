"""The learned value (docs/value.md): the network at voyage boundaries, the exact walk over a
voyage's last dice up to them (against a brute force that rolls every die), the training
(seeded, reproducible), the shipped model's accuracy on held-out games, and the value from
Python, the command line and the analysis."""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import manila
from helpers.dask_cluster import local_cluster
from helpers.serving import call, serving
from manila import _core
from manila.analysis import value_train as vt
from manila.analysis.value import model_info
from manila.cli import main
from manila.game import Game, State
from manila.game.view import PlayerView

ROOT = Path(__file__).resolve().parent.parent
POLICY = "greedy-wealth"


def play_to(players: int, seed: int, stop: Any, bot: str = "solver") -> State | None:
    """A seeded game of ``bot`` seats up to the first state where ``stop(state)`` holds."""
    state = Game(players, seed=seed).new_initial_state()
    while not state.is_terminal():
        if stop(state):
            return state
        if state.is_chance_node():
            state.apply_chance()
        else:
            state.apply_action(_core.bot_action(state._s, bot))
    return None


def brute_force(state: State, model: Any) -> list[Fraction | float]:
    """Every player's expected equity up to the next boundary: every die rolled one by one
    with its exact probability, the decisions by the policy, no grouping, no memo."""
    if state.is_terminal():
        w = state.returns()
        return [x - (sum(w) - x) / (len(w) - 1) for x in w]
    if _core.at_boundary(state._s):
        return list(_core.boundary_value(state._s, model)["equity"])
    if state.is_chance_node():
        total: list[Any] = [0] * len(state.returns())
        for action, p in state.chance_outcomes(exact=True):
            child = state.clone()
            child.apply_action(action)
            for k, v in enumerate(brute_force(child, model)):
                total[k] += float(p) * v
        return total
    child = state.clone()
    child.apply_action(_core.bot_action(state._s, POLICY))
    return brute_force(child, model)


def is_small_pilot(s: State) -> bool:
    return s.phase == "small_pilot"


def is_last_roll(s: State) -> bool:
    return (
        s.is_chance_node()
        and s.phase == "roll"
        and _core.value_is_exact(s._s)
        and s.to_dict()["next_roll"] == 3
    )


def is_plunder(s: State) -> bool:
    return s.phase == "plunder"


@pytest.mark.parametrize(
    ("players", "seed", "moment"),
    [
        (4, 1, is_small_pilot),
        (3, 2, is_small_pilot),
        (5, 3, is_last_roll),
        (4, 5, is_last_roll),
        (4, 11, is_plunder),
    ],
)
def test_the_walk_to_the_boundary_equals_rolling_every_die(players: int, seed: int, moment: Any) -> None:
    model = _core.shipped_value_model()
    for s in range(seed, seed + 40):
        state = play_to(players, s, moment)
        if state is not None:
            break
    assert state is not None, "no such moment in 40 seeded games"
    assert _core.value_is_exact(state._s)
    walked = _core.position_value(state._s, model, POLICY, 2, 0)
    assert walked["exact"]
    reference = brute_force(state, model)
    assert walked["equity"] == pytest.approx(reference, abs=1e-6)
    assert sum(walked["win"]) == pytest.approx(1.0)


def test_a_boundary_is_the_network_and_sums_hold() -> None:
    state = play_to(4, 3, lambda s: _core.at_boundary(s._s) and s.voyage_number == 2)
    assert state is not None
    v = manila.value(state)
    assert v.exact and v.rollouts == 0
    assert sum(v.win.values()) == pytest.approx(1.0)
    assert sum(v.equity.values()) == pytest.approx(0.0, abs=1e-9)
    raw = _core.boundary_value(state._s, _core.shipped_value_model())
    assert list(v.wealth.values()) == pytest.approx(raw["wealth"])


def test_a_finished_game_is_its_result() -> None:
    state = Game(3, seed=4).new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            state.sample_chance() if state.is_chance_node() else _core.bot_action(state._s, "greedy")
        )
    v = manila.value(state)
    w = state.returns()
    assert v.exact and list(v.wealth.values()) == w
    top = [p for p, x in enumerate(w) if x == max(w)]
    assert [v.win[f"p{p}"] for p in range(3)] == [1 / len(top) if p in top else 0.0 for p in range(3)]


def test_placements_left_give_seeded_rollouts_with_intervals() -> None:
    state = play_to(4, 6, lambda s: s.phase == "placement")
    assert state is not None and not _core.value_is_exact(state._s)
    a = manila.value(state, rollouts=60, seed=3)
    b = manila.value(state, rollouts=60, seed=3)
    c = manila.value(state, rollouts=60, seed=4)
    assert not a.exact and a.rollouts == 60
    assert a == b and a.equity != c.equity
    assert all(x > 0 for x in a.equity_ci95.values())
    assert sum(a.equity.values()) == pytest.approx(0.0, abs=1e-9)


def test_a_view_averages_over_every_deal_it_hides() -> None:
    state = play_to(4, 7, lambda s: _core.at_boundary(s._s) and s.voyage_number == 2)
    assert state is not None
    model = _core.shipped_value_model()
    full = manila.value(state)
    view = manila.value(PlayerView(state, 1))
    table = manila.value(state.observation(1))
    assert full.exact and view.exact and table.exact
    assert view == table
    # Every deal of the others' face-down shares, weighted by its chance.
    deals = _core.hidden_deals(state._s, 1)
    total = sum(w for _, w in deals)
    expected = sum(np.array(_core.boundary_value(s, model)["equity"]) * w for s, w in deals) / total
    assert list(view.equity.values()) == pytest.approx(expected.tolist(), abs=1e-9)
    assert view.equity != full.equity  # the truth is one of the deals, not their average


def test_a_view_with_placements_left_deals_anew_in_every_rollout() -> None:
    state = play_to(4, 7, lambda s: s.phase == "placement" and s.voyage_number == 2)
    assert state is not None
    a = manila.value(PlayerView(state, 1), rollouts=50, seed=1)
    b = manila.value(state.observation(1), rollouts=50, seed=1)
    assert not a.exact and a.rollouts == 50 and a.equity_ci95["p0"] > 0
    assert a == b


def test_bad_arguments_name_the_field() -> None:
    state = play_to(4, 1, lambda s: s.phase == "placement")
    with pytest.raises(ValueError, match="rollouts"):
        manila.value(state, rollouts=0)
    with pytest.raises(ValueError, match="policy"):
        manila.value(state, policy="expert")
    with pytest.raises(ValueError, match="table_or_state"):
        manila.value(42)  # type: ignore[arg-type]
    # A view where no player decides (a roll, the end): the moment named; the State answers.
    rolling = play_to(4, 1, lambda s: s.is_chance_node() and s.phase == "roll")
    assert rolling is not None and manila.value(rolling).players
    with pytest.raises(ValueError, match="a player's view at a roll of the dice is at no decision"):
        manila.value(PlayerView(rolling, 0))
    while not rolling.is_terminal():
        rolling.apply_action(
            rolling.sample_chance() if rolling.is_chance_node() else _core.bot_action(rolling._s, "greedy")
        )
    with pytest.raises(ValueError, match="a player's view at the game's end is at no decision"):
        manila.value(PlayerView(rolling, 2))


def test_the_engine_computes_the_network_trained_in_numpy() -> None:
    rng = np.random.default_rng(0)
    sizes = [_core.VALUE_FEATURES, 7, 5, 2]
    layers = vt._init(sizes, rng)
    mean = rng.normal(size=sizes[0])
    scale = rng.uniform(0.5, 2, size=sizes[0])
    model = _core.ValueModel(
        sizes=sizes,
        mean=mean.tolist(),
        scale=scale.tolist(),
        weights=[w.ravel().tolist() for w, _ in layers],
        biases=[b.tolist() for _, b in layers],
    )
    features = rng.normal(size=(6, 5, sizes[0])).astype(np.float32)
    wealth = rng.uniform(0, 100, size=(6, 5))
    got = _core.value_predict(model, features, wealth, 4)
    out, _ = vt._forward(layers, ((features[:, :4] - mean) / scale).reshape(24, -1))
    out = out.reshape(6, 4, 2)
    assert got["wealth"][:, :4] == pytest.approx(wealth[:, :4] + 10 * out[..., 0], rel=1e-4, abs=1e-3)
    soft = np.exp(out[..., 1] - out[..., 1].max(axis=1, keepdims=True))
    assert got["win"][:, :4] == pytest.approx(soft / soft.sum(axis=1, keepdims=True), rel=1e-4, abs=1e-6)
    with pytest.raises(ValueError, match="first layer"):
        _core.ValueModel(sizes=[3, 2], mean=[0] * 3, scale=[1] * 3, weights=[[0] * 6], biases=[[0, 0]])


def test_the_features_read_the_board() -> None:
    state = play_to(4, 8, lambda s: _core.at_boundary(s._s) and s.voyage_number == 3)
    assert state is not None
    f = _core.value_features(state._s)
    d = state.to_dict()
    for p in range(4):
        assert f[p, 13] == pytest.approx(d["players"][p]["cash"] / 10)
        assert f[p, 19] == pytest.approx(state.wealth(p) / 10)
        assert f[p, 1] == 1 and f[p, 3] == 2  # four players, two voyages played
    assert f[:, 21].sum() == pytest.approx(0.0, abs=1e-5)  # wealth minus the others' mean
    assert f[:, 25:].sum(axis=0).tolist() == [1, 1, 1, 1, 0]  # each place in the auction once


def replay_training_policy(
    players: int, seed: int, bots: list[str], weights: list[float]
) -> tuple[list[list[int]], list[int]]:
    """A game of the training policy played here, one action at a time: every seat's bot
    drawn anew (53 random bits against the cumulated weights) where the game starts and at
    every boundary. The wealth at each boundary reached, and at the end."""
    state = Game(players, seed=seed).new_initial_state()
    seats = [_core.Rng(_core.derive_seed(seed, p + 1)) for p in range(players)]
    draws = _core.Rng(_core.derive_seed(seed, 6))

    def draw() -> str:
        u = (draws.next() >> 11) * 2.0**-53 * sum(weights)
        for bot, w in zip(bots, weights):
            if u < w:
                return bot
            u -= w
        return bots[-1]

    lineup = [draw() for _ in range(players)]
    at_boundaries = []
    while not state.is_terminal():
        before = _core.at_boundary(state._s)
        p = state.current_player()
        state.apply_action(
            state.sample_chance()
            if state.is_chance_node()
            else _core.bot_action(state._s, lineup[p], seats[p])
        )
        if not before and _core.at_boundary(state._s):
            lineup = [draw() for _ in range(players)]
            at_boundaries.append([state.wealth(q) for q in range(players)])
    return at_boundaries, state.returns()


def test_training_games_draw_every_seat_anew_at_every_boundary() -> None:
    bots, weights = ["random", "greedy", "solver"], [0.5, 0.3, 0.2]
    d = _core.value_samples(4, 11, 3, 4, bots, weights, threads=2)
    for game in range(3, 7):
        rows = np.flatnonzero(d["game"] == game)
        at_boundaries, final = replay_training_policy(4, _core.derive_seed(11, game), bots, weights)
        assert d["wealth"][rows, :4].astype(int).tolist() == at_boundaries
        assert (d["final_wealth"][rows, :4] == final).all()
        assert (d["win"][rows].sum(axis=1) == 1).all()
    with pytest.raises(ValueError, match="weights"):
        _core.value_samples(4, 11, 0, 1, bots, [1.0, 1.0])
    with pytest.raises(ValueError, match="weights"):
        _core.play_outs(Game(4, seed=1).new_initial_state()._s, ["greedy"], [-1.0], 1, 0)


def test_the_training_games_boundaries_are_the_samples_rows() -> None:
    bots, weights = ["random", "greedy", "solver"], [0.5, 0.3, 0.2]
    d = _core.value_samples(3, 11, 2, 3, bots, weights, threads=2)
    games = _core.value_boundaries(3, 11, 2, 3, bots, weights, threads=2)
    states = [s for game in games for s in game]
    assert len(games) == 3 and len(states) == len(d["game"]) > 3
    for k, s in enumerate(states):
        assert _core.at_boundary(s)
        assert np.array_equal(_core.value_features(s), d["features"][k, :3])
        assert [s.wealth(p) for p in range(3)] == d["wealth"][k, :3].astype(int).tolist()
    with pytest.raises(ValueError, match="n: must be at least 1"):
        _core.value_boundaries(3, 11, 0, 0, bots, weights)


def test_training_games_played_by_an_executor_are_the_same(monkeypatch) -> None:
    monkeypatch.setattr(vt, "CHUNK", 3)  # three chunks of few games: the games cost the time
    here = vt.collect(7, 8, threads=2)
    with cf.ThreadPoolExecutor(2) as pool:
        pooled = vt.collect(7, 8, threads=1, executor=pool)
    assert len(here) > 8 and len(set(here.players.tolist())) > 1  # chunks of different tables
    for name in vt.Samples.__dataclass_fields__:
        assert np.array_equal(getattr(here, name), getattr(pooled, name)), name


def test_train_value_on_a_dask_cluster_writes_the_same_model(tmp_path: Path, capsys, monkeypatch) -> None:
    run = ["train-value", "--seed", "5", "--games", "5", "--held-out", "2", "--epochs", "2", "--no-progress"]
    assert main([*run, "--out", str(tmp_path / "here.inc")]) == 0
    with local_cluster() as cluster:
        assert main([*run, "--out", str(tmp_path / "dask.inc"), "--dask", cluster.scheduler_address]) == 0
        # The games were the cluster's tasks (Dask names them by the function, its "_" dropped).
        assert "chunk_samples" in cluster.scheduler.task_prefixes
    assert (tmp_path / "dask.inc").read_text() == (tmp_path / "here.inc").read_text()
    capsys.readouterr()
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    assert main([*run, "--out", str(tmp_path / "none.inc"), "--dask", "127.0.0.1:1"]) == 2
    assert "--dask needs Dask's distributed package" in capsys.readouterr().err
    assert main([*run, "--out", str(tmp_path / "none.inc"), "--threads", "-1"]) == 2
    assert "threads: must be an integer from 0 to 256, got -1" in capsys.readouterr().err


def test_training_is_reproducible_from_its_seed() -> None:
    a = vt.train(seed=5, games=2, held_out=2, epochs=2)
    b = vt.train(seed=5, games=2, held_out=2, epochs=2)
    c = vt.train(seed=6, games=2, held_out=2, epochs=2)
    assert vt.model_source(a.model) == vt.model_source(b.model)
    assert vt.model_source(a.model) != vt.model_source(c.model)
    assert a.info["accuracy"]["positions"] == a.accuracy.positions > 0


def test_a_distilled_network_learns_its_teachers_mean_forecast() -> None:
    samples = vt.collect(7, 8, threads=0)
    teachers = [_core.shipped_value_model(), vt.fit(samples, samples, seed=3, epochs=1)]
    forecasts = [vt.predict(t, samples) for t in teachers]
    taught = vt._taught(samples, teachers)
    assert np.allclose(taught.final_wealth, (forecasts[0][0] + forecasts[1][0]) / 2)
    assert np.allclose(taught.win, (forecasts[0][1] + forecasts[1][1]) / 2)
    assert np.array_equal(taught.features, samples.features) and np.array_equal(taught.wealth, samples.wealth)
    assert not np.allclose(taught.final_wealth, samples.final_wealth)  # no longer what happened


def test_the_shipped_model_is_what_the_training_writes() -> None:
    shipped = _core.shipped_value_model()
    source = (ROOT / "cpp" / "src" / "value_model.inc").read_text()
    assert vt.model_source(shipped) == source
    assert vt.model_source(vt.model_from_source(source)) == source  # read back, as value_bench does
    info = model_info()
    assert info["version"] == vt.VERSION and info["policy"]["seats"] == vt.LINEUP


# Held-out games of the training policy that no training saw (their own seed), few enough
# for the suite: the shipped model must keep the skill docs/value.md states on them.
ACCURACY_GAMES = 60
ACCURACY_SEED = 2026_12
# docs/value.md's figures are on 1,500 held-out games (26.2% and 5.1%). The shipped model
# scores 18.0% and 4.6% on these 60; the one before it, trained with each seat's bot fixed
# for the whole game, 15.4% and 2.0%.
MIN_SKILL_UNIFORM = 0.16
MIN_SKILL_WEALTH = 0.03


def test_the_shipped_model_keeps_its_accuracy_on_held_out_games() -> None:
    info = model_info()
    samples = vt.collect(ACCURACY_SEED, ACCURACY_GAMES, threads=0)
    acc = vt.accuracy(_core.shipped_value_model(), samples, info["wealth_temperature"])
    assert acc.positions > 150
    assert acc.skill_uniform >= MIN_SKILL_UNIFORM, acc.to_dict()
    assert acc.skill_wealth >= MIN_SKILL_WEALTH, acc.to_dict()


def test_the_command_line_values_a_table(tmp_path: Path) -> None:
    state = play_to(4, 9, lambda s: s.phase == "small_pilot")
    assert state is not None
    path = tmp_path / "table.json"
    path.write_text(state.serialize())
    run = subprocess.run(
        [sys.executable, "-m", "manila", "value", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(run.stdout)
    assert out["unit"] == "equity" and out["exact"] is True
    assert math.isclose(sum(p["win"] for p in out["players"].values()), 1.0)
    text = subprocess.run(
        [sys.executable, "-m", "manila", "value", str(path), "--text"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "equity" in text and "p3" in text
    bad = subprocess.run(
        [sys.executable, "-m", "manila", "value", str(path), "--rollouts", "0"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "rollouts" in bad.stderr and "Traceback" not in bad.stderr


def test_sage_plays_a_game() -> None:
    result = manila.simulate(players=3, games=1, bots="sage,solver,greedy", seed=1)
    assert result.games == 1


def test_an_expert_and_a_sage_asked_alike_each_answer_for_itself() -> None:
    # Both remember their office limit on the thread, keyed by the position and the seat's
    # generator: asked back to back with generators in the same state, each must still answer
    # as when asked alone (another position asked in between clears the memory).
    state = Game(4, seed=2).new_initial_state()
    while state.is_chance_node():
        state.apply_chance()
    for bid in range(1, 6):  # the first auction raised to 5
        state.apply_action(bid)
    assert state.phase == "auction"
    other = Game(3, seed=99).new_initial_state()
    while other.is_chance_node():
        other.apply_chance()

    def alone(bot: str) -> int:
        _core.bot_action(other._s, "expert", _core.Rng(12345))
        return _core.bot_action(state._s, bot, _core.Rng(5))

    expert, sage = alone("expert"), alone("sage")
    assert expert != sage  # here they differ (the expert bids 6, the sage passes)
    assert [_core.bot_action(state._s, b, _core.Rng(5)) for b in ("expert", "sage", "expert")] == [
        expert,
        sage,
        expert,
    ]


def test_the_server_values_a_table_and_refuses_bad_bodies() -> None:
    state = play_to(4, 3, lambda s: _core.at_boundary(s._s) and s.voyage_number == 2)
    assert state is not None
    with serving() as srv:
        reply = call(srv, "POST", "/v1/value", {"table": state.observation(2)})
        data = json.loads(reply.body)
        assert reply.status == 200 and data["unit"] == "equity" and data["exact"], data
        assert data == manila.value(state.observation(2)).to_dict()
        for body, field in (
            ({}, "table"),
            ({"table": {}, "rollouts": 10**6}, "rollouts"),
            ({"table": 3}, ""),
        ):
            reply = call(srv, "POST", "/v1/value", body)
            assert reply.status == 400, reply.body
            assert field in reply.body.decode()
        doc = json.loads(call(srv, "GET", "/openapi.json").body)
        assert "/v1/value" in doc["paths"] and "Value" in doc["components"]["schemas"]

"""Review of a recorded game (docs/review.md): every decision against the best, and luck.

Small rollout counts and few games: the big runs are in benchmarks/review_bench.py."""

from __future__ import annotations

import json
import math
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import manila
from helpers.hidden import expected_nets
from helpers.serving import call, serving
from helpers.student import t975
from manila import _core
from manila.analysis.review import THRESHOLDS, Review, loss_class, pooled_losses, review
from manila.arena.simulate import simulate
from manila.game.engine import Game, State
from manila.game.view import PlayerView

GOLDEN = Path(__file__).parent / "golden"
HARBOUR = ("buy_share", "choose_goods", "place_boats")
TINY = {"rollouts": 8, "luck_rollouts": 4, "threads": 2}


def golden(name: str = "4p-mixed-bots") -> dict[str, Any]:
    return dict(json.loads((GOLDEN / f"{name}.jsonl").read_text().splitlines()[0]))


def records(bots: str, games: int, seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    simulate(players=4, games=games, bots=bots, seed=seed, record=out.append)
    return out


def decision_indices(record: dict[str, Any]) -> list[int]:
    """Independently of the review: every player's action that is no loan starts a
    decision, except the harbour master's second and third (one option with the first) and
    a player's later moves in an auction (one decision per player per auction)."""
    state = Game(record["players"], seed=record["seed"], rules=record.get("rules")).new_initial_state()
    loans = {a for a in range(_core.NUM_ACTIONS) if state.action_name(a) in ("mortgage", "repay")}
    out = []
    in_harbour = False
    bid: set[tuple[int, int]] = set()  # (voyage, player) who moved in that auction
    for i, a in enumerate(record["history"]):
        if not state.is_chance_node() and a not in loans:
            key = (state.voyage_number, state.current_player())
            if state.phase == "auction":
                if key not in bid:
                    out.append(i)
                bid.add(key)
            elif not (in_harbour and state.phase in HARBOUR):
                out.append(i)
            in_harbour = state.phase in HARBOUR
        elif state.is_chance_node():
            in_harbour = False
        state.apply_action(a)
    return out


@pytest.fixture(scope="module")
def mixed() -> Review:
    return review(golden(), **TINY)


def highest_bids(record: dict[str, Any]) -> dict[tuple[int, str], int]:
    """Each player's highest bid in each auction (voyage, player), 0 when they only passed."""
    state = Game(record["players"], seed=record["seed"], rules=record.get("rules")).new_initial_state()
    out: dict[tuple[int, str], int] = {}
    for a in record["history"]:
        if not state.is_chance_node() and state.phase == "auction":
            key = (state.voyage_number, f"p{state.current_player()}")
            name = state.action_name(a)
            out[key] = max(out.get(key, 0), int(name.split()[1]) if name.startswith("bid ") else 0)
        state.apply_action(a)
    return out


def test_every_decision_once_best_loses_nothing_and_no_loss_is_negative(mixed: Review) -> None:
    assert [d.index for d in mixed.decisions] == decision_indices(golden())
    # An auction is judged at the lowest ceiling its bids fit: the highest bid, or pass.
    bids = highest_bids(golden())
    auctions = [d for d in mixed.decisions if d.kind == "auction"]
    assert auctions and all(
        d.chosen == (f"up to {bids[d.voyage, d.player]}" if bids[d.voyage, d.player] else "pass")
        for d in auctions
    )
    for d in mixed.decisions:
        assert d.loss >= 0 and d.loss_ci95 >= 0
        if d.best == d.chosen or d.forced:
            assert d.loss == 0
        if d.forced:
            assert d.cls == "fine" and d.exact
    p = mixed.players
    assert sum(x.decisions for x in p.values()) == len(mixed.decisions)
    for x in p.values():
        assert 0 < x.accuracy <= 1 and x.non_forced <= x.decisions
    # Every chance event once: the 8 deals and 3 rolls a voyage.
    history = golden()["history"]
    assert len([e for e in mixed.events if e["kind"] == "deal"]) == 8
    assert [e["index"] for e in mixed.events] == sorted({e["index"] for e in mixed.events})
    assert len(mixed.events) == 8 + 3 * golden()["voyages"]
    assert all(e["index"] < len(history) for e in mixed.events)


def test_json_has_the_contract_keys(mixed: Review) -> None:
    out = json.loads(json.dumps(mixed.to_dict()))
    assert {"horizon", "policy", "seed", "decisions", "players"} <= set(out)
    d = out["decisions"][0]
    for key in (
        "index",
        "player",
        "voyage",
        "kind",
        "chosen",
        "best",
        "loss",
        "loss_ci95",
        "class",
        "forced",
        "exact",
    ):
        assert key in d
    for key in ("decisions", "non_forced", "total_loss", "mean_loss", "accuracy", "luck"):
        assert key in out["players"]["p0"]


def test_the_best_option_is_the_loss_free_one_when_rolled_again() -> None:
    # The seed reproduces the review; another seed may rank near-equal options otherwise.
    a = review(golden(), seed=4, **TINY).to_dict()
    b = review(golden(), seed=4, **TINY).to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def split_gain_reference(values: list[list[float]]) -> tuple[float, float]:
    """The estimator written out: the best option picked by one half of the rollouts (even or
    odd), its paired gain over option 0 measured on the other half, the two ways averaged.
    Below 4 rollouts a half holds one gain, whose spread is unknown: the best by all the
    rollouts (of the options that have them all), its paired gain over all of them."""
    n = len(values[0])
    if n < 4:
        full = [statistics.fmean(v[:n]) if len(v) >= n else -math.inf for v in values]
        gains = [a - b for a, b in zip(values[full.index(max(full))], values[0])]
        return statistics.fmean(gains), t975(n - 1) * statistics.stdev(gains) / math.sqrt(n) if n > 1 else 0.0
    means, halves = [], []
    for pick in (0, 1):
        half_means = [statistics.fmean(v[pick::2]) if v[pick::2] else -math.inf for v in values]
        k = half_means.index(max(half_means))
        n = min(len(values[k]), len(values[0]))
        gains = [values[k][i] - values[0][i] for i in range(1 - pick, n, 2)]
        means.append(statistics.fmean(gains) if gains else 0.0)
        m = len(gains)
        halves.append(t975(m - 1) * statistics.stdev(gains) / math.sqrt(m) if m > 1 else 0.0)
    return sum(means) / 2, math.hypot(*halves) / 2


def test_split_gain_is_the_estimator_written_out() -> None:
    rng = random.Random(5)
    for _ in range(200):
        # Ragged like racing leaves them: option 0 has every rollout, the others a prefix.
        rollouts = rng.randint(2, 40)
        values = [[rng.gauss(0, 10) for _ in range(rollouts)]]
        values += [
            [rng.gauss(0, 10) for _ in range(rng.randint(1, rollouts))] for _ in range(rng.randint(0, 12))
        ]
        gain, ci95 = _core.split_gain(values)
        reference = split_gain_reference(values)
        # The engine's t quantile is within 0.004 of the density's (test_t_quantiles).
        assert gain == pytest.approx(reference[0], abs=1e-9) and ci95 == pytest.approx(reference[1], rel=2e-3)
    # Two rollouts, an option ahead on both: a gain with an interval, not one of width 0.
    gain, ci95 = _core.split_gain([[0.0, 1.0], [5.0, 9.0]])
    assert (gain, ci95) == pytest.approx((6.5, t975(1) * math.sqrt(4.5) / math.sqrt(2)), rel=1e-6)
    with pytest.raises(ValueError, match="values"):
        _core.split_gain([])


def test_split_gain_takes_out_the_winners_curse() -> None:
    # 24 options of one true value: the best of their means is ahead of the chosen by noise
    # alone (about 1.9 standard errors), the split estimate is not; a clearly better option's
    # gain is found whole (one hidden among the noise is found too late, on the low side).
    rng = np.random.default_rng(7)
    naive, split, found = [], [], []
    for _ in range(400):
        values = rng.normal(0.0, 10.0, size=(24, 32))
        naive.append(values.mean(axis=1).max() - values[0].mean())
        split.append(_core.split_gain(values.tolist())[0])
        values[5] += 20.0
        found.append(_core.split_gain(values.tolist())[0])
    se = 10.0 / math.sqrt(32)
    assert statistics.fmean(naive) > 1.5 * se
    assert abs(statistics.fmean(split)) < 4 * statistics.stdev(split) / math.sqrt(len(split))
    assert statistics.fmean(found) == pytest.approx(20.0, abs=0.6)


def test_losses_are_the_split_gains_not_the_best_of_noisy_means(mixed: Review) -> None:
    # Rolled decisions where the best is another option: their loss is the split gain, which
    # is not the naive difference of the best's and the chosen's means.
    rolled = [d for d in mixed.decisions if not d.exact and d.best != d.chosen]
    naive = [
        d.best_value - d.chosen_value
        for d in rolled
        if d.best_value is not None and d.chosen_value is not None
    ]
    assert len(naive) == len(rolled) > 10
    assert sum(d.loss for d in rolled) < sum(naive)
    assert any(abs(d.loss - n) > 1e-9 for d, n in zip(rolled, naive))


def test_classes_follow_the_thresholds() -> None:
    for horizon, (inacc, mistake, blunder) in THRESHOLDS.items():
        assert loss_class(0.0, 0.0, horizon) == "fine"
        assert loss_class(inacc, 0.0, horizon) == "inaccuracy"
        assert loss_class(mistake, 0.0, horizon) == "mistake"
        assert loss_class(blunder, 0.0, horizon) == "blunder"
        assert loss_class(blunder, 2 * blunder, horizon) == "fine"  # within its noise


def test_exact_losses_are_part_4s_difference_exactly() -> None:
    # Greedy-wealth games: pilots, boarding with no placement left and last-round placements
    # are exact; the loss is part 4's best minus chosen, to the last bit, from the decider's
    # view: averaged over every deal of the others' face-down shares.
    checked = 0
    for record in records("random,greedy-wealth,random,greedy", 2, seed=11):
        result = review(record, horizon="voyage", luck_rollouts=0, rollouts=4, threads=2)
        states = replay(record)
        for d in result.decisions:
            if (
                not d.exact
                or d.forced
                or d.kind not in ("placement", "pilot_small", "pilot_large", "boarding")
            ):
                continue
            state = states[d.index]
            me = state.current_player()
            position = PlayerView(state, me).position("wealth")
            assert position is not None
            net = expected_nets(position, state.observation(me), advise)
            best = max(net.values())
            assert d.loss == float(best - net[d.chosen]), (d, net)
            assert d.loss_ci95 == 0.0
            checked += 1
    assert checked >= 10


def advise(position: dict[str, Any]) -> dict[str, Any]:
    return manila.advise(position, exact=True).to_dict()


def replay(record: dict[str, Any]) -> list[State]:
    state = Game(record["players"], seed=record["seed"], rules=record.get("rules")).new_initial_state()
    out = []
    for a in record["history"]:
        out.append(state.clone())
        state.apply_action(a)
    return out


def test_identical_bots_lose_alike() -> None:
    # Four solvers. Not four greedy-wealth: their auction breaks ties by seat, so that p1
    # holds the office (and its costly decisions) 15 times in 48 voyages and p0 once; the
    # seats of identical bots face the same decisions only if the bots spread the office.
    games = [review(r, rollouts=8, threads=2, luck_rollouts=0) for r in records("solver", 8, seed=5)]
    means = pooled_losses(games)
    for pa in means.values():
        for pb in means.values():
            assert abs(pa.mean_loss - pb.mean_loss) <= pa.mean_loss_ci95 + pb.mean_loss_ci95, means


def test_pooled_losses_count_games_as_the_units() -> None:
    # A pooled mean that is the total loss over the non-forced decisions.
    games = [review(r, **TINY) for r in records("greedy", 4, seed=2)]
    pooled = pooled_losses(games)
    for seat, p in pooled.items():
        free = [d.loss for g in games for d in g.decisions if d.player == seat and not d.forced]
        assert p.non_forced == len(free) and p.mean_loss == pytest.approx(sum(free) / len(free))
        assert p.games == 4 and p.mean_loss_ci95 > 0
    with pytest.raises(ValueError, match="at least 2 reviewed games"):
        pooled_losses(games[:1])
    three = []
    simulate(players=3, games=1, bots="greedy", seed=2, record=three.append)
    with pytest.raises(ValueError, match="the same seats"):
        pooled_losses([*games, review(three[0], **TINY)])


def test_one_luck_rollout_is_refused_not_taken_as_two() -> None:
    # One rollout has no interval: 0 (no luck) or 2 and more, where it used to become 2.
    record = records("greedy", 1, seed=3)[0]
    with pytest.raises(ValueError, match=r"luck_rollouts: must be 0 \(no luck\) or at least 2, got 1"):
        review(record, decisions=False, luck_rollouts=1)
    assert review(record, decisions=False, luck_rollouts=2).events


def test_luck_is_unbiased() -> None:
    # A seat's total luck over seeded games averages 0 within its 95% interval.
    games = records("greedy-wealth", 16, seed=9)
    totals = [review(r, decisions=False, luck_rollouts=8, threads=2).players for r in games]
    for seat in ("p0", "p1", "p2", "p3"):
        lucks = [t[seat].luck for t in totals]
        mean, half = (
            statistics.fmean(lucks),
            t975(len(lucks) - 1) * statistics.stdev(lucks) / math.sqrt(len(lucks)),
        )
        assert abs(mean) <= half, (seat, mean, half)


def test_summaries_add_up_from_the_decisions_and_events(mixed: Review) -> None:
    """The engine's summaries (cpp/src/api_review.cpp), recomputed here from its decisions
    and events: totals, means and their spread, accuracy, luck, classes, band, and the
    reconciliation final equity = luck - (own loss - others' mean) + residual."""
    out = mixed.to_dict()
    names = list(out["players"])
    wealth = [out["players"][p]["wealth"] for p in names]
    losses = {
        p: sum(d["loss"] for d in out["decisions"] if d["player"] == p and not d["forced"]) for p in names
    }
    for k, p in enumerate(names):
        s = out["players"][p]
        free = [d for d in out["decisions"] if d["player"] == p and not d["forced"]]
        mean = losses[p] / len(free)
        spread = math.sqrt(sum((d["loss"] - mean) ** 2 for d in free) / (len(free) - 1) / len(free))
        luck = sum(e["luck"][p] for e in out["events"])
        equity = wealth[k] - (sum(wealth) - wealth[k]) / (len(names) - 1)
        others = (sum(losses.values()) - losses[p]) / (len(names) - 1)
        assert s["decisions"] == sum(d["player"] == p for d in out["decisions"])
        assert (s["non_forced"], s["total_loss"]) == (len(free), pytest.approx(losses[p], abs=1e-9))
        assert s["mean_loss"] == pytest.approx(mean)
        assert s["mean_loss_ci95"] == pytest.approx(t975(len(free) - 1) * spread, rel=2e-3)
        assert s["accuracy"] == pytest.approx(math.exp(-mean / 3.0), rel=1e-15)
        assert s["luck"] == pytest.approx(luck, abs=1e-9)
        assert s["luck_ci95"] == pytest.approx(math.sqrt(sum(e["luck_ci95"][p] ** 2 for e in out["events"])))
        assert s["final_equity"] == pytest.approx(equity) and s["luck_adjusted"] == pytest.approx(
            equity - luck
        )
        assert s["final_equity"] == pytest.approx(luck - (losses[p] - others) + s["residual"])
        assert s["reconciliation"] == (
            f"final equity {equity:+.1f} = luck {luck:+.1f} - (own loss {losses[p]:.1f} - others' "
            f"mean {others:.1f}) + residual {s['residual']:+.1f}"
        )
        assert s["classes"] == {
            c: sum(d["class"] == c for d in free) for c in ("fine", "inaccuracy", "mistake", "blunder")
        }
        assert s["band"] == next(
            b["band"] for b in out["bands"] if b["mean_loss_below"] is None or mean < b["mean_loss_below"]
        )
    for d in out["decisions"]:
        ci, loss = d["loss_ci95"], d["loss"]
        k = sum(loss >= t for t in out["thresholds"].values())
        assert d["class"] == (
            "fine" if d["forced"] or loss <= ci else ("fine", "inaccuracy", "mistake", "blunder")[k]
        )


def python_table(state: State) -> str:
    """The table as the decider saw it, by the library's Python: the notation of their
    view and the moment, or the auction and the money."""
    from manila.voyage.notation import format_moment, format_state

    me = state.current_player()
    view = PlayerView(state, me)
    pos = view.position("wealth") or view.voyage_state("wealth")
    if pos is not None:
        return format_state(pos) + (" " + format_moment(pos["moment"]) if "moment" in pos else "")
    obs = state.observation(me)
    cash = ", ".join(f"p{p} {pl['cash']}" for p, pl in enumerate(obs["players"]))
    prices = ", ".join(f"{g} {v}" for g, v in obs["prices"].items())
    text = f"voyage {state.voyage_number}, {state.phase}; cash {cash}; prices {prices}"
    bidder = (obs.get("auction") or {}).get("high_bidder")
    if state.phase == "auction" and bidder is not None:
        text += f"; high bid {obs['auction']['high_bid']} by p{bidder}"
    return text


def test_every_table_is_the_deciders_view(mixed: Review) -> None:
    record = golden()
    state = Game(record["players"], seed=record["seed"], rules=record.get("rules")).new_initial_state()
    tables = {}
    for i, a in enumerate(record["history"]):
        if not state.is_chance_node():
            tables[i] = python_table(state)
        state.apply_action(a)
    assert [d.table for d in mixed.decisions] == [tables[d.index] for d in mixed.decisions]
    assert {d.table.split(" ")[0] for d in mixed.decisions} >= {"voyage", "r1", "r2", "r3"}


def test_exact_luck_of_the_last_roll_adds_up_to_the_voyage_result(mixed: Review) -> None:
    # After roll 3 (exact) the value is the wealth at the voyage's end.
    last_rolls = [e for e in mixed.events if e["kind"] == "roll" and e["exact"]]
    assert last_rolls
    for e in last_rolls:
        for p, luck in e["luck"].items():
            assert e["luck_ci95"][p] == 0.0
            assert math.isfinite(luck)


def test_bad_records_name_the_line_and_the_action(tmp_path: Path) -> None:
    record = golden()
    with pytest.raises(ValueError, match=r"cut short"):
        review({**record, "history": record["history"][:50], "actions": 50}, **TINY)
    with pytest.raises(ValueError, match=r"cut short: the record says"):
        review({**record, "history": record["history"][:50]}, **TINY)
    bad = list(record["history"])
    bad[20] = 0  # a pass where a placement is due
    with pytest.raises(ValueError, match=r"history\[20\]: action 0 \(pass\)"):
        review({**record, "history": bad, "actions": len(bad)}, **TINY)
    with pytest.raises(ValueError, match="not a game record"):
        review({"hello": 1}, **TINY)
    with pytest.raises(ValueError, match="not a game record"):
        review("[1, 2]", **TINY)
    lines = tmp_path / "games.jsonl"
    lines.write_text(
        json.dumps(record) + "\n" + json.dumps({**record, "history": bad, "actions": len(bad)}) + "\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "manila", "review", str(lines), "--game", "1", "--rollouts", "2"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert "line 2: history[20]: action 0 (pass)" in run.stderr, run.stderr
    assert run.stderr.count("\n") == 1


def review_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "manila", "review", *args], input=stdin, capture_output=True, text=True
    )


def test_cli_json_and_report(tmp_path: Path) -> None:
    path = str(GOLDEN / "4p-mixed-bots.jsonl")
    run = review_cli(path, "--json", "--rollouts", "4", "--luck-rollouts", "2")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["players"]["p0"]["decisions"] > 0
    # A serialized state of the finished game reviews alike, from standard input.
    state = State.deserialize(
        {"game": "manila", **{k: golden()[k] for k in ("players", "seed", "rules", "history")}}
    )
    run = review_cli("-", "--rollouts", "4", "--luck-rollouts", "2", "--json", stdin=state.serialize())
    assert run.returncode == 0, run.stderr
    assert [d["index"] for d in json.loads(run.stdout)["decisions"]] == [d["index"] for d in out["decisions"]]
    # --text: the report, even into a pipe.
    run = review_cli(path, "--text", "--rollouts", "4", "--luck-rollouts", "0")
    assert run.returncode == 0 and run.stdout.startswith("Review at horizon game"), run.stderr
    assert "final equity" in run.stdout and "residual" in run.stdout


def test_report_lists_the_worst_first(mixed: Review) -> None:
    from manila.analysis.review import render_review

    text = render_review(mixed, limit=3)
    assert "luck" in text and "costliest" in text
    worst = mixed.worst(3)
    assert [d.loss for d in worst] == sorted((d.loss for d in worst), reverse=True)
    assert all(d.table in text for d in worst)


def test_plot(mixed: Review, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from manila.analysis.review import plot_review

    fig = plot_review(mixed)
    fig.savefig(tmp_path / "review.png")
    assert (tmp_path / "review.png").stat().st_size > 1000


def test_server_reviews_a_game_and_refuses_bad_records() -> None:
    from manila.server.openapi import description

    def post(body: Any) -> tuple[int, Any]:
        reply = call(srv, "POST", "/v1/review", body)
        return reply.status, json.loads(reply.body)

    with serving() as srv:
        status, out = post({"record": golden(), "rollouts": 2, "luck_rollouts": 2})
        assert status == 200, out
        assert out["complete"] and out["players"]["p1"]["decisions"] > 0
        bad = list(golden()["history"])
        bad[20] = 0
        status, out = post({"record": {**golden(), "history": bad, "actions": len(bad)}, "rollouts": 2})
        assert status == 400 and "history[20]" in json.dumps(out)
        status, out = post({"record": golden(), "rollouts": 1000})
        assert status == 400
        status, out = post({"record": golden(), "bogus": 1})
        assert status == 400
    assert "/v1/review" in description()["paths"]


def test_server_stops_a_review_that_outlives_the_request() -> None:
    # The review stops itself at 0.8 of the request's time (its progress says so), before
    # the server would cancel it: a 503, where the engine's call, which has no clock of a
    # request's, would go on (a whole review here takes about 4 s).
    with serving(time_limit=1.0) as srv:
        started = time.monotonic()
        reply = call(srv, "POST", "/v1/review", {"record": golden(), "rollouts": 32, "luck_rollouts": 32})
        assert reply.status == 503, reply.body
        assert "the review took longer than the time limit of 1 s" in reply.body.decode()
        assert time.monotonic() - started < 1.5

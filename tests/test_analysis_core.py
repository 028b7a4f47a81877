"""Rollout analysis of a decision (docs/analysis.md), at the engine's level: exact answers
equal part 4's, rollouts agree with them within their intervals, the same seed gives the
same answer, and intervals shrink as 1/sqrt(n)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import manila
import manila.bots
from helpers.student import t975
from manila import _core
from manila.game import Game, State

PILOT_PHASES = {"small_pilot", "large_pilot"}


def decisions(seeds: range, players: int = 4) -> Iterator[State]:
    """Every decision of greedy-wealth games, as states (copies)."""
    for seed in seeds:
        state = Game(players, seed=seed).new_initial_state()
        core = state._s
        while not core.is_terminal():
            if core.is_chance_node():
                core.apply_action(core.sample_chance())
                continue
            yield State(state.game, core.clone())
            core.apply_action(_core.greedy_action(core, True))


def only_decider_decides(state: State) -> bool:
    """Nobody but the decider takes a later decision of the voyage (pilots, pirates) and the
    decider cannot be forced to mortgage as insurer: then part 4's values, which let the
    others decide by part 4 rather than by the continuation policy, are what the rollouts
    measure."""
    snap = state.to_dict()
    me = state.current_player()
    spots = snap["spots"]
    for spot in ("pilot_small", "pilot_large", "pirate_1", "pirate_2"):
        if spots.get(spot, me) != me:
            return False
    return not (spots.get("insurance") == me and snap["players"][me]["cash"] < 29)


def exact_positions(count: int, want: Callable[[State], bool]) -> list[State]:
    out: list[State] = []
    for state in decisions(range(400)):
        if want(state) and only_decider_decides(state):
            out.append(state)
            if len(out) == count:
                break
    return out


def is_pilot(state: State) -> bool:
    return state.phase in PILOT_PHASES


def is_last_mover(state: State) -> bool:
    """The last placement of the voyage's last round (next_roll 3), nobody after the mover."""
    snap = state.to_dict()
    if state.phase != "placement" or snap["next_roll"] != 3:
        return False
    n, master, me = len(snap["players"]), snap["harbour_master"], state.current_player()
    later = [(master + k) % n for k in range((me - master) % n + 1, n)]
    limit = state.game.max_accomplices()
    return all(snap["players"][p]["declined"] or snap["players"][p]["accomplices"] >= limit for p in later)


def config(**kw: Any) -> _core.AnalysisConfig:
    """An analysis's options: the engine's defaults but for ``kw``."""
    c = _core.AnalysisConfig()
    for name, value in kw.items():
        setattr(c, name, value)
    return c


def analyse(state: State, progress: Any = None, **kw: Any) -> dict[str, Any]:
    return _core.analyse_decision(state._s, config(**kw), progress)


@pytest.fixture(scope="module")
def pilots() -> list[State]:
    return exact_positions(12, is_pilot)


@pytest.fixture(scope="module")
def last_placements() -> list[State]:
    return exact_positions(8, is_last_mover)


def test_exact_answers_are_part_4s(pilots: list[State], last_placements: list[State]) -> None:
    assert pilots and last_placements
    for state in pilots + last_placements:
        result = analyse(state)
        assert result["exact"] and result["stop"] == "exact"
        advice = manila.advise(state.position("wealth")).to_dict()
        names = [o["name"] for o in result["options"]]
        assert names == list(advice["options"])
        for option in result["options"]:
            assert option["diff"] == advice["options"][option["name"]]["expected_net"]
            assert option["ci95"] == 0.0 and option["exact"]


def test_shortcut_alone_gives_the_exact_values(pilots: list[State]) -> None:
    # Without the part-4 answer, a pilot's rollouts meet the exact shortcut at once (the
    # other pilot is the decider's own), so every rollout is the exact value.
    for state in pilots[:4]:
        exact = analyse(state)
        rolled = analyse(state, exact_answers=False, rollouts=8, seed=3)
        for e, r in zip(exact["options"], rolled["options"]):
            assert r["mean"] == pytest.approx(e["mean"], abs=1e-9)
            assert r["ci95"] == pytest.approx(0.0, abs=1e-9)


def test_intervals_take_students_t_and_one_rollout_gives_none() -> None:
    # Every 95% interval is t95(n - 1) standard errors: within 0.004 of the quantile the
    # density gives (helpers/student.py), the normal's 1.96 only in the limit.
    for df in (*range(1, 40), 63, 127, 199, 1000):
        assert abs(_core.t95(df) - t975(df)) < 0.004, df
    with pytest.raises(ValueError, match="df: must be at least 1"):
        _core.t95(0)
    state = first_decision("placement")
    # A mean of one rollout has no spread, so no interval: refused, not answered with 0.
    for kw in ({"rollouts": 1}, {"max_rollouts": 1}):
        with pytest.raises(ValueError, match="rollouts: must be"):
            manila.analyse(state, **kw)
    with pytest.raises(ValueError, match="rollouts: must be an integer from 2"):
        manila.value(state, rollouts=1)
    with pytest.raises(ValueError, match=r"rollouts: must be 0 \(the stop rule\) or at least 2"):
        analyse(state, rollouts=1)


def test_rollouts_agree_with_exact_values_at_the_95_percent_rate(
    pilots: list[State], last_placements: list[State]
) -> None:
    inside = total = 0
    for k, state in enumerate(pilots + last_placements):
        exact = analyse(state)
        rolled = analyse(state, exact_answers=False, exact_shortcut=False, rollouts=96, seed=k)
        for e, r in zip(exact["options"], rolled["options"]):
            if r["ci95"] == 0.0:  # no chance left on this line: the value itself
                assert r["mean"] == pytest.approx(e["mean"], abs=1e-9)
                continue
            total += 1
            inside += abs(r["mean"] - e["mean"]) <= r["ci95"]
    # Options of one position share their dice, so the count is less than binomial; a
    # rate this far from 95% would need intervals that are wrong, not unlucky.
    assert total >= 60
    assert 0.85 <= inside / total <= 1.0, (inside, total)


def first_decision(kind: str, players: int = 4, seed: int = 0) -> State:
    for state in decisions(range(seed, seed + 50), players):
        if _core.decision_kind(state._s) == kind:
            return state
    raise AssertionError(kind)


def test_same_seed_same_answer_whatever_the_threads() -> None:
    state = first_decision("placement")
    one = analyse(state, rollouts=48, seed=7, threads=1, batch=16)
    two = analyse(state, rollouts=48, seed=7, threads=2, batch=16)
    for o in (one, two):
        o.pop("seconds")
        o["report"].pop("seconds")  # the contract's JSON, which has its timing too
    assert one == two
    other = analyse(state, rollouts=48, seed=8, threads=2, batch=16)
    assert [o["mean"] for o in other["options"]] != [o["mean"] for o in one["options"]]


def test_four_times_the_rollouts_halve_the_half_width() -> None:
    state = first_decision("auction")
    small = analyse(state, rollouts=100, seed=1, max_bids=6)
    large = analyse(state, rollouts=400, seed=1, max_bids=6)
    ratios = [b["ci95"] / a["ci95"] for a, b in zip(small["options"], large["options"]) if a["ci95"] > 0]
    assert ratios
    mean = sum(ratios) / len(ratios)
    assert 0.4 <= mean <= 0.62, ratios


def test_common_random_numbers_narrow_the_differences() -> None:
    state = first_decision("placement")
    result = analyse(state, rollouts=200, seed=2)
    narrower = [o["diff_ci95"] < o["ci95"] for o in result["options"][1:] if o["ci95"] > 0]
    assert sum(narrower) > len(narrower) / 2


def test_the_stop_rule_reaches_its_target() -> None:
    state = first_decision("placement")
    result = analyse(state, seed=1, target=1.0, time_limit=60)
    assert result["stop"] in ("target", "forced")
    assert result["gap_ci95"] <= 1.0


def test_an_option_dropped_by_racing_does_not_hold_the_gap_open() -> None:
    # In this auction at horizon game (played to the end) racing drops bids after 64
    # rollouts whose means stay second best: counted in the gap, they held it at 9 points of
    # win probability until max_rollouts.
    state = first_decision("auction")
    result = analyse(
        state,
        horizon="game",
        value="rollout",
        seed=1,
        max_bids=12,
        target=8.0,
        max_rollouts=1500,
        time_limit=60,
    )
    assert result["stop"] == "target", (result["stop"], result["rollouts"], result["gap_ci95"])
    assert result["gap_ci95"] <= 8.0


def test_auction_options_are_ceilings_and_grouping() -> None:
    state = first_decision("auction")
    options = _core.decision_options(state._s)
    names = [name for name, _ in options]
    limit = max(int(n.split()[1]) for n in state.legal_action_names() if n.startswith("bid "))
    # pass, then "up to X" for every X from the lowest legal bid to the decider's limit, each
    # opening with the lowest legal bid.
    assert names == ["pass"] + [f"up to {x}" for x in range(1, limit + 1)]
    assert all(actions == [1] for _, actions in options[1:])
    grouped = [name for name, _ in _core.decision_options(state._s, max_bids=5)]
    assert grouped[0] == "pass" and len(grouped) == 6 and grouped[-1] == names[-1]
    bids = [name for name, _ in _core.decision_options(state._s, ceilings=False)]
    assert bids[1:3] == ["bid 1", "bid 2"]


def test_harbour_master_combinations() -> None:
    state = first_decision("harbour_master")
    options = _core.decision_options(state._s)
    # Each share to buy (or none) x the good left home x the 25 start triples.
    assert len(options) % (4 * 25) == 0 and len(options) >= 4 * 25
    name, actions = options[0]
    assert len(actions) == 3 and name.startswith("buy ")
    screened = analyse(state, rollouts=8, screen=10, seed=1)
    assert len(screened["options"]) == 10 and screened["screened_out"] == len(options) - 10


@pytest.mark.parametrize("value", ["learned", "rollout"])
def test_game_horizon_gives_equity_win_shares_and_margins(value: str) -> None:
    state = first_decision("auction", players=3)
    result = analyse(state, horizon="game", value=value, rollouts=16, seed=1, max_bids=3)
    for option in result["options"]:
        assert 0.0 <= option["win"] <= 1.0
        assert "margin" in option and math.isfinite(option["margin"])
        # Equity, in pesos: a bid paid costs the decider's equity the whole bid.
        assert math.isfinite(option["mean"]) and abs(option["mean"]) < 200


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"horizon": "week"}, "horizon"),
        ({"policy": "oracle"}, "policy"),
        ({"rollouts": -1}, "rollouts"),
        ({"max_rollouts": 0}, "max_rollouts"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"target": -1.0}, "target"),
        ({"batch": 1}, "batch"),
        ({"threads": -1}, "threads"),
        ({"max_bids": -1}, "max_bids"),
        ({"screen": -1}, "screen"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs: dict[str, Any], field: str) -> None:
    state = first_decision("auction")
    with pytest.raises(ValueError, match=field):
        analyse(state, **kwargs)


def test_no_decision_no_analysis() -> None:
    core = Game(4, seed=0).new_initial_state()._s
    with pytest.raises(ValueError, match="chance"):
        _core.analyse_decision(core)


class Stop(Exception):
    pass


def test_an_exception_in_the_progress_callback_stops_the_work_and_is_raised() -> None:
    def progress(*_: Any) -> bool:
        raise Stop

    state = first_decision("auction")
    with pytest.raises(Stop):
        analyse(state, progress, rollouts=64, batch=16)
    game = Game(3, seed=2)
    final = manila.game.play(game, manila.bots.bots_for(["greedy"] * 3, 2))
    with pytest.raises(Stop):
        _core.review_game(game.new_initial_state()._s, final.history(), rollouts=4, progress=progress)


def test_the_engine_names_horizons_and_phases() -> None:
    with pytest.raises(ValueError, match='horizon: must be "voyage" or "game", got "week"'):
        config(horizon="week")
    with pytest.raises(ValueError, match='horizon: must be "voyage" or "game"'):
        _core.review_game(Game(3, seed=2).new_initial_state()._s, [], horizon="week")
    for policy in ("random", "expert", "rollout"):  # nothing to learn, or rollouts in rollouts
        with pytest.raises(ValueError, match="policy: must be one of greedy, greedy-wealth, solver"):
            config(policy=policy)
    assert _core.DEFAULT_POLICY in _core.POLICIES


def test_final_worth_adds_each_share_s_premium_at_the_voyage_s_end() -> None:
    # At the end of the first voyage no good stands above 5, so the premium of a share is
    # the engine's table at (0, 0), (0, 5) or (5, 5) (price, top price): with the same luck,
    # an option's value counted at the final worth exceeds its value at today's prices by
    # the decider's shares times one of these, averaged over the rollouts.
    premium = _core.SHARE_PREMIUM
    low, high = (
        min(premium[0][0], premium[0][1], premium[1][1]),
        max(premium[0][0], premium[0][1], premium[1][1]),
    )
    assert low > 0
    state = first_decision("placement")
    d = state._s.current_player()
    shares = sum(state._s.snapshot()["players"][d]["shares"].values())
    assert shares >= 2
    kw: dict[str, Any] = dict(
        rollouts=24, seed=3, threads=1, exact_shortcut=False, exact_answers=False, racing=False
    )
    today = analyse(state, **kw)
    final = analyse(state, final_worth=True, **kw)
    gains = [f["mean"] - t["mean"] for f, t in zip(final["options"], today["options"])]
    assert all(shares * low - 1e-9 <= gain <= shares * high + 1e-9 for gain in gains), gains
    assert len({round(gain, 9) for gain in gains}) > 1  # the options end with other prices
    assert not any(o["exact"] for o in final["options"])
    # The exact shortcut and part 4's answers count today's prices: final worth skips both.
    exact = analyse(state, final_worth=True, rollouts=24, seed=3, threads=1)
    assert exact["options"] == final["options"]

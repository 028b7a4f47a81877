"""Bounds at every edge: 3 to 5 players, money a game can hold, rollouts and time limits
capped, bots that are bots, action ids that are whole numbers; each refusal names the field
and the bound, in Python (ValueError), over HTTP (400) and on the command line (exit 2)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import manila
from helpers.serving import call, serving
from manila import _core
from manila.cli import main
from manila.common.limits import MAX_ROLLOUTS
from manila.common.vocab import MAX_BUDGET, MAX_CASH
from manila.game.table import TableError, table_state

START = "r1 ginseng@3 nutmeg@4 silk@2"
ELEVEN = (
    START.replace("silk@2", "silk@2:a,b,c")
    + " "
    + " ".join(
        f"{spot}={name}"
        for spot, name in zip(
            ("port_a", "port_b", "port_c", "shipyard_a", "shipyard_b", "shipyard_c", "pirate_1", "pirate_2"),
            "defghijk",
        )
    )
)


@pytest.fixture(scope="module")
def table() -> dict[str, Any]:
    state = manila.Game(players=4, seed=1).new_initial_state()
    while state.is_chance_node():
        state.apply_chance()
    return state.observation(0)


@pytest.fixture(scope="module")
def srv():
    with serving() as s:
        yield s


def cli(capsys, *args: str) -> tuple[int, str]:
    status = main(list(args))
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "TypeError" not in out.err
    return status, out.err


def with_cash(table: dict[str, Any], cash: Any) -> dict[str, Any]:
    out = copy.deepcopy(table)
    out["players"][0]["cash"] = cash
    return out


@pytest.mark.parametrize("cash", [2**32, 2**31 - 1, MAX_CASH + 1, 10**30])
def test_cash_past_what_a_game_holds_is_refused(table, srv, capsys, tmp_path, cash):
    bad = with_cash(table, cash)
    with pytest.raises(TableError, match=rf"^players\[0\]\.cash: must be at most {MAX_CASH}, got {cash}$"):
        table_state(bad)
    r = call(srv, "POST", "/v1/analyse", {"table": bad, "rollouts": 8})
    assert r.status == 400 and f"at most {MAX_CASH}" in r.errors[0]["message"]
    path = tmp_path / "table.json"
    path.write_text(json.dumps(bad))
    status, err = cli(capsys, "analyse", str(path), "--rollouts", "8")
    assert status == 2 and f"players[0].cash: must be at most {MAX_CASH}" in err
    assert table_state(with_cash(table, MAX_CASH)).phase == "auction"  # the bound itself is fine


def test_cash_that_is_no_integer_is_refused(table):
    for cash in (1e30, 2.5, "30", None):
        with pytest.raises(TableError, match=r"players\[0\]\.cash: must be an integer"):
            table_state(with_cash(table, cash))


def test_a_high_bid_the_bidder_cannot_pay_is_refused(table):
    bad = copy.deepcopy(table)
    bad["current_player"] = 1
    bad["auction"] = {"high_bid": 60, "high_bidder": 0, "bidding": [0, 1, 2, 3]}
    with pytest.raises(TableError, match=r"auction\.high_bid: the high bidder \(0\) can pay at most 54"):
        table_state(bad)
    bad["auction"]["high_bid"] = 54
    assert table_state(bad).current_player() == 1


def test_at_most_five_players_in_a_voyage_state(srv, capsys):
    with pytest.raises(manila.StateError) as exc:
        manila.evaluate(ELEVEN)
    (problem,) = exc.value.problems
    assert problem.path == "spots.port_c" and "names 11 players" in problem.message
    assert "at most 5" in problem.message
    r = call(srv, "POST", "/v1/evaluate", {"notation": ELEVEN})
    assert r.status == 400 and r.errors[0]["path"] == "spots.port_c"
    status, err = cli(capsys, "evaluate", ELEVEN)
    assert status == 2 and "at most 5" in err
    five = START.replace("silk@2", "silk@2:a,b,c") + " port_a=d port_b=e"
    assert manila.evaluate(five).best_spot()


def test_at_most_five_players_in_an_advice_order(srv, capsys):
    six = START + " turn=a order=a,b,c,d,e,f"
    with pytest.raises(manila.StateError, match=r"moment\.order: .*6 players .*at most 5"):
        manila.advise(six)
    r = call(srv, "POST", "/v1/advise", {"notation": six})
    assert r.status == 400 and r.errors[0]["path"] == "moment.order"
    status, err = cli(capsys, "advise", six)
    assert status == 2 and "at most 5" in err


def test_a_budget_past_what_a_game_holds_is_refused():
    state = {
        "next_roll": 3,
        "boats": {"ginseng": {"position": 9}, "silk": {"position": 10}, "jade": {"position": 11}},
    }
    for budget in (MAX_BUDGET + 1, 2**40):
        with pytest.raises(manila.StateError, match=rf"budget\.red: .*at most {MAX_BUDGET}, got {budget}"):
            manila.evaluate({**state, "budget": {"red": budget}})
    assert manila.evaluate({**state, "budget": {"red": MAX_BUDGET}})


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rollouts", "100000000000"], f"rollouts: must be an integer from 2 to {MAX_ROLLOUTS}"),
        (["--seed", "-1"], "seed: must be an integer from 0 to 18446744073709551615"),
        (["--time-limit", "inf"], "time_limit: must be a number from 0 to 86400"),
        (["--threads", "100000000000"], "threads: must be an integer from 0 to 256"),
    ],
)
def test_analysis_effort_is_capped(table, srv, capsys, tmp_path, args, message):
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    status, err = cli(capsys, "analyse", str(path), *args)
    assert status == 2 and message in err
    key = args[0][2:].replace("-", "_")
    value = json.loads(args[1]) if args[1] != "inf" else float("inf")
    with pytest.raises(ValueError, match=message):
        manila.analyse(table, **{key: value})
    if key == "rollouts":
        r = call(srv, "POST", "/v1/analyse", {"table": table, key: value})
        assert r.status == 400 and r.errors[0]["message"]


def test_review_effort_is_capped(srv, capsys, tmp_path):
    record = tmp_path / "game.jsonl"
    assert (
        main(["simulate", "--players", "3", "--games", "1", "--bots", "greedy", "--record", str(record)]) == 0
    )
    capsys.readouterr()
    status, err = cli(capsys, "review", str(record), "--rollouts", "100000000000")
    assert status == 2 and f"rollouts: must be an integer from 2 to {MAX_ROLLOUTS}" in err
    line = json.loads(record.read_text().splitlines()[0])
    for key in ("rollouts", "luck_rollouts"):
        for bad in ([1], "x", 10**30):
            r = call(srv, "POST", "/v1/review", {"record": line, key: bad})
            assert r.status == 400 and key in r.errors[0]["path"] + r.errors[0]["message"], (bad, r.body)


@pytest.mark.parametrize("limit", ["nan", "inf", "0", "-1", "1e9"])
def test_the_servers_time_limit_is_bounded(capsys, limit):
    status, err = cli(capsys, "serve", "--time-limit", limit, "--port", "0")
    assert status == 2 and "--time-limit must be more than 0 and at most 86400 seconds" in err


@pytest.mark.parametrize("spec", ["os:system", "json:JSONDecoder", "json:dumps", "manila:EXAMPLE"])
def test_a_module_class_that_is_not_a_bot_is_refused(capsys, spec):
    with pytest.raises(ValueError, match=rf"bot '{spec}': not a bot: "):
        manila.ladder(players=3, bots=f"{spec},greedy,greedy", games=3)
    status, err = cli(capsys, "ladder", "--players", "3", "--games", "3", "--bots", f"{spec},greedy,greedy")
    assert status == 2 and "not a bot" in err


def test_actions_are_whole_numbers():
    env = manila.VectorEnv(players=3, num_envs=2)
    env.reset(1)
    for bad, message in (
        ([0.5, 0], r"actions\[0\]: an action id is a whole number, got 0\.5"),
        ([0, float("nan")], r"actions\[1\]: an action id is a whole number, got nan"),
        ([True, False], r"actions: action ids \(integers\) are needed"),
        (["1", "2"], r"actions: action ids \(integers\) are needed"),
    ):
        with pytest.raises(ValueError, match=message):
            env.step(bad)
    legal = [int(env.masks[i].nonzero()[0][0]) for i in range(2)]
    env.step([float(a) for a in legal])  # whole floats are action ids


@pytest.mark.parametrize("given", ["", "  "])
def test_an_empty_state_says_so(capsys, given):
    status, err = cli(capsys, "evaluate", given)
    assert status == 2 and err.startswith("manila: error: the state given is empty: give a file")


def test_a_record_line_sent_to_play_says_what_it_is(srv, tmp_path):
    record = tmp_path / "game.jsonl"
    assert (
        main(["simulate", "--players", "3", "--games", "1", "--bots", "greedy", "--record", str(record)]) == 0
    )
    line = json.loads(record.read_text().splitlines()[0])
    r = call(srv, "POST", "/v1/play", {"game": line, "action": "pass"})
    assert r.status == 400
    assert r.errors[0]["message"].startswith("this is a line of simulate --record")
    assert "POST /v1/review" in r.errors[0]["message"]


def test_an_office_worth_nothing_prints_no_negative_zero():
    option = (1.0, 0.0, -0.0, 0.0)  # mean, ci95, diff, diff_ci95
    words, _ = _core.plain_words(
        decider="p0",
        kind="auction",
        horizon="voyage",
        options=[("pass", *option), ("up to 1", *option)],
        best=0,
        worth=0,
        screened_out=0,
    )
    assert "-0.00" not in words and "up to 1 is 0.00 ± 0.00 pesos worse than passing" in words


def _position() -> str:
    return "r3 ginseng@9:a silk@11:b jade@10:c,d turn=a order=a,b,c,d"


# Every public call that takes one of these options, and what it says when it is wrong: a
# ValueError naming the field and the rule, never the binding's signature nor a quiet yes.
ARGUMENTS = [
    (lambda: manila.evaluate(manila.EXAMPLE, threads=-1), "threads: must be an integer from 0 to 256"),
    (lambda: manila.evaluate(manila.EXAMPLE, threads=1.5), "threads: must be an integer from 0 to 256"),
    (lambda: manila.evaluate(manila.EXAMPLE, threads=257), "threads: must be an integer from 0 to 256"),
    (lambda: manila.evaluate(manila.EXAMPLE, strict="no"), "strict: must be true or false, or null"),
    (lambda: manila.evaluate(manila.EXAMPLE, exact="yes"), "exact: must be true or false, or null"),
    (lambda: manila.evaluate_many([manila.EXAMPLE], threads=10**6), "threads: must be an integer"),
    (lambda: manila.evaluate_many(None), "states: must be a list, got NoneType"),
    (lambda: manila.advise(_position(), threads=None), "threads: must be an integer"),
    (lambda: manila.sweep(next_roll=3, threads=-1), "threads: must be an integer"),
    (lambda: manila.simulate(4, 4, "random", threads=10000), "threads: must be an integer"),
    (lambda: manila.simulate(4, 0, "random"), "games: must be an integer from 1"),
    (lambda: manila.simulate(4, 2, 7), "bots: must be a list, got int"),
    (lambda: manila.ladder(4, "greedy,random,random,random", games=4, threads=-1), "threads: must be"),
    (lambda: manila.ladder(4, "greedy,random,random,random", games=0), "games: must be an integer from 1"),
    (lambda: manila.rank_starts(3), "goods: three goods"),
    (lambda: manila.VectorEnv(10**9), "num_envs: must be an integer from 1 to 262144"),
    (lambda: manila.VectorEnv(True), "num_envs: must be an integer"),
    (lambda: manila.VectorEnv(2, threads=1000), "threads: must be an integer"),
    (lambda: manila.VectorEnv(2, autoreset="no"), "autoreset: must be true or false, got 'no'"),
    (lambda: manila.VectorEnv(2, explicit_chance=2), "explicit_chance: must be true or false"),
    (lambda: manila.VectorEnv(2).chance_outcomes(1.5), r"env: must be 0\.\.1, got 1\.5"),
    (lambda: manila.VectorEnv(2).state(True), r"env: must be 0\.\.1, got True"),
    (lambda: manila.VectorEnv(2).observe(0, None), r"player: must be 0\.\.3, got None"),
    (lambda: manila.VectorEnv(2).sample_actions("x"), "rng: a manila.Rng or None, got str"),
    (lambda: manila.CancelToken(time_limit="1"), "time_limit: must be a number from 0 to 86400"),
    (lambda: manila.cancellable("x").__enter__(), "token: a manila.CancelToken or None, got str"),
    (lambda: manila.Rules("x"), 'rules.thirteen_after_last_roll: must be "port" or "shipyard"'),
    (lambda: manila.Rules("port", "yes"), "rules.pirate_variant: must be true or false"),
]


@pytest.mark.parametrize(("call_it", "message"), ARGUMENTS, ids=range(len(ARGUMENTS)))
def test_every_calls_options_are_checked_naming_the_field(call_it, message):
    with pytest.raises(ValueError, match=message):
        call_it()


def test_a_seat_that_is_no_player_is_refused_not_taken_for_another(table):
    state = table_state(table)
    assert state.legal_actions(state.current_player()) == state.legal_actions()
    assert state.legal_actions((state.current_player() + 1) % 4) == []  # another player: none
    for seat in (99, -7, "p1", 1.0, True):
        with pytest.raises(ValueError, match=r"^player: must be 0\.\.3"):
            state.legal_actions(seat)
        with pytest.raises(ValueError, match=r"^player: must be 0\.\.3"):
            state.wealth(seat)


# Command-line options that were taken quietly or ended in a traceback: refused before any
# work, naming the option and the rule.
OPTIONS = [
    (["evaluate", START, "--threads", "99999999999999999999"], "threads: must be an integer from 0 to 256"),
    (["evaluate", START, "--threads", "-5"], "threads: must be an integer from 0 to 256"),
    (["train-policy", "--quiet", "--out", "p.npz", "--hidden", "99999999999"], "from 1 to 4096"),
    (["train-value", "--out", "m.inc", "--seed", "-1"], "seed: must be an integer from 0"),
    (
        ["train-value", "--out", "m.inc", "--games", "4", "--held-out", "4", "--threads", "999"],
        "threads: must be an integer",
    ),
    (["ladder", "--games", "8", "--delta", "nan"], "--delta: only with --stop-early"),
    (["web", "--out", ""], "a folder is needed, got an empty name"),
    (["sweep", "-o", "x.npz", "--workers", "-1", "--executor", "process"], "--workers: must be at least 1"),
    (["review", "tests/golden/4p-mixed-bots.jsonl", "--worst", "-1"], "--worst: must be at least 0"),
]


@pytest.mark.parametrize(("argv", "message"), OPTIONS, ids=[" ".join(a[:2]) for a, _ in OPTIONS])
def test_command_line_options_are_refused_naming_the_option(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)  # whatever a wrong option would write lands here, and is seen
    if argv[0] == "review":
        argv = [argv[0], str(Path(__file__).parent / "golden" / "4p-mixed-bots.jsonl"), *argv[2:]]
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2 and message in err, err
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []

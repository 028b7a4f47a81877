"""manila.analyse, tables (manila.game.table), the analyse command and POST /v1/analyse."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import manila
from helpers.serving import call, serving
from manila import _core
from manila.analysis.analysis import analyse, render_analysis
from manila.game import Game, State
from manila.game.table import TableError, table_state


def played(seed: int, until: str, players: int = 4) -> State:
    """A greedy-wealth game played to the first decision of the kind `until`."""
    state = Game(players, seed=seed).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        if _core.decision_kind(state._s) == until:
            return state
        state.apply_action(_core.greedy_action(state._s, True))
    raise AssertionError(until)


@pytest.fixture(scope="module")
def auction() -> State:
    return played(0, "auction")


@pytest.fixture(scope="module")
def harbour() -> State:
    return played(0, "harbour_master")


# ---------------------------------------------------------------- tables


def every_decision(seeds: range) -> Iterator[State]:
    for seed in seeds:
        state = Game(4, seed=seed).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance()
                continue
            yield state
            state.apply_action(_core.greedy_action(state._s, True))


def test_a_table_gives_the_state_the_player_sees() -> None:
    for k, state in enumerate(every_decision(range(2))):
        p = k % 4
        table = table_state(state.observation(p), seed=k)
        seen, built = state.observation(p), table.observation(p)
        for key in (
            "phase",
            "current_player",
            "voyage",
            "harbour_master",
            "prices",
            "supply",
            "boats",
            "spots",
        ):
            assert built[key] == seen[key], key
        assert built["players"] == seen["players"]
        assert table.legal_actions() == state.legal_actions()


def test_the_hidden_shares_are_sampled_consistently() -> None:
    state = played(3, "placement")
    view = state.observation(1)
    deals = set()
    for seed in range(30):
        table = table_state(view, seed=seed).to_dict()
        for good in manila.GOODS:
            total = table["supply"][good] + sum(p["shares"][good] for p in table["players"])
            assert total == 5
        deals.add(json.dumps([p["shares"] for p in table["players"]]))
    assert len(deals) > 1  # the others' face-down shares differ from sample to sample


def test_a_serialized_state_is_replayed(auction: State) -> None:
    assert table_state(auction.serialize()) == auction


def broken(state: State, path: str, value: Any) -> dict[str, Any]:
    """The player to move's table with one field changed (KeyError: removed)."""
    table = copy.deepcopy(state.observation(state.current_player()))
    *keys, last = path.split(".")
    node: Any = table
    for key in keys:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is KeyError:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return table


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("players.0.cash", -3, r"players\[0\]\.cash"),
        ("players.1.hidden_shares", 1, r"players\[1\]\.hidden_shares"),
        ("supply.jade", 5, "shares.jade|supply"),
        ("prices.silk", 7, "prices.silk"),
        ("phase", "roll", "phase"),
        ("phase", "dance", "phase"),
        ("observer", 9, "observer"),
        ("current_player", "p1", "current_player"),
        ("auction.high_bid", -1, "auction.high_bid"),
        ("auction.bidding", [], "auction.bidding"),
        ("supply", KeyError, "supply"),
        ("players", [], "players"),
    ],
)
def test_impossible_tables_name_the_field(auction: State, path: str, value: Any, field: str) -> None:
    with pytest.raises(TableError, match=field):
        table_state(broken(auction, path, value))


@pytest.mark.parametrize(
    ("where", "value", "field"),
    [
        ("position", 20, "position"),
        ("crew", [0, 1, 2, 3, 0], "crew"),
        ("crew", ["p1"], "crew"),
    ],
)
def test_impossible_boats_name_the_field(where: str, value: Any, field: str) -> None:
    state = played(1, "placement")
    table = state.observation(state.current_player())
    good = next(iter(table["boats"]))
    table["boats"][good][where] = value
    with pytest.raises(TableError, match=rf"boats\.{good}\.{field}"):
        table_state(table)


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("spots", {"pirate_9": 1}, "spots.pirate_9"),
        ("next_roll", 0, "next_roll"),
        ("stays_home", "tea", "stays_home"),
    ],
)
def test_impossible_boards_name_the_key(key: str, value: Any, field: str) -> None:
    state = played(1, "placement")
    table = dict(state.observation(state.current_player()), **{key: value})
    with pytest.raises(TableError, match=field.replace(".", r"\.")):
        table_state(table)


def test_not_json_is_refused() -> None:
    with pytest.raises(TableError, match="table"):
        table_state("{not json")


# ---------------------------------------------------------------- the API


def test_the_json_of_part_5(auction: State) -> None:
    result = analyse(auction, rollouts=32, seed=1, max_bids=4)
    data = result.to_dict()
    for key in ("decider", "kind", "horizon", "policy", "rollouts", "seed", "exact", "options", "best"):
        assert key in data
    assert data["decider"] == "p0" and data["kind"] == "auction" and data["rollouts"] == 32
    assert next(iter(data["options"])) == "pass" and data["options"]["pass"]["diff"] == 0.0
    for option in data["options"].values():
        assert set(option) >= {"mean", "ci95", "diff", "diff_ci95"}
    json.dumps(data, allow_nan=False)
    assert analyse(auction, rollouts=32, seed=1, max_bids=4).to_dict()["options"] == data["options"]


def test_a_table_is_analysed_with_sampled_shares(auction: State) -> None:
    table = auction.observation(0)
    one = analyse(table, rollouts=16, seed=2, max_bids=3)
    two = analyse(table, rollouts=16, seed=2, max_bids=3)
    assert one.to_dict()["options"] == two.to_dict()["options"]


def test_exact_where_part_4_is() -> None:
    state = played(2, "pilot_small")
    result = analyse(state)
    assert result.exact and result.stop == "exact"
    advice = manila.advise(state.position("wealth")).to_dict()
    assert {n: o.diff for n, o in result.options.items()} == {
        n: o["expected_net"] for n, o in advice["options"].items()
    }


def test_plain_words_for_the_auction_and_the_harbour_master(auction: State, harbour: State) -> None:
    result = analyse(auction, rollouts=48, seed=1, max_bids=6)
    words = " ".join(result.plain_words())
    assert "Best:" in words and "The office is worth" in words
    # The worth is the highest ceiling whose paired value is at least passing's (option 0).
    assert next(iter(result.options)) == "pass"
    ceilings = {int(n.split()[-1]): o for n, o in result.options.items() if n.startswith("up to ")}
    assert result.worth == max([x for x, o in ceilings.items() if o.diff >= 0] or [0])
    assert result.to_dict()["worth"] == result.worth
    if result.worth:
        assert f"worth up to {result.worth} to {result.decider}" in words
    # Said to the decider: their seat reads "you", and nothing else changes.
    said = result.to_dict()["words_to_decider"]
    assert said == [w.replace(result.decider, "you") for w in result.plain_words()]
    assert result.worth == 0 or f"worth up to {result.worth} to you" in said[0]
    words_of = {"decider": "p1", "kind": "auction", "horizon": "voyage", "best": 1, "worth": 1}
    words_of |= {"options": [("pass", 0, 0, 0, 0), ("up to 1", 1, 0, 1, 0)], "screened_out": 0}
    assert "worth up to 1 to p1 " in _core.plain_words(**words_of)[0]
    assert "worth up to 1 to you " in _core.plain_words(**words_of, to_decider=True)[0]
    result = analyse(harbour, rollouts=16, seed=1, screen=12)
    words = "\n".join(result.plain_words())
    assert "Good left home:" in words and "screened out" in words
    table = render_analysis(result)
    assert "±" in table and result.best in table


def test_game_horizon(auction: State) -> None:
    result = analyse(auction, horizon="game", rollouts=8, seed=1, max_bids=2)
    assert result.to_dict()["unit"] == "equity" and result.to_dict()["value"] == "learned"
    assert all(0 <= (o.win or 0) <= 1 and o.margin is not None for o in result.options.values())
    assert "equity" in render_analysis(result)


def test_progress_is_called_and_can_stop(auction: State) -> None:
    calls: list[int] = []

    def progress(done: int, gap: float) -> bool:
        calls.append(done)
        return False

    result = analyse(auction, seed=1, max_bids=3, progress=progress)
    assert calls and result.stop == "cancelled"


def test_an_error_in_progress_is_raised(auction: State) -> None:
    def progress(done: int, gap: float) -> bool:
        raise KeyError("stop")

    with pytest.raises(KeyError):
        analyse(auction, seed=1, max_bids=3, progress=progress)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"horizon": "week"}, "horizon"),
        ({"policy": "oracle"}, "policy"),
        ({"rollouts": 0}, "rollouts"),
        ({"seed": -1}, "seed"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"time_limit": 10**400}, "time_limit"),  # an int past a float's range: no float() of it
        ({"target": 0}, "target"),
        ({"screen": -2}, "screen"),
        ({"exact": "yes"}, "exact"),
    ],
)
def test_bad_arguments(auction: State, kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        analyse(auction, **kwargs)


def test_no_decision() -> None:
    with pytest.raises(ValueError, match="chance"):
        analyse(Game(4, seed=0).new_initial_state())
    with pytest.raises(ValueError, match="table_or_state"):
        analyse(42)  # type: ignore[arg-type]


def test_the_expert_bot_plays() -> None:
    result = manila.simulate(players=4, bots="expert,greedy,greedy,greedy", games=2, seed=1)
    assert result.games == 2


def seat0_moves(game_seed: int, hero: str, seed: int, other: Any) -> list[tuple[State, int]]:
    """A 4-player game with `hero` in seat 0 (its generator seeded `seed`) and `other(state)`
    choosing for the rest: seat 0's positions before each of its actions, and the actions."""
    state = Game(4, seed=game_seed).new_initial_state()
    rng = _core.Rng(seed)
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        if state.current_player() == 0:
            a = _core.bot_action(state._s, hero, rng)
            out.append((state.clone(), a))
        else:
            a = other(state._s)
        state.apply_action(a)
    return out


def test_the_expert_rolls_out_placements_before_the_last_round_only() -> None:
    # The expert and the solver search a placement round alike; before the last round the
    # expert re-values the search's best options by rollouts, and so parts from the solver
    # there, and only there.
    earlier, last = [], []
    for s, a in seat0_moves(4, "expert", 1, _core.solver_action):
        if s.phase == "placement":
            same = a == _core.solver_action(s._s)
            (last if s._s.snapshot()["next_roll"] == 3 else earlier).append(same)
    assert last and all(last), last
    assert earlier and not all(earlier), earlier


def test_the_rollout_bot_plays_unlike_the_others() -> None:
    # It is there to test the others against a different player: at its own decisions of a
    # game, it must part from each deterministic bot somewhere, and replay with its seed.
    def moves(seed: int) -> list[tuple[State, int]]:
        return seat0_moves(3, "rollout", seed, lambda s: _core.greedy_action(s, True))

    played = moves(5)
    assert [a for _, a in played] == [a for _, a in moves(5)]
    for other in ("greedy", "greedy-wealth", "solver"):
        differ = sum(_core.bot_action(s._s, other) != a for s, a in played)
        assert differ > len(played) // 10, (other, differ, len(played))


# ---------------------------------------------------------------- the command and the server


def test_the_command(tmp_path: Any, auction: State) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(auction.observation(0)))
    run = [sys.executable, "-m", "manila", "analyse", str(path), "--rollouts", "16", "--max-bids", "3"]
    out = subprocess.run([*run, "--json"], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["kind"] == "auction"
    bad = dict(auction.observation(0), phase="roll")
    path.write_text(json.dumps(bad))
    out = subprocess.run(run, capture_output=True, text=True)
    assert out.returncode == 2 and "phase" in out.stderr and out.stderr.startswith("manila: error:")


def post(srv: Any, body: Any) -> tuple[int, dict[str, str], Any]:
    reply = call(srv, "POST", "/v1/analyse", body)
    return reply.status, dict(reply.headers), json.loads(reply.body)


@pytest.fixture(scope="module")
def srv() -> Iterator[Any]:
    with serving() as server:
        yield server


def test_the_server_analyses(srv: Any, auction: State) -> None:
    status, _, data = post(srv, {"table": auction.observation(0), "rollouts": 16, "max_bids": 3})
    assert status == 200 and data["kind"] == "auction" and data["rollouts"] == 16
    status, _, data = post(srv, {"table": auction.observation(0), "rollouts": 10**6})
    assert status == 400 and data["errors"][0]["path"] == "rollouts"
    status, _, data = post(srv, {"table": dict(auction.observation(0), phase="roll")})
    assert status == 400 and data["errors"][0]["path"] == "table.phase"
    status, _, data = post(srv, {"tabel": {}})
    assert status == 400


@pytest.mark.parametrize(
    ("given", "limit"), [(None, 8.0), (3, 3), (0.5, 0.5), (0, 8.0), (-0.0, 8.0), (9, 8.0), (10**400, 8.0)]
)
def test_the_server_caps_the_time_limit(given: Any, limit: float) -> None:
    """At 80% of the request's limit, whatever is asked: no time limit (0) too, and an int
    past a float's range (float() of it raised)."""
    from manila.server.app import _analysis_input

    body = {"table": {}} if given is None else {"table": {}, "time_limit": given}
    assert _analysis_input(body, 10.0)["time_limit"] == limit


def test_the_server_cuts_a_fixed_number_of_rollouts_short_at_its_cap(auction: State) -> None:
    """2000 rollouts of 11 options take seconds: on a server with 2 s a request, the analysis
    stops by itself at 80% of them and answers with what it has (not a 503 at 2 s)."""
    body = {"table": auction.observation(0), "rollouts": 2000, "max_bids": 10}
    with serving(time_limit=2) as server:
        status, _, data = post(server, body)
    assert status == 200, data
    assert data["stop"] == "time" and 0 < data["rollouts"] < 2000


def test_the_server_is_busy_at_its_heavy_limit(srv: Any, auction: State) -> None:
    assert srv.heavy.acquire(blocking=False)
    try:
        status, headers, data = post(srv, {"table": auction.observation(0), "rollouts": 4})
    finally:
        srv.heavy.release()
    assert status == 503 and headers.get("Retry-After") == "1" and "busy" in data["errors"][0]["message"]


def test_openapi_describes_analyse() -> None:
    from manila.server import openapi

    doc = openapi.description()
    assert "/v1/analyse" in doc["paths"] and "Analysis" in doc["components"]["schemas"]

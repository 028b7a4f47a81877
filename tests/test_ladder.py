"""The ladder: rotations, counts, JSON, determinism, Python bots, ratings and bad input."""

import collections
import json

import pytest

from helpers import ladder_bots
from manila import _core
from manila.arena.ladder import Sprt, _Ratings, ladder, seating, wilson_interval
from manila.bots import bot_names, register_bot
from manila.cli import main
from manila.game import IllegalActionError

KEYS = {"games", "wins", "win_rate", "ci95", "mean_wealth", "rating"}


def test_games_are_counted_per_seat_and_wins_add_up():
    result = ladder(players=4, bots="greedy,random,random,random", games=8, seed=1)
    assert result.games == 8 and result.rotations == 2
    assert result.bots["greedy"].games == 8 and result.bots["random"].games == 24
    assert sum(s.wins for s in result.bots.values()) == pytest.approx(8)
    for s in result.bots.values():
        lo, hi = s.ci95
        assert 0 <= lo <= s.win_rate <= hi <= 1


def test_seats_rotate_evenly():
    lineup = ["a", "b", "c", "d", "e"]
    for bot in lineup:
        assert sorted(seating(lineup, j).index(bot) for j in range(5)) == list(range(5))
    ladder_bots.SEATS_SEEN.clear()
    ladder(players=3, bots="helpers.ladder_bots:FirstLegal,random,random", games=6, seed=2)
    assert collections.Counter(ladder_bots.SEATS_SEEN) == {0: 2, 1: 2, 2: 2}


def test_same_seed_same_result_whatever_the_executor():
    first = ladder(players=4, games=8, seed=5).to_dict()
    assert ladder(players=4, games=8, seed=5, threads=1).to_dict() == first
    assert ladder(players=4, games=8, seed=5, executor="threads").to_dict() == first
    assert ladder(players=4, games=8, seed=6).to_dict() != first


def test_processes_executor_gives_the_same_result():
    bots = "greedy,helpers.ladder_bots:FirstLegal,random"
    assert (
        ladder(players=3, bots=bots, games=3, seed=4, executor="processes").to_dict()
        == ladder(players=3, bots=bots, games=3, seed=4).to_dict()
    )


def test_python_bots_play_the_same_games_as_the_engine():
    core = ladder(players=4, bots="greedy,random,random,random", games=4, seed=3).to_dict()["bots"]
    python = ladder(players=4, bots="manila.bots:GreedyBot,random,random,random", games=4, seed=3).to_dict()[
        "bots"
    ]
    for key in ("games", "wins", "mean_wealth"):
        assert python["manila.bots:GreedyBot"][key] == core["greedy"][key]
    mixed = ladder(
        players=4,
        bots="helpers.ladder_bots:NoSeed,helpers.ladder_bots:FirstLegal,greedy,random",
        games=4,
        seed=3,
    )
    assert set(mixed.bots) == {
        "helpers.ladder_bots:NoSeed",
        "helpers.ladder_bots:FirstLegal",
        "greedy",
        "random",
    }


def test_registered_bots_join_the_ladder():
    register_bot("first-legal", ladder_bots.FirstLegal)
    try:
        assert "first-legal" in bot_names()
        result = ladder(players=3, bots="first-legal,random,greedy", games=3, seed=1)
        assert result.bots["first-legal"].games == 3
    finally:
        from manila.bots import builtin as bots

        del bots._REGISTRY["first-legal"]


def test_json_from_the_command_line(capsys):
    assert (
        main(
            [
                "ladder",
                "--players",
                "4",
                "--bots",
                "greedy,random,random,random",
                "--games",
                "8",
                "--seed",
                "1",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 8 and set(data["bots"]) == {"greedy", "random"}
    for stats in data["bots"].values():
        assert set(stats) == KEYS and len(stats["ci95"]) == 2
    assert main(["ladder", "--games", "4", "--seed", "1"]) == 0
    table = capsys.readouterr().out
    assert "greedy" in table and "95% interval" in table and "games/s" in table


def test_bad_input_is_refused_with_the_field_named(capsys):
    with pytest.raises(ValueError, match=r"multiple of 4.*use 200 or 204"):
        ladder(players=4, games=201)
    with pytest.raises(ValueError, match="one per seat"):
        ladder(players=4, bots="random,random")
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        ladder(players=3, bots="random,random,smart")
    with pytest.raises(ValueError, match="cannot import"):
        ladder(players=3, bots="random,random,no_such_module_x:Bot")
    with pytest.raises(ValueError, match="has no"):
        ladder(players=3, bots="random,random,helpers.ladder_bots:Missing")
    with pytest.raises(ValueError, match="executor"):
        ladder(players=3, bots="random", games=3, executor="gpu")
    with pytest.raises(ValueError, match="games"):
        ladder(players=3, bots="random,random,random", games=-3)
    with pytest.raises(ValueError, match="players"):
        ladder(players=6, bots="random," * 5 + "random", games=6)
    assert main(["ladder", "--games", "7"]) == 2
    assert "multiple of 4" in capsys.readouterr().err


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0 and wilson_interval(10, 10)[1] == 1
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_ratings_follow_rankings_and_ties():
    pytest.importorskip("openskill")
    ratings = _Ratings(["a", "b", "c"])
    ratings.update(["a", "b", "c"], [50, 50, 10])
    a, b, c = (ratings.result(x) for x in "abc")
    assert a["mu"] == pytest.approx(b["mu"]) and a["mu"] > c["mu"]
    ratings.update(["a", "b", "c"], [60, 40, 10])
    assert ratings.result("a")["mu"] > ratings.result("b")["mu"]
    result = ladder(players=4, games=8, seed=1)
    assert result.bots["greedy"].rating["mu"] > result.bots["random"].rating["mu"]


def test_a_dask_cluster_gives_the_same_table_as_threads():
    distributed = pytest.importorskip("distributed")
    threads = ladder(players=4, bots="greedy,random,random,random", games=16, seed=8, executor="threads")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        dask = ladder(players=4, bots="greedy,random,random,random", games=16, seed=8, executor=client)
        python_bot = "greedy,helpers.ladder_bots:FirstLegal,random"
        assert (
            ladder(players=3, bots=python_bot, games=6, seed=8, executor=client).to_dict()
            == ladder(players=3, bots=python_bot, games=6, seed=8).to_dict()
        )
    assert dask.to_dict() == threads.to_dict()
    assert dask.table().split("\ntime:")[0] == threads.table().split("\ntime:")[0]


def test_stopping_early_is_the_ladder_cut_at_the_deciding_rotation():
    bots = "greedy,random,random,random"
    result = ladder(players=4, bots=bots, games=400, seed=2, stop_early=True)
    q = result.to_dict()["sequential"]
    assert q["decision"] == "greedy" and q["a"] == "greedy" and q["b"] == "random"
    assert result.games < 400 and q["llr"] >= Sprt().bounds[1]
    # The same cut on any executor, and the same table as a ladder of that many games.
    assert ladder(players=4, bots=bots, games=400, seed=2, stop_early=True, executor="threads").to_dict() == (
        result.to_dict()
    )
    plain = ladder(players=4, bots=bots, games=result.games, seed=2).to_dict()
    assert {k: v for k, v in result.to_dict().items() if k != "sequential"} == plain
    assert "greedy is better than random" in result.table()
    # The other way round: the test names the better bot whichever comes first.
    flipped = ladder(players=4, bots=bots, games=400, seed=2, stop_early=Sprt(a="random", b="greedy"))
    assert flipped.sequential["decision"] == "greedy" and flipped.sequential["llr"] <= Sprt().bounds[0]


def test_an_undecided_test_plays_every_game():
    result = ladder(
        players=4, bots="random,random,greedy,random", games=8, seed=2, stop_early=Sprt(delta=0.01)
    )
    assert result.games == 8 and result.sequential["decision"] is None


@pytest.mark.parametrize(
    "stop, message",
    [
        (Sprt(a="greedy", b="greedy"), "two different bots"),
        (Sprt(a="solver", b="greedy"), "not in the lineup"),
        (Sprt(delta=0.5), "delta: between 0 and 0.5"),
        (Sprt(alpha=0), "alpha: between 0 and 0.5"),
        ("yes", "stop_early: True, False or a Sprt"),
    ],
)
def test_bad_sequential_tests_are_refused(stop, message):
    with pytest.raises(ValueError, match=message):
        ladder(players=4, bots="greedy,random,random,random", games=4, stop_early=stop)
    with pytest.raises(ValueError, match="two different bots to compare"):
        ladder(players=3, bots="random", games=3, stop_early=True)


def test_an_illegal_action_names_the_bot_the_seed_and_the_seat():
    with pytest.raises(IllegalActionError) as info:
        ladder(players=3, bots="random,helpers.ladder_bots:Illegal,random", games=3, seed=4)
    message = str(info.value)
    assert message.startswith("bot 'helpers.ladder_bots:Illegal' at seat ")
    seed = int(message.split("game seed ")[1].split(" ")[0])
    assert seed == _core.derive_seed(4, 0) and "(rotation 0, seating 0)" in message
    assert "move " in message and info.value.reason == message


def test_stop_early_from_the_command_line(capsys):
    assert main(["ladder", "--games", "400", "--seed", "2", "--stop-early", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] < 400 and data["sequential"]["decision"] == "greedy"
    assert main(["ladder", "--games", "40", "--stop-early", "--delta", "0.2"]) == 0
    assert "SPRT greedy against random, delta 0.2" in capsys.readouterr().out

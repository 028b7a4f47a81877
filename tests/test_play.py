"""POST /v1/play: a game against the bots held by the client (docs/play.md).

The same seed and the same choices give the same game as manila.Game with manila.bots.bots_for,
action for action; bad requests (a changed game, an illegal action, another version) get a
JSON error naming the action or the field, never a 500.
"""

from __future__ import annotations

import copy
import json
import random
import re
import time

import pytest

import manila
from helpers import play_route
from helpers.serving import call, serving
from manila.bots import bot_seed, bots_for, make_bot
from manila.game import Game, State
from manila.game.play import play
from manila.view import PlayerView


@pytest.fixture(scope="module")
def srv():
    with serving(hint_time=0.5) as s:
        yield s


def post(srv, body):
    return call(srv, "POST", "/v1/play", body)


def ok(srv, body):
    r = post(srv, body)
    assert r.status == 200, r.body
    return r.json()


def human_move(answer, bot):
    """The move the stand-in for the player picks, from the player's own view."""
    state = State.deserialize(answer["game"])
    human = answer["game"]["play"]["human"]
    assert state.current_player() == human
    return state.action_name(bot.step(PlayerView(state, human)))


def play_through(srv, players, seed, human, bots, human_bot):
    """Plays a whole game over HTTP, the player's moves chosen by ``human_bot``."""
    me = make_bot(human_bot, bot_seed(seed, human))
    answer = ok(srv, {"new": {"players": players, "seed": seed, "human": human, "bots": bots}})
    answers = [answer]
    while not answer["terminal"]:
        if answer["pending"]:
            answer = ok(srv, {"game": answer["game"]})
        else:
            action = human_move(answer, me)
            assert action in answer["legal_actions"]
            answer = ok(srv, {"game": answer["game"], "action": action})
        answers.append(answer)
    return answers


@pytest.mark.parametrize(
    ("players", "seed", "human", "bots", "human_bot"),
    [
        (4, 3, 0, ["random", "greedy", "greedy-wealth"], "greedy"),
        (3, 11, 2, ["random", "random"], "random"),
        (5, 7, 1, ["greedy", "random", "random", "greedy-wealth"], "greedy-wealth"),
        (3, 7, 1, ["expert", "random"], "greedy"),
    ],
)
def test_the_api_and_the_engine_play_the_same_game(srv, players, seed, human, bots, human_bot):
    answers = play_through(srv, players, seed, human, bots, human_bot)
    names = list(bots)
    names.insert(human, human_bot)
    reference = play(Game(players, seed), bots_for(names, seed))
    final = answers[-1]
    assert final["game"]["history"] == reference.history()
    assert final["final"]["wealth"] == reference.returns()
    assert final["final"]["winners"] == [f"p{p}" for p in reference.winners()]
    # At the end every share is face up, the others' dealt ones too.
    assert final["final"]["shares"] == [p["shares"] for p in reference.to_dict()["players"]]
    assert final["terminal"] and final["legal_actions"] == []
    # Every answer stops at the player's decision (or the end) and shows the player's view.
    for a in answers:
        state = State.deserialize(a["game"])
        assert a["view"] == state.observation(human)
        if not a["terminal"] and not a["pending"]:
            assert state.current_player() == human
            assert a["legal_actions"] == state.legal_action_names()
    log = [line for a in answers for line in a["log"]]
    assert any(line.startswith("roll: ") for line in log)
    assert sum(line.startswith("voyage ") for line in log) == reference.voyages_completed()


def test_the_view_and_the_log_hide_the_others_dealt_shares(srv):
    answer = ok(srv, {"new": {"players": 4, "seed": 5, "human": 1, "bots": ["greedy"] * 3}})
    state = State.deserialize(answer["game"])
    view = answer["view"]
    for p, seen in enumerate(view["players"]):
        if p != 1:
            assert seen["hidden_shares"] == 2 and seen["wealth"] is None
    deal = [line for line in answer["log"] if line.startswith("deal:")]
    assert len(deal) == 1
    mine = sorted(answer["face_down"])
    assert mine == sorted(g for g in manila.GOODS for _ in range(state.to_dict()["players"][1]["shares"][g]))
    assert deal[0] == f"deal: you get {', '.join(mine)} (face down: p0 2, p2 2, p3 2)"
    # The line names the player's own goods only: the others' are counted (checked whole above).


def test_the_log_reads_like_the_table(srv):
    answers = play_through(srv, 3, 2, 0, ["greedy", "greedy"], "greedy")
    log = [line for a in answers for line in a["log"]]
    assert any(" bids " in line or line.startswith("you bid ") for line in log)
    assert any(line.endswith("harbour master") or " harbour master for " in line for line in log)
    assert any(line.startswith("paid: ") for line in log)
    assert log[-1].startswith("game over: ")
    roll = next(line for line in log if line.startswith("roll: "))
    assert len(roll.split(", ")) == 3 and all(
        g in manila.GOODS for g in (w.split()[-2] for w in roll.split(", "))
    )


def test_a_loaded_game_gets_its_whole_log_back(srv):
    answers = play_through(srv, 3, 4, 1, ["greedy", "random"], "greedy")
    middle = answers[len(answers) // 2]
    again = ok(srv, {"game": middle["game"], "log": True})
    assert again["game"]["history"] == middle["game"]["history"]
    so_far = [line for a in answers[: len(answers) // 2 + 1] for line in a["log"]]
    assert again["log"] == so_far


def test_a_game_in_progress_goes_on_from_its_file(srv):
    """Saved mid-way (the JSON through a file), loaded, and played on: the same game."""
    answers = play_through(srv, 4, 9, 2, ["random", "random", "greedy"], "random")
    middle = answers[len(answers) // 2]
    text = json.dumps(middle["game"])
    me = make_bot("random", bot_seed(9, 2))
    # The stand-in's own generator must be where it was: replay its moves up to the middle.
    answer = ok(srv, {"game": json.loads(text), "log": True})
    for a in answers[: len(answers) // 2]:
        if not a["terminal"] and not a["pending"]:
            human_move(a, me)
    while not answer["terminal"]:
        answer = ok(srv, {"game": answer["game"], "action": human_move(answer, me)})
    assert answer["game"]["history"] == answers[-1]["game"]["history"]


NEW_31 = {"new": {"players": 3, "seed": 1, "human": 2, "bots": ["greedy", "greedy"]}}


def test_bots_that_run_out_of_time_leave_the_game_pending():
    first = play_route.answer(NEW_31, deadline=time.monotonic() - 1)
    assert first["pending"] and first["legal_actions"] == [] and first["to_move"] == "p0"
    again = play_route.move(first)
    assert not again["pending"] and again["to_move"] == "p2"
    direct = play_route.answer(NEW_31)
    assert again["game"] == direct["game"]


# --------------------------------------------------------------------------- bad requests


def error(srv, body, status=400):
    r = post(srv, body)
    assert r.status == status, r.body
    return r.errors


@pytest.fixture(scope="module")
def game(srv):
    return ok(srv, {"new": {"players": 4, "seed": 3, "human": 0, "bots": ["greedy"] * 3}})


def resign(record):
    record["check"] = play_route.checksum(record)
    return record


def test_an_illegal_action_is_named(srv, game):
    assert game["phase"] == "auction"
    (e,) = error(srv, {"game": game["game"], "action": "bid 99"})
    assert e["path"] == "action" and e["message"].startswith("'bid 99': ")
    (e,) = error(srv, {"game": game["game"], "action": "place silk"})
    assert e["path"] == "action" and "'place silk'" in e["message"]
    (e,) = error(srv, {"game": game["game"], "action": "fly away"})
    assert e["path"] == "action" and "'fly away'" in e["message"]
    (e,) = error(srv, {"game": game["game"], "action": 7})
    assert e["path"] == "action"


def test_a_changed_game_is_refused(srv, game):
    record = copy.deepcopy(game["game"])
    record["history"][-1] = record["history"][-1] ^ 1
    (e,) = error(srv, {"game": record, "action": "pass"})
    assert e["path"] == "game.check"
    # Even with its check written anew: a deal or roll the seed does not draw is named.
    i = 0  # the first deal
    record = copy.deepcopy(game["game"])
    deals = [a for a in range(manila.game.NUM_ACTIONS) if manila.game.action_name(a).startswith("deal ")]
    record["history"][i] = next(a for a in deals if a != record["history"][i])
    (e,) = error(srv, {"game": resign(record), "action": "pass"})
    assert e["path"] == "game.history[0]" and "(deal " in e["message"] and "seed" in e["message"]
    # An illegal move in the history is named with its place.
    record = copy.deepcopy(game["game"])
    record["history"].append(manila.game.action_id("place silk"))
    (e,) = error(srv, {"game": resign(record)})
    assert e["path"] == f"game.history[{len(record['history']) - 1}]" and "(place silk)" in e["message"]


def test_a_game_of_another_version_is_refused(srv, game):
    record = copy.deepcopy(game["game"])
    record["version"] = 2
    (e,) = error(srv, {"game": resign(record), "action": "pass"})
    assert e["path"] == "game.version"
    record = copy.deepcopy(game["game"])
    record["play"]["version"] = 99
    (e,) = error(srv, {"game": resign(record), "action": "pass"})
    assert e["path"] == "game.play.version"
    plain = State.deserialize(game["game"]).to_json()  # an engine state, not a game of /v1/play
    (e,) = error(srv, {"game": plain, "action": "pass"})
    assert e["path"] == "game.play"


def test_bad_new_games_and_bodies(srv, game):
    cases = [
        ({"new": {"players": 6}}, "new.players"),
        ({"new": {"players": 4, "human": 4}}, "new.human"),
        ({"new": {"players": 4, "bots": ["greedy"]}}, "new.bots"),
        ({"new": {"players": 3, "bots": ["greedy", "grredy"]}}, "new.bots[1]"),
        ({"new": {"players": 3, "bots": ["greedy", "os:system"]}}, "new.bots[1]"),
        ({"new": {"players": 3, "seed": -1}}, "new.seed"),
        ({"new": {"players": 3, "colour": "red"}}, "new.colour"),
        ({"new": {}, "game": game["game"]}, ""),
        ({}, ""),
        ({"game": game["game"], "action": "pass", "hint": True}, "hint"),
        ({"game": game["game"], "hint": "yes"}, "hint"),
        ({"game": game["game"], "move": "pass"}, "move"),
        ([1, 2], ""),
    ]
    for body, path in cases:
        (e,) = error(srv, body)
        assert e["path"] == path, (body, e)
    record = copy.deepcopy(game["game"])
    record["play"]["bots"][0] = "tests.evil:Bot"
    (e,) = error(srv, {"game": resign(record)})
    assert e["path"] == "game.play.bots[0]"


def test_random_damage_never_gets_a_500(srv, game):
    """Random edits of the game (its check written anew or not): a 200 or a JSON 400."""
    rng = random.Random(1)
    base = game["game"]
    values = [None, -1, 0, 1, 2**70, "x", [], {}, True, 3.5]
    for k in range(60):
        record = copy.deepcopy(base)
        key = rng.choice(list(record))
        if key == "history" and record["history"]:
            i = rng.randrange(len(record["history"]))
            record["history"][i] = rng.choice([*values, rng.randrange(400)])
        elif key == "play":
            record["play"][rng.choice(list(record["play"]))] = rng.choice(values)
        else:
            record[key] = rng.choice(values)
        if k % 2:
            record = resign(record) if isinstance(record, dict) else record
        r = post(srv, {"game": record, "action": "pass"})
        assert r.status in (200, 400), (record, r.body)
        if r.status == 400:
            assert r.errors


def test_not_your_move_and_the_end(srv):
    pending = play_route.answer(NEW_31, deadline=time.monotonic() - 1)
    (e,) = error(srv, {"game": pending["game"], "action": "pass"})
    assert e["path"] == "action" and "p0 is to move" in e["message"]
    done = play_through(srv, 3, 6, 0, ["greedy", "greedy"], "greedy")[-1]
    (e,) = error(srv, {"game": done["game"], "action": "pass"})
    assert e["path"] == "action" and "the game is over" in e["message"]
    (e,) = error(srv, {"game": done["game"], "hint": True})
    assert e["path"] == "hint"


def test_busy_is_a_503_with_retry_after():
    with serving(play_limit=1) as s:
        assert s.play_slots.acquire(blocking=False)
        try:
            r = post(s, {"new": {"players": 3}})
            assert r.status == 503 and r.headers["Retry-After"] == "1"
            assert r.errors
        finally:
            s.play_slots.release()
        assert post(s, {"new": {"players": 3, "bots": ["greedy", "greedy"]}}).status == 200


# --------------------------------------------------------------------------- hints


def test_hints_mark_a_legal_best_option(srv):
    """At every kind of decision met: the exact advice where it exists, else the analysis."""
    me = make_bot("greedy", bot_seed(8, 0))
    answer = ok(srv, {"new": {"players": 3, "seed": 8, "human": 0, "bots": ["greedy", "greedy"]}})
    seen = {}
    while not answer["terminal"] and len(seen) < 5:
        if answer["phase"] not in seen:
            got = ok(srv, {"game": answer["game"], "hint": True})
            h = got["hint"]
            assert got["game"] == answer["game"]  # a hint plays nothing
            assert h["best"] in answer["legal_actions"], h
            assert h["words"] and h["options"]
            for o in h["options"]:
                assert o["action"] in answer["legal_actions"], o
            exact = answer["phase"] in ("placement", "small_pilot", "large_pilot", "boarding")
            assert (h["source"] == "advice") == exact, (answer["phase"], h["source"])
            seen[answer["phase"]] = h
        answer = ok(srv, {"game": answer["game"], "action": human_move(answer, me)})
    assert {"auction", "placement"} <= set(seen), seen.keys()


def test_a_hint_of_many_rollouts_answers_within_its_time(srv):
    # 2,000 rollouts of every bid would take far longer than the server's 0.5 s for a hint
    # (and its 10 s for the request): the hint answers with the rollouts played by then.
    answer = ok(srv, {"new": {"players": 3, "seed": 8, "human": 0, "bots": ["greedy", "greedy"]}})
    assert answer["phase"] == "auction"
    hint = ok(srv, {"game": answer["game"], "hint": True, "rollouts": 2000})["hint"]
    played = re.search(r"\((\d+) rollouts", hint["words"][-1])
    assert hint["source"] == "analysis" and played and 0 < int(played[1]) < 2000, hint["words"]


def test_the_play_page_is_served(srv):
    r = call(srv, "GET", "/play")
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/html")
    assert b"/*PLAY*/" not in r.body and b"/*NAMES*/" not in r.body
    assert b'"default_bot"' in r.body


def test_the_servers_own_bots_play_through_the_engines_route():
    # A Python bot of the allow-list plays when the engine asks for its move, from its view.
    allowed = ["helpers.play_route:LastLegal"]
    spec = {"players": 3, "seed": 4, "human": 0, "bots": [allowed[0], "greedy"]}
    assert play_route.refusal({"new": spec})["path"] == "new.bots[0]"  # not without the list
    play_route.LastLegal.views.clear()
    out = play_route.answer({"new": spec}, allowed=allowed)
    assert out["bots"] == {"p1": allowed[0], "p2": "greedy"} and out["game"]["play"]["bot_rng"][1] is None
    for _ in range(40):
        if out["terminal"]:
            break
        out = play_route.answer({"game": out["game"], "action": out["legal_actions"][0]}, allowed=allowed)
    seen = play_route.LastLegal.views
    assert seen and all(isinstance(v, PlayerView) and v.player == 1 for v in seen)
    # Its moves are in the game: replayed with the same bots, the history is the same.
    state = State.deserialize(out["game"])
    bots = [None, make_bot(allowed[0], bot_seed(4, 1)), make_bot("greedy", bot_seed(4, 2))]
    replayed = Game(3, seed=4).new_initial_state()
    for a in state.history():
        p = replayed.current_player()
        if p == 1:
            assert a == bots[1].step(PlayerView(replayed, 1))
        replayed.apply_action(a)
    # A move it may not make stops the game with an error naming the bot and its seat.
    cheat = ["helpers.play_route:Cheat"]
    out = play_route.answer({"new": {**spec, "bots": [cheat[0], "greedy"]}}, allowed=cheat)
    with pytest.raises(RuntimeError, match=r"bot 'helpers.play_route:Cheat' at seat 1 played 1000000"):
        while not out["terminal"]:
            out = play_route.answer({"game": out["game"], "action": out["legal_actions"][0]}, allowed=cheat)

"""A game record has one reader (``manila.game.read_record`` and ``replay``): the engine's
``State.deserialize``, the review, ``replay`` on the command line and the play page's
saved games refuse the same broken record in the same words, naming the same field."""

from __future__ import annotations

import copy
import json

import pytest

from helpers import play_route
from manila import _core
from manila.analysis.review import _replayed
from manila.bots import bots_for
from manila.cli.replay import state_at
from manila.game import Game, RecordError, State, action_id, play, read_record, replay

GAME = play(Game(3, seed=5), bots_for(["greedy"] * 3, 5))
RECORD = json.loads(GAME.serialize())


def broken(change) -> dict:
    record = copy.deepcopy(RECORD)
    change(record)
    return record


# (a broken record, the field named, words the refusal holds)
CASES = [
    (broken(lambda r: r.update(game="chess")), "game", "another game"),
    (broken(lambda r: r.update(version=9)), "version", "version 9"),
    (broken(lambda r: r.update(players=7)), "players", "got 7"),
    (broken(lambda r: r.update(seed=-1)), "seed", "got -1"),
    (broken(lambda r: r.update(rules=[1])), "rules", "object of rule options"),
    (broken(lambda r: r.update(history="all")), "history", "list of action ids"),
    (broken(lambda r: r["history"].__setitem__(3, "bid 3")), "history[3]", "an action id"),
    (broken(lambda r: r["history"].__setitem__(20, action_id("pass"))), "history[20]", "(pass)"),
    (broken(lambda r: r["history"].append(action_id("pass"))), f"history[{len(RECORD['history'])}]", "over"),
    (broken(lambda r: r.update(rng="zz")), "rng", "hexadecimal"),
]


def play_record(record: dict) -> dict:
    """The record as the play page saves it: its seats and a check written anew."""
    out = {**record, "play": {"version": _core.PLAY_VERSION, "human": 0, "bots": ["greedy", "greedy"]}}
    out["play"]["bot_rng"] = [None, *[f"{0:016x}"] * 2]
    out["check"] = play_route.checksum(out)
    return out


def _play_reads(record: dict) -> str:
    """What POST /v1/play says of the record saved as the page saves it, as the others say it."""
    e = play_route.refusal({"game": play_record(record)})
    return "" if e is None else f"{e['path'].removeprefix('game.')}: {e['message']}"


def readers(record: dict) -> dict[str, str]:
    """What each reader says of the record: its error text, or "" when it reads it."""
    said = {"play": _play_reads(record)}
    for name, read in {
        "deserialize": lambda: State.deserialize(record),
        "review": lambda: _replayed(record),
        "replay": lambda: state_at(
            record, len(record["history"]) if isinstance(record.get("history"), list) else 0
        ),
    }.items():
        try:
            read()
            said[name] = ""
        except ValueError as exc:
            said[name] = str(exc)
    return said


@pytest.mark.parametrize("case", range(len(CASES)))
def test_every_reader_refuses_a_broken_record_alike(case):
    record, field, words = CASES[case]
    said = readers(record)
    for name, text in said.items():
        if name == "play" and field in ("game", "rng"):
            continue  # the page's own checks: its saved games say what they are
        assert f"{field}: " in text and words in text, f"{name}: {text!r}"
    messages = {
        text.split(f"{field}: ", 1)[1]
        for name, text in said.items()
        if f"{field}: " in text and not (name == "play" and field in ("game", "rng"))
    }
    assert len(messages) == 1, said


def test_a_record_reads_back_as_the_state_it_was():
    record = read_record(GAME.serialize())
    assert replay(record).history() == GAME.history() and record.game == GAME.game
    assert State.deserialize(RECORD) == GAME  # the generator too
    with pytest.raises(RecordError, match=r"cut short: the game is not over"):
        replay(read_record({**RECORD, "history": RECORD["history"][:40]}), finished=True)
    with pytest.raises(RecordError, match=r"not a game record: a game record is a JSON object, not an array"):
        read_record("[1, 2]")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"players": 3, "seed": ' + "9" * 5000 + ', "history": []}', "a number of more than 4300 digits"),
        ("[" * 100_000, "nested too deeply"),
        ('{"players": 3,', "a key in double quotes was expected at line 1 column 15"),
    ],
    ids=["long number", "deep", "cut"],
)
def test_a_record_that_is_no_json_says_why_in_the_senders_words(text, why):
    with pytest.raises(RecordError, match=f"^not a game record: not valid JSON: {why}$"):
        read_record(text)


def test_a_history_longer_than_the_record_says_runs_past_its_end():
    # The play page's saved games hold no action count; the other readers say it alike.
    n = len(RECORD["history"])
    said = readers(broken(lambda r: r.update(actions=n - 1)))
    del said["play"]
    assert set(said.values()) == {
        f"history: the record says {n - 1} actions, its history holds {n}: actions after its end"
    }
    said = readers(broken(lambda r: r.update(actions=n + 1)))
    del said["play"]
    assert all(
        f"cut short: the record says {n + 1} actions, its history holds {n}" in t for t in said.values()
    )

"""The one-line notation, the JSON round trip, and reachability."""

import random
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import manila
from helpers.states import random_state, states
from manila.voyage.reach import reachability_problems

NAMES = st.one_of(
    st.sampled_from(["red", "blue", "O'Brien", "x-1", "a.b"]),
    st.text(min_size=1, max_size=8).filter(str.strip),
)


def canonical(state: dict) -> dict:
    return manila.VoyageState.from_dict(state, strict=False).to_dict()


@given(states())
def test_json_state_json_is_the_identity(state):
    data = canonical(state)
    assert manila.VoyageState.from_dict(data, strict=False).to_dict() == data


@given(states())
def test_text_state_text_is_the_identity(state):
    typed = manila.VoyageState.from_dict(state, strict=False)
    text = str(typed)
    assert manila.parse(text, strict=False) == typed
    assert str(manila.parse(text, strict=False)) == text


@given(states(), st.lists(NAMES, min_size=5, max_size=5, unique=True))
def test_any_owner_name_survives_the_notation(state, names):
    rename = dict(zip(("red", "blue", "green", "yellow", "purple"), names))
    for boat in state["boats"].values():
        boat["crew"] = [rename[o] for o in boat["crew"]]
    state["spots"] = {s: rename[o] for s, o in state["spots"].items()}
    if "player" in state:
        state["player"] = rename[state["player"]]
    typed = manila.VoyageState.from_dict(state, strict=False)
    assert manila.parse(str(typed), strict=False) == typed


def test_notation_reads_what_the_readme_shows():
    text = "r3 ginseng@8:red,blue silk@arrived:green jade@12 pirate_1=blue pilot_large=red player=red"
    state = manila.parse(text)
    assert state.next_roll == 3 and state.player == "red"
    assert state.boats["ginseng"] == manila.Boat(8, ("red", "blue"))
    assert state.boats["silk"].position == "arrived"
    assert state.spots == {"pirate_1": "blue", "pilot_large": "red"}
    # Items may come in any order; the canonical form puts them in order.
    shuffled = "r3 player=red jade@12 pilot_large=red silk@arrived:green ginseng@8:red,blue pirate_1=blue"
    assert manila.parse(shuffled) == state
    assert str(manila.parse(shuffled)) == text
    assert manila.evaluate(text).to_dict() == manila.evaluate(state).to_dict()


def test_rule_options_in_notation():
    state = manila.parse("r1 ginseng@3 nutmeg@4 silk@2 players=3 thirteen=shipyard variant")
    assert state.rules == manila.Rules("shipyard", True)
    assert state.players == 3
    assert str(state) == "r1 ginseng@3 nutmeg@4 silk@2 players=3 thirteen=shipyard variant"


@pytest.mark.parametrize(
    "text, path, words",
    [
        ("", "notation", "empty"),
        ("ginseng@3 nutmeg@4 silk@2", "notation[0]", "starts with the roll"),
        ("r1 ginseng@ nutmeg@4 silk@2", "notation[11]", "expected a position"),
        ("r1 ginseng@3 nutmeg@4 silk@2 hello", "notation[29]", "unreadable item"),
        ("r1 ginseng@3:red;blue nutmeg@4 silk@2", "notation[16]", "expected ','"),
        ('r1 ginseng@3:"red nutmeg@4 silk@2', "notation[13]", "unreadable quoted name"),
        ("r1 ginseng@3 ginseng@4 silk@2", "notation[13]", "given twice"),
        ("r1 ginseng@3 nutmeg@4 silk@2 player=a player=b", "notation[38]", "given twice"),
        ("r1 tea@3 nutmeg@4 silk@2", "boats.tea", "unknown good"),
        ("r1 ginseng@x nutmeg@4 silk@2", "boats.ginseng.position", "0..13"),
        ("r7 ginseng@3 nutmeg@4 silk@2", "next_roll", "1, 2 or 3"),
        ("r1 ginseng@3 nutmeg@4 silk@2 dock=red", "spots.dock", "unknown spot"),
        ("r1 ginseng@3 nutmeg@4 silk@2 thirteen=sea", "rules.thirteen_after_last_roll", "port"),
        ("r1 ginseng@3 nutmeg@4 silk@2 players=x", "players", "3, 4 or 5"),
    ],
)
def test_notation_errors_name_the_place(text, path, words):
    problems = manila.validate(text)
    assert any(p.path == path and words in p.message for p in problems), problems
    with pytest.raises(manila.StateError):
        manila.parse(text)


# Reachability, against an independent enumeration of every start and every die.
def reachable_by_dice(next_roll):
    starts = [s for s in product(range(6), repeat=3) if sum(s) == 9]
    rolls = next_roll - 1
    seen = set()
    for start in starts:
        for dice in product(range(1, 7), repeat=3 * rolls):
            pos = list(start)
            for r in range(rolls):
                for b in range(3):
                    if pos[b] != "arrived":
                        pos[b] += dice[3 * r + b]
                        if pos[b] > 13:
                            pos[b] = "arrived"
            seen.add(tuple(pos))
    return seen


@pytest.mark.parametrize("next_roll", [1, 2, 3])
def test_reachability_matches_enumeration(next_roll):
    truth = reachable_by_dice(next_roll)
    places = list(range(14)) + ["arrived"]
    for triple in product(places, repeat=3):
        ok = not reachability_problems(next_roll, dict(zip(("ginseng", "silk", "jade"), triple)))
        assert ok == (triple in truth), triple
    if next_roll == 1:
        assert len(truth) == 25  # before any roll, the boats stand on their start spaces


def test_unreachable_states_are_refused_by_default():
    text = "r2 ginseng@8 silk@arrived jade@12"
    problems = manila.validate(text)
    assert [p.path for p in problems] == ["boats.silk.position", "boats.jade.position"]
    assert "cannot have arrived before roll 2" in problems[0].message
    assert "strict=False" in str(problems[0])  # the remedy, as Python offers it
    assert manila.validate(text, strict=False) == []
    assert manila.validate({**manila.parse(text, strict=False).to_dict(), "strict": False}) == []
    together = manila.validate("r1 ginseng@0 nutmeg@0 silk@5")
    assert [p.path for p in together] == ["boats"] and "sum to 9" in together[0].message
    with pytest.raises(manila.StateError, match=r"boats\.jade\.position"):
        manila.evaluate(text)
    assert manila.evaluate(text, strict=False).boats


def test_strict_key_must_be_a_boolean():
    state = {**manila.EXAMPLE, "strict": "no"}
    assert [p.path for p in manila.validate(state)] == ["strict"]


def test_random_states_round_trip_through_notation_in_bulk():
    rng = random.Random(5)
    for _ in range(300):
        typed = manila.VoyageState.from_dict(random_state(rng), strict=False)
        assert manila.parse(str(typed), strict=False) == typed


def test_command_line_options_read_the_notations_syntax():
    from manila.voyage.notation import read_option

    assert read_option("shares", ["red:jade2,silk1", '"Red Team":nutmeg1'], "--shares") == {
        "red": {"jade": 2, "silk": 1},
        "Red Team": {"nutmeg": 1},
    }
    assert read_option("prices", ["jade10,silk5"], "--prices") == {"jade": 10, "silk": 5}
    assert read_option("budget", ["red:7"], "--budget") == {"red": 7}
    for key, values, words in [
        ("shares", ["red:jade"], "expected a good and its share count"),
        ("shares", ["red:jade2", "red:silk1"], "shares of red is given twice"),
        ("prices", ["jade10", "silk5"], "prices is given twice"),
        ("budget", ["red:seven"], "a budget is a whole number"),
        ("shares", ["red:jade2 pilot_large=blue"], "expected one shares value, without spaces"),
    ]:
        with pytest.raises(manila.StateError) as info:
            read_option(key, values, f"--{key}")
        assert [p.path for p in info.value.problems] == [f"--{key}"] and words in str(info.value)

"""Bad input is refused with a ValueError naming the field; nothing crashes."""

import copy
import json

import pytest

import manila
from manila import _core

GOOD = {
    "next_roll": 3,
    "player": "red",
    "boats": {
        "ginseng": {"position": 8, "crew": ["red"]},
        "silk": {"position": 5, "crew": []},
        "jade": {"position": 12, "crew": ["blue"]},
    },
    "spots": {"pirate_1": "blue"},
}


def broken(edit):
    state = copy.deepcopy(GOOD)
    edit(state)
    return state


CASES = {
    "unknown good": (lambda s: s["boats"].update(tea=s["boats"].pop("silk")), "boats.tea"),
    "position 14": (lambda s: s["boats"]["silk"].update(position=14), "boats.silk.position"),
    "negative position": (lambda s: s["boats"]["silk"].update(position=-1), "boats.silk.position"),
    "position as text": (lambda s: s["boats"]["silk"].update(position="home"), "boats.silk.position"),
    "crew too long": (lambda s: s["boats"]["silk"].update(crew=["a", "b", "c", "d"]), "boats.silk.crew"),
    "crew not a list": (lambda s: s["boats"]["silk"].update(crew="red"), "boats.silk.crew"),
    "empty owner": (lambda s: s["boats"]["silk"].update(crew=[""]), "boats.silk.crew[0]"),
    "owner not a string": (lambda s: s["spots"].update(port_a=7), "spots.port_a"),
    "pirate_2 without pirate_1": (
        lambda s: s["spots"].update(pirate_2=s["spots"].pop("pirate_1")),
        "spots.pirate_2",
    ),
    "two boats missing": (lambda s: [s["boats"].pop("silk"), s["boats"].pop("jade")], "boats"),
    "four boats": (lambda s: s["boats"].update(nutmeg={"position": 1}), "boats"),
    "unknown spot": (lambda s: s["spots"].update(harbour="red"), "spots.harbour"),
    "cargo as spot": (lambda s: s["spots"].update(silk="red"), "spots.silk"),
    "next_roll 4": (lambda s: s.update(next_roll=4), "next_roll"),
    "next_roll true": (lambda s: s.update(next_roll=True), "next_roll"),
    "next_roll missing": (lambda s: s.pop("next_roll"), "next_roll"),
    "unknown rule": (lambda s: s.update(rules={"pilots": False}), "rules.pilots"),
    "bad rule value": (
        lambda s: s.update(rules={"thirteen_after_last_roll": "sea"}),
        "rules.thirteen_after_last_roll",
    ),
    "variant not bool": (lambda s: s.update(rules={"pirate_variant": "yes"}), "rules.pirate_variant"),
    "too many accomplices": (
        lambda s: s["spots"].update(port_a="red", port_b="red", port_c="red"),
        "spots.port_c",
    ),
    "player count": (lambda s: s.update(players=7), "players"),
    "unknown key": (lambda s: s.update(nextroll=2), "nextroll"),
    "boats not an object": (lambda s: s.update(boats=[1, 2, 3]), "boats"),
}


@pytest.mark.parametrize("name", CASES)
def test_bad_state_names_the_field(name):
    edit, path = CASES[name]
    with pytest.raises(manila.StateError) as info:
        manila.evaluate(broken(edit))
    assert isinstance(info.value, ValueError)
    assert path in [p.path for p in info.value.problems], info.value.problems
    assert path in str(info.value)


def test_every_problem_is_reported():
    state = broken(
        lambda s: [
            s.update(next_roll=0),
            s["boats"]["silk"].update(position=99),
            s["spots"].update(pirate_9="red"),
        ]
    )
    with pytest.raises(manila.StateError) as info:
        manila.VoyageState.from_dict(state)
    assert {p.path for p in info.value.problems} == {"next_roll", "boats.silk.position", "spots.pirate_9"}


@pytest.mark.parametrize("value", [None, 3, "text", [], [GOOD]])
def test_not_an_object(value):
    with pytest.raises(manila.StateError):
        manila.evaluate(value)


def test_unknown_player_override_is_fine_but_must_be_a_name():
    assert manila.evaluate(GOOD, player="purple").spots  # a new player holds nothing yet
    with pytest.raises(manila.StateError, match="player"):
        manila.evaluate(GOOD, player="")


# The C++ entry points check their arguments themselves, whatever Python hands them.
CORE = dict(
    next_roll=2, goods=[0, 2, 3], positions=[8, 5, 12], crews=[[0], [], [1]], spots=[-1] * 11, num_owners=2
)


def core_voyage(**changes):
    return _core.Voyage(**{**CORE, **changes})


@pytest.mark.parametrize(
    "changes, field",
    [
        (dict(next_roll=0), "next_roll"),
        (dict(goods=[0, 0, 3]), "boats"),
        (dict(goods=[0, 2, 9]), "good"),
        (dict(goods=[0, 2]), "boats"),
        (dict(positions=[8, 15, 12]), "boats.silk.position"),
        (dict(positions=[8, -3, 12]), "boats.silk.position"),
        (dict(crews=[[0, 1, 0, 1], [], []]), "boats.ginseng.crew"),
        (dict(crews=[[0, 1, 0, 1, 0], [], []]), "crew"),
        (dict(crews=[[5], [], []]), "boats.ginseng.crew[0]"),
        (dict(crews=[[-1], [], []]), "boats.ginseng.crew[0]"),
        (dict(spots=[-1] * 10), "spots"),
        (dict(spots=[-1] * 6 + [-1, 0] + [-1] * 3), "spots.pirate_2"),
        (dict(spots=[7] + [-1] * 10), "spots.port_a"),
        (dict(num_owners=-1), "num_owners"),
        (dict(num_owners=1000), "num_owners"),
    ],
)
def test_core_rejects_bad_voyages(changes, field):
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        core_voyage(**changes)


def test_core_rejects_bad_points_of_view():
    v = core_voyage()
    with pytest.raises(ValueError, match="player"):
        _core.analyse(v, 2)
    with pytest.raises(ValueError, match="player"):
        _core.analyse(v, -5)
    with pytest.raises(ValueError, match="max_accomplices"):
        _core.analyse(v, 0, -1)
    with pytest.raises(ValueError, match="owner"):
        _core.expected_payoff(v, 2)
    with pytest.raises(ValueError, match="player"):
        _core.legal_spots(v, 7)
    with pytest.raises(ValueError, match="one entry per voyage"):
        _core.analyse_batch([v, v], [0], [3, 3])
    with pytest.raises(ValueError, match=r"states\[1\]"):
        _core.analyse_batch([v, v], [0, 9], [3, 3])


def test_a_value_json_has_no_word_for_is_named_by_every_reader():
    # The engine reads states, tables and records from JSON text: a Python value without a
    # JSON form (a set) is refused before it, in each reader's own error.
    from manila.game import Game
    from manila.game.engine import RecordError, read_record
    from manila.game.table import TableError, table_state

    with pytest.raises(
        manila.StateError, match=r"^not JSON \(Object of type set is not JSON serializable\)$"
    ):
        manila.VoyageState.from_dict(broken(lambda s: s.update(next_roll={3})))
    table = Game(3, seed=1).new_initial_state().observation(0)
    with pytest.raises(TableError, match=r"^table: not JSON \(Object of type set"):
        table_state({**table, "voyage": {1}})
    record = {"players": 3, "history": [], "rules": {"pirate_variant": {True}}}
    with pytest.raises(RecordError, match=r"^not a game record: not JSON \(Object of type set"):
        read_record(record)


def test_a_games_voyage_refuses_an_unknown_objective_and_seat():
    from manila import _core
    from manila.game import Game

    state = Game(players=4, seed=1).new_initial_state()
    # Before there is a voyage too: a seat is wrong whatever the moment.
    with pytest.raises(ValueError, match="player: 4 is not a seat"):
        _core.game_voyage_json(state._s, 4, -1, False, False)
    with pytest.raises(ValueError, match="objective: must be one of income, wealth, got 'gold'"):
        state.voyage_state(objective="gold")
    while state.voyage_state() is None:
        state.apply_action(
            state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0]
        )
    with pytest.raises(ValueError, match="objective: must be one of income, wealth, got 'gold'"):
        state.voyage_state(objective="gold")
    # The engine checks the seats it is given (Python's own calls always give good ones).
    with pytest.raises(ValueError, match="viewer: 4 is not a seat"):
        _core.game_voyage_json(state._s, -1, 4, False, False)
    with pytest.raises(ValueError, match="player: -2 is not a seat"):
        _core.game_voyage_json(state._s, -2, -1, False, False)


def test_a_name_known_elsewhere_is_never_suggested_to_itself():
    from manila.common.text import did_you_mean

    assert did_you_mean("next_roll", ["next_roll", "table"]) == ""
    assert did_you_mean("tabel", ["next_roll", "table"]) == ' (did you mean "table"?)'
    status, text = _core.call("/v1/value", json.dumps({"next_roll": 2, "table": {}}))
    assert status == 400 and "did you mean" not in text and "unknown key" in text

"""Exact means exact, from any point of view: an analysis marked exact equals the independent
brute force (helpers/advice_reference.py) for the true shares of a full state, and from a
table or a player's view the expectation over every deal of the shares the view hides
(helpers/hidden.py, the shuffle itself enumerated)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import islice
from typing import Any

import pytest

from helpers.advice_reference import advice_reference
from helpers.hidden import deals_seen_by, expected_nets
from helpers.serving import call, serving
from manila import _core
from manila.analysis.analysis import analyse
from manila.game import Game, State
from manila.game.view import PlayerView

Play = Callable[[State], int]


def issue_play(state: State) -> int:
    """The middle legal placement, the first of every other choice (issue 33's games)."""
    legal = state.legal_actions()
    return legal[len(legal) // 2] if state.phase == "placement" else legal[0]


def pirate_play(state: State) -> int:
    """A pirate while one is free, and no accomplice after the first round: boarding then
    comes with nobody left to place, which part 4 answers exactly."""
    names = state.legal_action_names()
    if state.phase == "placement":
        if state.to_dict()["next_roll"] >= 2 and "decline" in names:
            return state.legal_actions()[names.index("decline")]
        for spot in ("place pirate_1", "place pirate_2"):
            if spot in names:
                return state.legal_actions()[names.index(spot)]
    return issue_play(state)


def movers_left(state: State) -> int:
    """Players who still place in this round, the one to move included."""
    snap = state.to_dict()
    n, master, me = len(snap["players"]), snap["harbour_master"], state.current_player()
    later = [(master + k) % n for k in range((me - master) % n, n)]
    limit = state.game.max_accomplices()
    return sum(
        not snap["players"][p]["declined"] and snap["players"][p]["accomplices"] < limit for p in later
    )


def moments(seed: int, play: Play, kinds: set[str], players: int = 4, voyages: int = 1) -> Iterator[State]:
    """The decisions of `kinds` that part 4 answers exactly in the first `voyages` voyages of
    a seeded game (placements: of the last round, two movers left at most, for the brute
    force's sake)."""
    state = Game(players, seed=seed).new_initial_state()
    while not state.is_terminal() and state.voyage_number <= voyages:
        if state.is_chance_node():
            state.apply_chance()
            continue
        small = state.phase != "placement" or movers_left(state) <= 2
        if state.phase in kinds and small and _core.analyse_decision(state._s)["exact"]:
            yield state.clone()
        state.apply_action(play(state))


def moment(seed: int, play: Play, kind: str, k: int) -> State:
    """The game's k-th exact moment of that kind."""
    return next(islice(moments(seed, play, {kind}, voyages=6), k, None))


# (seed, policy, kind, which of the game's exact moments of that kind)
CASES = [
    (4, issue_play, "small_pilot", 0),  # issue 33: the others' shares make silk-1 best
    (1, issue_play, "large_pilot", 2),
    (4, issue_play, "placement", 0),  # two movers left
    (4, issue_play, "placement", 1),  # the last mover
    (1, pirate_play, "boarding", 0),  # the captain
    (1, pirate_play, "boarding", 1),  # the other pirate
]


def blind(state: State) -> dict[str, Any]:
    """The position as the decider sees it: the others' face-down shares left out."""
    position = PlayerView(state, state.current_player()).position()
    assert position is not None
    return position


def nets(advice: dict[str, Any]) -> dict[str, Fraction]:
    return {name: Fraction(o["expected_net"]) for name, o in advice["options"].items()}


def diffs(result: Any) -> dict[str, float]:
    assert result.exact and result.stop == "exact"
    assert all(o.exact and o.ci95 == 0.0 for o in result.options.values())
    return {name: o.diff for name, o in result.options.items()}


def floats(values: dict[str, Fraction]) -> dict[str, float]:
    return {name: float(v) for name, v in values.items()}


@pytest.fixture(scope="module")
def cases() -> list[tuple[State, dict[str, Fraction], dict[str, Fraction], dict[str, Fraction]]]:
    """Each moment with its brute-force values: the true shares, the decider's expectation
    over the hidden deals, and the others holding none of their face-down shares."""
    out = []
    for seed, play, kind, k in CASES:
        state = moment(seed, play, kind, k)
        view = blind(state)
        truth = nets(advice_reference(state.position()))
        expected = expected_nets(view, state.observation(state.current_player()))
        out.append((state, truth, expected, nets(advice_reference(view))))
    return out


@pytest.mark.reference
def test_a_full_state_is_exact_for_its_true_shares(cases: list[Any]) -> None:
    for state, truth, _, _ in cases:
        assert diffs(analyse(state)) == floats(truth), state.position()


@pytest.mark.reference
def test_a_view_or_table_is_exact_over_every_deal_it_hides(cases: list[Any]) -> None:
    for state, _, expected, _ in cases:
        me = state.current_player()
        assert diffs(analyse(PlayerView(state, me))) == floats(expected), state.position()
        assert diffs(analyse(state.observation(me), seed=3)) == floats(expected)
        # The review's way: a full state judged from the decider's view.
        assert diffs(analyse(state, sample_hidden=True)) == floats(expected)


def test_the_cases_include_answers_the_hidden_shares_change(cases: list[Any]) -> None:
    def best(values: dict[str, Fraction]) -> str:
        return max(values, key=lambda name: values[name])

    # The others' face-down shares change the values and the best move; the view's
    # expectation is neither the truth nor the blind view.
    assert any(truth != none and best(truth) != best(none) for _, truth, _, none in cases)
    assert any(expected not in (truth, none) for _, truth, expected, none in cases)
    kinds = {state.phase for state, *_ in cases}
    assert kinds == {"small_pilot", "large_pilot", "placement", "boarding"}


def key(hands: dict[str, dict[str, int]]) -> tuple[Any, ...]:
    return tuple(sorted((name, tuple(sorted(hand.items()))) for name, hand in hands.items()))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hidden_deals_are_the_shuffles_counted(players: int) -> None:
    state = next(moments(1, issue_play, {"small_pilot"}, players))
    me = state.current_player()
    seen = state.observation(me)
    deals = _core.hidden_deals(state._s, me)
    total = sum(weight for _, weight in deals)
    found = {}
    for core, weight in deals:
        dealt = State(state.game, core)
        # Everything the viewer sees is as it was.
        assert dealt.observation(me) == {**seen, "history": []}
        hands = {}
        for p, player in enumerate(dealt.to_dict()["players"]):
            shown = seen["players"][p]["shares"]
            if p != me:
                hands[f"p{p}"] = {g: c - shown[g] for g, c in player["shares"].items() if c > shown[g]}
        assert key(hands) not in found, "one board twice"
        found[key(hands)] = Fraction(weight, total)
    assert found == {key(hands): p for hands, p in deals_seen_by(seen)}
    for seat in (-1, players):  # a viewer who is no seat of the game is refused by name
        with pytest.raises(ValueError, match=rf"^viewer: must be 0..{players - 1}, got {seat}$"):
            _core.hidden_deals(state._s, seat)
        with pytest.raises(ValueError, match=rf"^viewer: must be 0..{players - 1}, got {seat}$"):
            _core.resample_hidden(state._s, seat, 1)


def test_another_players_view_is_not_marked_exact() -> None:
    state = moment(4, issue_play, "small_pilot", 0)
    other = (state.current_player() + 1) % state.game.players
    result = analyse(PlayerView(state, other), rollouts=4, seed=1)
    assert not result.exact and not any(o.exact for o in result.options.values())


def test_a_view_never_reads_the_face_down_shares_it_hides() -> None:
    state = moment(4, issue_play, "small_pilot", 0)
    view = PlayerView(state, state.current_player())
    for table in (view, view.observation()):
        with pytest.raises(ValueError, match="sample_hidden"):
            analyse(table, sample_hidden=False)


def test_the_server_and_the_command_line_answer_the_same(cases: list[Any]) -> None:
    # Issue 33's moment, as a serialized state and as the decider's table.
    state, truth, expected, _ = cases[0]
    table = state.observation(state.current_player())
    with serving() as srv:
        for body, want in ((state.to_json(), truth), (table, expected)):
            reply = call(srv, "POST", "/v1/analyse", {"table": body})
            data = json.loads(reply.body)
            assert reply.status == 200 and data["exact"], data
            assert {name: o["diff"] for name, o in data["options"].items()} == floats(want)
    run = subprocess.run(
        [sys.executable, "-m", "manila", "analyse", "-", "--json", "--no-progress"],
        input=json.dumps(table),
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(run.stdout)
    assert data["exact"] and {name: o["diff"] for name, o in data["options"].items()} == floats(expected)

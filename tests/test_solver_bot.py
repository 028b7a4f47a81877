"""The solver bot: legal, deterministic, its own view only, its in-voyage choices are the
advice's, and the C++ bot decides as the Python reference it replaced (tests/helpers/solver_reference.py;
benchmarks/solver_check.py compares 200 games)."""

import random

import pytest

import manila
import manila.view
from helpers.hidden import others_shares, reshuffle_others
from helpers.solver_reference import _game_name, arrival_odds, differences, game_setup
from manila import _core
from manila.bots import bots_for, make_bot
from manila.bots.solver import SolverBot
from manila.game import Game


def play(seed, lineup, on_move=None):
    game = Game(len(lineup), seed)
    state = game.new_initial_state()
    seats = bots_for(lineup, seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        view = manila.view.PlayerView(state, state.current_player())
        action = seats[state.current_player()].step(view)
        assert state.is_legal(action), (state.phase, action)
        if on_move is not None:
            on_move(state, view, action)
        state.apply_action(action)
    return game, state


def test_the_solver_is_registered_and_deterministic():
    assert isinstance(make_bot("solver"), SolverBot)
    _, a = play(3, ["solver", "greedy", "greedy", "greedy"])
    _, b = play(3, ["solver", "greedy", "greedy", "greedy"])
    assert a.history() == b.history()


def test_the_solver_reads_only_its_own_view():
    game, state = play(5, ["solver", "random", "random", "random"])
    history = state.history()
    rng = random.Random(1)
    for _ in range(20):
        other = reshuffle_others(history, 4, 0, rng)
        if others_shares(game, other, 0) != others_shares(game, history, 0):
            break
    assert others_shares(game, other, 0) != others_shares(game, history, 0)
    a, b = game.new_initial_state(), game.new_initial_state()
    bot = SolverBot()
    for x, y in zip(history, other):
        if not a.is_chance_node() and a.current_player() == 0:
            assert bot.step(manila.view.PlayerView(a, 0)) == bot.step(manila.view.PlayerView(b, 0)) == x
        a.apply_action(x)
        b.apply_action(y)


def test_pilots_and_boarding_follow_the_advice():
    seen = set()

    def check(state, view, action):
        if state.phase in ("small_pilot", "large_pilot", "boarding") and state.current_player() == 0:
            advice = manila.advise(view.position(), strict=False)
            assert state.action_name(action) == _game_name(state.phase, advice.best)
            # greedy-wealth takes the same decision the same way
            assert _core.greedy_action(state._s, True) == action
            seen.add(state.phase)

    for seed in range(8):
        play(seed, ["solver", "greedy", "greedy", "greedy"], check)
        if len(seen) == 3:
            break
    assert seen == {"small_pilot", "large_pilot", "boarding"}


def test_placements_are_the_advice_of_the_searched_turns():
    checked = 0

    def check(state, view, action):
        nonlocal checked
        if (
            state.phase == "placement"
            and state.current_player() == 0
            and state.voyage_state()["next_roll"] == 3
        ):
            advice = manila.advise(view.position(), strict=False)
            name = state.action_name(action)
            assert name == ("decline" if advice.best == "decline" else f"place {advice.best}")
            checked += 1

    for seed in range(4):
        play(seed, ["solver", "greedy", "greedy", "greedy"], check)
    assert checked >= 5


def test_arrival_odds_are_the_known_values():
    port_or_13 = [35 + 21, 56 + 25, 81 + 27, 108 + 27, 135 + 25, 160 + 21]
    assert [o * 216 for o in arrival_odds()] == port_or_13


@pytest.mark.parametrize(
    "phase, option, name",
    [
        ("small_pilot", "none", "small pilot: none"),
        ("small_pilot", "jade+1", "small pilot: jade +1"),
        ("large_pilot", "silk-2", "large pilot: silk -2"),
        ("large_pilot", "ginseng+1 jade-1", "large pilot: ginseng +1, jade -1"),
        ("boarding", "board silk", "board silk"),
        ("boarding", "board silk displace 2", "board silk, displacing seat 2"),
        ("boarding", "stay", "stay"),
    ],
)
def test_advice_names_map_to_game_actions(phase, option, name):
    assert _game_name(phase, option) == name
    assert name in manila.game.ACTION_NAMES


# Games of benchmarks/solver_check.py: every player count, rule variant and mix of seats.
COMPARED = (0, 1, 2, 4, 8, 10, 12, 16, 20, 24, 29, 33)


def test_the_comparison_covers_every_kind_of_game():
    setups = [game_setup(i) for i in COMPARED]
    assert {p for p, _, _ in setups} == {3, 4, 5}
    assert len({str(r) for _, r, _ in setups}) == 4
    assert len({lineup[:3] for _, _, lineup in setups}) == 3


@pytest.mark.parametrize("index", COMPARED)
def test_the_cpp_solver_decides_as_the_python_reference(index):
    compared, found = differences(index)
    assert compared > 30
    assert found == []


@pytest.mark.parametrize("players, rules", [(3, None), (4, {"pirate_variant": True}), (5, None)])
def test_the_solver_has_a_legal_move_in_any_state(players, rules):
    # Random games reach states no solver would (loans, odd bids, crowded boats): as a
    # rollout policy it must answer there too, from every seat's point of view.
    state = Game(players, 7, rules).new_initial_state()
    asked = set()
    while not state.is_terminal():
        if not state.is_chance_node():
            action = _core.solver_action(state._s)
            assert state.is_legal(action), (state.phase, state.action_name(action))
            asked.add(state.phase)
        state.apply_action(state.sample_chance() if state.is_chance_node() else random_move(state))
    assert {"auction", "placement", "buy_share", "choose_goods", "place_boats"} <= asked


def random_move(state):
    return _core.random_action(state._s, _core.Rng(len(state.history())))


def test_greedy_office_plays_the_office_as_the_solver_and_the_rest_as_greedy_wealth():
    # The review's continuation policy, by its definition (manila/bots.hpp), at every
    # decision of seeded games where it holds the office and where it does not.
    office = {"auction", "buy_share", "choose_goods", "place_boats"}
    seen = set()

    def check(state, view, action):
        if state.current_player() >= 2:  # seats 2 and 3 are the others
            return
        mover = make_bot("solver" if state.phase in office else "greedy-wealth")
        assert action == mover.step(view), (state.phase, action)
        seen.add(state.phase in office)

    for seed in (1, 2):
        play(seed, ["greedy-office", "greedy-office", "random", "greedy"], check)
    assert seen == {True, False}

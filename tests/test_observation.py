"""Hidden information: a player's view (observation, information state string, tensor,
observation string) depends only on what that player may know, and bots read only it."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.hidden import others_shares, reshuffle_others
from helpers.states import HypothesisDraws, SeededDraws
from manila import _core
from manila.bots import bots_for
from manila.game import Game
from manila.view import PlayerView, observation_layout, observation_low, observation_size


def play_history(players, seed, bots):
    """The full history of a game between built-in bots."""
    game = Game(players, seed)
    state = game.new_initial_state()
    seats = bots_for(bots, seed)
    while not state.is_terminal():
        a = (
            state.sample_chance()
            if state.is_chance_node()
            else seats[state.current_player()].step(PlayerView(state, state.current_player()))
        )
        state.apply_action(a)
    return game, state.history()


def views(state, player):
    return (
        state.observation(player),
        state.information_state_string(player),
        state.observation_tensor(player).tobytes(),
        state.observation_string(player),
    )


def assert_same_views(game, history_a, history_b, observer, greedy=False):
    a, b = game.new_initial_state(), game.new_initial_state()
    for step, (x, y) in enumerate(zip(history_a, history_b)):
        assert views(a, observer) == views(b, observer), f"observer p{observer}, step {step}"
        if greedy and a.current_player() == observer:
            assert _core.greedy_action(a._s) == _core.greedy_action(b._s) == x
        a.apply_action(x)
        b.apply_action(y)
    assert views(a, observer) == views(b, observer)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_view_does_not_change_with_others_hidden_shares(players, seed, data):
    # `seed` is the game's own seed (its deal and dice), an input of the game itself.
    observer = data.draw(st.integers(0, players - 1), label="observer")
    game, history = play_history(players, seed, ["random"] * players)
    other = reshuffle_others(history, players, observer, HypothesisDraws(data.draw))
    assert_same_views(game, history, other, observer)


@pytest.mark.parametrize(
    "bot, seeds",
    [
        ("random", 6),
        ("greedy", 6),
        ("greedy-wealth", 6),
        ("solver", 3),
        ("expert", 1),
        ("rollout", 1),
        ("sage", 1),
        ("greedy-office", 3),
    ],
)
def test_built_in_bots_read_only_their_own_view(bot, seeds):
    # The bot plays seat 0 and sees the same whatever the others hold face down (their
    # deals reshuffled among them: the supply and everything visible stay the same): it
    # must choose the same actions, and the same game follows.
    assert set(_core.CORE_BOTS) == {
        "random",
        "greedy",
        "greedy-wealth",
        "solver",
        "expert",
        "rollout",
        "sage",
        "greedy-office",
    }
    for seed in range(seeds):
        lineup = [bot, "random", "greedy", "random"]
        game, history = play_history(4, seed, lineup)
        d = SeededDraws(seed)
        for _ in range(10):
            other = reshuffle_others(history, 4, 0, d)
            if others_shares(game, other, 0) != others_shares(game, history, 0):
                break
        assert others_shares(game, other, 0) != others_shares(game, history, 0)
        a, b = game.new_initial_state(), game.new_initial_state()
        # One bot per history, seeded alike (the random bot draws from its own generator).
        bot_a, bot_b = bots_for(lineup, seed)[0], bots_for(lineup, seed)[0]
        moves = 0
        for x, y in zip(history, other):
            if not a.is_chance_node() and a.current_player() == 0:
                assert bot_a.step(PlayerView(a, 0)) == bot_b.step(PlayerView(b, 0)) == x
                moves += 1
            a.apply_action(x)
            b.apply_action(y)
        assert moves > 20


def test_view_changes_with_own_hidden_shares():
    # The other side of the property: the observer does see their own face-down shares.
    game, history = play_history(4, 11, ["random"] * 4)
    for k, a in enumerate(history[:8]):
        if a != history[2]:
            swapped = list(history)
            swapped[2], swapped[k] = swapped[k], swapped[2]
            break
    a, b = game.new_initial_state(), game.new_initial_state()
    for x, y in zip(history[:8], swapped[:8]):
        a.apply_action(x)
        b.apply_action(y)
    assert a.observation(1) != b.observation(1)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    assert a.observation_string(1) != b.observation_string(1)
    # ... and the others see no difference (k is another player's share).
    for p in {0, 1, 2, 3} - {1, k // 2}:
        assert views(a, p) == views(b, p)


def test_observation_shows_own_and_bought_shares():
    state = Game(4, 2).new_initial_state()
    while state.is_chance_node():
        state.apply_chance()
    full = state.to_dict()["players"]
    for p in range(4):
        obs = state.observation(p)
        assert obs["observer"] == p
        for q, pl in enumerate(obs["players"]):
            if q == p:
                assert pl["shares"] == full[q]["shares"] and pl["hidden_shares"] == 0
                assert pl["wealth"] == full[q]["wealth"]
            else:
                assert sum(pl["shares"].values()) == 0 and pl["hidden_shares"] == 2
                assert pl["wealth"] is None
        assert [a is None for a in obs["history"]] == [k // 2 != p for k in range(8)]
        assert "deal ?" in state.information_state_string(p)
    # A share bought from the supply is public.
    while state.phase == "auction":
        state.apply_action("pass")
    assert state.phase == "buy_share"
    buyer = state.current_player()
    first = _core.ACTION_OFFSETS["buy"]
    buy = next(a for a in state.legal_actions() if first <= a < first + 4)
    good = state.action_name(buy).split()[1]
    state.apply_action(buy)
    for p in range(4):
        seen = state.observation(p)["players"][buyer]
        assert seen["shares"][good] >= 1
        assert seen["hidden_shares"] == (0 if p == buyer else 2)


def test_tensor_layout_is_fixed_and_consistent():
    for players in (3, 4, 5):
        layout = observation_layout(players)
        size = observation_size(players)
        offset = 0
        for name, start, shape in layout:
            assert start == offset, name
            offset += int(np.prod(shape))
        assert offset == size
        names = [name for name, _, _ in layout]
        assert len(set(names)) == len(names)
        low = observation_low(players)
        assert low.min() < 0 and set(np.unique(low)) <= {0, low.min()}
        game, history = play_history(players, players, ["random"] * players)
        state = game.new_initial_state()
        sections = {name: (start, shape) for name, start, shape in layout}
        for a in itertools.chain(history, [None]):
            for p in range(players):
                t = state.observation_tensor(p)
                assert t.dtype == np.float32 and t.shape == (size,)
                assert (t >= observation_low(players)).all()
                start, shape = sections["observer"]
                assert t[start + p] == 1 and t[start : start + players].sum() == 1
                start, shape = sections["phase"]
                assert t[start : start + shape[0]].sum() == 1
                start, _ = sections["cash"]
                assert t[start] == state.to_dict()["players"][p]["cash"]  # row 0 is the observer
            if a is not None:
                state.apply_action(a)


def test_tensor_out_buffer_is_filled_in_place():
    state = Game(3, 1).new_initial_state()
    state.apply_chance()
    buf = np.full(observation_size(3), 7.0, dtype=np.float32)
    got = state.observation_tensor(2, out=buf)
    assert np.shares_memory(got, buf)
    assert np.array_equal(buf, state.observation_tensor(2))


def test_bad_arguments_raise_value_error_naming_the_field():
    state = Game(4, 0).new_initial_state()
    for bad in (-1, 4, "0", 1.5, True, None):
        for method in (
            state.observation,
            state.information_state_string,
            state.observation_string,
            state.observation_tensor,
        ):
            with pytest.raises(ValueError, match="player"):
                method(bad)
    with pytest.raises(ValueError, match="out"):
        state.observation_tensor(0, out=np.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError, match="out"):
        state.observation_tensor(0, out=np.zeros(observation_size(4), dtype=np.float64))
    with pytest.raises(ValueError, match="out"):
        state.observation_tensor(0, out=np.zeros((2, observation_size(4)), dtype=np.float32)[:, 0])
    with pytest.raises(ValueError, match="private_info"):
        state._s.observation_tensor(0, "some")
    for players in (2, 6):
        with pytest.raises(ValueError, match="players"):
            observation_size(players)
    with pytest.raises(ValueError, match="player"):
        PlayerView(state, 9)


def test_player_view_reveals_only_the_players_knowledge():
    state = Game(4, 9).new_initial_state()
    while state.is_chance_node():
        state.apply_chance()
    view = PlayerView(state, 2)
    assert view.to_dict() == state.observation(2)
    assert str(view) == state.observation_string(2)
    assert view.legal_actions() == state.legal_actions()
    for leak in ("returns", "clone", "history", "_s", "wealth"):
        assert not hasattr(view, leak)

"""The batched C++ environment: its games are the games of manila.Game, move for move."""

import numpy as np
import pytest

import manila
from manila import _core
from manila.bots import bots_for
from manila.game import Game
from manila.rl.vector_env import REWARDS
from manila.view import PlayerView

SEED = 11


def run(env, steps, policy_seed, check=None):
    """Steps `env` with random legal actions; returns every finished game as a dict.

    For each env, records the agent's decisions (seat, observation, mask, action) until the
    step that ends the game, and the rewards of that step.
    """
    rng = np.random.default_rng(policy_seed)
    obs, masks = env.reset(SEED)
    open_games = [
        {"seed": int(s), "number": int(k), "moves": []} for s, k in zip(env.game_seeds, env.game_numbers)
    ]
    finished = []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        for i, a in enumerate(actions):
            open_games[i]["moves"].append((int(env.to_move[i]), obs[i].copy(), masks[i].copy(), int(a)))
        obs, masks, rewards, dones, _ = env.step(actions)
        for i in np.flatnonzero(dones):
            open_games[i]["rewards"] = rewards[i].copy()
            open_games[i]["final"] = env.final_observations[i].copy()
            finished.append(open_games[i])
            open_games[i] = {"seed": int(env.game_seeds[i]), "number": int(env.game_numbers[i]), "moves": []}
    return finished


def replay(game, players, bots):
    """Plays `game` one move at a time through manila.Game, checking every agent decision."""
    state = Game(players=players, seed=game["seed"]).new_initial_state()
    seat_bots = bots_for([b or "random" for b in bots], game["seed"])
    moves = iter(game["moves"])
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        p = state.current_player()
        if bots[p] is not None:
            state.apply_action(seat_bots[p].step(PlayerView(state, p)))
            continue
        seat, obs, mask, action = next(moves)
        assert seat == p
        np.testing.assert_array_equal(obs, state.observation_tensor(p))
        assert np.flatnonzero(mask).tolist() == state.legal_actions()
        state.apply_action(action)
    assert next(moves, None) is None
    assert game["rewards"].tolist() == state.returns()
    np.testing.assert_array_equal(game["final"], state.observation_tensor(seat))


@pytest.mark.parametrize(
    "players, bots",
    [
        (4, [None, "random", None, "random"]),
        (3, [None, None, None]),
        (5, ["random", None, "random", "random", None]),
    ],
)
def test_games_equal_the_games_of_game(players, bots):
    env = _core.VectorEnv(3, players=players, bots=bots)
    games = run(env, 400, policy_seed=players)
    assert len(games) >= 3
    for game in games:
        assert game["seed"] == _core.derive_seed(SEED, game["number"])
        replay(game, players, bots)
    # Env i plays games i, i + N, i + 2N, ... of the run.
    assert sorted(g["number"] for g in games)[:3] == [0, 1, 2]


def test_greedy_seats_equal_the_python_bots():
    bots = [None, "greedy", "greedy-wealth", "greedy"]
    env = _core.VectorEnv(2, players=4, bots=bots)
    games = run(env, 90, policy_seed=3)
    assert games
    for game in games:
        replay(game, 4, bots)


def test_threads_play_the_same_games():
    def final(threads):
        env = _core.VectorEnv(16, players=4, bots=[None, "random", None, None], threads=threads)
        return [(g["number"], g["rewards"].tolist()) for g in run(env, 150, policy_seed=5)]

    assert final(1) == final(2)


def test_arrays_are_read_only_views():
    env = _core.VectorEnv(4, players=4)
    obs, masks = env.reset(SEED)
    assert obs.shape == (4, _core.observation_size(4)) and obs.dtype == np.float32
    assert masks.shape == (4, _core.NUM_PLAYER_ACTIONS) and masks.dtype == np.bool_
    with pytest.raises(ValueError):
        masks[0, 0] = True  # step() checks actions against the masks
    new_obs, new_masks, rewards, dones, to_move = env.step(env.sample_actions(_core.Rng(1)))
    assert np.shares_memory(obs, new_obs) and np.shares_memory(masks, new_masks)
    assert rewards.shape == (4, 4) and dones.dtype == np.bool_ and to_move.shape == (4,)


def test_an_illegal_action_names_env_seat_and_rule_and_changes_nothing():
    env = _core.VectorEnv(3, players=4)
    env.reset(SEED)
    before = [env.game(i).history() for i in range(3)]
    obs = env.observations.copy()
    actions = env.sample_actions(_core.Rng(2))
    actions[1] = _core.ACTION_OFFSETS["plunder"]  # no plunder during the auction
    with pytest.raises(ValueError, match=r"actions\[1\]: .* seat \d in game seed \d+: "):
        env.step(actions)
    assert [env.game(i).history() for i in range(3)] == before
    np.testing.assert_array_equal(env.observations, obs)
    for bad in (-1, _core.NUM_ACTIONS):
        actions[1] = bad
        with pytest.raises(ValueError, match="not an action id"):
            env.step(actions)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_envs": 0}, "num_envs: must be at least 1"),
        ({"players": 6}, "players"),
        ({"bots": ["random"] * 4}, "at least one seat must be the agent's"),
        ({"bots": [None] * 3}, "one entry per seat"),
        ({"bots": [None, "nobody", None, None]}, "unknown bot 'nobody'"),
        ({"threads": -1}, "threads: must be at least 0"),
    ],
)
def test_bad_arguments(kwargs, message):
    args = {"num_envs": 2, "players": 4, **kwargs}
    with pytest.raises(ValueError, match=message):
        _core.VectorEnv(args.pop("num_envs"), **args)


def test_step_needs_reset_and_one_action_per_env():
    env = _core.VectorEnv(2, players=4)
    with pytest.raises(ValueError, match="reset"):
        env.step(np.zeros(2, np.int64))
    env.reset(SEED)
    with pytest.raises(ValueError, match="one per env"):
        env.step(np.zeros(3, np.int64))


def test_python_vector_env_wraps_the_same_games():
    env = manila.VectorEnv(3, players=4, bots="agent,random,agent,random")
    assert env.bots == [None, "random", None, "random"] and env.agent_seats == [0, 2]
    obs, masks = env.reset(seed=SEED)
    assert env.game_seeds.tolist() == [_core.derive_seed(SEED, k) for k in range(3)]
    state = env.state(1)
    assert state.current_player() == env.to_move[1]
    np.testing.assert_array_equal(obs[1], state.observation_tensor(state.current_player()))
    assert np.flatnonzero(masks[1]).tolist() == state.legal_actions()
    actions = env.sample_actions()
    assert all(masks[i, a] for i, a in enumerate(actions))
    env.step(actions)
    assert env.steps.tolist() == [1, 1, 1]
    env.reset(seed=SEED)  # reset seeds sample_actions too
    assert env.sample_actions().tolist() == actions.tolist()


@pytest.mark.parametrize(
    "bots, message", [([None, 3, None, None], "a bot's name or None"), ("random,agent", "one entry per seat")]
)
def test_python_vector_env_errors(bots, message):
    with pytest.raises(ValueError, match=message):
        manila.VectorEnv(2, players=4, bots=bots)
    with pytest.raises(ValueError, match="seed"):
        manila.VectorEnv(2).reset(seed=-1)


def test_without_autoreset_a_finished_game_waits_for_reset():
    env = manila.VectorEnv(2, players=3, autoreset=False)
    env.reset(seed=4)
    ended = None
    for _ in range(1000):
        dones_before = env.dones.copy()
        obs, masks, rewards, dones, to_move = env.step(env.sample_actions())
        for i in np.flatnonzero(dones & ~dones_before):
            assert rewards[i].tolist() == env.state(i).returns() and env.state(i).is_terminal()
            np.testing.assert_array_equal(obs[i], env.final_observations[i])
            ended = i
        for i in np.flatnonzero(dones_before):  # over: the action is ignored
            assert not masks[i].any() and to_move[i] == manila.game.TERMINAL and not rewards[i].any()
        if dones.all():
            break
    assert ended is not None and env.dones.all()
    history = env.state(0).history()
    env.step([12345, -7])  # anything goes for finished games
    assert env.state(0).history() == history
    env.reset(seed=4)
    assert not env.dones.any() and env.masks.any(axis=1).all()


def test_any_seat_can_be_observed():
    env = manila.VectorEnv(2, players=4)
    env.reset(seed=3)
    state = env.state(1)
    for seat in range(4):
        np.testing.assert_array_equal(env.observe(1, seat), state.observation_tensor(seat))
    with pytest.raises(ValueError, match=r"player: must be 0\.\.3"):
        env.observe(1, 4)
    with pytest.raises(ValueError, match=r"env: must be 0\.\.1"):
        env.observe(2, 0)


def finished_rewards(env, seed):
    """Plays env's games to their end (no autoreset) with random actions; every game's rewards
    on the step that ended it."""
    env.reset(seed=seed)
    rng = _core.Rng(seed)
    rewards = [None] * env.num_envs
    while not env.dones.all():
        was_done = env.dones.copy()
        _, _, step_rewards, dones, _ = env.step(env.sample_actions(rng))
        for i in np.flatnonzero(dones & ~was_done):
            rewards[i] = step_rewards[i].copy()
    return np.array(rewards)


def test_reward_choices_are_final_wealth_the_shared_win_and_equity():
    # The same games three times: the seeds and the actions do not depend on the reward.
    kwargs = {"players": 4, "bots": [None, "random", None, "random"], "autoreset": False}
    wealth, win, equity = (
        finished_rewards(manila.VectorEnv(200, reward=r, **kwargs), seed=2) for r in REWARDS
    )
    assert wealth.any()
    top = wealth == wealth.max(axis=1, keepdims=True)
    np.testing.assert_array_equal(win, top / top.sum(axis=1, keepdims=True))  # ties share the win
    assert (top.sum(axis=1) > 1).any()  # some game ended in a tie
    others = (wealth.sum(axis=1, keepdims=True) - wealth) / 3
    np.testing.assert_allclose(equity, wealth - others, rtol=1e-6, atol=1e-4)
    np.testing.assert_allclose(equity.sum(axis=1), 0, atol=1e-3)  # zero-sum


def test_a_bad_reward_lists_the_choices():
    for bad in ("score", 1):
        with pytest.raises(ValueError, match=r"reward: one of .*wealth.*win.*equity.*, got"):
            manila.VectorEnv(2, reward=bad)
    assert manila.VectorEnv(1, reward="win").reward == "win"

"""Manila as a Gymnasium environment: Gymnasium's own checker, masks, rewards, illegal actions."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")
import gymnasium as gym
from gymnasium.utils.env_checker import check_env

from manila.bots import bots_for
from manila.game import Game
from manila.rl.gym_env import ENV_ID, ManilaEnv
from manila.rl.vector_env import REWARDS
from manila.view import PlayerView


@pytest.mark.parametrize("reward", REWARDS)
def test_gymnasium_check_env_passes_for_every_reward(reward):
    # check_env steps with unmasked random actions, nearly all illegal in Manila: with
    # illegal_reward an illegal action ends the episode (PettingZoo's convention) instead of
    # raising. Made by gym.make so that the checker also renders every declared mode.
    env = gym.make(ENV_ID, players=4, seat=1, bots="greedy", reward=reward, illegal_reward=-1.0)
    check_env(env.unwrapped)


def play(env, seed, rng):
    """A whole game with random legal actions: (actions, reward at the end, info at the end)."""
    obs, info = env.reset(seed=seed)
    actions, total = [], 0.0
    while True:
        assert obs.dtype == np.float32 and env.observation_space.contains(obs)
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and (mask.astype(bool) == env.unwrapped.action_masks()).all()
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total += reward
        if terminated:
            return actions, total, info
        assert reward == 0


@pytest.mark.parametrize("reward", REWARDS)
def test_a_game_pays_the_chosen_reward_and_a_seed_replays_it(reward):
    env = ManilaEnv(players=3, seat=2, bots=["greedy", "random"], reward=reward)
    assert env.bots == ["greedy", "random", None] and env.reward == reward
    actions, total, info = play(env, 7, np.random.default_rng(0))
    wealth = env.state.returns()
    assert total == info["returns"][2]
    if reward == "wealth":
        assert info["returns"] == wealth
    elif reward == "win":
        top = max(wealth)
        assert info["returns"] == [1 / wealth.count(top) if w == top else 0 for w in wealth]
    else:
        assert info["returns"] == pytest.approx([w - (sum(wealth) - w) / 2 for w in wealth])
    assert play(env, 7, np.random.default_rng(0))[0] == actions
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(actions[0])


def test_the_game_is_manila_games_with_the_same_actions():
    env = ManilaEnv(players=4, seat=1, bots="greedy")
    actions, _, _ = play(env, 3, np.random.default_rng(1))
    state = Game(players=4, seed=env.state.game.seed).new_initial_state()
    bots = bots_for(["greedy"] * 4, state.game.seed)  # seeded as the C++ seats are
    moves = iter(actions)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
        elif state.current_player() == 1:
            state.apply_action(next(moves))
        else:
            state.apply_action(bots[state.current_player()].step(PlayerView(state, state.current_player())))
    assert state.history() == env.state.history()


def test_illegal_actions_raise_or_end_the_episode():
    env = ManilaEnv(players=4)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=r"is illegal for seat 0 in game seed \d+: "):
        env.step(illegal)
    lenient = ManilaEnv(players=4, illegal_reward=-5)
    _, info = lenient.reset(seed=1)
    _, reward, terminated, truncated, info = lenient.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    assert not info["action_mask"].any()
    for bad in (1.5, "pass", lenient.action_space.n):
        lenient.reset(seed=1)
        assert lenient.step(bad)[2]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seat": 3}, r"seat: 0\.\.2"),
        ({"bots": ["random", "random", "random"]}, "None at the learner's seat 0 alone"),
        ({"bots": [None, None]}, "one per other seat"),
        ({"reward": "score"}, 'reward: one of "wealth", "win", "equity"'),
        ({"render_mode": "rgb_array"}, "render_mode: one of 'ansi', 'human' or None, got 'rgb_array'"),
        ({"illegal_reward": "lose"}, "illegal_reward: a number"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ManilaEnv(players=3, **kwargs)


def test_each_environment_owns_its_render_modes():
    # Gymnasium's and PettingZoo's metadata are class attributes a user may change: a change
    # to one must not reach the other.
    from manila.rl.pettingzoo import raw_env

    ManilaEnv.metadata["render_modes"].append("rgb_array")
    try:
        assert raw_env.metadata["render_modes"] == ["ansi", "human"]
    finally:
        ManilaEnv.metadata["render_modes"].remove("rgb_array")


def test_render_shows_the_table():
    env = ManilaEnv(players=3, render_mode="ansi")
    assert env.render() is None  # no game yet
    env.reset(seed=2)
    assert env.render().startswith("voyage 1, auction")

"""Manila as a Gymnasium vector environment: spaces, masks, same-step autoreset, rewards."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")
import gymnasium as gym
from gymnasium.utils.passive_env_checker import check_action_space, check_obs, check_observation_space
from gymnasium.vector import AutoresetMode

from manila import VectorEnv
from manila.rl.gym_env import ENV_ID
from manila.rl.gym_vector import ManilaVectorEnv
from manila.rl.vector_env import REWARDS


def test_spaces_and_autoreset_follow_the_vector_env():
    envs = ManilaVectorEnv(3, players=4, seat=2, bots=["random", "greedy", "random"])
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert envs.env.bots == ["random", "greedy", None, "random"]
    obs, infos = envs.reset(seed=5)
    assert envs.observation_space.contains(obs)
    assert obs.shape == envs.observation_space.shape and infos["action_mask"].shape == (
        3,
        envs.single_action_space.n,
    )
    # The same games as the plain vector env with the same seed and actions.
    twin = VectorEnv(3, players=4, bots=["random", "greedy", None, "random"])
    twin.reset(seed=5)
    finished = 0
    for _ in range(150):
        actions = envs.action_space.sample(mask=tuple(infos["action_mask"]))  # int8, as it takes
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        t_obs, _, t_rewards, t_dones, to_move = twin.step(actions)
        np.testing.assert_array_equal(obs, t_obs)
        assert (to_move == 2).all() and not truncations.any()
        assert terminations.tolist() == t_dones.tolist()
        assert rewards.tolist() == t_rewards[:, 2].tolist()
        for i in np.flatnonzero(terminations):
            finished += 1
            assert infos["_final_obs"][i] and rewards[i] == infos["final_info"]["returns"][i, 2] != 0
            np.testing.assert_array_equal(infos["final_obs"][i], twin.final_observations[i])
        if not terminations.any():
            assert "final_obs" not in infos and not rewards.any()
    assert finished


@pytest.mark.parametrize("reward", REWARDS)
def test_gymnasium_checks_pass_for_every_reward(reward):
    # Gymnasium's check_env takes single environments only (tests/test_gym_env.py runs it);
    # for the vector form its passive checkers run on the batched spaces and outputs, over
    # whole games, through gym.make_vec as a user would make it.
    envs = gym.make_vec(ENV_ID, num_envs=4, players=3, bots="greedy", reward=reward)
    assert isinstance(envs, ManilaVectorEnv) and envs.env.reward == reward
    for space in (envs.single_observation_space, envs.observation_space):
        check_observation_space(space)
    for space in (envs.single_action_space, envs.action_space):
        check_action_space(space)
    obs, infos = envs.reset(seed=1)
    check_obs(obs, envs.observation_space, "reset")
    returns = []
    for _ in range(400):
        obs, rewards, terminations, truncations, infos = envs.step(
            envs.action_space.sample(mask=tuple(infos["action_mask"]))
        )
        check_obs(obs, envs.observation_space, "step")
        assert rewards.dtype == np.float32 and terminations.dtype == truncations.dtype == np.bool_
        for i in np.flatnonzero(terminations):
            check_obs(infos["final_obs"][i], envs.single_observation_space, "step")
            returns.append(infos["final_info"]["returns"][i].copy())
            assert rewards[i] == returns[-1][0]
    assert len(returns) >= 4
    returns = np.array(returns)
    if reward == "win":
        assert (returns.sum(axis=1) == 1).all()
    elif reward == "equity":
        np.testing.assert_allclose(returns.sum(axis=1), 0, atol=1e-4)
    else:
        assert (returns == np.round(returns)).all() and returns.max() > 1


def test_bots_is_the_one_name_and_opponents_still_works_with_a_warning():
    envs = ManilaVectorEnv(2, players=4, seat=1, bots="greedy")
    assert envs.env.bots == ["greedy", None, "greedy", "greedy"]
    per_seat = ManilaVectorEnv(2, players=4, seat=1, bots=["random", None, "greedy", "random"])
    assert per_seat.env.bots == ["random", None, "greedy", "random"]
    with pytest.warns(DeprecationWarning, match=r"opponents=.*is now .*bots="):
        old = ManilaVectorEnv(2, players=4, seat=1, opponents=["random", "greedy", "random"])
    assert old.env.bots == per_seat.env.bots
    with pytest.raises(ValueError, match="given twice"):
        ManilaVectorEnv(2, players=4, bots="greedy", opponents="greedy")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seat": 4}, "seat: 0..3"),
        ({"bots": ["random"]}, "one per other seat"),
        ({"bots": ["random", "random", None, "random"]}, "None at the learner's seat 0 alone"),
        ({"bots": "nobody"}, "unknown bot"),
        ({"reward": "money"}, 'reward: one of "wealth", "win", "equity", got "money"'),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ManilaVectorEnv(2, players=4, **kwargs)

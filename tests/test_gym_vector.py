"""Manila as a Gymnasium vector environment: spaces, masks, same-step autoreset."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from gymnasium.vector import AutoresetMode

from manila import VectorEnv
from manila.rl.gym_vector import ManilaVectorEnv


def test_spaces_and_autoreset_follow_the_vector_env():
    envs = ManilaVectorEnv(3, players=4, seat=2, opponents=["random", "greedy", "random"])
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
        actions = envs.action_space.sample(mask=tuple(infos["action_mask"].astype(np.int8)))
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


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seat": 4}, "seat: 0..3"),
        ({"opponents": ["random"]}, "one per other seat"),
        ({"opponents": "nobody"}, "unknown bot"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ManilaVectorEnv(2, players=4, **kwargs)

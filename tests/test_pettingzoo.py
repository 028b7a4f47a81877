"""Manila as a PettingZoo AEC environment: PettingZoo's API test, masks, views, seeds."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test

from manila.game import IllegalActionError
from manila.pettingzoo import NUM_PLAYER_ACTIONS, env, raw_env
from manila.rl.vector_env import REWARDS
from manila.view import observation_size


# The dict of "observation" and "action_mask" is PettingZoo's own format for board games
# with masks; api_test warns about a dict (only) for environments not on its list of its own.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_api_test(players, reward):
    api_test(env(players=players, reward=reward), num_cycles=1000, verbose_progress=False)


def play(e, seed, rng, wealth=True):
    """Plays a game with random legal actions; returns the rewards and the action count."""
    e.reset(seed=seed)
    steps = 0
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        assert reward == 0
        assert obs["observation"].shape == (observation_size(len(e.possible_agents)),)
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0 and obs["action_mask"].shape == (NUM_PLAYER_ACTIONS,)
        e.step(int(rng.choice(legal)))
        steps += 1
    assert e.agents == []
    if wealth:
        assert [final[a] for a in e.possible_agents] == e.unwrapped.state_.returns()  # final wealth
    return final, steps


def test_a_seed_replays_the_same_game_and_rewards_are_final_wealth():
    e = env(players=4)
    first = play(e, 5, np.random.default_rng(0))
    assert first == play(e, 5, np.random.default_rng(0))
    assert play(e, 6, np.random.default_rng(0)) != first


def finals(reward, seed):
    """Every agent's reward at the end of a random game of 4 (the same game for a seed)."""
    e = env(players=4, reward=reward)
    final, _ = play(e, seed, np.random.default_rng(seed), wealth=reward == "wealth")
    return [final[a] for a in e.possible_agents]


@pytest.mark.parametrize("seed", [1, 2])
def test_reward_choices_pay_the_shared_win_and_equity(seed):
    wealth = finals("wealth", seed)
    top = max(wealth)
    assert finals("win", seed) == pytest.approx([1 / wealth.count(top) if w == top else 0.0 for w in wealth])
    assert finals("equity", seed) == pytest.approx([w - (sum(wealth) - w) / 3 for w in wealth])
    with pytest.raises(ValueError, match=r'reward: one of "wealth", "win", "equity", got "rank"'):
        env(reward="rank")


def test_observation_is_the_agents_own_view():
    e = raw_env(players=4)
    e.reset(seed=2)
    state = e.state_
    for p, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        assert np.array_equal(obs["observation"], state.observation_tensor(p))
        assert obs["action_mask"].any() == (state.current_player() == p)


def test_bad_input():
    with pytest.raises(ValueError, match="players"):
        env(players=6)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb")
    e = raw_env(players=3)
    e.reset(seed=0)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)

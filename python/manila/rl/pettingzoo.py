"""Manila as a PettingZoo AEC environment, with action masks.

    >>> from manila.pettingzoo import env
    >>> e = env(players=3)
    >>> e.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = e.last()
    >>> sorted(obs), obs["observation"].dtype.name, int(obs["action_mask"].sum()) > 1
    (['action_mask', 'observation'], 'float32', True)

- Agents ``player_0`` .. ``player_{n-1}`` take turns as the engine says; the deal and the
  dice are drawn between turns by the engine from the game's seed; ``reset(seed=s)``
  seeds the sequence of game seeds, so it replays the same games for the same actions.
- The game runs in the batched C++ environment (``manila.VectorEnv`` with one game, every
  seat an agent, no autoreset): a step is one C++ call that also plays the chance moves
  and writes the next observation and mask.
- Observation: ``{"observation": the agent's observation tensor (manila.view,
  docs/observation.md), "action_mask": int8, 1 for each legal action}``. Only what that
  agent may know: the others' face-down shares stay hidden.
- Actions: ``Discrete(n)`` over the engine's player actions (bids, loans, purchases,
  placements, pilots, ...); an illegal action raises ``manila.IllegalActionError``.
- Rewards: 0 until the end, then each agent's final reward, chosen by ``reward=``:
  ``"wealth"`` (final wealth, the default), ``"win"`` (1 to the highest final wealth,
  shared equally among the tied) or ``"equity"`` (final wealth minus the mean of the
  others'; zero-sum), as in ``manila.VectorEnv``. Every agent terminates together. ``render()`` gives the whole table as text (``render_mode="ansi"``, or printed
  with ``"human"``).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from ..common.version import install_hint

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"manila.pettingzoo needs PettingZoo: {install_hint('rl')}") from exc

from ..game.engine import IllegalActionError, RulesLike, State
from ..game.view import observation_low, observation_size
from .render import RENDER_MODES, check_render_mode, render_text
from .vector_env import NUM_PLAYER_ACTIONS, VectorEnv

__all__ = ["NUM_PLAYER_ACTIONS", "env", "raw_env"]


def env(
    players: int = 4, rules: RulesLike = None, render_mode: Optional[str] = None, reward: str = "wealth"
) -> AECEnv:
    """The environment with PettingZoo's usual checks (out-of-range actions, call order)."""
    e = raw_env(players=players, rules=rules, render_mode=render_mode, reward=reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """Manila for 3 to 5 agents (see the module doc)."""

    metadata: dict[str, Any] = {
        "name": "manila_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        rules: RulesLike = None,
        render_mode: Optional[str] = None,
        reward: str = "wealth",
    ):
        super().__init__()
        # One game, every seat an agent; it checks players, rules and reward.
        self._env = VectorEnv(1, players=players, rules=rules, autoreset=False, reward=reward)
        # The env's buffers, always the same arrays: read here, rewritten by every step.
        self._obs, self._mask = self._env.observations[0], self._env.masks[0].view(np.int8)
        self._to_move, self._rewards, self._dones = self._env.to_move, self._env.rewards, self._env.dones
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        size = observation_size(players)
        high = np.full(size, np.finfo(np.float32).max, np.float32)  # cash has no upper bound
        observation = spaces.Dict(
            {
                "observation": spaces.Box(low=observation_low(players), high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_PLAYER_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_PLAYER_ACTIONS) for a in self.possible_agents}
        self._action = np.zeros(1, np.int64)  # the step's one action, reused
        self._rng: Optional[np.random.Generator] = None  # draws each game's seed

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self._env.reset(int(self._rng.integers(2**63)))  # its game seed derives from this one
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._to_move[0]]

    @property
    def reward(self) -> str:
        """What the agents are paid at the end: ``"wealth"``, ``"win"`` or ``"equity"``."""
        return self._env.reward

    @property
    def state_(self) -> Optional[State]:
        """A copy of the game in progress (None before the first reset)."""
        return self._env.state(0) if self._env.started else None

    def _state(self) -> State:
        """The game in progress, which reset() starts."""
        state = self.state_
        if state is None:
            raise RuntimeError("no game yet: call reset() first")
        return state

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        p = self.agent_name_mapping[agent]
        if not self._env.started:
            raise RuntimeError("no game yet: call reset() first")
        if self._to_move[0] == p:  # copies: the buffers change with the next step
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._env.observe(0, p), "action_mask": np.zeros(NUM_PLAYER_ACTIONS, np.int8)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self._env.started:
            raise RuntimeError("no game yet: call reset() first")
        self._action[0] = int(action)
        try:
            self._env.step(self._action)
        except ValueError as exc:
            raise IllegalActionError(str(exc), int(action)) from None
        self._cumulative_rewards[agent] = 0.0
        if self._dones[0]:
            for a, reward in zip(self.agents, self._rewards[0].tolist()):
                self.rewards[a] = reward
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[self._to_move[0]]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        return render_text(self.state_, self.render_mode)

    def close(self) -> None:
        pass

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
- Observation: ``{"observation": the agent's observation tensor (manila.view,
  docs/observation.md), "action_mask": int8, 1 for each legal action}``. Only what that
  agent may know: the others' face-down shares stay hidden.
- Actions: ``Discrete(n)`` over the engine's player actions (bids, loans, purchases,
  placements, pilots, ...); an illegal action raises ``manila.IllegalActionError``.
- Rewards: 0 until the end, then each agent's final wealth; every agent terminates
  together. ``render()`` gives the whole table as text (``render_mode="ansi"``, or printed
  with ``"human"``).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError("manila.pettingzoo needs PettingZoo: pip install 'manila[rl]'") from exc

from .. import _core
from .engine import Game, RulesLike, State
from .view import observation_low, observation_size

NUM_PLAYER_ACTIONS = _core.ACTION_OFFSETS["deal"]  # player actions come before chance ones


def env(players: int = 4, rules: RulesLike = None, render_mode: Optional[str] = None) -> AECEnv:
    """The environment with PettingZoo's usual checks (out-of-range actions, call order)."""
    e = raw_env(players=players, rules=rules, render_mode=render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """Manila for 3 to 5 agents (see the module doc)."""

    metadata: dict[str, Any] = {
        "name": "manila_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(self, players: int = 4, rules: RulesLike = None, render_mode: Optional[str] = None):
        super().__init__()
        self._game = Game(players=players, rules=rules)  # checks players and rules
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode: one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        self.render_mode = render_mode
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
        self.state_: Optional[State] = None
        self._rng: Optional[np.random.Generator] = None  # draws each game's seed

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(2**63))
        self.state_ = Game(self._game.players, game_seed, self._game.rules).new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def _state(self) -> State:
        """The game in progress, which reset() starts."""
        if self.state_ is None:
            raise RuntimeError("no game yet: call reset() first")
        return self.state_

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        p = self.agent_name_mapping[agent]
        mask = np.zeros(NUM_PLAYER_ACTIONS, np.int8)
        if self._state().current_player() == p:
            mask[self._state().legal_actions()] = 1
        return {"observation": self._state().observation_tensor(p), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._state().apply_action(int(action))
        self._cumulative_rewards[agent] = 0
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Plays chance until a player is to move or the game is over."""
        state = self._state()
        while state.is_chance_node():
            state.apply_chance()
        if state.is_terminal():
            for agent, wealth in zip(self.agents, state.returns()):
                self.rewards[agent] = wealth
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.rewards = {a: 0 for a in self.agents}
            self.agent_selection = self.possible_agents[state.current_player()]

    def render(self) -> Optional[str]:
        if self.render_mode is None or self.state_ is None:
            return None
        text = self.state_.to_string()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

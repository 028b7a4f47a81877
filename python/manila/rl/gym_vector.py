"""Manila as a Gymnasium vector environment: one learning seat, built-in bots at the others.

    >>> from manila.rl.gym_vector import ManilaVectorEnv
    >>> envs = ManilaVectorEnv(4, players=4, opponents="greedy")
    >>> obs, infos = envs.reset(seed=1)
    >>> obs.shape, infos["action_mask"].shape
    ((4, 282), (4, 1140))
    >>> actions = envs.action_space.sample(mask=tuple(infos["action_mask"].astype("int8")))
    >>> obs, rewards, terminations, truncations, infos = envs.step(actions)

A thin layer over ``manila.VectorEnv`` (C++, see its doc): the same games, seeds and
automatic reset.

- **Observation**: the learning seat's observation tensor (``Box``, float32).
- **Action**: ``Discrete`` over the player actions; the legal ones are
  ``infos["action_mask"]`` (bool, one row per env), as Gymnasium's masked ``sample``
  takes them. An illegal action raises ``ValueError``.
- **Reward**: 0, then the seat's final wealth on the step that ends its game;
  ``terminations`` is True there and ``truncations`` always False (every game ends).
- **Autoreset**: same-step (``metadata["autoreset_mode"]``): the observation returned
  with a termination is already the next game's; ``infos["final_obs"][i]`` is the
  finished game's last state as the seat saw it and ``infos["final_info"]["returns"][i]``
  every seat's final wealth (masked by ``infos["_final_obs"]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from ..common.version import install_hint

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"manila.rl.gym_vector needs Gymnasium: {install_hint('rl')}") from exc

from ..game.engine import RulesLike
from ..game.view import observation_low
from .vector_env import NUM_PLAYER_ACTIONS
from .vector_env import VectorEnv as CoreVectorEnv


class ManilaVectorEnv(VectorEnv):
    """``num_envs`` games with the learner at ``seat`` and ``opponents`` (one built-in bot
    name for every other seat, or one per other seat in seat order) elsewhere."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        seat: int = 0,
        opponents: Union[str, Sequence[str]] = "random",
        rules: RulesLike = None,
        threads: int = 1,
    ):
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat: 0..{players - 1}, got {seat!r}")
        others = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != players - 1:
            raise ValueError(
                f"opponents: one bot name, or one per other seat ({players - 1}), got {opponents!r}"
            )
        bots: list[Optional[str]] = list(others)
        bots.insert(seat, None)
        self.env = CoreVectorEnv(num_envs, players=players, bots=bots, rules=rules, threads=threads)
        self.seat = seat
        self.num_envs = num_envs
        size = self.env.observation_size
        high = np.full(size, np.finfo(np.float32).max, np.float32)  # cash has no upper bound
        self.single_observation_space = spaces.Box(low=observation_low(players), high=high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_PLAYER_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if seed is None:  # a fresh run: Gymnasium's convention for an unseeded reset
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self.action_space.seed(seed)
        obs, masks = self.env.reset(seed)
        return obs, {"action_mask": masks}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        obs, masks, rewards, dones, _ = self.env.step(actions)
        infos: dict[str, Any] = {"action_mask": masks}
        if dones.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(dones):
                final[i] = self.env.final_observations[i].copy()
            infos["final_obs"], infos["_final_obs"] = final, dones.copy()
            infos["final_info"] = {"returns": rewards.copy(), "_returns": dones.copy()}
            infos["_final_info"] = dones.copy()
        return obs, rewards[:, self.seat].copy(), dones.copy(), np.zeros(self.num_envs, np.bool_), infos

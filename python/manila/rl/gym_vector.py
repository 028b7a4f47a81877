"""Manila as a Gymnasium vector environment: one learning seat, built-in bots at the others.

    >>> from manila.rl.gym_vector import ManilaVectorEnv
    >>> envs = ManilaVectorEnv(4, players=4, bots="greedy", reward="equity")
    >>> obs, infos = envs.reset(seed=1)
    >>> obs.shape, infos["action_mask"].shape, infos["action_mask"].dtype.name
    ((4, 282), (4, 1140), 'int8')
    >>> actions = envs.action_space.sample(mask=tuple(infos["action_mask"]))
    >>> obs, rewards, terminations, truncations, infos = envs.step(actions)

A thin layer over ``manila.VectorEnv`` (C++, see its doc): the same games, seeds and
automatic reset. ``gym.make_vec("manila/Manila-v0", num_envs=N, ...)`` makes one too
(``manila.rl.gym_env`` registers it).

- **Options**: as ``manila.rl.gym_env.ManilaEnv``'s: ``players``, ``seat``, ``bots`` (the
  built-in bots at the other seats: one name for all, or one per other seat in seat
  order, or one per seat with ``None`` at the learner's; ``opponents``, its old name, still
  works with a ``DeprecationWarning``), ``reward``, ``rules``; and ``threads``.
- **Observation**: the learning seat's observation tensor (``Box``, float32).
- **Action**: ``Discrete`` over the player actions; the legal ones are
  ``infos["action_mask"]`` (int8, one row per env, 1 where legal), as Gymnasium's masked
  ``sample`` takes them. An illegal action raises ``ValueError``.
- **Reward**: 0, then the seat's final reward on the step that ends its game (``reward=``
  ``"wealth"``, ``"win"`` or ``"equity"``, as in ``manila.VectorEnv``);
  ``terminations`` is True there and ``truncations`` always False (every game ends).
- **Autoreset**: same-step (``metadata["autoreset_mode"]``): the observation returned
  with a termination is already the next game's; ``infos["final_obs"][i]`` is the
  finished game's last state as the seat saw it and ``infos["final_info"]["returns"][i]``
  every seat's final reward (masked by ``infos["_final_obs"]``).
"""

from __future__ import annotations

import warnings
from typing import Any, Optional

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
from .gym_env import BotsLike, observation_space, seat_bots
from .vector_env import NUM_PLAYER_ACTIONS
from .vector_env import VectorEnv as CoreVectorEnv


class ManilaVectorEnv(VectorEnv):
    """``num_envs`` games with the learner at ``seat`` and built-in ``bots`` at the other
    seats (see the module doc)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        seat: int = 0,
        bots: Optional[BotsLike] = None,
        rules: RulesLike = None,
        threads: int = 1,
        reward: str = "wealth",
        *,
        opponents: Optional[BotsLike] = None,
    ):
        if opponents is not None:
            if bots is not None:
                raise ValueError("bots: given twice, as bots and as opponents (its old name)")
            warnings.warn(
                "ManilaVectorEnv(opponents=...) is now ManilaVectorEnv(bots=...), as in manila.VectorEnv",
                DeprecationWarning,
                stacklevel=2,
            )
            bots = opponents
        self.env = CoreVectorEnv(
            num_envs,
            players=players,
            bots=seat_bots(players, seat, "random" if bots is None else bots),
            rules=rules,
            threads=threads,
            reward=reward,
        )
        self.seat = seat
        self.num_envs = num_envs
        self.single_observation_space = observation_space(players)
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
        return obs, {"action_mask": masks.view(np.int8)}

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
        infos: dict[str, Any] = {"action_mask": masks.view(np.int8)}
        if dones.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(dones):
                final[i] = self.env.final_observations[i].copy()
            infos["final_obs"], infos["_final_obs"] = final, dones.copy()
            infos["final_info"] = {"returns": rewards.copy(), "_returns": dones.copy()}
            infos["_final_info"] = dones.copy()
        return obs, rewards[:, self.seat].copy(), dones.copy(), np.zeros(self.num_envs, np.bool_), infos

"""Manila as a Gymnasium environment: one learning seat, built-in bots at the others.

    >>> import gymnasium as gym
    >>> env = gym.make("manila.rl.gym_env:manila/Manila-v0", players=4, bots="greedy", reward="win")
    >>> obs, info = env.reset(seed=1)
    >>> obs.shape, info["action_mask"].dtype.name
    ((282,), 'int8')
    >>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))

Importing this module registers ``manila/Manila-v0`` with Gymnasium (``gym.make`` with the
``module:id`` form above imports it), and with it the vector form: ``gym.make_vec(
"manila/Manila-v0", num_envs=N, ...)`` makes the batched ``ManilaVectorEnv`` (C++, see
``manila.rl.gym_vector``), not N copies of this one.

- **Options**: ``players`` (3-5), ``seat`` (the learner's, default 0), ``bots`` (the
  built-in bots at the other seats: one name for all, or one per other seat in seat order,
  or one per seat with ``None`` at the learner's; default ``"random"``), ``rules``,
  ``reward`` (below), ``render_mode`` (``"ansi"`` or ``"human"``), ``illegal_reward`` (below).
- **Observation**: the learner's observation tensor (``Box``, float32; docs/observation.md):
  only what that seat may know.
- **Action**: ``Discrete`` over the player actions. The legal ones are
  ``info["action_mask"]`` (int8, 1 where legal), Gymnasium's convention, which its
  ``action_space.sample(mask)`` takes as it is; ``action_masks()`` gives them as bools.
- **Reward**: 0 until the game ends, then the learner's final reward, ``reward=`` one of
  ``"wealth"`` (final wealth, the default), ``"win"`` (1, shared equally among the tied
  highest) or ``"equity"`` (final wealth minus the mean of the others'). At the end
  ``info["returns"]`` holds every seat's. ``terminated`` is True there; ``truncated`` is
  always False (every game ends).
- **Illegal actions**: raise ``ValueError`` naming the rule (the default). With
  ``illegal_reward=x`` an illegal action ends the episode instead, with reward ``x`` and
  ``info["illegal_action"]`` True (PettingZoo's ``TerminateIllegalWrapper`` convention):
  this is what lets Gymnasium's ``check_env``, which steps with unmasked random actions,
  run on a game where most actions are illegal.
- **Seeds**: ``reset(seed=s)`` seeds the env's generator (``np_random``), which draws each
  game's seed; the same seed and actions replay the same game.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from ..common.version import install_hint

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"manila.rl.gym_env needs Gymnasium: {install_hint('rl')}") from exc

from ..game.engine import RulesLike, State
from ..game.view import observation_low, observation_size
from .render import RENDER_MODES, check_render_mode, render_text
from .vector_env import NUM_PLAYER_ACTIONS, VectorEnv

ENV_ID = "manila/Manila-v0"

BotsLike = Union[str, Sequence[Optional[str]]]


def seat_bots(players: int, seat: int, bots: BotsLike) -> list[Optional[str]]:
    """One entry per seat: the learner's ``None`` at ``seat``, the bots at the others.

    ``bots``: one bot name for every other seat, or one per other seat in seat order, or one
    per seat with ``None`` at the learner's."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat: 0..{players - 1}, got {seat!r}")
    if isinstance(bots, str):
        return [None if s == seat else bots for s in range(players)]
    given = list(bots)
    if len(given) == players:
        if given[seat] is not None or any(b is None for s, b in enumerate(given) if s != seat):
            raise ValueError(
                f"bots: one per seat must have None at the learner's seat {seat} alone, got {bots!r}"
            )
        return given
    if len(given) != players - 1 or any(b is None for b in given):
        raise ValueError(
            f"bots: one bot name, or one per other seat ({players - 1}), or one per seat "
            f"({players}) with None at the learner's, got {bots!r}"
        )
    return [*given[:seat], None, *given[seat:]]


def observation_space(players: int) -> spaces.Box:
    """One seat's observation tensor (docs/observation.md)."""
    high = np.full(observation_size(players), np.finfo(np.float32).max, np.float32)  # cash is unbounded
    return spaces.Box(low=observation_low(players), high=high, dtype=np.float32)


# Observations as Gymnasium's Box types them: arrays of floats or integers.
Observation = npt.NDArray[Union[np.floating[Any], np.integer[Any]]]


class ManilaEnv(gymnasium.Env[Observation, np.int64]):
    """One game of Manila with the learner at ``seat`` (see the module doc)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        bots: BotsLike = "random",
        rules: RulesLike = None,
        reward: str = "wealth",
        render_mode: Optional[str] = None,
        illegal_reward: Optional[float] = None,
    ):
        self._env = VectorEnv(
            1,
            players=players,
            bots=seat_bots(players, seat, bots),
            rules=rules,
            autoreset=False,
            reward=reward,
        )
        if illegal_reward is not None and not (
            isinstance(illegal_reward, (int, float)) and not isinstance(illegal_reward, bool)
        ):
            raise ValueError(
                f"illegal_reward: a number, or None to raise on illegal actions, got {illegal_reward!r}"
            )
        self.render_mode = check_render_mode(render_mode)
        self.seat = seat
        self.illegal_reward = illegal_reward
        self.observation_space = observation_space(players)
        self.action_space = spaces.Discrete(NUM_PLAYER_ACTIONS)
        self._over = True  # no game until reset

    @property
    def bots(self) -> list[Optional[str]]:
        """The bot at each seat, None at the learner's."""
        return self._env.bots

    @property
    def reward(self) -> str:
        return self._env.reward

    @property
    def state(self) -> Optional[State]:
        """A copy of the game in progress (None before the first reset)."""
        return self._env.state(0) if self._env.started else None

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (a new array), as ``sb3_contrib``'s MaskablePPO asks for."""
        mask: npt.NDArray[np.bool_] = self._env.masks[0].copy()
        return mask

    def _is_legal(self, action: Any) -> bool:
        try:
            a = operator.index(action)  # Python and numpy integers
        except TypeError:
            return False
        return 0 <= a < NUM_PLAYER_ACTIONS and bool(self._env.masks[0, a])

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._env.masks[0].astype(np.int8)}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self._env.reset(int(self.np_random.integers(2**63)))
        self._over = False
        if self.render_mode == "human":
            self.render()
        return self._env.observations[0].copy(), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the game is over (or not begun): call reset()")
        if self.illegal_reward is not None and not self._is_legal(action):
            self._over = True
            info = {"action_mask": np.zeros(NUM_PLAYER_ACTIONS, np.int8), "illegal_action": True}
            return self._env.observations[0].copy(), float(self.illegal_reward), True, False, info
        obs, _, rewards, dones, _ = self._env.step([action])  # an illegal one raises here
        self._over = bool(dones[0])
        info = self._info()
        if self._over:
            info["returns"] = rewards[0].tolist()
        if self.render_mode == "human":
            self.render()
        return obs[0].copy(), float(rewards[0, self.seat]), self._over, False, info

    def render(self) -> Optional[str]:
        return render_text(self.state, self.render_mode)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="manila.rl.gym_env:ManilaEnv",
        vector_entry_point="manila.rl.gym_vector:ManilaVectorEnv",
    )

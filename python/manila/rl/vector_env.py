"""N games of Manila stepped at once in C++, for learning.

    >>> import numpy as np
    >>> from manila import VectorEnv
    >>> env = VectorEnv(8, players=4, bots=[None, "greedy", "greedy", "greedy"])
    >>> obs, masks = env.reset(seed=1)
    >>> obs.shape, masks.shape == (8, env.num_actions), env.to_move.tolist()
    ((8, 282), True, [0, 0, 0, 0, 0, 0, 0, 0])
    >>> obs, masks, rewards, dones, to_move = env.step(env.sample_actions())

One ``step`` plays every game up to the agent's next decision: the agent acts at the seats
whose bot is ``None``; the deal, the dice and the built-in bots (``random``, ``greedy``,
``greedy-wealth``) at the other seats are played inside, in C++, without the GIL.

- **Observations** ``(num_envs, observation_size)`` float32: the observation tensor of
  the seat to move (``to_move``), from its own view only (docs/observation.md).
- **Masks** ``(num_envs, num_actions)`` bool over the player actions (every action id
  below the first chance action, as in ``manila.pettingzoo``): True where legal.
- **Rewards** ``(num_envs, players)`` float32: 0, except on the step that ends a game,
  where row i holds every seat's reward, and ``dones[i]``. ``reward=`` chooses it (one of
  ``REWARDS``): ``"wealth"`` (the default) the seat's final wealth (``State.returns()``);
  ``"win"`` 1 to the highest final wealth, shared equally among the tied, 0 to the others;
  ``"equity"`` the seat's final wealth minus the mean of the others' (docs/value.md;
  the seats' equities sum to 0).
- **Automatic reset**: on that step the game of env i is replaced by the env's next game,
  and the observation, mask and ``to_move`` returned are already that game's first
  decision (Gymnasium's same-step autoreset); ``final_observations[i]`` is the finished
  game's last state seen by the seat that made the last move.
- **Seeds**: after ``reset(seed)`` env i plays games i, i + N, i + 2N, ... of the run
  (N = num_envs); game k has seed ``derive_seed(seed, k)`` (``game_seeds``,
  ``game_numbers``). Each is exactly the game ``manila.Game(players, game_seed)`` plays
  with the same actions: chance from the game's own generator, the bot at seat s seeded
  as ``manila.bots.bot_seed(game_seed, s)``.
- **Explicit chance** (``explicit_chance=True``): a step stops at chance nodes too (the
  deal, one share at a time, and each roll of the dice), for search with chance nodes
  (expectimax, MCTS, Stochastic MuZero's afterstates). There ``to_move`` is ``CHANCE``
  (``is_chance``), the mask is empty, the observation is the view of the agent seat that
  moved last (the first agent seat before any move), and ``chance_weights[i, k] /
  chance_denominators[i]`` is the exact probability of chance outcome ``k`` (the engine's
  action ``ACTION_OFFSETS["deal"] + k``, numbered as in ``manila.openspiel``; 0 where
  impossible). The rules' probabilities: a deal gives good g with probability (its shares
  still face down) / (all still face down), of 3 per good shuffled; a roll gives each die
  of a boat not in Manila 1..6 with probability 1/6, so each outcome 1/6**boats
  (``chance_probs`` as floats, ``chance_outcomes(i)`` as Fractions). The next step takes
  an outcome there in place of an action. ``sample_chance()`` draws each game's outcome
  from the game's own generator, as the default env does: applying those outcomes plays
  the default env's games exactly. The caller sees every outcome, the others' dealt shares
  included: give an agent that must not know them only its observations.

The arrays are read-only views of the environment's own buffers, rewritten by the next
``reset`` or ``step``: copy what you keep. An illegal action raises ``ValueError`` naming
the env, the seat, the game seed and the rule, and changes no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Optional, Union

import numpy as np
import numpy.typing as npt

from .. import _core
from ..common.limits import check_flag, check_number, check_threads
from ..game.engine import CHANCE, Game, RulesLike, State

NUM_PLAYER_ACTIONS: int = _core.NUM_PLAYER_ACTIONS
NUM_CHANCE_OUTCOMES: int = _core.NUM_CHANCE_OUTCOMES
REWARDS: tuple[str, ...] = _core.REWARDS  # the reward choices, the default first

Step = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int32],
]


def _seat_bots(bots: Union[str, Sequence[Optional[str]], None], players: int) -> list[Optional[str]]:
    """One entry per seat: a built-in bot's name, or None for the agent."""
    if bots is None:
        return [None] * players
    names = bots.split(",") if isinstance(bots, str) else list(bots)
    out: list[Optional[str]] = []
    for b in names:
        if b is not None and not isinstance(b, str):
            raise ValueError(f"bots: a bot's name or None (the agent's seat), got {b!r}")
        b = b.strip() if isinstance(b, str) else None
        out.append(None if b in (None, "", "agent") else b)
    return out


def _action_id(value: object, at: int) -> int:
    """``value`` as an action id, or a ValueError naming ``actions[at]`` and the bound."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"actions[{at}]: an action id is a whole number, got {value!r}")
    if not -(2**63) <= value < 2**63:  # the engine's int64 (a finished game's action is ignored)
        raise ValueError(f"actions[{at}]: an action id is a 64-bit integer, got {value}")
    return value


class VectorEnv:
    """``num_envs`` games of Manila stepped at once in C++ (see the module doc).

    ``bots``: one entry per seat, a built-in bot's name or ``None`` (or ``"agent"``) for
    the agent's seats, as a list or comma-separated; ``None`` (the default) gives the
    agent every seat. ``threads``: threads stepping the games (0: all cores).
    ``autoreset=False`` leaves a finished game over until the next ``reset``: its mask
    is empty, ``to_move`` is ``manila.game.TERMINAL``, its observation the final one, and
    its action in later steps is ignored (any value; ``sample_actions`` gives 0).
    ``reward``: one of ``REWARDS``. ``explicit_chance``: chance nodes are the caller's.
    """

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        bots: Union[str, Sequence[Optional[str]], None] = None,
        rules: RulesLike = None,
        threads: int = 1,
        autoreset: bool = True,
        reward: str = "wealth",
        explicit_chance: bool = False,
    ):
        self.game = Game(players=players, rules=rules)  # checks players and rules
        check_number(num_envs, "num_envs", 1, integer=True)
        check_threads(threads)
        check_flag(autoreset, "autoreset")
        check_flag(explicit_chance, "explicit_chance")
        if not isinstance(reward, str):
            choices = ", ".join(f'"{r}"' for r in REWARDS)  # as the engine names them
            raise ValueError(f"reward: one of {choices}, got {reward!r}")
        self._env = _core.VectorEnv(
            num_envs,
            players=players,
            bots=_seat_bots(bots, players),
            threads=threads,
            autoreset=autoreset,
            reward=reward,
            explicit_chance=explicit_chance,
            thirteen_to_port=self.game.rules.thirteen_after_last_roll == "port",
            pirate_variant=self.game.rules.pirate_variant,
        )
        self._rng = _core.Rng(0)

    def __repr__(self) -> str:
        return (
            f"VectorEnv({self.num_envs}, players={self.players}, bots={self.bots!r}, threads={self.threads},"
            f" reward={self.reward!r}, explicit_chance={self.explicit_chance})"
        )

    @property
    def num_envs(self) -> int:
        return self._env.num_envs

    @property
    def players(self) -> int:
        return self._env.num_players

    @property
    def bots(self) -> list[Optional[str]]:
        """The bot at each seat, None at the agent's."""
        return self._env.bots

    @property
    def agent_seats(self) -> list[int]:
        return [s for s, b in enumerate(self.bots) if b is None]

    @property
    def threads(self) -> int:
        return self._env.threads

    @property
    def reward(self) -> str:
        """What the rewards row holds at a game's end: one of ``REWARDS``."""
        return self._env.reward

    @property
    def explicit_chance(self) -> bool:
        """Whether chance nodes are the caller's (see the module doc)."""
        return self._env.explicit_chance

    @property
    def started(self) -> bool:
        """Whether ``reset`` has been called."""
        return self._env.started

    @property
    def observation_size(self) -> int:
        return self._env.observation_size

    @property
    def num_actions(self) -> int:
        """The width of a mask: the player actions (ids below the first chance action)."""
        return NUM_PLAYER_ACTIONS

    def reset(self, seed: int = 0) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Starts game i of the run in env i; returns (observations, masks)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
            raise ValueError(f"seed: an integer in 0..2**64-1, got {seed!r}")
        self._rng = _core.Rng(_core.derive_seed(int(seed), 2**63))  # sample_actions' own stream
        return self._env.reset(int(seed))

    def step(self, actions: npt.ArrayLike) -> Step:
        """One action per env; returns (observations, masks, rewards, dones, to_move).
        Actions are action ids: integers, or floats that are whole numbers; at a chance node
        (explicit chance) a chance outcome of positive probability."""
        given = np.asarray(actions)
        kind = given.dtype.kind
        if kind == "O":  # Python integers too large for any integer dtype, or mixed values
            given = np.asarray(
                [_action_id(v, i) for i, v in enumerate(given.ravel().tolist())], dtype=np.int64
            )
        elif kind not in "iuf":
            raise ValueError(f"actions: action ids (integers) are needed, got an array of {given.dtype}")
        elif given.size:
            # Vectorised: a step may carry thousands of actions.
            if kind == "f":
                ok = (given == np.round(given)) & (given >= -(2.0**63)) & (given < 2.0**63)  # nan: false
            elif kind == "u":
                ok = given < 2**63
            else:
                ok = np.ones(given.shape, dtype=bool)
            if not ok.all():
                at = int(np.argmin(ok.ravel()))
                _action_id(given.ravel()[at].item(), at)
        return self._env.step(given)

    def sample_actions(self, rng: Optional[_core.Rng] = None) -> npt.NDArray[np.int64]:
        """A random legal move for every env (from ``rng``, else the env's own generator,
        seeded by ``reset``): uniform among the legal actions, or at a chance node drawn by
        the outcomes' probabilities."""
        if rng is not None and not isinstance(rng, _core.Rng):
            raise ValueError(f"rng: a manila.Rng or None, got {type(rng).__name__}")
        return self._env.sample_actions(self._rng if rng is None else rng)

    def sample_chance(self) -> npt.NDArray[np.int64]:
        """With explicit chance: at each chance node the outcome drawn from the game's own
        generator (advancing it: once per node replays the default env's games), -1 in the
        envs at an agent's decision or over."""
        return self._env.sample_chance()

    @property
    def is_chance(self) -> npt.NDArray[np.bool_]:
        """Which envs are at a chance node (explicit chance; a new array)."""
        chance: npt.NDArray[np.bool_] = self._env.to_move == CHANCE
        return chance

    @property
    def chance_weights(self) -> npt.NDArray[np.int32]:
        """``(num_envs, NUM_CHANCE_OUTCOMES)``: at a chance node, outcome k's probability
        times ``chance_denominators[i]``; zeros elsewhere."""
        return self._env.chance_weights

    @property
    def chance_denominators(self) -> npt.NDArray[np.int32]:
        """The common denominator of each env's chance weights (0 where not at chance)."""
        return self._env.chance_denominators

    @property
    def chance_probs(self) -> npt.NDArray[np.float64]:
        """The chance outcomes' probabilities as the nearest floats (a new array, rows of
        zeros where not at chance)."""
        weights, dens = self._env.chance_weights, self._env.chance_denominators
        return np.divide(weights, dens[:, None], out=np.zeros(weights.shape), where=dens[:, None] > 0)

    def chance_outcomes(self, env: int) -> list[tuple[int, Fraction]]:
        """The chance outcomes of env ``env`` with their exact probabilities, as
        ``(outcome, probability)`` in outcome order (empty unless at a chance node)."""
        self._check_env(env)
        den = int(self._env.chance_denominators[env])
        weights = self._env.chance_weights[env]
        return [(int(k), Fraction(int(weights[k]), den)) for k in np.flatnonzero(weights)]

    @property
    def observations(self) -> npt.NDArray[np.float32]:
        return self._env.observations

    @property
    def masks(self) -> npt.NDArray[np.bool_]:
        return self._env.masks

    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        return self._env.rewards

    @property
    def dones(self) -> npt.NDArray[np.bool_]:
        return self._env.dones

    @property
    def to_move(self) -> npt.NDArray[np.int32]:
        """The agent's seat to move in each env (``CHANCE`` at a chance node)."""
        return self._env.to_move

    @property
    def final_observations(self) -> npt.NDArray[np.float32]:
        """Where ``dones``: the finished game's last state seen by the agent seat that
        moved last."""
        return self._env.final_observations

    @property
    def game_seeds(self) -> npt.NDArray[np.uint64]:
        return self._env.game_seeds

    @property
    def game_numbers(self) -> npt.NDArray[np.int64]:
        return self._env.game_numbers

    @property
    def steps(self) -> npt.NDArray[np.int32]:
        """The agent's decisions so far in each env's current game."""
        return self._env.steps

    def observe(self, env: int, seat: int) -> npt.NDArray[np.float32]:
        """Seat ``seat``'s observation of the game in ``env`` now (a new array; any seat)."""
        self._check_env(env)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.players:
            raise ValueError(f"player: must be 0..{self.players - 1}, got {seat!r}")
        return self._env.observe(int(env), int(seat))

    def _check_env(self, env: object) -> None:
        if isinstance(env, bool) or not isinstance(env, (int, np.integer)) or not 0 <= env < self.num_envs:
            raise ValueError(f"env: must be 0..{self.num_envs - 1}, got {env!r}")

    def state(self, env: int) -> State:
        """A copy of the game in progress in ``env``, as a ``manila.game.State``."""
        self._check_env(env)
        core = self._env.game(int(env))
        return State(Game(self.players, core.seed, self.game.rules), core)

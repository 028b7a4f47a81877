"""A training baseline: a policy learned on ``VectorEnv`` against the built-in bots, with
numpy alone (docs/training.md).

The method is proximal policy optimisation (PPO, Schulman et al. 2017) with a separate
value network and generalised advantage estimates, on the network of
``manila.bots.policy``: the seat's scaled observation, ``tanh`` hidden layers, one score
per choice, a softmax over the legal ones.

- **Games.** One ``VectorEnv`` per (opponent, agent seat): the agent plays every seat
  against three copies of each opponent, all at once; one update learns from ``steps``
  decisions of every game.
- **Reward**, at the end of each game only: the agent's share of the win (1, or 1/k
  when k tie for the most wealth) plus ``wealth_weight`` x (its final wealth minus the
  others' mean) / 100 — the margin tells a near-win from a rout, which the win alone does
  not, and speeds early learning.
- **Learning curve.** Every ``eval_every`` updates, and after the last, the policy (as
  it is saved: float32, playing its most probable choice) plays ``eval_games`` games
  against three ``random`` and three ``greedy``, seats rotated, on the same seeds every
  time, kept apart from the training games: win rates with 95% Wilson intervals.
- **Reproducible.** Everything follows from ``seed``: the same configuration and number
  of updates give the same policy file, byte for byte, on the same machine and numpy.
  ``minutes`` stops after the update that passes it; the file records the updates done,
  and ``updates=`` that number replays the run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from itertools import product
from typing import Any, Callable, Optional

import numpy as np
import numpy.typing as npt

from .. import _core
from ..arena.ladder import wilson_interval
from ..bots.builtin import bot_factory, is_core_bot
from ..bots.policy import (
    NUM_CHOICES,
    Layers,
    Policy,
    choice_actions,
    choice_masks,
    forward,
    masked_log_softmax,
    observation_scale,
)
from ..game.view import observation_size
from .vector_env import VectorEnv

Array = npt.NDArray[Any]
EVAL_OPPONENTS = ("random", "greedy")
MAX_WIDTH = 4096  # a layer's units: past it the weights alone outgrow the memory of a machine
CURVE_COLUMNS = [
    "update",
    "games",
    "decisions",
    *(f"{opp}_{what}" for opp in EVAL_OPPONENTS for what in ("wins", "games", "rate", "lo", "hi", "wealth")),
]
# Seeds of the training games, the curve's games and the networks' start, apart by tag.
_TRAIN, _CURVE, _INIT = 1, 2, 3


@dataclass(frozen=True)
class TrainConfig:
    """Everything a training run depends on (with the numpy and engine versions)."""

    seed: int = 1
    updates: Optional[int] = 200  # None: until the minutes given to run() have passed
    players: int = 4
    opponents: tuple[str, ...] = ("random", "greedy", "greedy")  # a bot named twice: twice the games
    envs: int = 32  # games at once per (opponent, seat)
    steps: int = 64  # decisions of each game per update
    hidden: tuple[int, ...] = (64,)
    learning_rate: float = 1e-3
    epochs: int = 4
    minibatch: int = 2048
    clip: float = 0.2
    entropy: float = 0.01
    gae_lambda: float = 0.95
    max_grad_norm: float = 0.5
    wealth_weight: float = 0.5
    eval_every: int = 25
    eval_games: int = 200
    threads: int = 1

    def check(self) -> None:
        """Refuses a value no run can use, naming the field and the rule."""
        if self.updates is not None and self.updates < 0:
            raise ValueError(f"updates: must be at least 0 (0: the untrained policy), got {self.updates}")
        for name in ("envs", "steps", "epochs", "minibatch", "eval_every"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: must be at least 1, got {getattr(self, name)}")
        if not 0 <= self.seed < 2**64:
            raise ValueError(f"seed: an integer in 0..2**64-1, got {self.seed}")
        try:
            observation_size(self.players)
        except ValueError as exc:
            raise ValueError(f"players: {exc}") from None
        if self.eval_games < self.players or self.eval_games % self.players:
            raise ValueError(
                f"eval_games: a positive multiple of the players ({self.players}), seats rotated; "
                f"got {self.eval_games}"
            )
        if not self.opponents:
            raise ValueError("opponents: at least one built-in bot to train against")
        for name in self.opponents:
            try:
                bot_factory(name)
            except ValueError as exc:
                raise ValueError(f"opponents: {exc}") from None
            if not is_core_bot(name):
                raise ValueError(
                    f"opponents: {name!r} is not played inside VectorEnv; the engine's bots are "
                    f"{', '.join(sorted(_core.CORE_BOTS))}"
                )
        if not self.hidden or min(self.hidden) < 1 or max(self.hidden) > MAX_WIDTH:
            raise ValueError(
                f"hidden: one or more layer widths from 1 to {MAX_WIDTH}, got {list(self.hidden)}"
            )
        for name in ("learning_rate", "clip", "max_grad_norm"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name}: must be above 0, got {getattr(self, name)}")
        if not 0 <= self.gae_lambda <= 1:
            raise ValueError(f"gae_lambda: between 0 and 1, got {self.gae_lambda}")
        for name in ("entropy", "wealth_weight"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name}: must be at least 0, got {getattr(self, name)}")


# --- The learning curve ----------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """A policy's results against copies of one bot at every other seat, seats rotated."""

    opponent: str
    wins: float
    games: int
    mean_wealth: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def __str__(self) -> str:
        lo, hi = self.ci95
        return f"{100 * self.rate:.1f}% ({100 * lo:.1f}–{100 * hi:.1f}%)"


def evaluate(policy: Policy, opponent: str, games: int, seed: int, threads: int = 1) -> Score:
    """``games`` games of ``policy`` against ``players - 1`` copies of ``opponent``: the very
    games of ``manila.ladder(bots=[f"policy:{file}", opponent, ...], games=games, seed=seed)``,
    played in ``VectorEnv`` (tests/test_baseline.py checks that they are)."""
    n = policy.players
    if games < n or games % n:
        raise ValueError(f"games: a positive multiple of the players ({n}), seats rotated; got {games}")
    wins, wealth = 0.0, 0.0
    for seat in range(n):
        # The ladder's seating j puts its first bot in seat j, rotation r playing game r.
        bots: list[Optional[str]] = [opponent] * n
        bots[seat] = None
        env = VectorEnv(games // n, players=n, bots=bots, threads=threads, autoreset=False, reward="wealth")
        obs, masks = env.reset(seed)
        finished = np.zeros(env.num_envs, dtype=bool)
        while not finished.all():
            obs, masks, rewards, dones, _ = env.step(policy.act(obs, masks))
            for i in np.flatnonzero(dones & ~finished):  # a finished game stays done
                finished[i] = True
                wins += float(win_shares(rewards[i : i + 1])[0, seat])
                wealth += float(rewards[i][seat])
    return Score(opponent, wins, games, wealth / games)


def win_shares(wealth: Array) -> Array:
    """Each seat's share of the win, per row of final wealth: 1/k for the k tied for the
    most, 0 for the others (as the ladder counts wins)."""
    top = wealth == wealth.max(axis=1, keepdims=True)
    return np.where(top, 1.0 / top.sum(axis=1, keepdims=True), 0.0)


# --- The networks and their training ---------------------------------------------------


def _init_layers(sizes: Sequence[int], last_gain: float, rng: np.random.Generator) -> Layers:
    """Weights of variance 1/fan-in (``last_gain`` times that in the last layer: a small gain
    starts the policy near uniform), biases 0."""
    layers: Layers = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        gain = last_gain if i == len(sizes) - 2 else 1.0
        weights = rng.normal(0.0, gain / math.sqrt(a), (a, b))
        layers.append((weights.astype(np.float32), np.zeros(b, np.float32)))
    return layers


def _backward(layers: Layers, outputs: list[Array], grad: Array) -> list[tuple[Array, Array]]:
    """Gradients of every layer's (weights, bias), given the loss's gradient at the last
    layer's output and every layer's output (``forward``)."""
    grads: list[tuple[Array, Array]] = []
    for i in range(len(layers) - 1, -1, -1):
        grads.append((outputs[i].T @ grad, grad.sum(axis=0)))
        if i:
            grad = (grad @ layers[i][0].T) * (1.0 - outputs[i] ** 2)  # through tanh
    return grads[::-1]


def actor_loss(
    scores: Array, legal: Array, choice: Array, old_logp: Array, adv: Array, clip: float, entropy: float
) -> tuple[float, Array]:
    """PPO's clipped surrogate with an entropy bonus, as a loss to minimise (the mean over
    the rows), and its gradient at the scores."""
    n = len(choice)
    rows = np.arange(n)
    logp = masked_log_softmax(scores, legal)
    p = np.exp(logp)
    ratio = np.exp(logp[rows, choice] - old_logp)
    unclipped = ratio * adv
    clipped = np.clip(ratio, 1 - clip, 1 + clip) * adv
    active = unclipped <= clipped  # where the minimum is the unclipped term, it has a slope
    p_logp = np.where(legal, p * np.where(legal, logp, 0.0), 0.0)
    h = -p_logp.sum(axis=1)
    loss = float(-np.minimum(unclipped, clipped).mean() - entropy * h.mean())
    # d(-ratio * adv)/d logp(choice) = -ratio * adv; d logp(choice)/d scores = onehot - p.
    g_logp = np.where(active, -unclipped, 0.0) / n
    grad = -p * g_logp[:, None]
    grad[rows, choice] += g_logp
    # dH/d score_j = -p_j (log p_j + H).
    grad += entropy / n * (p_logp + p * h[:, None])
    return loss, grad


def critic_loss(values: Array, returns: Array) -> tuple[float, Array]:
    """Half the mean squared error of the values ``(N, 1)``, and its gradient."""
    error = values[:, 0] - returns
    return float(0.5 * (error * error).mean()), error[:, None] / len(error)


class _Adam:
    """Adam (Kingma and Ba) over a list of arrays, updated in place."""

    def __init__(self, params: list[Array], lr: float, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8):
        self.params, self.lr, self.b1, self.b2, self.eps = params, lr, b1, b2, eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[Array]) -> None:
        self.t += 1
        correction = math.sqrt(1 - self.b2**self.t) / (1 - self.b1**self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= self.lr * correction * m / (np.sqrt(v) + self.eps)


def _flat(layers: Layers) -> list[Array]:
    return [a for pair in layers for a in pair]


def _clipped(grads: list[tuple[Array, Array]], max_norm: float) -> list[Array]:
    flat = [a for pair in grads for a in pair]
    norm = math.sqrt(sum(float((g * g).sum()) for g in flat))
    return [g * (max_norm / norm) for g in flat] if norm > max_norm else flat


class _Games:
    """The training games: one VectorEnv per (opponent, agent seat), stepped together."""

    def __init__(self, config: TrainConfig):
        self.players = config.players
        self.envs: list[VectorEnv] = []
        seats: list[int] = []
        obs, masks = [], []
        for k, (opponent, seat) in enumerate(product(config.opponents, range(config.players))):
            bots: list[Optional[str]] = [opponent] * config.players
            bots[seat] = None
            env = VectorEnv(
                config.envs, players=config.players, bots=bots, threads=config.threads, reward="wealth"
            )
            o, m = env.reset(_core.derive_seed(_core.derive_seed(config.seed, _TRAIN), k))
            self.envs.append(env)
            seats += [seat] * config.envs
            obs.append(o.copy())
            masks.append(m.copy())
        self.seat = np.array(seats)
        self.obs, self.masks = np.concatenate(obs), np.concatenate(masks)
        self.games = 0

    def step(self, actions: Array, wealth_weight: float) -> tuple[Array, Array]:
        """Plays one decision of every game; (reward, done) per game, for the agent."""
        n = self.envs[0].num_envs
        obs, masks, rewards, dones = [], [], [], []
        for k, env in enumerate(self.envs):
            o, m, r, d, _ = env.step(actions[k * n : (k + 1) * n])
            obs.append(o.copy())
            masks.append(m.copy())
            rewards.append(r.copy())
            dones.append(d.copy())
        self.obs, self.masks = np.concatenate(obs), np.concatenate(masks)
        wealth, done = np.concatenate(rewards).astype(np.float64), np.concatenate(dones)
        rows = np.arange(len(done))
        own = wealth[rows, self.seat]
        others = (wealth.sum(axis=1) - own) / (self.players - 1)
        win = win_shares(wealth)[rows, self.seat]
        reward = np.where(done, win + wealth_weight * (own - others) / 100.0, 0.0)
        self.games += int(done.sum())
        return reward, done


@dataclass
class TrainResult:
    policy: Policy
    curve: list[dict[str, float]] = field(default_factory=list)
    seconds: float = 0.0
    stopped_by: str = "updates"


Say = Callable[[str], None]


class Trainer:
    """One run of the baseline (see the module doc); ``run()`` trains and returns the policy."""

    def __init__(self, config: TrainConfig):
        config.check()
        self.config = config
        self.rng = np.random.default_rng([config.seed, _INIT])
        n_obs = observation_size(config.players)
        self.scale = observation_scale(config.players)
        self.actor = _init_layers([n_obs, *config.hidden, NUM_CHOICES], 0.01, self.rng)
        self.critic = _init_layers([n_obs, *config.hidden, 1], 1.0, self.rng)
        self.actor_opt = _Adam(_flat(self.actor), config.learning_rate)
        self.critic_opt = _Adam(_flat(self.critic), config.learning_rate)
        self.updates = 0
        self.decisions = 0

    def policy(self, curve: Optional[list[dict[str, float]]] = None) -> Policy:
        """The policy as it is saved and played: float32 weights."""
        c = self.config
        rows = np.array([[row[k] for k in CURVE_COLUMNS] for row in curve or []]).reshape(
            -1, len(CURVE_COLUMNS)
        )
        info = {"method": "ppo", "config": {**asdict(c), "updates": self.updates}, "numpy": np.__version__}
        layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in self.actor]
        return Policy(
            c.players, layers, seed=c.seed, curve_columns=list(CURVE_COLUMNS), curve=rows, info=info
        )

    def curve_row(self, games: int) -> dict[str, float]:
        c = self.config
        policy = self.policy()
        row: dict[str, float] = {"update": self.updates, "games": games, "decisions": self.decisions}
        for opponent in EVAL_OPPONENTS:
            s = evaluate(policy, opponent, c.eval_games, _core.derive_seed(c.seed, _CURVE), c.threads)
            lo, hi = s.ci95
            row.update(
                {
                    f"{opponent}_wins": s.wins,
                    f"{opponent}_games": s.games,
                    f"{opponent}_rate": s.rate,
                    f"{opponent}_lo": lo,
                    f"{opponent}_hi": hi,
                    f"{opponent}_wealth": s.mean_wealth,
                }
            )
        return row

    def _rollout(self, games: _Games) -> dict[str, Array]:
        """``steps`` decisions of every training game with the current policy, sampled."""
        c = self.config
        t_obs, t_legal, t_choice, t_logp, t_value, t_reward, t_done = [], [], [], [], [], [], []
        for _ in range(c.steps):
            x = games.obs / self.scale
            legal, lowest = choice_masks(games.masks)
            logp = masked_log_softmax(forward(self.actor, x)[-1], legal)
            # Gumbel-max: argmax(log p + Gumbel noise) is a draw from p.
            choice = (logp + self.rng.gumbel(size=logp.shape)).argmax(axis=1)
            value = forward(self.critic, x)[-1][:, 0]
            reward, done = games.step(choice_actions(choice, lowest), c.wealth_weight)
            t_obs.append(x)
            t_legal.append(legal)
            t_choice.append(choice)
            t_logp.append(logp[np.arange(len(choice)), choice])
            t_value.append(value)
            t_reward.append(reward)
            t_done.append(done)
        last_value = forward(self.critic, games.obs / self.scale)[-1][:, 0]
        values, rewards, dones = np.array(t_value), np.array(t_reward), np.array(t_done)
        # Generalised advantage estimates; an episode ends only with its game (no discount).
        adv = np.zeros_like(rewards)
        running = np.zeros(rewards.shape[1])
        for t in range(c.steps - 1, -1, -1):
            following = last_value if t == c.steps - 1 else values[t + 1]
            going = 1.0 - dones[t]
            delta = rewards[t] + going * following - values[t]
            running = delta + c.gae_lambda * going * running
            adv[t] = running
        self.decisions += rewards.size
        return {
            "x": np.concatenate(t_obs),
            "legal": np.concatenate(t_legal),
            "choice": np.concatenate(t_choice),
            "logp": np.concatenate(t_logp),
            "adv": adv.ravel().astype(np.float32),
            "ret": (adv + values).ravel().astype(np.float32),
        }

    def _learn(self, batch: dict[str, Array]) -> None:
        c = self.config
        size = len(batch["choice"])
        for _ in range(c.epochs):
            order = self.rng.permutation(size)
            for start in range(0, size, c.minibatch):
                idx = order[start : start + c.minibatch]
                self._minibatch({k: v[idx] for k, v in batch.items()})

    def _minibatch(self, mb: dict[str, Array]) -> None:
        c = self.config
        adv = (mb["adv"] - mb["adv"].mean()) / (mb["adv"].std() + 1e-8)
        outs = forward(self.actor, mb["x"])
        _, grad = actor_loss(outs[-1], mb["legal"], mb["choice"], mb["logp"], adv, c.clip, c.entropy)
        self.actor_opt.step(_clipped(_backward(self.actor, outs, grad), c.max_grad_norm))
        outs = forward(self.critic, mb["x"])
        _, grad = critic_loss(outs[-1], mb["ret"])
        self.critic_opt.step(_clipped(_backward(self.critic, outs, grad), c.max_grad_norm))

    def run(self, minutes: Optional[float] = None, say: Optional[Say] = None) -> TrainResult:
        """Trains for ``config.updates`` updates, or until ``minutes`` have passed."""
        c = self.config
        if c.updates is None and minutes is None:
            raise ValueError("updates: None trains until the minutes are over, and no minutes were given")
        limit = f"/{c.updates}" if c.updates is not None else ""
        started = time.monotonic()
        games = _Games(c)
        curve: list[dict[str, float]] = []
        stopped_by = "updates"

        def point() -> None:
            curve.append({**self.curve_row(games.games), "seconds": time.monotonic() - started})
            report(curve[-1])

        def report(row: dict[str, float]) -> None:
            if say is not None:
                scores = ", ".join(
                    f"vs {o} {100 * row[f'{o}_rate']:.1f}% ({100 * row[f'{o}_lo']:.1f}–{100 * row[f'{o}_hi']:.1f}%)"
                    for o in EVAL_OPPONENTS
                )
                say(
                    f"update {int(row['update'])}{limit}, {int(row['games'])} games, "
                    f"{row['seconds']:.0f} s: {scores}"
                )

        point()
        while c.updates is None or self.updates < c.updates:
            self._learn(self._rollout(games))
            self.updates += 1
            out_of_time = minutes is not None and time.monotonic() - started >= 60 * minutes
            if self.updates % c.eval_every == 0 or self.updates == c.updates or out_of_time:
                point()
            if out_of_time:
                stopped_by = "minutes"
                break
        return TrainResult(self.policy(curve), curve, time.monotonic() - started, stopped_by)


def train(config: TrainConfig, minutes: Optional[float] = None, say: Optional[Say] = None) -> TrainResult:
    """Trains the baseline policy (see the module doc)."""
    return Trainer(config).run(minutes, say)

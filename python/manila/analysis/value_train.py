"""Training the learned value, and measuring its accuracy (docs/value.md).

The value is learned from games the engine plays: every voyage boundary (an auction about to
start) of each game gives one sample per player, its features (``_core.value_features``)
with the player's final wealth and share of the win. In those games every seat's bot is
drawn anew at every boundary (``LINEUP``): the value knows no seat's bot, so what a seat
will do must not depend on who played it so far. A seed fixes everything: the numbers of
players, the games, the draws, the split, the network's initial weights and the order of
its mini-batches, so that ``python -m manila train-value`` reproduces the shipped model.

The network (a small perceptron shared by every seat) is fitted here with numpy; the C++
engine alone evaluates it (``_core.value_predict``), so the accuracy below is measured on
the numbers that rollouts, the server and the page use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np

from .. import _core
from ..common.limits import check_number, check_threads

__all__ = [
    "EPOCHS",
    "GAMES",
    "HELD_OUT_GAMES",
    "HIDDEN",
    "LINEUP",
    "SEED",
    "VERSION",
    "Accuracy",
    "Samples",
    "accuracy",
    "collect",
    "fit",
    "model_from_source",
    "model_source",
    "train",
]

# The training policy: at every voyage boundary each seat's bot is drawn anew, independently,
# from these bots with these weights. VERSION names the policy and the model's form: 2 since
# the seats are drawn at every boundary (1: once a game), and cached samples carry it.
VERSION = 2
LINEUP: dict[str, float] = {"solver": 0.4, "greedy-wealth": 0.25, "greedy": 0.25, "expert": 0.1}
PLAYERS = (3, 4, 5)
HIDDEN = (64, 32)
# The shipped model's run (train's and train-value's defaults): its seed, games, held-out
# games and passes over the data.
SEED, GAMES, HELD_OUT_GAMES, EPOCHS = 1, 20000, 1500, 60
# Networks fitted from different seeds whose mean forecast the shipped one learns (it is
# distilled from them): most of an average's lower variance at one network's cost.
TEACHERS = 3
# Games per call of the engine: one number of players each.
CHUNK = 16
# Seeds of the held-out games are drawn under another key than the training games'.
HELD_OUT_KEY = 0x4E1D0

Progress = Callable[[int, int], None]


@dataclass
class Samples:
    """Boundaries of many games: features (rows, 5, F), wealth now, final wealth and win
    share (rows, 5), the number of players of each row, its game and voyage."""

    features: np.ndarray
    wealth: np.ndarray
    final_wealth: np.ndarray
    win: np.ndarray
    players: np.ndarray
    game: np.ndarray
    voyage: np.ndarray

    def __len__(self) -> int:
        return int(self.players.shape[0])

    def subset(self, rows: np.ndarray) -> Samples:
        return Samples(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))

    @property
    def mask(self) -> np.ndarray:
        return np.arange(5)[None, :] < self.players[:, None]


def chunks(seed: int, games: int) -> Iterator[tuple[int, int, int]]:
    """(players, first game, games) for each chunk of a seeded run."""
    rng = np.random.default_rng(seed)
    for first in range(0, games, CHUNK):
        yield int(rng.choice(PLAYERS)), first, min(CHUNK, games - first)


def _chunk_samples(players: int, seed: int, first: int, n: int, threads: int) -> dict[str, Any]:
    """One chunk's samples (a module-level function: a process or a Dask worker runs it)."""
    d = _core.value_samples(players, seed, first, n, list(LINEUP), list(LINEUP.values()), threads=threads)
    d["players"] = np.full(d["game"].shape, players, dtype=np.int32)
    return d


def collect(
    seed: int,
    games: int,
    threads: int = 0,
    progress: Optional[Progress] = None,
    cache: Optional[Path] = None,
    executor: Optional[Executor] = None,
) -> Samples:
    """The boundaries of ``games`` games of the training policy. With
    ``cache`` (a folder), samples once collected for this seed and number of games are
    read from there (the games are the same for the same seed: nothing else changes).
    ``executor`` (a ``concurrent.futures`` executor, or a Dask client's ``get_executor()``)
    plays the chunks of CHUNK games as its tasks; the samples do not depend on where."""
    path = None if cache is None else Path(cache) / f"value-samples-{VERSION}-{seed}-{games}.npz"
    if path is not None and path.is_file():
        with np.load(path) as f:
            return Samples(*(f[k] for k in Samples.__dataclass_fields__))
    plan = list(chunks(seed, games))
    if executor is None:
        results: Iterator[dict[str, Any]] = (
            _chunk_samples(p, seed, first, n, threads) for p, first, n in plan
        )
    else:
        futures = [executor.submit(_chunk_samples, p, seed, first, n, threads) for p, first, n in plan]
        results = (f.result() for f in futures)
    parts: list[dict[str, Any]] = []
    done = 0
    for (_, _, n), d in zip(plan, results):
        parts.append(d)
        done += n
        if progress:
            progress(done, games)
    out = Samples(*(np.concatenate([p[k] for p in parts]) for k in Samples.__dataclass_fields__))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, **{k: getattr(out, k) for k in Samples.__dataclass_fields__})
    return out


# ---------------------------------------------------------------------------------------
# The network, in numpy for training only


def _init(sizes: Sequence[int], rng: np.random.Generator) -> list[list[np.ndarray]]:
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        w = rng.normal(0, np.sqrt(2.0 / n_in), size=(n_out, n_in)).astype(np.float64)
        layers.append([w, np.zeros(n_out)])
    return layers


def _forward(layers: list[list[np.ndarray]], x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    acts = [x]
    for k, (w, b) in enumerate(layers):
        x = x @ w.T + b
        if k + 1 < len(layers):
            x = np.maximum(x, 0)
        acts.append(x)
    return x, acts


def _loss_grads(
    layers: list[list[np.ndarray]], x: np.ndarray, gain: np.ndarray, win: np.ndarray, mask: np.ndarray
) -> tuple[float, list[list[np.ndarray]]]:
    """Mean squared error of the wealth gain (tens of pesos) plus the cross-entropy of the
    win shares under a softmax of the seats' scores; x is (rows, 5, F) standardised."""
    rows = x.shape[0]
    out, acts = _forward(layers, x.reshape(rows * 5, -1))
    out = out.reshape(rows, 5, 2)
    m = mask.astype(np.float64)
    err = (out[..., 0] - gain) * m
    mse = float((err**2).sum() / m.sum())
    score = np.where(mask, out[..., 1], -np.inf)
    score = score - score.max(axis=1, keepdims=True)
    p = np.exp(score)
    p /= p.sum(axis=1, keepdims=True)
    ce = float(-(win * np.log(np.maximum(p, 1e-12))).sum() / rows)
    d = np.zeros_like(out)
    d[..., 0] = 2 * err / m.sum()
    d[..., 1] = (p - win) * m / rows
    d = d.reshape(rows * 5, 2)
    grads: list[list[np.ndarray]] = []
    for k in range(len(layers) - 1, -1, -1):
        w, _ = layers[k]
        a = acts[k]
        grads.append([d.T @ a, d.sum(axis=0)])
        if k:
            d = (d @ w) * (acts[k] > 0)
    return mse + ce, grads[::-1]


def fit(
    train: Samples,
    valid: Samples,
    seed: int,
    hidden: Sequence[int] = HIDDEN,
    epochs: int = 60,
    batch: int = 256,
    rate: float = 2e-3,
    progress: Optional[Callable[[int, float, float], None]] = None,
    temper: Optional[Samples] = None,
) -> _core.ValueModel:
    """A network fitted by Adam on ``train``, the epoch of lowest loss on ``valid`` kept,
    its win scores tempered on ``temper`` (default ``valid``)."""
    rng = np.random.default_rng(seed)
    flat = train.features[train.mask]
    mean = flat.mean(axis=0)
    scale = flat.std(axis=0)
    scale[scale < 1e-6] = 1.0

    def prepare(s: Samples) -> tuple[np.ndarray, np.ndarray]:
        x = (s.features - mean) / scale
        gain = (s.final_wealth - s.wealth) / 10.0
        return x * s.mask[..., None], gain * s.mask

    xt, gt = prepare(train)
    xv, gv = prepare(valid)
    sizes = [_core.VALUE_FEATURES, *hidden, 2]
    layers = _init(sizes, rng)
    m1 = [[np.zeros_like(a) for a in layer] for layer in layers]
    m2 = [[np.zeros_like(a) for a in layer] for layer in layers]
    step = 0
    best = (np.inf, [[a.copy() for a in layer] for layer in layers])
    for epoch in range(epochs):
        order = rng.permutation(len(train))
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            _, grads = _loss_grads(layers, xt[rows], gt[rows], train.win[rows], train.mask[rows])
            step += 1
            for k, layer in enumerate(layers):
                for j in range(2):
                    g = grads[k][j]
                    m1[k][j] = 0.9 * m1[k][j] + 0.1 * g
                    m2[k][j] = 0.999 * m2[k][j] + 0.001 * g * g
                    mh = m1[k][j] / (1 - 0.9**step)
                    vh = m2[k][j] / (1 - 0.999**step)
                    layer[j] -= rate * mh / (np.sqrt(vh) + 1e-8)
        loss, _ = _loss_grads(layers, xv, gv, valid.win, valid.mask)
        if progress:
            progress(epoch + 1, loss, best[0])
        if loss < best[0]:
            best = (loss, [[a.copy() for a in layer] for layer in layers])
    layers = best[1]
    # The win scores tempered on the validation games: the epoch kept is the one of least
    # total loss, and the scores of a network fitted this hard come out overconfident.
    temper = valid if temper is None else temper
    xc, _ = prepare(temper)
    out, _ = _forward(layers, xc.reshape(len(temper) * 5, -1))
    scores = out.reshape(len(temper), 5, 2)[..., 1]
    grid = np.geomspace(0.5, 3.0, 60)
    ce = [
        float(-(temper.win * np.log(np.maximum(_softmax(scores / t, temper.mask), 1e-12))).sum(axis=1).mean())
        for t in grid
    ]
    tau = float(grid[int(np.argmin(ce))])
    layers[-1][0][1] /= tau
    layers[-1][1][1] /= tau
    if progress:
        progress(epochs, best[0], tau)
    return _core.ValueModel(
        sizes=sizes,
        mean=mean.tolist(),
        scale=scale.tolist(),
        weights=[w.ravel().tolist() for w, _ in layers],
        biases=[b.tolist() for _, b in layers],
    )


# ---------------------------------------------------------------------------------------
# Accuracy


@dataclass
class Accuracy:
    """How well a model's forecasts at boundaries match what happened (docs/value.md)."""

    positions: int
    forecasts: int
    brier: float  # of win: the mean over positions of the sum over players of (f - o)^2
    brier_uniform: float  # the no-skill forecast 1/n
    brier_wealth: float  # a softmax of current wealth, its temperature fitted in training
    wealth_mae: float  # pesos
    deciles: list[dict[str, float]] = field(default_factory=list)
    by_players: dict[int, dict[str, float]] = field(default_factory=dict)

    @property
    def skill_uniform(self) -> float:
        return 1 - self.brier / self.brier_uniform

    @property
    def skill_wealth(self) -> float:
        return 1 - self.brier / self.brier_wealth

    def to_dict(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "forecasts": self.forecasts,
            "brier": self.brier,
            "brier_uniform": self.brier_uniform,
            "brier_wealth": self.brier_wealth,
            "skill_uniform": self.skill_uniform,
            "skill_wealth": self.skill_wealth,
            "wealth_mae": self.wealth_mae,
            "deciles": self.deciles,
            "by_players": {str(k): v for k, v in self.by_players.items()},
        }


def _softmax(score: np.ndarray, mask: np.ndarray) -> np.ndarray:
    score = np.where(mask, score, -np.inf)
    p: np.ndarray = np.exp(score - score.max(axis=1, keepdims=True))
    out: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return out


def wealth_temperature(s: Samples) -> float:
    """The temperature of the softmax of current wealth that scores best on ``s``."""
    grid = np.geomspace(2, 200, 60)
    briers = [float(((_softmax(s.wealth / t, s.mask) - s.win) ** 2).sum(axis=1).mean()) for t in grid]
    return float(grid[int(np.argmin(briers))])


def predict(model: _core.ValueModel, s: Samples) -> tuple[np.ndarray, np.ndarray]:
    """The C++ engine's forecasts (wealth, win) for every row, by its number of players."""
    wealth = np.zeros_like(s.wealth, dtype=np.float64)
    win = np.zeros_like(s.win, dtype=np.float64)
    for n in PLAYERS:
        rows = np.flatnonzero(s.players == n)
        if rows.size:
            d = _core.value_predict(model, s.features[rows], s.wealth[rows].astype(np.float64), n)
            wealth[rows], win[rows] = d["wealth"], d["win"]
    return wealth, win


def accuracy(model: _core.ValueModel, s: Samples, temperature: float) -> Accuracy:
    wealth, win = predict(model, s)
    mask = s.mask

    def brier(f: np.ndarray, rows: np.ndarray) -> float:
        return float(((f[rows] - s.win[rows]) ** 2 * mask[rows]).sum(axis=1).mean())

    uniform = mask / s.players[:, None]
    by_wealth = _softmax(s.wealth / temperature, mask)
    every = np.arange(len(s))
    deciles = []
    f, o = win[mask], s.win[mask]
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        sel = (f >= lo) & ((f < hi) if k < 9 else (f <= hi))
        if sel.any():
            deciles.append(
                {
                    "low": lo,
                    "high": hi,
                    "count": int(sel.sum()),
                    "forecast": float(f[sel].mean()),
                    "observed": float(o[sel].mean()),
                }
            )
    by_players = {}
    for n in PLAYERS:
        rows = np.flatnonzero(s.players == n)
        if rows.size:
            by_players[n] = {
                "positions": int(rows.size),
                "brier": brier(win, rows),
                "brier_uniform": brier(uniform, rows),
                "brier_wealth": brier(by_wealth, rows),
            }
    return Accuracy(
        positions=len(s),
        forecasts=int(mask.sum()),
        brier=brier(win, every),
        brier_uniform=brier(uniform, every),
        brier_wealth=brier(by_wealth, every),
        wealth_mae=float(np.abs(wealth - s.final_wealth)[mask].mean()),
        deciles=deciles,
        by_players=by_players,
    )


# ---------------------------------------------------------------------------------------
# The whole training, and the model as C++ source


@dataclass
class Trained:
    model: _core.ValueModel
    info: dict[str, Any]
    accuracy: Accuracy


def _taught(s: Samples, teachers: Sequence[_core.ValueModel]) -> Samples:
    """``s`` with the teachers' mean forecasts in place of what happened."""
    forecasts = [predict(t, s) for t in teachers]
    wealth = np.mean([w for w, _ in forecasts], axis=0)
    win = np.mean([p for _, p in forecasts], axis=0)
    return Samples(s.features, s.wealth, wealth * s.mask, win * s.mask, s.players, s.game, s.voyage)


def distil(
    train: Samples, valid: Samples, seed: int, epochs: int, say: Callable[[str], None]
) -> _core.ValueModel:
    """TEACHERS networks fitted on what happened (seeds apart), then one fitted on their
    mean forecast, its win scores tempered on what happened in the validation games."""
    teachers = []
    for k in range(TEACHERS):

        def told(epoch: int, loss: float, best: float, k: int = k) -> None:
            say(f"teacher {k + 1}, epoch {epoch}: validation loss {loss:.4f}")

        teacher_seed = int(np.random.default_rng([seed, 2, k]).integers(2**62))
        teachers.append(fit(train, valid, teacher_seed, epochs=epochs, progress=told))
    return fit(
        _taught(train, teachers),
        _taught(valid, teachers),
        seed,
        epochs=epochs,
        progress=lambda e, loss, best: say(f"distilled, epoch {e}: validation loss {loss:.4f}"),
        temper=valid,
    )


def held_out_seed(seed: int) -> int:
    return int(np.random.default_rng([seed, HELD_OUT_KEY]).integers(2**62))


def check_training(seed: Any, games: Any, held_out: Any, epochs: Any, threads: Any) -> None:
    """The training's arguments, refused naming the field before any game is played."""
    check_number(seed, "seed", 0, integer=True)
    for name, count in (("games", games), ("held_out", held_out), ("epochs", epochs)):
        check_number(count, name, 1, integer=True)
    check_threads(threads)


def train(
    seed: int = SEED,
    games: int = GAMES,
    held_out: int = HELD_OUT_GAMES,
    threads: int = 0,
    epochs: int = EPOCHS,
    say: Callable[[str], None] = lambda _: None,
    progress: Optional[Progress] = None,
    cache: Optional[Path] = None,
    executor: Optional[Executor] = None,
) -> Trained:
    """Plays ``games`` training games and ``held_out`` others (their own seeds), fits the
    network on 90% of the training games' boundaries (the rest choose the epoch), and
    measures it on the held-out games. ``progress(games played, games in all)``;
    ``executor``: where the games are played (``collect``)."""
    check_training(seed, games, held_out, epochs, threads)
    total = games + held_out

    def part(offset: int) -> Optional[Progress]:
        return None if progress is None else lambda n, _: progress(offset + n, total)

    data = collect(seed, games, threads, part(0), cache, executor)
    test = collect(held_out_seed(seed), held_out, threads, part(games), cache, executor)
    games_ = np.unique(data.game)
    rng = np.random.default_rng([seed, 1])
    valid_games = rng.choice(games_, size=max(1, len(games_) // 10), replace=False)
    is_valid = np.isin(data.game, valid_games)
    train_s, valid_s = data.subset(np.flatnonzero(~is_valid)), data.subset(np.flatnonzero(is_valid))
    say(f"{len(train_s)} training, {len(valid_s)} validation, {len(test)} held-out positions")
    model = distil(train_s, valid_s, seed, epochs, say)
    temperature = wealth_temperature(train_s)
    acc = accuracy(model, test, temperature)
    info = {
        "version": VERSION,
        "policy": {"seats": LINEUP, "drawn": "at every boundary", "players": list(PLAYERS)},
        "seed": seed,
        "games": games,
        "held_out_games": held_out,
        "hidden": list(HIDDEN),
        "epochs": epochs,
        "teachers": TEACHERS,
        "wealth_temperature": temperature,
        "accuracy": acc.to_dict(),
    }
    model = _core.ValueModel(
        sizes=model.sizes,
        mean=model.mean,
        scale=model.scale,
        weights=model.weights,
        biases=model.biases,
        info=json.dumps(info, sort_keys=True),
    )
    return Trained(model, info, acc)


def _floats(xs: Sequence[float]) -> str:
    return ", ".join(f"{x:.9g}f" for x in xs)


def model_from_source(source: str) -> _core.ValueModel:
    """The model of a C++ include that model_source wrote (an earlier shipped model, say)."""

    def numbers(name: str) -> list[float]:
        found = re.search(rf"{name}\[\] = \{{(.*?)\}};", source, re.S)
        if found is None:
            raise ValueError(f"no {name} in the model's source")
        return [float(x.strip().rstrip("f")) for x in found.group(1).split(",")]

    info = re.search(r'R"json\((.*?)\)json"', source, re.S)
    if info is None:
        raise ValueError("no kValueModelInfo in the model's source")
    sizes = [int(x) for x in numbers("kValueModelSizes")]
    flat_w, flat_b = numbers("kValueModelWeights"), numbers("kValueModelBiases")
    weights, biases = [], []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        weights.append(flat_w[: n_in * n_out])
        flat_w = flat_w[n_in * n_out :]
        biases.append(flat_b[:n_out])
        flat_b = flat_b[n_out:]
    return _core.ValueModel(
        sizes=sizes,
        mean=numbers("kValueModelMean"),
        scale=numbers("kValueModelScale"),
        weights=weights,
        biases=biases,
        info=info.group(1),
    )


def model_source(model: _core.ValueModel) -> str:
    """The model as the C++ include the engine is built with (cpp/src/value_model.inc)."""
    weights = [x for w in model.weights for x in w]
    biases = [x for b in model.biases for x in b]
    lines = [
        "// Written by `python -m manila train-value` (docs/value.md): do not edit by hand.",
        f'inline constexpr char kValueModelInfo[] = R"json({model.info})json";',
        f"inline constexpr int kValueModelSizes[] = {{{', '.join(map(str, model.sizes))}}};",
        f"inline constexpr float kValueModelMean[] = {{{_floats(model.mean)}}};",
        f"inline constexpr float kValueModelScale[] = {{{_floats(model.scale)}}};",
        f"inline constexpr float kValueModelWeights[] = {{{_floats(weights)}}};",
        f"inline constexpr float kValueModelBiases[] = {{{_floats(biases)}}};",
    ]
    return "\n".join(lines) + "\n"

"""A trained policy as a bot: ``policy:PATH`` in any list of bots (ladder, simulate).

A policy file (``.npz``, written by ``python -m manila train-policy``, docs/training.md) holds
a small network: the seat's observation tensor (docs/observation.md), each entry divided by
its section's scale, goes through ``tanh`` hidden layers to one score per **choice**; the
bot plays the legal choice of highest score (the first among equals). The choices are the
player actions with the bids folded: ``pass``; ``raise k`` for k = 0..BID_RAISES-1, the
lowest legal bid plus k; and every action from ``mortgage`` on, one choice each. Bids
higher than the lowest legal one plus ``BID_RAISES - 1`` are never made: a thousand bid ids
would otherwise hold nearly all the network's outputs.

The file's arrays: ``format`` (FORMAT), ``players``, ``observation_size``, ``num_actions``
(player actions), ``bid_raises``, ``scale``, ``layers`` (their number) and ``w0``, ``b0``,
``w1``, ... (float32), ``seed`` (the training seed), ``curve`` with ``curve_columns`` (the
learning curve) and ``info`` (JSON: how it was trained). A missing, corrupt or mismatched
file is refused with a ``ValueError`` naming the file and what is wrong.

The network reads only the observation tensor, which the engine writes the same for a
``PlayerView`` as for ``manila.VectorEnv`` (tests/test_vector_env.py), so a policy plays
the same moves in the ladder as it did where it learned (tests/test_baseline.py).
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

from .. import _core
from ..game.view import PlayerView, observation_layout, observation_size

FORMAT = 1
BID_RAISES = 10
NUM_PLAYER_ACTIONS: int = _core.NUM_PLAYER_ACTIONS
MAX_BID: int = _core.MAX_BID
_FIRST_OTHER: int = _core.ACTION_OFFSETS["mortgage"]  # every id from here on is a choice of its own
NUM_CHOICES = 1 + BID_RAISES + NUM_PLAYER_ACTIONS - _FIRST_OTHER

# Amounts are raw numbers in the tensor (cash in pesos, counts of shares): dividing them by
# a typical size keeps the first layer's inputs near one, as the flags and one-hots are.
# Sections not named here are flags or one-hots.
SECTION_SCALES = {
    "voyage": 10.0,
    "supply": 5.0,
    "cash": 50.0,
    "shares": 5.0,
    "hidden_shares": 5.0,
    "mortgaged": 5.0,
    "accomplices": 4.0,
    "high_bid": 50.0,
    "rounds_left": 3.0,
    "last_income": 50.0,
}

Layers = list[tuple[npt.NDArray[Any], npt.NDArray[Any]]]
Array = npt.NDArray[Any]


def observation_scale(players: int) -> npt.NDArray[np.float32]:
    """What each entry of the observation tensor is divided by before the network."""
    scale = np.ones(observation_size(players), np.float32)
    for name, offset, shape in observation_layout(players):
        scale[offset : offset + int(np.prod(shape))] = SECTION_SCALES.get(name, 1.0)
    return scale


def choice_masks(masks: npt.ArrayLike) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """(legal choices ``(N, NUM_CHOICES)``, lowest legal bid per row, 0 where none) of
    action masks ``(N, NUM_PLAYER_ACTIONS)``."""
    m = np.asarray(masks, dtype=bool)
    if m.ndim != 2 or m.shape[1] != NUM_PLAYER_ACTIONS:
        raise ValueError(f"masks: shape (N, {NUM_PLAYER_ACTIONS}) is needed, got {m.shape}")
    bids = m[:, 1 : MAX_BID + 1]
    has_bid = np.asarray(bids.any(axis=1), dtype=bool)
    lowest = np.where(has_bid, bids.argmax(axis=1) + 1, 0).astype(np.int64)
    raised = lowest[:, None] + np.arange(BID_RAISES)
    legal_raise = has_bid[:, None] & (raised <= MAX_BID)
    legal_raise &= m[np.arange(len(m))[:, None], np.minimum(raised, MAX_BID)]
    return np.concatenate([m[:, :1], legal_raise, m[:, _FIRST_OTHER:]], axis=1), lowest


def choice_actions(choices: npt.ArrayLike, lowest_bid: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The action id of each choice (``choice_masks``' order), given each row's lowest bid."""
    c = np.asarray(choices, dtype=np.int64)
    raise_k = c - 1
    other = _FIRST_OTHER + c - 1 - BID_RAISES
    return np.where(c == 0, 0, np.where(c <= BID_RAISES, np.asarray(lowest_bid) + raise_k, other))


def forward(layers: Layers, x: Array) -> list[Array]:
    """Every layer's output for inputs ``x`` (already scaled): ``tanh`` hidden layers, a linear
    last one. The first entry is ``x`` itself (what backpropagation needs)."""
    out = [x]
    for i, (w, b) in enumerate(layers):
        z = out[-1] @ w + b
        out.append(z if i == len(layers) - 1 else np.tanh(z))
    return out


def masked_log_softmax(scores: Array, legal: npt.NDArray[np.bool_]) -> Array:
    """Log-probabilities of the legal choices (``-inf`` for the others). A row without a
    legal choice (a finished game) gets all ``-inf``."""
    any_legal = legal.any(axis=1, keepdims=True)
    top = np.where(legal, scores, -np.inf).max(axis=1, keepdims=True)
    shifted = np.where(legal, scores - np.where(any_legal, top, 0.0), -np.inf)
    total = np.where(any_legal, np.exp(shifted).sum(axis=1, keepdims=True), 1.0)
    return shifted - np.log(total)


@dataclass
class Policy:
    """A network from observations to choices (see the module doc). ``layers`` are
    ``(weights, bias)`` pairs; ``info`` is free JSON about how it was made."""

    players: int
    layers: Layers
    seed: int = 0
    curve_columns: list[str] = field(default_factory=list)
    curve: Array = field(default_factory=lambda: np.zeros((0, 0)))
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.scale = observation_scale(self.players)

    @property
    def observation_size(self) -> int:
        return len(self.scale)

    def log_probs(self, observations: Array, masks: npt.ArrayLike) -> tuple[Array, Array]:
        """(log-probabilities of the choices ``(N, NUM_CHOICES)``, each row's lowest bid)."""
        legal, lowest = choice_masks(masks)
        # float64: a row's scores do not depend on the batch it came in to the last bits
        # that matter, so a game played one move at a time matches the batched one.
        x = np.asarray(observations, dtype=np.float64) / self.scale
        scores = forward([(w.astype(np.float64), b.astype(np.float64)) for w, b in self.layers], x)[-1]
        return masked_log_softmax(scores, legal), lowest

    def act(self, observations: Array, masks: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """An action id per row: the most probable legal choice (the first among equals). A
        row without a legal action (a finished game) gets 0."""
        logp, lowest = self.log_probs(observations, masks)
        actions = choice_actions(logp.argmax(axis=1), lowest)
        return np.where(np.isfinite(logp).any(axis=1), actions, 0)

    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the ``.npz`` file; the same policy gives the same bytes (no time stamps)."""
        arrays: dict[str, Array] = {
            "format": np.array(FORMAT),
            "players": np.array(self.players),
            "observation_size": np.array(self.observation_size),
            "num_actions": np.array(NUM_PLAYER_ACTIONS),
            "bid_raises": np.array(BID_RAISES),
            "scale": self.scale,
            "layers": np.array(len(self.layers)),
        }
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float32), b.astype(np.float32)
        arrays["seed"] = np.array(self.seed, dtype=np.uint64)
        arrays["curve_columns"] = np.array(self.curve_columns, dtype=str)
        arrays["curve"] = np.asarray(self.curve, dtype=np.float64)
        arrays["info"] = np.array(json.dumps(self.info, sort_keys=True))
        path = Path(path)
        partial = path.with_name(path.name + ".partial")
        with zipfile.ZipFile(partial, "w") as zf:
            for name, array in arrays.items():
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, np.asarray(array), allow_pickle=False)
                # A fixed date: numpy's own savez stamps the time, and the bytes would differ.
                zf.writestr(
                    zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0)), buffer.getvalue()
                )
        partial.replace(path)

    @classmethod
    def load(cls, path: Union[str, os.PathLike[str]]) -> Policy:
        """Reads a policy file, checking it against this engine (see the module doc)."""
        where = f"policy file {os.fspath(path)!r}"
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except FileNotFoundError:
            raise ValueError(f"{where}: no such file") from None
        except IsADirectoryError:
            raise ValueError(f"{where}: a folder, not a policy file") from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile):
            # numpy's own words would advise loading it unsafely (allow_pickle)
            raise ValueError(f"{where}: not a policy file (.npz from train-policy)") from None
        return cls._from_arrays(arrays, where)

    @classmethod
    def _from_arrays(cls, arrays: dict[str, Array], where: str) -> Policy:
        def number(name: str) -> int:
            if name not in arrays:
                raise ValueError(f"{where}: not a policy file: it has no {name!r}")
            value = arrays[name]
            if value.shape != () or value.dtype.kind not in "iu":
                raise ValueError(f"{where}: {name!r} must be a whole number, got {value!r}")
            return int(value)

        version = number("format")
        if version != FORMAT:
            raise ValueError(f"{where}: format version {version}, but this manila reads version {FORMAT}")
        players = number("players")
        try:
            _core.observation_size(players)
        except ValueError as exc:
            raise ValueError(f"{where}: players: {exc}") from None
        for name, expected in (
            ("observation_size", observation_size(players)),
            ("num_actions", NUM_PLAYER_ACTIONS),
            ("bid_raises", BID_RAISES),
        ):
            found = number(name)
            if found != expected:
                raise ValueError(
                    f"{where}: {name} is {found}, but this engine's is {expected} for {players} "
                    "players: the policy was trained for another version of the game's interface"
                )
        scale = arrays.get("scale")
        if scale is None or not np.array_equal(scale, observation_scale(players)):
            raise ValueError(
                f"{where}: its observation scales are not this engine's: the observation's "
                "sections have changed since the policy was trained"
            )
        count = number("layers")
        layers: Layers = []
        width = observation_size(players)
        for i in range(count):
            w, b = arrays.get(f"w{i}"), arrays.get(f"b{i}")
            if w is None or b is None:
                raise ValueError(f"{where}: layer {i} of {count} is missing (w{i}, b{i})")
            if w.dtype != np.float32 or b.dtype != np.float32:
                raise ValueError(f"{where}: layer {i} must be float32, got {w.dtype} and {b.dtype}")
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ValueError(
                    f"{where}: layer {i} has weights {w.shape} and bias {b.shape}; ({width}, k) and "
                    "(k,) are needed"
                )
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise ValueError(f"{where}: layer {i} holds a value that is not finite")
            layers.append((w, b))
            width = w.shape[1]
        if count < 1 or width != NUM_CHOICES:
            raise ValueError(f"{where}: the last layer must give {NUM_CHOICES} scores, got {width}")
        info = json.loads(str(arrays["info"])) if "info" in arrays else {}
        columns = [str(c) for c in arrays.get("curve_columns", np.array([], dtype=str))]
        return cls(
            players,
            layers,
            seed=int(arrays.get("seed", np.array(0))),
            curve_columns=columns,
            curve=arrays.get("curve", np.zeros((0, len(columns)))),
            info=info if isinstance(info, dict) else {},
        )


class PolicyBot:
    """Plays a ``Policy``'s most probable legal choice at every decision."""

    name = "policy"

    def __init__(self, policy: Policy, label: str = "policy"):
        self.policy, self.label = policy, label

    def step(self, view: PlayerView) -> int:
        if view.players != self.policy.players:
            raise ValueError(
                f"{self.label}: trained for {self.policy.players} players, the game has {view.players}"
            )
        mask = np.zeros((1, NUM_PLAYER_ACTIONS), dtype=bool)
        mask[0, view.legal_actions()] = True
        return int(self.policy.act(view.observation_tensor()[None], mask)[0])

    def __repr__(self) -> str:
        return f"PolicyBot({self.label})"


def policy_factory(path: str) -> Callable[[int], PolicyBot]:
    """The bot factory of ``policy:PATH`` (the file is read and checked now)."""
    if not path:
        raise ValueError("bot 'policy:': give the policy file after 'policy:'")
    policy = Policy.load(path)
    label = f"policy:{path}"
    return lambda seed: PolicyBot(policy, label)

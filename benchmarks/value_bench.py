"""The learned value (docs/value.md): its speed, its accuracy on held-out games, and its bias
against long play-outs of the same policy from the same positions.

    python benchmarks/value_bench.py [--held-out 1500] [--positions 100] [--playouts 400]
                                     [--before REV]  (that revision's model beside today's)
                                     [--model FILE]  (a model train-value --out wrote, beside)
                                     [--cache DIR]   (held-out samples; the bias's play-outs)
                                     [--ceiling 300 --ceiling-playouts 100]

- speed: the value of a boundary position (the network on every seat's features) in
  microseconds, through the binding (the C++ call plus its small Python overhead);
- accuracy, on games of the training policy that the training never saw (their own seed):
  the Brier score of `win` against the no-skill 1/n forecast and a softmax of current
  wealth, the calibration by deciles, the mean absolute error of `wealth`;
- bias: at a boundary in the middle of each of `--positions` games of the training policy
  (under the held-out seed), the learned equity of every player against the mean of
  `--playouts` play-outs of that policy from there (every seat's bot drawn anew at every
  boundary, as in training); the share within the play-outs' 95% interval widened by 2
  pesos (the goal: 90%);
- ceiling (only with --ceiling N): how good any forecast of `win` can be at an auction start
  for this policy. At N auction starts drawn from the held-out games, the share of the win
  of `--ceiling-playouts` play-outs of the policy from there is the best forecast there is
  (up to its sampling noise, which is taken out of its Brier score): its Brier score
  against what happened, beside the model's, the softmax of wealth's and 1/n's on the same
  positions, with paired standard errors.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import time
from pathlib import Path
from typing import Optional

import numpy as np

from manila import _core
from manila.analysis import value_train as vt
from manila.analysis.value import model_info
from manila.game import Game


def speed(model: _core.ValueModel, label: str) -> None:
    state = Game(5, seed=3).new_initial_state()
    while not _core.at_boundary(state._s) or state.voyage_number < 2:
        state.apply_action(
            state.sample_chance() if state.is_chance_node() else _core.bot_action(state._s, "greedy")
        )
    n = 20000
    start = time.perf_counter()
    for _ in range(n):
        _core.boundary_value(state._s, model)
    per = (time.perf_counter() - start) / n
    print(f"{label}value of a 5-player boundary position: {1e6 * per:.1f} µs a call (goal 50 µs)")


def accuracy(model: _core.ValueModel, label: str, held_out: int, threads: int, cache: Optional[Path]) -> None:
    # The shipped model's held-out games, whichever model is measured: the same games for both.
    seed = vt.held_out_seed(model_info()["seed"])
    samples = vt.collect(seed, held_out, threads, cache=cache)
    acc = vt.accuracy(model, samples, json.loads(model.info)["wealth_temperature"])
    print(f"\n{label}held-out: {held_out} games, {acc.positions} auction starts, {acc.forecasts} forecasts")
    print(f"{'players':<8}{'positions':>10}{'Brier':>8}{'1/n':>8}{'wealth':>8}{'vs 1/n':>8}{'vs wealth':>10}")
    rows = [(str(n), d) for n, d in acc.by_players.items()] + [
        (
            "all",
            {
                "positions": acc.positions,
                "brier": acc.brier,
                "brier_uniform": acc.brier_uniform,
                "brier_wealth": acc.brier_wealth,
            },
        )
    ]
    for name, d in rows:
        print(
            f"{name:<8}{d['positions']:>10}{d['brier']:>8.4f}{d['brier_uniform']:>8.4f}{d['brier_wealth']:>8.4f}"
            f"{100 * (1 - d['brier'] / d['brier_uniform']):>7.1f}%{100 * (1 - d['brier'] / d['brier_wealth']):>9.1f}%"
        )
    print("(goals: at least 20% better than 1/n, 10% better than wealth)")
    print(f"\n{'decile':<12}{'count':>7}{'forecast':>10}{'observed':>10}{'gap':>8}")
    for d in acc.deciles:
        gap = d["observed"] - d["forecast"]
        flag = "" if d["count"] < 40 or abs(gap) <= 0.05 else "  MISS"
        print(
            f"{d['low']:.1f}-{d['high']:.1f}{'':<5}{d['count']:>7}{d['forecast']:>10.3f}{d['observed']:>10.3f}{gap:>+8.3f}{flag}"
        )
    print(f"\nwealth: mean absolute error {acc.wealth_mae:.1f} pesos")


def positions_of(seed: int, count: int) -> list[_core.GameState]:
    """A boundary in the middle of each of the first `count` games of the training policy
    under the held-out seed: the engine's own games (``_core.value_boundaries``)."""
    picked = []
    for players, first, n in vt.chunks(seed, count):
        for states in _core.value_boundaries(
            players, seed, first, n, list(vt.LINEUP), list(vt.LINEUP.values())
        ):
            if states:
                picked.append(states[len(states) // 2])
    return picked


def play_outs(state: _core.GameState, n: int, seed: int, threads: int) -> np.ndarray:
    """The final wealth (n, players) of ``n`` play-outs of the training policy from ``state``."""
    return _core.play_outs(state, list(vt.LINEUP), list(vt.LINEUP.values()), n, seed, threads).astype(float)


def bias(
    models: list[tuple[str, _core.ValueModel]],
    positions: int,
    playouts: int,
    threads: int,
    cache: Optional[Path],
) -> None:
    """At boundaries of games of the training policy, the learned equity against play-outs
    of that policy from there (every seat's bot drawn anew at every boundary): every model
    against the same play-outs. With ``cache`` the play-outs' means and intervals are kept
    there: the next model is measured against them at once."""
    seed = vt.held_out_seed(model_info()["seed"])
    picked = positions_of(seed, positions)
    path = None if cache is None else cache / f"bias-{vt.VERSION}-{seed}-{positions}-{playouts}.npz"
    start = time.perf_counter()
    if path is not None and path.is_file():
        with np.load(path) as f:
            played, ci = f["played"], f["ci"]
    else:
        means, halves = [], []
        for k, state in enumerate(picked):
            n = len(state.returns())
            w = play_outs(state, playouts, _core.derive_seed(k, 0), threads)
            eq = w - (w.sum(axis=1, keepdims=True) - w) / (n - 1)
            means.extend(eq.mean(axis=0))
            halves.extend(1.96 * eq.std(axis=0, ddof=1) / math.sqrt(len(eq)))
        played, ci = np.array(means), np.array(halves)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(path, played=played, ci=ci)
    seconds = time.perf_counter() - start
    print(f"\nbias: {len(picked)} positions x {playouts} play-outs of the training policy ({seconds:.0f} s)")
    for label, model in models:
        gap = np.concatenate([_core.boundary_value(state, model)["equity"] for state in picked]) - played
        within = np.abs(gap) <= ci + 2.0
        print(
            f"{label}learned equity within the play-outs' 95% interval + 2 pesos for {int(within.sum())} "
            f"of {len(gap)} players ({100 * within.mean():.1f}%, goal 90%); mean learned - played "
            f"{gap.mean():+.2f}, mean |learned - played| {np.abs(gap).mean():.2f} pesos"
        )


def ceiling(
    model: _core.ValueModel, games: int, positions: int, playouts: int, threads: int, cache: Optional[Path]
) -> None:
    """How good any forecast of the win can be at `positions` auction starts of the `games`
    held-out games (the module's doc)."""
    seed = vt.held_out_seed(model_info()["seed"])
    samples = vt.collect(seed, games, threads, cache=cache)
    rows = np.sort(np.random.default_rng(7).choice(len(samples), positions, replace=False))
    players_of = {first: players for players, first, _ in vt.chunks(seed, games)}
    states: dict[int, _core.GameState] = {}
    for r in rows:  # the row's game replayed alone: its boundaries are its rows, in order
        g = int(samples.game[r])
        players = players_of[g - g % vt.CHUNK]
        (game,) = _core.value_boundaries(players, seed, g, 1, list(vt.LINEUP), list(vt.LINEUP.values()))
        states[int(r)] = game[int(r - np.flatnonzero(samples.game == g)[0])]
    _, win = vt.predict(model, samples)
    by_wealth = vt._softmax(samples.wealth / json.loads(model.info)["wealth_temperature"], samples.mask)
    brier: dict[str, list[float]] = {"play-outs": [], "model": [], "wealth": [], "1/n": []}
    start = time.perf_counter()
    for r in rows:
        n = int(samples.players[r])
        w = play_outs(states[int(r)], playouts, _core.derive_seed(int(r), 99), threads)
        share = (w == w.max(axis=1, keepdims=True)).astype(float)
        share /= share.sum(axis=1, keepdims=True)
        seen = samples.win[r, :n]
        # E[(p_hat - o)^2] = (p - o)^2 + var(p_hat): the estimate's own noise taken out.
        noise = float((share.var(axis=0, ddof=1) / playouts).sum())
        brier["play-outs"].append(float(((share.mean(axis=0) - seen) ** 2).sum()) - noise)
        brier["model"].append(float(((win[r, :n] - seen) ** 2).sum()))
        brier["wealth"].append(float(((by_wealth[r, :n] - seen) ** 2).sum()))
        brier["1/n"].append(float(((1 / n - seen) ** 2).sum()))
    print(
        f"\nceiling: {positions} auction starts x {playouts} play-outs ({time.perf_counter() - start:.0f} s)"
    )
    base = np.array(brier["wealth"])
    print(f"{'forecast':<11}{'Brier':>8}{'vs wealth':>11}{'± se':>7}")
    for name, values in brier.items():
        v = np.array(values)
        se = (v - base).std(ddof=1) / math.sqrt(len(v)) / base.mean()
        print(f"{name:<11}{v.mean():>8.4f}{100 * (1 - v.mean() / base.mean()):>10.1f}%{100 * se:>6.1f}")
    gap = np.array(brier["model"]) - np.array(brier["play-outs"])
    print(f"model - play-outs: {gap.mean():+.4f} ± {1.96 * gap.std(ddof=1) / math.sqrt(len(gap)):.4f} (95%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", type=int, default=1500)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--playouts", type=int, default=400)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--skip", default="", help="comma-separated: speed, accuracy, bias")
    parser.add_argument("--ceiling", type=int, default=0, metavar="N", help="the ceiling at N auction starts")
    parser.add_argument("--ceiling-playouts", type=int, default=100)
    parser.add_argument(
        "--cache",
        default=None,
        help="train-value's --cache: the held-out games' samples; the bias's play-outs are kept there too",
    )
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="FILE",
        help="also a model written by train-value --out (repeatable), on the same games and play-outs",
    )
    parser.add_argument(
        "--before",
        default=None,
        metavar="REV",
        help="also the model shipped at git revision REV, before today's, on the same games",
    )
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    models = [("", _core.shipped_value_model())]
    if args.before:
        source = subprocess.run(
            ["git", "show", f"{args.before}:cpp/src/value_model.inc"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        models = [
            (f"before ({args.before}): ", vt.model_from_source(source)),
            ("after (shipped): ", models[0][1]),
        ]
    models += [(f"{name}: ", vt.model_from_source(Path(name).read_text())) for name in args.model]
    cache = None if args.cache is None else Path(args.cache)
    if "speed" not in skip:
        for label, model in models:
            speed(model, label)
    if "accuracy" not in skip:
        for label, model in models:
            accuracy(model, label, args.held_out, args.threads, cache)
    if "bias" not in skip:
        bias(models, args.positions, args.playouts, args.threads, cache)
    if args.ceiling:
        ceiling(
            _core.shipped_value_model(),
            args.held_out,
            args.ceiling,
            args.ceiling_playouts,
            args.threads,
            cache,
        )


if __name__ == "__main__":
    main()

"""Agent-steps per second: the PettingZoo env (before) and the batched C++ env (after).

    python benchmarks/vector_env_bench.py [--seconds S] [--envs N]

An agent-step is one decision of the agent, with its observation tensor and legal-action
mask computed. Two cases, each timed before and after in the same run:

- every seat the agent's, random legal actions: before, the PettingZoo AEC env with the
  action drawn by numpy from the mask; after, VectorEnv.step with the actions drawn in C++
  (``sample_actions``), on 1 thread and on all cores, and with the actions drawn by numpy
  from the masks (what a Python policy pays to read the masks);
- the agent at seat 0 and ``greedy`` at the three others: before, the PettingZoo env
  with the three seats played by ``manila.bots.GreedyBot``; after, VectorEnv with
  ``bots=[None, "greedy", "greedy", "greedy"]``.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Callable

import numpy as np

from manila import _core
from manila.bots import GreedyBot
from manila.pettingzoo import raw_env


def rate(run: Callable[[], int], seconds: float) -> float:
    """Agent-steps per second of `run` (which returns the steps it took), over about `seconds`."""
    run()  # warm up: imports, first allocations
    steps, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += run()
    return steps / elapsed


def pettingzoo_random(seed: int) -> Callable[[], int]:
    env = raw_env(players=4)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def run() -> int:
        for _ in range(1000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.reset()
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return 1000

    return run


def pettingzoo_greedy(seed: int) -> Callable[[], int]:
    env = raw_env(players=4)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    greedy = GreedyBot()

    def run() -> int:
        steps = 0
        while steps < 20:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.reset()
            elif env.agent_selection == "player_0":
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
            else:
                env.step(greedy.step(env.state_))
        return steps

    return run


def vector_random(envs: int, threads: int, seed: int, numpy_policy: bool) -> Callable[[], int]:
    env = _core.VectorEnv(envs, players=4, threads=threads)
    _, masks = env.reset(seed)
    rng = _core.Rng(seed)
    np_rng = np.random.default_rng(seed)

    def run() -> int:
        nonlocal masks
        for _ in range(20):
            if numpy_policy:  # the largest random score among the legal actions
                actions = np.argmax(np_rng.random(masks.shape, np.float32) * masks, axis=1)
            else:
                actions = env.sample_actions(rng)
            _, masks, _, _, _ = env.step(actions)
        return 20 * envs

    return run


def vector_greedy(envs: int, threads: int, seed: int) -> Callable[[], int]:
    env = _core.VectorEnv(envs, players=4, bots=[None, "greedy", "greedy", "greedy"], threads=threads)
    env.reset(seed)
    rng = _core.Rng(seed)

    def run() -> int:
        env.step(env.sample_actions(rng))
        return envs

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement (default 3)")
    parser.add_argument("--envs", type=int, default=1024, help="games in the batch (default 1024)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    s, n = args.seconds, args.envs
    print(f"four players, {cores} cores, {n} games per batch, about {s:g} s per line")
    print(f"{'':<52}{'agent-steps/s':>16}{'× before':>10}")

    def line(label: str, value: float, before: float) -> None:
        print(f"  {label:<50}{value:>16,.0f}{value / before:>9.1f}×")

    print("random legal actions, every seat the agent's")
    before = rate(pettingzoo_random(args.seed), s)
    line("before: PettingZoo env (numpy picks from the mask)", before, before)
    line(
        "after: VectorEnv, 1 thread, C++ sample_actions",
        rate(vector_random(n, 1, args.seed, False), s),
        before,
    )
    line(
        f"after: VectorEnv, {cores} threads, C++ sample_actions",
        rate(vector_random(n, cores, args.seed, False), s),
        before,
    )
    line(
        f"after: VectorEnv, {cores} threads, numpy picks from masks",
        rate(vector_random(n, cores, args.seed, True), s),
        before,
    )
    print("agent at seat 0 (random), greedy at the three others")
    before = rate(pettingzoo_greedy(args.seed), s)
    line("before: PettingZoo env, Python GreedyBot seats", before, before)
    line("after: VectorEnv, 1 thread", rate(vector_greedy(max(1, n // 16), 1, args.seed), s), before)
    line(
        f"after: VectorEnv, {cores} threads",
        rate(vector_greedy(max(1, n // 16), cores, args.seed), s),
        before,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Agent-steps per second: the PettingZoo env (before) and the batched C++ env (after).

    python benchmarks/vector_env_bench.py [--seconds S] [--envs N]

An agent-step is one decision of the agent, with its observation tensor and legal-action
mask computed. Two cases, each timed before and after in the same run:

- every seat the agent's, random legal actions: before, the PettingZoo AEC env as it was
  (on a Python ``State``, copied below) with the action drawn by numpy from the mask;
  after, the PettingZoo env now (on VectorEnv), and VectorEnv.step with the actions drawn in C++
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
from manila.game import Game, State
from manila.pettingzoo import NUM_PLAYER_ACTIONS, raw_env
from manila.view import PlayerView


class python_env(raw_env):
    """The PettingZoo env as it was before it ran on the C++ VectorEnv: the game a Python
    ``State``, chance drawn one move at a time from Python, the mask built by numpy."""

    def reset(self, seed=None, options=None):
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.game_state = Game(4, int(self._rng.integers(2**63))).new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._advance()

    @property
    def state_(self) -> State:
        return self.game_state

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        mask = np.zeros(NUM_PLAYER_ACTIONS, np.int8)
        if self.game_state.current_player() == p:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.game_state.observation_tensor(p), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game_state.apply_action(int(action))
        self._cumulative_rewards[agent] = 0
        self._advance()
        self._accumulate_rewards()

    def _advance(self):
        state = self.game_state
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


def rate(run: Callable[[], int], seconds: float) -> float:
    """Agent-steps per second of `run` (which returns the steps it took): the best of five
    slices of about `seconds` / 5, since the machine is shared and a slice may be starved."""
    run()  # warm up: imports, first allocations
    best = 0.0
    for _ in range(5):
        steps, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 5:
            steps += run()
        best = max(best, steps / elapsed)
    return best


def pettingzoo_random(seed: int, kind: type = raw_env) -> Callable[[], int]:
    env = kind(players=4)
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


def pettingzoo_greedy(seed: int, kind: type = raw_env) -> Callable[[], int]:
    env = kind(players=4)
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
                p = env.agent_name_mapping[env.agent_selection]
                env.step(greedy.step(PlayerView(env.state_, p)))
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
    before = rate(pettingzoo_random(args.seed, python_env), s)
    line("before: PettingZoo env on Python State (numpy picks)", before, before)
    line("after: PettingZoo env on VectorEnv (numpy picks)", rate(pettingzoo_random(args.seed), s), before)
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
    before = rate(pettingzoo_greedy(args.seed, python_env), s)
    line("before: PettingZoo env on State, Python GreedyBot seats", before, before)
    line("after: VectorEnv, 1 thread", rate(vector_greedy(max(1, n // 16), 1, args.seed), s), before)
    line(
        f"after: VectorEnv, {cores} threads",
        rate(vector_greedy(max(1, n // 16), cores, args.seed), s),
        before,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

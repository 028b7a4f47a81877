"""VectorEnv with explicit chance: every chance node's outcomes carry the rules' exact
probabilities, and outcomes drawn from the games' own generators replay the default games."""

import random
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import manila
from helpers.chance_rules import GOODS, ROLL, Layout, deal_probability, rules_chance
from manila import _core
from manila.bots import bot_seed
from manila.game import CHANCE, TERMINAL
from manila.game.play import play as play_game

# (players, bots): one agent seat or several, cheap bots so that 1,000 games stay quick.
SEATINGS = [
    (3, [None, None, None]),
    (4, [None, "random", "random", "random"]),
    (5, ["random", None, "random", None, "random"]),
    (4, [None, "greedy", "random", None]),
]


def check_chance_node(env, i, layout, dealt):
    """The outcomes of env i's chance node are the rules' with their exact probabilities."""
    weights = env.chance_weights[i].astype(np.int64)
    den = int(env.chance_denominators[i])
    assert den > 0 and weights.sum() == den  # the probabilities sum to exactly 1
    kind, outcomes, numerators, rule_den = rules_chance(env.observations[i], layout, dealt)
    assert np.flatnonzero(weights).tolist() == outcomes
    assert (weights[outcomes] * rule_den == numerators * den).all()  # exact, cross-multiplied
    return kind


def policy(env, masks):
    """A legal action in every env at an agent's decision, pseudo-random but a function of the
    game and the agent's decisions so far alone: the same in the same game, whatever else the
    batch does (0 elsewhere)."""
    with np.errstate(over="ignore"):  # the hash wraps around on purpose
        h = env.game_seeds * np.uint64(0x9E3779B97F4A7C15) + env.steps.astype(np.uint64) * np.uint64(
            0xBF58476D1CE4E5B9
        )
    rows, legal = np.nonzero(masks)  # row by row, in action order
    if not len(legal):
        return np.zeros(len(masks), np.int64)
    counts = np.bincount(rows, minlength=len(masks))
    first = np.cumsum(counts) - counts
    r = ((h >> np.uint64(33)) % np.maximum(counts, 1).astype(np.uint64)).astype(np.int64)
    return np.where(counts > 0, legal[np.minimum(first + r, len(legal) - 1)], 0)


def play(env, seed, layout=None, tally=None):
    """Plays env's games from reset(seed) to their end (no autoreset): agent decisions by
    `policy`, each chance outcome (explicit chance) from the game's generator, checked against
    the rules. Returns each game's history and rewards."""
    n = env.num_envs
    _, masks = env.reset(seed)
    dealt = [[] for _ in range(n)]
    deal_products = [Fraction(1)] * n
    rewards = [None] * n
    while not env.dones.all():
        actions = policy(env, masks)
        if env.explicit_chance:
            chance = np.flatnonzero(env.is_chance)
            assert not masks[chance].any()
            drawn = env.sample_chance()
            assert (drawn[env.to_move != CHANCE] == -1).all()
            for i in chance:
                kind = check_chance_node(env, i, layout, dealt[i])
                tally[kind] += 1
                k = int(drawn[i])
                assert env.chance_weights[i, k] > 0
                if kind == "deal":
                    deal_products[i] *= Fraction(
                        int(env.chance_weights[i, k]), int(env.chance_denominators[i])
                    )
                    dealt[i].append(k)
                actions[i] = k
        was_done = env.dones.copy()
        _, masks, step_rewards, dones, _ = env.step(actions)
        for i in np.flatnonzero(dones & ~was_done):
            rewards[i] = step_rewards[i].tolist()
            assert rewards[i] == env.state(i).returns()
    if env.explicit_chance:  # the whole deal's probability, node by node and counted at once
        players = env.players
        for i in range(n):
            assert len(dealt[i]) == 2 * players
            assert deal_products[i] == deal_probability(tuple(dealt[i]))
    return [(env.state(i).history(), rewards[i]) for i in range(n)]


def test_a_thousand_games_have_the_rules_chance_and_replay_the_default_games():
    tally = {"deal": 0, "roll": 0}
    games = shares_dealt = 0
    for batch in range(20):
        players, bots = SEATINGS[batch % len(SEATINGS)]
        kwargs = {"players": players, "bots": bots, "autoreset": False}
        explicit = manila.VectorEnv(50, explicit_chance=True, **kwargs)
        default = manila.VectorEnv(50, **kwargs)
        got = play(explicit, batch, layout=Layout(players), tally=tally)
        assert got == play(default, batch)  # the same actions, chance and final wealth
        games += len(got)
        shares_dealt += 2 * players * len(got)
    assert games == 1000
    assert tally["deal"] == shares_dealt and tally["roll"] > 3 * games  # three rolls a voyage


def test_chance_outcomes_as_fractions_and_floats():
    env = manila.VectorEnv(2, players=4, explicit_chance=True)
    env.reset(seed=3)
    assert env.is_chance.all() and (env.to_move == CHANCE).all()
    assert env.chance_outcomes(0) == [(g, Fraction(1, 4)) for g in range(GOODS)]
    rng = _core.Rng(4)
    seen_roll = False
    for _ in range(300):
        for i in np.flatnonzero(env.is_chance):
            outcomes = env.chance_outcomes(i)
            assert sum(p for _, p in outcomes) == 1
            probs = env.chance_probs[i]
            assert [float(p) for _, p in outcomes] == probs[probs > 0].tolist()
            seen_roll |= len(outcomes) > GOODS
        assert not env.chance_probs[~env.is_chance].any()
        env.step(env.sample_actions(rng))
    assert seen_roll
    with pytest.raises(ValueError, match=r"env: must be 0\.\.1"):
        env.chance_outcomes(2)


def test_sample_actions_draws_chance_by_its_probabilities():
    env = manila.VectorEnv(1, players=3, explicit_chance=True)
    env.reset(seed=1)
    rng = _core.Rng(9)
    counts = np.zeros(GOODS)
    for _ in range(4000):  # the first share of a fresh deal: 1/4 per good
        counts[env.sample_actions(rng)[0]] += 1
    assert (np.abs(counts / 4000 - 0.25) < 0.03).all()


def test_a_chance_step_that_ends_a_game_autoresets_to_the_next_deal():
    env = manila.VectorEnv(4, players=3, bots=[None, "random", "random"], explicit_chance=True)
    env.reset(seed=2)
    rng = _core.Rng(3)
    ended_by_chance = 0
    for _ in range(3000):
        at_chance = env.is_chance.copy()
        game_numbers = env.game_numbers.copy()
        _, masks, rewards, dones, to_move = env.step(env.sample_actions(rng))
        for i in np.flatnonzero(dones):
            assert env.game_numbers[i] == game_numbers[i] + 4 and rewards[i].any()
            assert to_move[i] == CHANCE and env.chance_denominators[i] == 12 and not masks[i].any()
            assert env.steps[i] == 0
            ended_by_chance += bool(at_chance[i])
        if ended_by_chance >= 2:
            break
    assert ended_by_chance >= 2  # a last roll ends the game: rewards on the chance step


def test_bad_outcomes_name_the_env_and_the_rule_and_change_nothing():
    env = manila.VectorEnv(2, players=4, explicit_chance=True)
    env.reset(seed=1)
    history = env.state(0).history()
    for bad, message in [
        (_core.NUM_CHANCE_OUTCOMES, r"not a chance outcome \(0\.\.219\)"),
        (-1, "not a chance outcome"),
        (ROLL, r"actions\[0\]: 4 is no outcome of this chance node \(deal\) in game seed \d+: "),
    ]:
        with pytest.raises(ValueError, match=message):
            env.step([bad, 0])
        assert env.state(0).history() == history
    # A good whose three shares are out is no outcome any more.
    dealt = 0
    while env.is_chance[0] and dealt < 3:
        env.step([0, 0])
        dealt += 1
    assert env.chance_weights[0, 0] == 0
    with pytest.raises(ValueError, match=r"actions\[0\]: 0 is no outcome"):
        env.step([0, 1])
    with pytest.raises(ValueError, match="explicit_chance"):
        manila.VectorEnv(1).sample_chance()


def test_without_autoreset_a_finished_game_clears_its_chance_row():
    env = manila.VectorEnv(3, players=3, autoreset=False, explicit_chance=True)
    env.reset(seed=5)
    rng = _core.Rng(1)
    while not env.dones.all():
        env.step(env.sample_actions(rng))
    assert (env.to_move == TERMINAL).all() and not env.chance_weights.any()
    assert not env.chance_denominators.any() and not env.masks.any()


def test_the_examples_in_docs_rl_run():
    # The explicit-chance loop, and the bot interface's example playing a whole game.
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    loop, bot = re.findall(r"```python\n(.*?)```", text, re.S)
    exec(compile(loop, "docs/rl.md", "exec"), {})
    scope = {"random": random, "manila": manila}
    exec(compile(bot, "docs/rl.md", "exec"), scope)
    game = manila.Game(players=3, seed=1)
    state = play_game(game, [scope["MyBot"](bot_seed(1, s)) for s in range(3)])
    assert state.is_terminal()

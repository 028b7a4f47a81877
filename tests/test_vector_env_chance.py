"""VectorEnv with explicit chance: every chance node's outcomes carry the rules' exact
probabilities, and outcomes drawn from the games' own generators replay the default games."""

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import manila
from manila import _core
from manila.game import CHANCE, TERMINAL
from manila.view import observation_layout

GOODS, PER_GOOD = 4, 3  # shares shuffled for the deal: 3 of each good (rules, set-up)
ROLL = _core.ACTION_OFFSETS["roll"] - _core.ACTION_OFFSETS["deal"]  # the first roll outcome
DEAL_PHASE = 0  # the phase one-hot's first entry (docs/observation.md)

# (players, bots): one agent seat or several, cheap bots so that 1,000 games stay quick.
SEATINGS = [
    (3, [None, None, None]),
    (4, [None, "random", "random", "random"]),
    (5, ["random", None, "random", None, "random"]),
    (4, [None, "greedy", "random", None]),
]


def arrangements(counts):
    """The distinct orders of a pile holding counts[g] shares of good g."""
    return math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts)


def deal_probability(dealt):
    """The probability that a shuffled pile of 3 shares per good deals `dealt` (goods, in
    order) first: the orders of the pile that begin so, over all its orders."""
    left = [PER_GOOD - dealt.count(g) for g in range(GOODS)]
    if min(left) < 0:
        return Fraction(0)
    return Fraction(arrangements(left), arrangements([PER_GOOD] * GOODS))


@functools.cache
def roll_outcomes(sailing):
    """Every roll outcome with the boats `sailing` (flags in good order of the three boats):
    a die 1..6 for each, the die of a boat in Manila fixed at 1 (the engine's numbering)."""
    faces = [range(6) if s else range(1) for s in sailing]
    return sorted(ROLL + d0 * 36 + d1 * 6 + d2 for d0, d1, d2 in itertools.product(*faces))


class Layout:
    def __init__(self, players):
        sections = {name: (offset, shape) for name, offset, shape in observation_layout(players)}
        self.phase = sections["phase"][0]
        offset, shape = sections["boat_position"]
        self.boats = slice(offset, offset + int(np.prod(shape)))
        self.boats_shape = shape

    def is_deal(self, obs):
        return obs[self.phase + DEAL_PHASE] == 1

    def sailing(self, obs):
        """For the three boats that sail, in good order: not yet in Manila (last column)."""
        rows = obs[self.boats].reshape(self.boats_shape)
        return tuple(bool(row[-1] == 0) for row in rows if row.any())


def check_chance_node(env, i, layout, dealt):
    """The outcomes of env i's chance node are the rules' with their exact probabilities."""
    weights = env.chance_weights[i].astype(np.int64)
    den = int(env.chance_denominators[i])
    assert den > 0 and weights.sum() == den  # the probabilities sum to exactly 1
    obs = env.observations[i]
    if layout.is_deal(obs):
        before = deal_probability(dealt)
        expected = [deal_probability([*dealt, g]) / before for g in range(GOODS)]
        outcomes = [g for g in range(GOODS) if expected[g]]
        probs = [expected[g] for g in outcomes]
        kind = "deal"
    else:
        sailing = layout.sailing(obs)
        assert len(sailing) == 3 and any(sailing)
        outcomes = roll_outcomes(sailing)
        probs = [Fraction(1, 6 ** sum(sailing))] * len(outcomes)
        kind = "roll"
    assert np.flatnonzero(weights).tolist() == outcomes
    # Exact: weight / den == p, cross-multiplied.
    numerators = np.array([p.numerator for p in probs], np.int64)
    denominators = np.array([p.denominator for p in probs], np.int64)
    assert (weights[outcomes] * denominators == numerators * den).all()
    return kind


def play(env, seed, policy_seed, layout=None, tally=None):
    """Plays env's games from reset(seed) to their end (no autoreset): each agent decision by
    env i's own generator, each chance outcome (explicit chance) from the game's generator,
    checked against the rules. Returns each game's history and rewards."""
    n = env.num_envs
    obs, masks = env.reset(seed)
    policies = [np.random.default_rng([policy_seed, i]) for i in range(n)]
    dealt = [[] for _ in range(n)]
    deal_products = [Fraction(1)] * n
    rewards = [None] * n
    while not env.dones.all():
        actions = np.zeros(n, np.int64)
        for i in np.flatnonzero(env.to_move >= 0):
            actions[i] = policies[i].choice(np.flatnonzero(masks[i]))
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
                    deal_products[i] *= Fraction(int(env.chance_weights[i, k]), int(env.chance_denominators[i]))
                    dealt[i].append(k)
                actions[i] = k
        was_done = env.dones.copy()
        obs, masks, step_rewards, dones, _ = env.step(actions)
        for i in np.flatnonzero(dones & ~was_done):
            rewards[i] = step_rewards[i].tolist()
            assert rewards[i] == env.state(i).returns()
    if env.explicit_chance:  # the whole deal's probability, node by node and counted at once
        players = env.players
        for i in range(n):
            assert len(dealt[i]) == 2 * players
            assert deal_products[i] == deal_probability(dealt[i])
    return [(env.state(i).history(), rewards[i]) for i in range(n)]


def test_a_thousand_games_have_the_rules_chance_and_replay_the_default_games():
    tally = {"deal": 0, "roll": 0}
    games = shares_dealt = 0
    for batch in range(20):
        players, bots = SEATINGS[batch % len(SEATINGS)]
        kwargs = {"players": players, "bots": bots, "autoreset": False}
        explicit = manila.VectorEnv(50, explicit_chance=True, **kwargs)
        default = manila.VectorEnv(50, **kwargs)
        got = play(explicit, batch, policy_seed=batch, layout=Layout(players), tally=tally)
        assert got == play(default, batch, policy_seed=batch)  # same actions, chance, wealth
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

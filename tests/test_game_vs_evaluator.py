"""The game engine and the evaluator agree exactly: at every moment of a played game when
roll 3 is next, the engine's exact average over the dice of each player's voyage income
(and payoff in wealth) equals what ``manila.evaluate`` gives for ``state.voyage_state()``.

Why roll 3, and who decides. Before roll 1 or 2 the game still has placement rounds,
which bots play and the evaluator does not (it assumes nobody places again), so no exact
equality can hold there. By the roll-3 chance node every placement and both pilots are
done; what remains is the dice and, when a boat ends on 13 with pirates on the ship, the
captain's plunder choice. The evaluator takes that choice to maximise the captain's own
payoff, first option on ties; the greedy bots take it the same way from the game's own
settlement (``manila.bots``: ``greedy`` in voyage income, ``greedy-wealth`` in wealth,
and a captain's own wealth is fully known to them), so the average below lets them decide
and the equality is exact, decisions included. The seats that led to the moment can be any
bots: random ones make the boards the greedy ones never would (loans, odd placements).

Voyage income as docs/numbers.md counts it: the insurer owes the whole claim, even when
the bank covers the part they cannot pay (rule 9), so the engine's settlement income gets
that part back. The payoff adds each player's shares times the price rise the game applied.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import manila
from manila.bots import GreedyBot, GreedyWealthBot, bots_for
from manila.game import Game, State
from manila.view import PlayerView

# (players, seat bots, rules): each played for several seeds.
TABLES = [
    (3, ["greedy"] * 3, {}),
    (4, ["greedy"] * 4, {"pirate_variant": True}),
    (5, ["greedy"] * 5, {"thirteen_after_last_roll": "shipyard"}),
    (3, ["random", "greedy-wealth", "greedy"], {"thirteen_after_last_roll": "shipyard"}),
    (4, ["greedy", "random", "greedy-wealth", "random"], {}),
    (5, ["greedy-wealth", "greedy", "random", "greedy", "random"], {"pirate_variant": True}),
]
SEEDS = range(12)
GAMES = [(players, bots, rules, seed) for players, bots, rules in TABLES for seed in SEEDS]


def voyage_income(settlement: dict, player: int) -> int:
    income = settlement["income"][player]
    if settlement["insurer"] == player:
        income -= settlement["insurance_due"] - settlement["insurance_paid"]
    return income


def engine_average(state: State, decider) -> tuple[list[Fraction], list[Fraction]]:
    """Every roll-3 outcome applied to a copy with its exact probability, the voyage played
    to its settlement by ``decider`` (the plunder choice): (mean incomes, mean payoffs)."""
    players = state.game.players
    incomes = [Fraction(0)] * players
    payoffs = [Fraction(0)] * players
    before = state.to_dict()
    done = state.voyages_completed()
    for action, probability in state.chance_outcomes(exact=True):
        after = state.clone()
        after.apply_action(action)
        while after.voyages_completed() == done:
            after.apply_action(decider.step(PlayerView(after, after.current_player())))
        table = after.to_dict()
        for p in range(players):
            income = voyage_income(table["last_settlement"], p)
            shares = before["players"][p]["shares"]
            gain = sum(n * (table["prices"][g] - before["prices"][g]) for g, n in shares.items())
            incomes[p] += probability * income
            payoffs[p] += probability * (income + gain)
    return incomes, payoffs


def roll_3_moments(players, bots, rules, seed):
    """The game's states at the roll-3 chance node, played by the seat bots."""
    game = Game(players, seed, rules)
    state = game.new_initial_state()
    seats = bots_for(bots, seed)
    while not state.is_terminal():
        if state.is_chance_node():
            voyage = state.voyage_state()
            if voyage is not None and voyage["next_roll"] == 3:
                yield state, voyage
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(seats[state.current_player()].step(PlayerView(state, state.current_player())))


def compare(players, bots, rules, seed) -> int:
    """Asserts the equality at every roll-3 moment of one game; returns how many there were."""
    moments = 0
    for state, voyage in roll_3_moments(players, bots, rules, seed):
        where = f"seed {seed}, move {state.move_number()}: {voyage}"
        incomes, _ = engine_average(state, GreedyBot())
        _, payoffs = engine_average(state, GreedyWealthBot())
        by_income = manila.evaluate(voyage, exact=True, strict=False)
        by_wealth = manila.evaluate(dict(voyage, objective="wealth"), exact=True, strict=False)
        names = [state.player_name(p) for p in range(players)]
        # Incomes name only the players on the board; the others earn nothing.
        assert [by_income.incomes.get(n, 0) for n in names] == incomes, where
        assert set(by_income.incomes) <= set(names), where
        assert [by_wealth.payoffs[n] for n in names] == payoffs, where
        moments += 1
    return moments


@pytest.mark.parametrize(
    "players, bots, rules, seed",
    GAMES,
    ids=[f"{p}p-{'-'.join(b)}-{'-'.join(r) or 'default'}-{s}" for p, b, r, s in GAMES],
)
def test_engine_average_over_roll_3_equals_the_evaluation(players, bots, rules, seed):
    assert compare(players, bots, rules, seed) >= 1


def test_the_moments_cover_hundreds_of_boards_and_the_plunder():
    """The comparison is worth something only if it sees many boards, with plunder and
    insurance claims among them."""
    voyages = [
        voyage
        for players, bots, rules, seed in GAMES
        for _, voyage in roll_3_moments(players, bots, rules, seed)
    ]

    def plunder_possible(v):
        return "pirate_1" in v["spots"] and any(
            b["position"] != "arrived" and b["position"] >= 7 for b in v["boats"].values()
        )

    assert len(voyages) >= 300, len(voyages)
    assert sum(map(plunder_possible, voyages)) >= 50
    assert sum("insurance" in v["spots"] for v in voyages) >= 100
    assert sum(v["rules"]["pirate_variant"] for v in voyages) >= 50

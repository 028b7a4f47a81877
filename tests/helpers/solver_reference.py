"""A reference for the ``solver`` bot: the Python SolverBot the C++ policy replaced
(manila/bots/solver.py now asks _core.solver_action). Kept beside the tests only, to check
the C++ bot move for move (tests/test_solver_bot.py, benchmarks/solver_check.py) and to
time the Python path (benchmarks/ladder_speed.py). Not part of the package.

It decides by the rules in manila/bots/solver.py's docstring.

Deterministic: no randomness, so the same game gives the same moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any, Optional, Union

from manila import _core
from manila.common.vocab import GOODS, SHARES_PER_GOOD
from manila.game.engine import action_id, advice_action
from manila.game.view import PlayerView
from manila.voyage.advice import advise
from manila.voyage.evaluation import evaluate, evaluate_many
from manila.voyage.position import Position

# How many turns of the round the placement search covers, by the roll that comes next.
SEARCH_TURNS = {1: 2, 2: 3, 3: 99}


@cache
def arrival_odds() -> tuple[Union[float, Fraction], ...]:
    """P(a boat from start space 0..5 ends in Manila) on an empty board, three rolls to go,
    as exact fractions from the evaluator."""
    boards = [(0, 4, 5), (1, 3, 5), (2, 2, 5)]
    states = [
        {"next_roll": 1, "boats": {g: {"position": s} for g, s in zip(GOODS, triple)}} for triple in boards
    ]
    odds = {}
    for triple, result in zip(boards, evaluate_many(states, exact=True, threads=1)):
        for good, space in zip(GOODS, triple):
            odds[space] = result.boats[good]["port"]
    return tuple(odds[s] for s in range(6))


class SolverBot:
    """See the module doc."""

    name = "solver"

    def __init__(self, seed: int = 0):
        del seed  # deterministic; the argument keeps the bot factories uniform

    def step(self, state: PlayerView) -> int:
        phase = state.phase
        if phase == "placement":
            return self._placement(state)
        if phase in ("small_pilot", "large_pilot", "boarding"):
            return self._decision(state)
        if phase == "auction":
            return self._bid(state)
        if phase == "buy_share":
            return self._buy(state)
        if phase == "choose_goods":
            return self._goods(state)
        if phase == "place_boats":
            return self._starts(state)
        # Plunder: greedy-wealth's choice is the destination that leaves it the most wealth.
        return state.builtin_move("greedy-wealth")

    def _position(self, state: PlayerView) -> Position:
        return Position.from_dict(state.position(), strict=False)

    def _placement(self, state: PlayerView) -> int:
        pos = self._position(state)
        movers = pos.movers[: SEARCH_TURNS[pos.state.next_roll]]
        owners = pos.state.owners
        a = _core.advise_placement(pos.state.to_core(), [owners.index(p) for p in movers], 1)
        spot = a.options[a.best][0]
        return action_id("decline" if spot == _core.DECLINE else "place " + _TABLE[spot])

    def _decision(self, state: PlayerView) -> int:
        advice = advise(self._position(state), threads=1)
        return action_id(_game_name(state.phase, advice.best))

    def _expected_shares(self, obs: dict[str, Any]) -> list[dict[str, float]]:
        """Every player's shares as this bot reckons them: its own, and for the others the
        visible ones plus their hidden count shared out like the unseen pool."""
        me = obs["observer"]
        players = obs["players"]
        unseen = {g: SHARES_PER_GOOD - obs["supply"][g] - sum(p["shares"][g] for p in players) for g in GOODS}
        pool = sum(unseen.values())
        out = []
        for i, p in enumerate(players):
            held = {g: float(p["shares"][g]) for g in GOODS}
            if i != me and pool:
                for g in GOODS:
                    held[g] += p.get("hidden_shares", 0) * unseen[g] / pool
            out.append(held)
        return out

    def _gain(self, obs: dict[str, Any], shares: list[dict[str, float]], starts: dict[str, int]) -> float:
        """My expected share gain minus the others' mean, for these goods at these starts."""
        odds = arrival_odds()
        prices = obs["prices"]
        gains = [
            sum(h[g] * _core.price_rise(prices[g]) * float(odds[s]) for g, s in starts.items())
            for h in shares
        ]
        me: int = obs["observer"]
        others = [x for i, x in enumerate(gains) if i != me]
        return gains[me] - sum(others) / len(others)

    def _options(
        self, obs: dict[str, Any], goods: Optional[Sequence[str]] = None
    ) -> list[tuple[float, tuple[str, ...], str]]:
        """(relative gain, starts, action name) for every choice of goods and start spaces."""
        shares = self._expected_shares(obs)
        out = []
        for sailing in [goods] if goods else combinations(GOODS, 3):
            for triple in _START_TRIPLES:
                starts = dict(zip(sailing, triple))
                out.append(
                    (self._gain(obs, shares, starts), tuple(sailing), "start " + "-".join(map(str, triple)))
                )
        return out

    def _first_mover(
        self, obs: dict[str, Any], sailing: tuple[str, ...], start: str
    ) -> Union[float, Fraction]:
        """What placing first in each round is worth: on the empty board of these starts,
        the best spot's value over the one left to the last player of a round."""
        spaces = map(int, start.split()[1].split("-"))
        board = {"next_roll": 1, "boats": {g: {"position": s} for g, s in zip(sailing, spaces)}}
        nets = sorted((e["expected_net"] for e in evaluate(board, threads=1).spots.values()), reverse=True)
        return nets[0] - nets[min(len(obs["players"]), len(nets)) - 1]

    def _bid(self, state: PlayerView) -> int:
        obs = state.observation()
        choices = self._options(obs)
        options = [v for v, _, _ in choices]
        best = max(choices, key=lambda o: o[0])
        worth = max(options) - sum(options) / len(options) + self._first_mover(obs, best[1], best[2])
        me = obs["players"][obs["observer"]]
        bid = obs["auction"]["high_bid"] + 1
        if bid <= worth and bid <= me["cash"]:
            return action_id(f"bid {bid}")
        return action_id("pass")

    def _buy(self, state: PlayerView) -> int:
        obs = state.observation()
        me = obs["players"][obs["observer"]]
        odds = arrival_odds()
        best, best_value = None, 1.0  # a share must be worth at least a peso more than it costs
        for g in GOODS:
            price = obs["prices"][g]
            cost = max(5, price)
            if obs["supply"][g] == 0 or me["cash"] < cost:
                continue
            value = price - cost + float(odds[5]) * _core.price_rise(price)
            if value > best_value:
                best, best_value = g, value
        return action_id(f"buy {best}" if best else "buy nothing")

    def _goods(self, state: PlayerView) -> int:
        obs = state.observation()
        best = max(self._options(obs), key=lambda o: o[0])
        home = next(g for g in GOODS if g not in best[1])
        return action_id(f"leave {home} home")

    def _starts(self, state: PlayerView) -> int:
        obs = state.observation()
        sailing = tuple(obs["boats"])
        sailing = tuple(g for g in GOODS if g in sailing)
        options = self._options(obs, sailing)
        return action_id(max(options, key=lambda o: o[0])[2])


_TABLE = GOODS + tuple(_core.SPOTS)
_START_TRIPLES = [
    _core.start_triple(k) for k in range(_core.ACTION_OFFSETS["place"] - _core.ACTION_OFFSETS["start"])
]


_game_name = advice_action


# ---------------------------------------------------------------------------------------
# Move-for-move comparison with the C++ bot

LINEUPS = (
    ("solver", "solver", "solver", "solver", "solver"),
    ("solver", "greedy", "random", "greedy-wealth", "solver"),
    ("random", "solver", "greedy", "solver", "random"),
)
RULES: tuple[Optional[dict[str, Any]], ...] = (
    None,
    {"pirate_variant": True},
    {"thirteen_after_last_roll": "shipyard"},
    {"pirate_variant": True, "thirteen_after_last_roll": "shipyard"},
)


def game_setup(index: int) -> tuple[int, Optional[dict[str, Any]], tuple[str, ...]]:
    """Game ``index`` of a comparison run: (players, rules, bot names per seat); the player
    counts, rule variants and mixes of seats take turns."""
    players = 3 + index % 3
    rules = RULES[(index // 3) % len(RULES)]
    lineup = LINEUPS[(index // 12) % len(LINEUPS)][:players]
    return players, rules, lineup


def differences(index: int) -> tuple[int, list[str]]:
    """Plays comparison game ``index`` (seed = index) and asks both solvers at every move of
    a solver seat: (moves compared, one line per move where they differ). The game follows
    the reference's moves."""
    from manila.bots import bots_for
    from manila.game import Game

    players, rules, lineup = game_setup(index)
    game = Game(players, index, rules)
    state = game.new_initial_state()
    seats = bots_for(lineup, index)
    reference = SolverBot()
    compared, out = 0, []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        p = state.current_player()
        view = PlayerView(state, p)
        if lineup[p] == "solver":
            a, c = reference.step(view), seats[p].step(view)
            compared += 1
            if a != c:
                out.append(
                    f"game {index} ({players} players, rules {rules}), action {len(state.history())}, "
                    f"{state.phase}: Python {state.action_name(a)}, C++ {state.action_name(c)}"
                )
        else:
            a = seats[p].step(view)
        state.apply_action(a)
    return compared, out

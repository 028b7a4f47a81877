"""Bots for manila.Game: anything with ``step(state) -> action`` can play a seat.

Two are built in, both running in C++:

``random``
    Uniformly random among the legal actions (loans and every bid included), drawing
    from its own generator.

``greedy``
    - placement: the spot with the highest ``expected_net`` for itself from the exact
      evaluator (``manila.evaluate`` of the voyage in progress), less 3 per loan it would
      be forced to take (the interest), or plus what a blind passenger saves; it
      declines when no spot is worth more than 0;
    - boarding, pilots, plunder: the option of highest expected voyage income for
      itself, later decisions taken the same way (the evaluator's rule; ties to the first
      option in canonical order);
    - auction: bids one more than the current bid while that is at most
      min(cash, 6 + 3 x shares it holds), else passes;
    - share purchase (as harbour master): the highest-priced good in the supply (ties:
      the good it holds most of, then good order) if it keeps 10 pesos in cash;
    - goods: the good it holds fewest shares of stays home (ties: the cheapest, then the
      last in good order);
    - start spaces: 5, 4 and 0 to the sailing goods ordered by its shares, then price;
    - never takes or lifts a loan of its own accord.

A simulation with only built-in bots runs entirely in C++ (``manila.simulate``); a game
played in Python with the same bots and seeds (``manila.game.play`` with
``bots_for(names, game_seed)``) is the same game, action for action.
"""

from __future__ import annotations

from typing import Protocol, Sequence, Union

from . import _core
from .suggest import did_you_mean

BOT_NAMES = ("random", "greedy", "greedy-wealth")


class Bot(Protocol):
    """A player: picks a legal action for the player to move."""

    def step(self, state) -> int: ...


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0):
        self._rng = _core.Rng(seed)

    def step(self, state) -> int:
        return _core.random_action(state._s, self._rng)

    def __repr__(self) -> str:
        return f"RandomBot(state={self._rng.state:#x})"


class GreedyBot:
    """Best expected_net spot for itself, exact in-voyage decisions, simple stated rules
    for bids, shares, goods and start spaces (see the module doc)."""

    name = "greedy"
    wealth = False  # what its in-voyage decisions maximise: voyage income alone

    def __init__(self, seed: int = 0):
        del seed  # deterministic; the argument keeps the bot factories uniform

    def step(self, state) -> int:
        return _core.greedy_action(state._s, self.wealth)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class GreedyWealthBot(GreedyBot):
    """The greedy bot valuing placements, boarding, pilots and plunder in wealth: voyage
    income plus the price rise of the shares it holds of the goods that reach Manila."""

    name = "greedy-wealth"
    wealth = True


_FACTORIES = {"random": RandomBot, "greedy": GreedyBot, "greedy-wealth": GreedyWealthBot}


def make_bot(name: str, seed: int = 0) -> Union[RandomBot, GreedyBot]:
    """A built-in bot by name (see BOT_NAMES)."""
    if name not in _FACTORIES:
        raise ValueError(f"unknown bot {name!r}{did_you_mean(name, BOT_NAMES)}; "
                         f"the built-in bots are {', '.join(BOT_NAMES)}")
    return _FACTORIES[name](seed)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot in the game of seed ``game_seed`` (as in C++ play-outs)."""
    return _core.derive_seed(game_seed, seat + 1)


def bots_for(names: Sequence[str], game_seed: int) -> list:
    """One built-in bot per seat, seeded exactly as the C++ play-outs seed them."""
    return [make_bot(name, bot_seed(game_seed, seat)) for seat, name in enumerate(names)]

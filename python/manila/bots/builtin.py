"""Bots for manila.Game: anything with ``step(state) -> action`` can play a seat.

These are built in, all running in C++ (with expert, rollout and sage, docs/analysis.md):

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

``greedy-wealth``
    The greedy bot valuing placements, boarding, pilots and plunder in wealth.

``solver``
    The placement-round search and the advice, valued in wealth (``manila.bots.solver``).

``greedy-office``
    greedy-wealth, but bidding, buying the share and choosing goods and start spaces as the
    solver does: the review's continuation policy (docs/review.md), as cheap as
    greedy-wealth.

A simulation with only built-in bots runs entirely in C++ (``manila.simulate``); a game
played in Python with the same bots and seeds (``manila.game.play`` with
``bots_for(names, game_seed)``) is the same game, action for action.

Bots are found by name in a registry: ``register_bot("name", factory)`` adds one (a
factory takes the seat's seed and returns the bot), and every command that takes bot
names (simulate, ladder) then knows it. ``load_bot("package.module:Class")`` loads a bot
of your own without registering it, and ``cmd:PROGRAM ARGS`` plays a program written in any
language (``manila.bots.cmd``, docs/bots.md). A bot is handed only its own view of the game
(``manila.view.PlayerView``), never the others' face-down shares; the built-in bots ask
the view for the engine's move (``PlayerView.builtin_move``), which reads only that
player's information (tests/test_view.py checks every bot).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from collections.abc import Sequence
from typing import Any, Callable, cast

from .. import _core
from ..common.limits import check_number
from ..common.text import did_you_mean
from ..game.play import Bot
from ..game.view import PlayerView
from .cmd import cmd_factory, is_cmd_spec
from .solver import SolverBot

# What a bot is handed: its own player's view, and nothing else.
Seat = PlayerView


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0):
        self._rng = _core.Rng(seed)

    def step(self, state: PlayerView) -> int:
        return state.builtin_move("random", self._rng)

    def __repr__(self) -> str:
        return f"RandomBot(state={self._rng.state:#x})"


class GreedyBot:
    """Best expected_net spot for itself, exact in-voyage decisions, simple stated rules
    for bids, shares, goods and start spaces (see the module doc)."""

    name = "greedy"
    wealth = False  # what its in-voyage decisions maximise: voyage income alone

    def __init__(self, seed: int = 0):
        del seed  # deterministic; the argument keeps the bot factories uniform

    def step(self, state: PlayerView) -> int:
        return state.builtin_move(self.name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class GreedyWealthBot(GreedyBot):
    """The greedy bot valuing placements, boarding, pilots and plunder in wealth: voyage
    income plus the price rise of the shares it holds of the goods that reach Manila."""

    name = "greedy-wealth"
    wealth = True


class GreedyOfficeBot(GreedyBot):
    """greedy-wealth with the solver's office play (its bids, share, goods and start spaces):
    the review's continuation policy, as cheap as greedy-wealth."""

    name = "greedy-office"
    wealth = True


class ExpertBot:
    """The expert bot (docs/analysis.md): the auction and the harbour master's choices by
    rollouts to the end of the voyage on its own view, every other decision as greedy-wealth."""

    name = "expert"

    def __init__(self, seed: int = 0):
        self._rng = _core.Rng(seed)

    def step(self, state: PlayerView) -> int:
        return state.builtin_move("expert", self._rng)

    def __repr__(self) -> str:
        return f"ExpertBot(state={self._rng.state:#x})"


class RolloutBot(ExpertBot):
    """The rollout bot (docs/analysis.md): every decision by a few paired rollouts per option to
    the end of the voyage with greedy continuing, on its own view. Built as an opponent
    unlike the others, not to be strong."""

    name = "rollout"

    def step(self, state: PlayerView) -> int:
        return state.builtin_move("rollout", self._rng)

    def __repr__(self) -> str:
        return f"RolloutBot(state={self._rng.state:#x})"


class SageBot(ExpertBot):
    """The sage bot (docs/value.md): the expert, its rollouts ending at the next voyage
    boundary with the learned value and valuing equity there."""

    name = "sage"

    def step(self, state: PlayerView) -> int:
        return state.builtin_move("sage", self._rng)

    def __repr__(self) -> str:
        return f"SageBot(state={self._rng.state:#x})"


BotFactory = Callable[[int], Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Makes a bot known by ``name``: ``factory(seed)`` builds one for a seat. A name the
    C++ play-out loop also knows (``_core.CORE_BOTS``) is played there when every seat's
    bot is such a one."""
    if not isinstance(name, str) or not name or ":" in name or "," in name:
        raise ValueError(f"bot name: a non-empty name without ':' or ',', got {name!r}")
    if not callable(factory):
        raise ValueError(f"bot {name!r}: the factory must be callable (seed -> bot)")
    _REGISTRY[name] = factory


def bot_names() -> tuple[str, ...]:
    """The names of the registered bots, in registration order."""
    return tuple(_REGISTRY)


def is_core_bot(name: str) -> bool:
    """Whether the C++ play-out loop runs this bot (no Python per move)."""
    return name in _core.CORE_BOTS


def load_bot(spec: str) -> BotFactory:
    """The factory of a bot given as ``"package.module:Class"``: a class with a
    ``step(view)`` method (anything else there is refused as not a bot, never called).

    The class is called with the seat's seed if its constructor takes an argument, else
    with none."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"bot {spec!r}: a Python bot is given as module:Class")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"bot {spec!r}: cannot import {module_name}: {exc}") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"bot {spec!r}: {module_name} has no {attr}")
        obj = getattr(obj, part)
    if not inspect.isclass(obj) or not callable(getattr(obj, "step", None)):
        what = "has no step(view) method" if inspect.isclass(obj) else f"is a {type(obj).__name__}"
        raise ValueError(
            f"bot {spec!r}: not a bot: {attr} {what}; a bot is a class whose step(view) returns an action"
        )
    try:
        parameters = list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):  # a class without a signature
        raise ValueError(f"bot {spec!r}: not a bot: {attr}'s constructor cannot be inspected") from None
    required = [
        p
        for p in parameters
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if len(required) > 1:
        raise ValueError(
            f"bot {spec!r}: not a bot: {attr}() takes the seat's seed or nothing, not {len(required)} arguments"
        )
    bot_class = cast(Callable[..., Bot], obj)  # a class with a step method: a Bot
    return bot_class if parameters else (lambda seed: bot_class())


def bot_factory(spec: str) -> BotFactory:
    """A registered bot's factory by name, a trained policy's by ``policy:PATH``
    (manila.bots.policy), a program's by ``cmd:PROGRAM ARGS`` (manila.bots.cmd), or a
    Python bot's by ``module:Class``."""
    if spec.startswith("policy:"):
        from .policy import policy_factory  # numpy work only when a policy is asked for

        return policy_factory(spec[len("policy:") :])
    if is_cmd_spec(spec):
        return _outside(cmd_factory(spec))
    if ":" in spec:
        return _outside(load_bot(spec))
    if spec not in _REGISTRY:
        raise ValueError(
            f"unknown bot {spec!r}{did_you_mean(spec, _REGISTRY)}; the built-in bots "
            f"are {', '.join(_REGISTRY)}, or give a Python bot as module:Class or a program as cmd:PROGRAM ARGS"
        )
    factory = _REGISTRY[spec]
    return factory if factory is _BUILTIN.get(spec) else _outside(factory)


def program_seed(seat_seed: int) -> int:
    """The seed a bot from outside the engine gets for a seat of seed ``seat_seed``.

    A seat's seed comes from the game's by splitmix64, which can be run backwards, and the
    game's seed replays the deal and the dice: a program handed it could read the others'
    face-down shares. This one is a one-way hash of it (BLAKE2b), as reproducible."""
    check_number(seat_seed, "seed", 0, integer=True)
    digest = hashlib.blake2b(seat_seed.to_bytes(8, "little"), digest_size=8, person=b"manila seat")
    return int.from_bytes(digest.digest(), "little")


def _outside(factory: BotFactory) -> BotFactory:
    """``factory`` handed the seat's seed through program_seed (a program, a Python class,
    a registered bot of the user's: anything but the engine's own bots)."""
    return lambda seed: factory(program_seed(seed))


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (registered, ``cmd:PROGRAM ARGS`` or ``module:Class``) for a seat seeded ``seed``."""
    return bot_factory(name)(seed)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot in the game of seed ``game_seed`` (as in C++ play-outs)."""
    return _core.derive_seed(game_seed, seat + 1)


def bots_for(names: Sequence[str], game_seed: int) -> list[Bot]:
    """One bot per seat by name, seeded exactly as the C++ play-outs seed them."""
    return [make_bot(name, bot_seed(game_seed, seat)) for seat, name in enumerate(names)]


# The built-in bots (a later one is one more line here), registered in the engine's order
# (its bot_names(), _core.CORE_BOTS): the one list both /v1/play routes, the server's and
# the engine's own, name the bots in.
_BUILTIN: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "greedy-wealth": GreedyWealthBot,
    "expert": ExpertBot,
    "rollout": RolloutBot,
    "sage": SageBot,
    "solver": SolverBot,
    "greedy-office": GreedyOfficeBot,
}
for _name in _core.CORE_BOTS:
    register_bot(_name, _BUILTIN[_name])

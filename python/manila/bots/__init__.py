"""``manila.bots``, the public path: Bots for manila.Game. They live in :mod:`manila.bots.builtin`."""

from ..game.play import Bot
from .builtin import (
    BotFactory,
    GreedyBot,
    GreedyWealthBot,
    RandomBot,
    bot_factory,
    bot_names,
    bot_seed,
    bots_for,
    is_core_bot,
    load_bot,
    make_bot,
    register_bot,
)

__all__ = [
    "Bot",
    "BotFactory",
    "GreedyBot",
    "GreedyWealthBot",
    "RandomBot",
    "bot_factory",
    "bot_names",
    "bot_seed",
    "bots_for",
    "is_core_bot",
    "load_bot",
    "make_bot",
    "register_bot",
]

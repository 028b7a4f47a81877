"""``manila.bots``, the public path: Bots for manila.Game. It lives in :mod:`manila.game.bots`."""

from .game.bots import (
    Bot,
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

"""``manila.bots``, the public path: Bots for manila.Game. They live in :mod:`manila.bots.builtin`,
and the bots that are programs in any language (``cmd:PROGRAM ARGS``) in :mod:`manila.bots.cmd`."""

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
    program_seed,
    register_bot,
)
from .cmd import BotError, CmdBot

__all__ = [
    "Bot",
    "BotError",
    "BotFactory",
    "CmdBot",
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
    "program_seed",
    "register_bot",
]

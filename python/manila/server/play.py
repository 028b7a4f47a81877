"""``POST /v1/play``: a game against the bots that the page holds (docs/play.md).

The route is the engine's (``_core.play``, cpp/src/api_play.cpp), the very code the page's
WebAssembly answers with: it reads the request, checks the game (its versions, seats and
bot names, every action legal, every deal and roll the one the game's seed draws, its
checksum), plays the player's action and the bots' replies, writes the log and the hint.
The server adds what only it has: the bots it was started with beside the built-in ones
(``cmd:`` and ``module:Class``, played here in Python), the clock of the request (the bots
stop at a share of it and the game is pending), and its own hint time.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from typing import Any, Optional

from .. import _core
from ..bots.builtin import bot_names, bot_seed, make_bot
from ..common.vocab import PLAYER_COUNTS
from ..game.engine import Game, State
from ..game.play import Bot, bot_move

# The route's facts live in the engine (cpp/include/manila/api.hpp).
PLAY_VERSION: int = _core.PLAY_VERSION
REQUEST_KEYS: tuple[str, ...] = tuple(_core.PLAY_KEYS)
# The bot the others are played by unless the request names one.
DEFAULT_BOT: str = _core.PLAY_DEFAULT_BOT
# A hint's analysis: seconds of rollouts, or with "rollouts" a fixed number per option.
HINT_SECONDS: float = _core.PLAY_HINT_SECONDS
HINT_MAX_ROLLOUTS: int = _core.PLAY_HINT_MAX_ROLLOUTS


def page_options() -> dict[str, Any]:
    """What the play page offers: the player counts, the bots, the default bot."""
    return {"players": list(PLAYER_COUNTS), "bots": list(bot_names()), "default_bot": DEFAULT_BOT}


class _Seats:
    """The server's own bots of one request, made when first asked for a move, each seeded
    as ``bots_for`` seeds it (a request makes them anew: they keep nothing in the game)."""

    def __init__(self) -> None:
        self.bots: dict[tuple[str, int], Bot] = {}

    def move(self, name: str, seat: int, core: _core.GameState) -> int:
        bot = self.bots.get((name, seat))
        if bot is None:
            bot = self.bots[(name, seat)] = make_bot(name, bot_seed(core.seed, seat))
        return bot_move(bot, State(Game.of(core), core), seat)  # the bot sees its seat's view alone


def play(
    data: Any,
    allowed: Collection[str] = (),
    deadline: Optional[float] = None,
    hint_seconds: Optional[float] = None,
) -> tuple[int, str]:
    """The status and JSON text of the answer to the request ``data`` (parsed JSON).
    ``allowed``: bot names played beside the built-in ones (the server's allow-list);
    ``deadline`` (time.monotonic): the bots stop before a move once it has passed;
    ``hint_seconds``: a hint's time when the request gives no rollouts."""
    seats = _Seats()
    return _core.play(
        json.dumps(data),
        list(allowed),
        seats.move if allowed else None,
        None if deadline is None else (lambda: time.monotonic() > deadline),
        -1.0 if hint_seconds is None else hint_seconds,
    )

"""The game layer: ``manila.game``, the whole game of Manila.

The engine wrapper (``State``, ``Game``, actions), a player's table and view, and ``play``.
The rooms built on it: ``manila.bots`` (the bots), ``manila.arena`` (simulations, the
ladder), ``manila.rl`` (learning environments) and ``manila.analysis`` (analysis, review,
the learned value).
"""

from .engine import (
    ACTION_NAMES,
    ACTION_OFFSETS,
    CHANCE,
    MAX_BID,
    NUM_ACTIONS,
    SERIAL_VERSION,
    TERMINAL,
    ActionLike,
    Game,
    IllegalActionError,
    Record,
    RecordError,
    RulesLike,
    State,
    action_id,
    action_name,
    read_record,
    replay,
)
from .play import BotError, bot_move, play

__all__ = [
    "ACTION_NAMES",
    "ACTION_OFFSETS",
    "CHANCE",
    "MAX_BID",
    "NUM_ACTIONS",
    "SERIAL_VERSION",
    "TERMINAL",
    "ActionLike",
    "BotError",
    "Game",
    "IllegalActionError",
    "Record",
    "RecordError",
    "RulesLike",
    "State",
    "action_id",
    "action_name",
    "bot_move",
    "play",
    "read_record",
    "replay",
]

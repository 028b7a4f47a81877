"""The game layer: ``manila.game``, the whole game of Manila.

The engine wrapper (``State``, ``Game``, actions), a player's view, the bots, simulations,
the ladder, and the OpenSpiel and PettingZoo integrations. What this module exports is the
public ``manila.game``; ``manila.bots``, ``manila.view``, ``manila.openspiel`` and
``manila.pettingzoo`` are the public paths of the others.
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
    RulesLike,
    State,
    action_id,
    action_name,
)
from .play import play

__all__ = [
    "ACTION_NAMES",
    "ACTION_OFFSETS",
    "CHANCE",
    "MAX_BID",
    "NUM_ACTIONS",
    "SERIAL_VERSION",
    "TERMINAL",
    "ActionLike",
    "Game",
    "IllegalActionError",
    "RulesLike",
    "State",
    "action_id",
    "action_name",
    "play",
]

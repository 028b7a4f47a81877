"""``manila.openspiel``, the public path: The game for OpenSpiel (registered as ``python_manila`` on import; the ``openspiel`` extra). It lives in :mod:`manila.rl.openspiel`."""

from .rl.openspiel import DEFAULT_PLAYERS, GAME_TYPE, SHORT_NAME, ManilaGame, ManilaObserver, ManilaState

__all__ = ["DEFAULT_PLAYERS", "GAME_TYPE", "SHORT_NAME", "ManilaGame", "ManilaObserver", "ManilaState"]

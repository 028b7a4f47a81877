"""``manila.view``, the public path: A player's view of a game. It lives in :mod:`manila.game.view`."""

from .game.view import PlayerView, observation_layout, observation_low, observation_size

__all__ = ["PlayerView", "observation_layout", "observation_low", "observation_size"]

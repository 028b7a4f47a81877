"""``manila.pettingzoo``, the public path: The game as a PettingZoo AEC environment (the ``rl`` extra). It lives in :mod:`manila.rl.pettingzoo`."""

from .rl.pettingzoo import NUM_PLAYER_ACTIONS, env, raw_env

__all__ = ["NUM_PLAYER_ACTIONS", "env", "raw_env"]

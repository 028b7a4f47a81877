"""Environments for learning and search (docs/rl.md): the C++ ``VectorEnv``, the Gymnasium
environment (``gym_env``, registered as ``manila/Manila-v0``) and its vector form
(``gym_vector``), the PettingZoo AEC environment and the OpenSpiel game (``manila.pettingzoo``
and ``manila.openspiel`` are their public paths)."""

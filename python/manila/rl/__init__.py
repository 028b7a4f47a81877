"""Environments for learning and search: the C++ ``VectorEnv``, its Gymnasium vector form, the
PettingZoo AEC environment and the OpenSpiel game (``manila.pettingzoo`` and
``manila.openspiel`` are their public paths)."""

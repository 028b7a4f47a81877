"""Judgments of decisions and positions: the analysis of a decision (``analyse``), the review of
a game (``review``) and the learned value of a position (``value``, trained by
``value_train``)."""

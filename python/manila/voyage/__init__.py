"""The voyage layer: one voyage's state, its notation, exact evaluation and advice.

The public names are re-exported by ``manila``; the modules here are the implementation.
"""

"""Stopping the engine's long computations from outside (cpp/include/manila/cancel.hpp).

A ``CancelToken`` set for a thread (``cancellable``) makes the engine's computations on that
thread, and on the threads they start, raise ``Cancelled`` within milliseconds of
``token.cancel()`` or of the token's time limit::

    token = CancelToken()
    with cancellable(token):
        manila.advise(position)  # another thread may call token.cancel()
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional

from .. import _core

Cancelled = _core.Cancelled
CancelToken = _core.CancelToken


@contextmanager
def cancellable(token: Optional[CancelToken]) -> Iterator[Optional[CancelToken]]:
    """Within the block, the engine's computations on this thread obey ``token``."""
    previous = _core.use_cancel_token(token)
    try:
        yield token
    finally:
        _core.use_cancel_token(previous)

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
from .limits import check_number

Cancelled = _core.Cancelled


class CancelToken(_core.CancelToken):
    """A token, cancelled by ``cancel()`` or once ``time_limit`` seconds have passed (0:
    no limit); its argument checked here, where a wrong type is said as a ValueError."""

    def __init__(self, time_limit: float = 0.0) -> None:
        check_number(time_limit, "time_limit", 0)
        super().__init__(time_limit)


@contextmanager
def cancellable(token: Optional[CancelToken]) -> Iterator[Optional[CancelToken]]:
    """Within the block, the engine's computations on this thread obey ``token``."""
    if token is not None and not isinstance(token, _core.CancelToken):
        raise ValueError(f"token: a manila.CancelToken or None, got {type(token).__name__}")
    previous = _core.use_cancel_token(token)
    try:
        yield token
    finally:
        _core.use_cancel_token(previous)

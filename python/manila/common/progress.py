"""The one progress bar on standard error, for sweeps and for commands that play many games."""

from __future__ import annotations

import sys
import time
from typing import Any, Optional


class ProgressBar:
    """tqdm when it is installed, a plain line otherwise. Nothing is drawn before the first
    unit is done (work refused at once shows no bar) nor before ``delay`` seconds have passed
    (short work stays quiet). ``keep``: leave the finished bar on the screen."""

    REDRAW = 0.2  # seconds between plain-line redraws: a fast loop must not flood a terminal

    def __init__(self, total: int, unit: str, label: str, delay: float = 0.0, keep: bool = True) -> None:
        self.total, self.unit, self.label, self.delay, self.keep = total, unit, label, delay, keep
        self.done = 0
        self.started = time.monotonic()
        self._tqdm: Any = None
        self._plain = False  # tqdm is missing: draw the plain line
        self._shown = False
        self._drawn_at = 0.0

    def advance(self, n: int) -> None:
        self.update_to(self.done + n)

    def update_to(self, done: int) -> None:
        step, self.done = done - self.done, done
        if self._tqdm is None and not self._plain:
            self._start()
        if self._tqdm is not None:
            self._tqdm.update(step)
            return
        now = time.monotonic()
        if now - self.started < self.delay:
            return
        if done == self.total or now - self._drawn_at >= self.REDRAW:
            self._shown, self._drawn_at = True, now
            percent = 100 * done // max(self.total, 1)
            sys.stderr.write(f"\r{self.label}: {done}/{self.total} {self.unit}s ({percent}%)")
            sys.stderr.flush()

    def _start(self) -> None:
        try:
            from tqdm import tqdm
        except ImportError:
            self._plain = True
            return
        delay = max(0.0, self.delay - (time.monotonic() - self.started))
        self._tqdm = tqdm(
            total=self.total,
            unit=self.unit,
            desc=self.label,
            file=sys.stderr,
            dynamic_ncols=True,
            leave=self.keep,
            delay=delay,
        )

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self._shown:
            sys.stderr.write("\n")


def terminal_bar(
    total: int, unit: str, label: str, *, enabled: bool = True, delay: float = 0.0, keep: bool = True
) -> Optional[ProgressBar]:
    """A bar drawn only when standard error is a terminal (and ``enabled``); else None."""
    return ProgressBar(total, unit, label, delay, keep) if enabled and sys.stderr.isatty() else None

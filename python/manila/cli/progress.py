"""A progress bar on standard error for the commands that play many games."""

from __future__ import annotations

import sys
import time


class Progress:
    """tqdm on standard error when it is installed, else a plain counter; only on a
    terminal, and only from the first finished game: a run refused at once shows no bar."""

    def __init__(self, total: int, enabled: bool):
        self.total = total
        self.done = 0
        self.bar = None
        self.enabled = enabled and sys.stderr.isatty()
        self.last = 0.0

    def _start(self) -> None:
        try:
            from tqdm import tqdm
        except ImportError:  # pragma: no cover - tqdm is optional
            return
        self.bar = tqdm(total=self.total, unit="game", file=sys.stderr, dynamic_ncols=True)

    def __call__(self, n: int) -> None:
        if self.enabled and self.done == 0 and self.bar is None:
            self._start()
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.enabled and (time.monotonic() - self.last > 0.2 or self.done == self.total):
            self.last = time.monotonic()
            width = 30
            filled = width * self.done // max(self.total, 1)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

"""Student's t quantile of 0.975, computed here from the density (no shared code with the
engine's closed forms and expansion): the reference its intervals are checked against."""

from __future__ import annotations

import functools
import math


def _density(x: float, df: int) -> float:
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_c - (df + 1) / 2 * math.log1p(x * x / df))


def _mass(x: float, df: int, steps: int = 4000) -> float:
    """P(0 <= T <= x) by Simpson's rule."""
    h = x / steps
    total = _density(0.0, df) + _density(x, df)
    total += sum((4 if i % 2 else 2) * _density(i * h, df) for i in range(1, steps))
    return total * h / 3


@functools.cache
def t975(df: int) -> float:
    """The x with P(T <= x) = 0.975 for T of df degrees of freedom, to about 1e-9."""
    low, high = 0.0, 1.0
    while _mass(high, df) < 0.475:
        high *= 2
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if _mass(mid, df) < 0.475 else (low, mid)
    return (low + high) / 2

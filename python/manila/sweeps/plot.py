"""Pictures of sweeps (matplotlib, an optional extra): a heat map of one spot's expected
value over two boats' positions, and a bar chart of the harbour master's starts.

    >>> from manila.plot import heatmap
    >>> fig = heatmap("insurance", "silk", "jade", goods="ginseng,silk,jade", at={"ginseng": 8})
    >>> fig.savefig("insurance.png")

Figures are built with ``matplotlib.figure.Figure`` directly, so no GUI backend and no
pyplot state are involved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from .. import _core
from ..common.errors import Problem, StateError
from ..common.text import did_you_mean
from ..common.version import install_hint
from ..common.vocab import GOODS
from ..voyage.evaluation import TABLE_SPOTS
from .enumerate import goods_triple
from .pattern import Pattern
from .starts import describe_criterion
from .sweep import sweep

if TYPE_CHECKING:
    from matplotlib.figure import Figure

AXIS = list(range(_core.ARRIVED + 1))  # positions 0..13, then 14 = arrived
AXIS_LABELS = [str(p) for p in range(14)] + ["M"]


def _figure(**kwargs: Any) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(f"plotting needs matplotlib: {install_hint('plot')}") from None
    return Figure(**kwargs)


def heatmap_grid(
    spot: str,
    x: str,
    y: str,
    *,
    goods: Union[str, Sequence[str]],
    at: Mapping[str, Union[int, str]],
    next_roll: int = 3,
    reachable: bool = False,
    pattern: Optional[Pattern] = None,
    **fields: Any,
) -> np.ndarray:
    """expected_net of ``spot`` (floats) over x and y positions, shape (15, 15) indexed
    [y, x], NaN where the spot is not legal or (with ``reachable``) the state unreachable.
    What every state shares: ``pattern`` (a manila.Pattern) or its fields as keywords."""
    triple = goods_triple(goods.split(",") if isinstance(goods, str) else goods)
    if spot not in TABLE_SPOTS:
        raise StateError(
            [
                Problem(
                    "spot",
                    f"unknown spot {spot!r}{did_you_mean(spot, TABLE_SPOTS)}; the spots are {', '.join(TABLE_SPOTS)}",
                )
            ]
        )
    if spot in GOODS and spot not in triple:
        raise StateError(
            [
                Problem(
                    "spot",
                    f"{spot} stays home (the goods sailing are {', '.join(triple)}): its boat has no "
                    "seat to take, so the map would be blank",
                )
            ]
        )
    for name, good in (("x", x), ("y", y)):
        if good not in triple:
            raise StateError(
                [
                    Problem(
                        name,
                        f"{good!r} is not a sailing good of {', '.join(triple)}{did_you_mean(good, triple)}",
                    )
                ]
            )
    if x == y:
        raise StateError([Problem("y", "the two axes need two different boats")])
    third = next(g for g in triple if g not in (x, y))
    if set(at) != {third}:
        raise StateError([Problem("at", f"give the position of the third boat, {third}, only")])
    result = sweep(
        next_roll, goods=triple, reachable=reachable, fixed={third: at[third]}, pattern=pattern, **fields
    )
    grid = np.full((len(AXIS), len(AXIS)), np.nan)
    values = result.values[:, TABLE_SPOTS.index(spot)]
    xi, yi = triple.index(x), triple.index(y)
    grid[result.positions[:, yi], result.positions[:, xi]] = values
    return grid


def heatmap(
    spot: str,
    x: str,
    y: str,
    *,
    goods: Union[str, Sequence[str]],
    at: Mapping[str, Union[int, str]],
    next_roll: int = 3,
    reachable: bool = False,
    pattern: Optional[Pattern] = None,
    **fields: Any,
) -> Figure:
    """A figure: the heat map of ``spot``'s expected net value over the positions of boats
    ``x`` and ``y``, the third boat held at ``at`` ({good: position})."""
    pattern = Pattern.of(pattern, **fields)
    grid = heatmap_grid(
        spot, x, y, goods=goods, at=at, next_roll=next_roll, reachable=reachable, pattern=pattern
    )
    if not np.isfinite(grid).any():
        raise StateError(
            [
                Problem(
                    "spot",
                    f"{spot} may not be taken in any state of this map (taken already, or not "
                    "yet free: pirate_2 waits for pirate_1), so the map would be blank",
                )
            ]
        )
    from matplotlib.colors import TwoSlopeNorm

    fig = _figure(figsize=(8.5, 7.5), layout="constrained")
    ax = fig.add_subplot()
    finite = grid[np.isfinite(grid)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (-1.0, 1.0)
    lo, hi = min(lo, -1e-9), max(hi, 1e-9)  # zero (break-even) is always the white middle
    image = ax.imshow(
        np.ma.masked_invalid(grid),
        origin="lower",
        cmap="RdBu",
        norm=TwoSlopeNorm(0.0, lo, hi),
        aspect="equal",
    )
    for (yy, xx), v in np.ndenumerate(grid):
        if np.isfinite(v):
            ax.text(
                xx,
                yy,
                f"{v:.1f}",
                ha="center",
                va="center",
                fontsize=6,
                color="white" if abs(v) > 0.6 * max(-lo, hi) else "black",
            )
    ax.set_xticks(AXIS, AXIS_LABELS)
    ax.set_yticks(AXIS, AXIS_LABELS)
    ax.set_xlabel(f"{x} position (M = in Manila)")
    ax.set_ylabel(f"{y} position (M = in Manila)")
    ((third, where),) = at.items()
    ax.set_title(
        f"{spot}: expected net value before roll {next_roll}\n{third} at {where}"
        + ("; " + pattern.describe() if pattern.describe() else "")
    )
    fig.colorbar(image, ax=ax, label="expected net (pesos)")
    return fig


def starts_chart(ranking: Sequence[Mapping[str, Any]], by: str) -> Figure:
    """A figure: horizontal bars of the starts' scores, best at the top."""
    fig = _figure(figsize=(8, 0.28 * len(ranking) + 1.6), layout="constrained")
    ax = fig.add_subplot()
    labels = [" ".join(f"{g} {s}" for g, s in e["start"].items()) for e in ranking]
    scores = [float(e["score"]) for e in ranking]
    ax.barh(range(len(ranking)), scores, color=["#2a6f97" if s >= 0 else "#c0392b" for s in scores])
    ax.set_yticks(range(len(ranking)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.6)
    for i, s in enumerate(scores):
        ax.text(s, i, f" {s:.3g}", va="center", ha="left" if s >= 0 else "right", fontsize=7)
    ax.set_xlabel(by)
    ax.set_title(f"Starts ranked by {by}:\n{describe_criterion(by)}", fontsize=9)
    return fig

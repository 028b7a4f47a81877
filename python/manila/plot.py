"""``manila.plot``, the public path of the plots (matplotlib, the ``plot`` extra); they live
in :mod:`manila.sweeps.plot`."""

from .sweeps.plot import heatmap, heatmap_grid, starts_chart

__all__ = ["heatmap", "heatmap_grid", "starts_chart"]

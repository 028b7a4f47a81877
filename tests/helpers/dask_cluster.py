"""A local Dask cluster of two worker processes, one thread each, on the loopback only: what
the tests that send work to Dask workers (pickled, in other processes) run against."""

from __future__ import annotations

from typing import Any

import pytest


def local_cluster() -> Any:
    """A ``distributed.LocalCluster`` (a context manager); the test is skipped without Dask's
    distributed package, which the test extras install."""
    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        worker_dashboard_address=None,
    )

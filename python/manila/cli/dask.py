"""``--dask ADDRESS``: a Dask cluster's scheduler as a ``concurrent.futures`` executor, for the
commands whose independent chunks may run on more machines (sweep, train-value)."""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
from contextlib import AbstractContextManager
from typing import Any, cast


class _DaskExecutor(AbstractContextManager[cf.Executor]):
    def __init__(self, address: str):
        # Before any work: a missing package is an error in the command's arguments.
        if importlib.util.find_spec("distributed") is None:
            raise ValueError("--dask needs Dask's distributed package (pip install distributed)")
        self._address = address

    def __enter__(self) -> cf.Executor:
        from distributed import Client

        self.client = Client(self._address)
        return cast(cf.Executor, self.client.get_executor())

    def __exit__(self, *exc: Any) -> None:
        self.client.close()


def dask_executor(address: str) -> AbstractContextManager[cf.Executor]:
    """The client of the scheduler at ``address`` as an executor, closed on exit; a
    ValueError naming ``--dask`` without Dask's distributed package."""
    return _DaskExecutor(address)

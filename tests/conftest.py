import os

from hypothesis import settings

settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci")


def pytest_collection_modifyitems(config, items):
    """MANILA_REFERENCE_SAMPLE=k keeps every k-th case of the tests marked ``reference``.

    Their time goes into a slow Python reference, not the engine: the sanitizers' run
    (.ci/sanitize) needs the engine driven through every kind of case, not every case again.
    The plain test run keeps them all."""
    k = int(os.environ.get("MANILA_REFERENCE_SAMPLE", "1"))
    if k <= 1:
        return
    kept, dropped = [], []
    for item in items:
        spec = getattr(item, "callspec", None)
        index = sum(spec.indices.values()) if spec is not None else 0
        (dropped if item.get_closest_marker("reference") and index % k else kept).append(item)
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject.toml): a worker per core this process may run on.

    pytest-xdist counts physical cores when psutil is installed (the Dask extra brings it),
    which is one on a machine whose two cores are one core's two threads."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()

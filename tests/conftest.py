import os

from hypothesis import settings

settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci")


# The files that take longest, longest first (about 140 to 30 seconds each on one core).
# The workers take a file at a time in the order collected (--no-loadscope-reorder,
# pyproject.toml): one of these started last would leave the other core idle for its length.
LONGEST_FIRST = (
    "test_advice.py",
    "test_reference.py",
    "test_value.py",
    "test_wasm_browser.py",
    "test_contract.py",
    "test_play_browser.py",
    "test_review.py",
    "test_wealth.py",
    "test_browser.py",
    "test_server.py",
    "test_cli.py",
    "test_wasm.py",
)


def pytest_collection_modifyitems(config, items):
    """The longest files first; and MANILA_REFERENCE_SAMPLE=k keeps every k-th case of the
    tests marked ``reference``.

    Their time goes into Python (a slow reference, invariants checked in Python), not the
    engine: the sanitizers' run (.ci/sanitize) needs the engine driven through every kind of
    case, not every case again. The plain test run keeps them all."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: files stay whole
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

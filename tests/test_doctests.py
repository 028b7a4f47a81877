"""The examples in the package's docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import manila

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(manila.__path__, "manila.") if info.name != "manila._core"
)
WITH_EXAMPLES = [
    name
    for name in MODULES
    if any(t.examples for t in doctest.DocTestFinder().find(importlib.import_module(name), name))
]


def test_the_package_has_examples():
    # The top-level module and the main entry points each show one.
    assert {"manila.voyage.advice", "manila.sweeps.sweep", "manila.arena.simulate"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("name", ["manila", *WITH_EXAMPLES])
def test_docstring_examples(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the examples that save a file leave nothing in the checkout
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0

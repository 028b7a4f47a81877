"""The package's version and its distribution name, written once in pyproject.toml and
read from the installed metadata; ``install_hint`` is what an error says to install."""

from __future__ import annotations

from importlib import metadata

# The name on the package index (``manila`` there is another project); the import name is
# ``manila``. tests/test_imports.py checks it against pyproject.toml.
DISTRIBUTION = "manila-boardgame"

try:
    __version__ = metadata.version(DISTRIBUTION)
except metadata.PackageNotFoundError:  # pragma: no cover - imported from a source tree
    __version__ = "0+unknown"


def install_hint(extra: str) -> str:
    """The command that installs an optional extra: ``pip install 'manila-boardgame[rl]'``."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"

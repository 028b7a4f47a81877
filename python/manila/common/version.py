"""The package's version, written once in pyproject.toml and read from the installed metadata."""

from __future__ import annotations

from importlib import metadata

try:
    __version__ = metadata.version("manila")
except metadata.PackageNotFoundError:  # pragma: no cover - imported from a source tree
    __version__ = "0+unknown"

"""The static site: the page, the engine compiled to WebAssembly and its JavaScript, in one
folder that any static host serves (``python -m manila web --out DIR``; docs/web.md).

The .wasm is built from the engine's own sources by cpp/wasm/build.sh when the package is
built with the WebAssembly toolchain (.ci/wasm-toolchain), and shipped beside the page.
"""

from __future__ import annotations

import base64
import hashlib
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from . import _core
from ._reach import ARRIVED, LAST_SPACE, reachability_problems
from ._state import PLAYER_COUNTS, ROLLS

# The page's own files, beside index.html; sw.js gets the site's version filled in.
SCRIPTS = ("engine.js", "worker.js", "sw.js")
WASM = "manila.wasm"
_VERSION_SLOT = b"/*VERSION*/"
POSITIONS: tuple[Any, ...] = (*range(LAST_SPACE + 1), ARRIVED)


class NoEngineError(OSError):
    """This installation was built without the WebAssembly toolchain: it has no manila.wasm."""


@lru_cache(maxsize=1)
def reachable_bitmap() -> str:
    """Which boat positions a real voyage reaches, as the page checks them offline: bit
    ((roll - 1) * P + a) * P + b) * P + c for positions a, b, c of the boats in good order
    (P = 15 positions, "arrived" last), base64. The rule itself stays in _reach.py."""
    n = len(POSITIONS)
    bits = bytearray((len(ROLLS) * n**3 + 7) // 8)
    i = 0
    for roll in ROLLS:
        for a in POSITIONS:
            for b in POSITIONS:
                for c in POSITIONS:
                    if not reachability_problems(roll, {"x": a, "y": b, "z": c}):
                        bits[i // 8] |= 1 << (i % 8)
                    i += 1
    return base64.b64encode(bytes(bits)).decode("ascii")


def engine_data() -> dict[str, Any]:
    """What the page's engine.js needs beside the goods and spots (manila._names.page_data)."""
    return {
        "accomplices": {str(p): _core.accomplices_per_player(p) for p in PLAYER_COUNTS},
        "default_accomplices": _core.ACCOMPLICES,
        "reachable": reachable_bitmap(),
    }


def web_file(name: str) -> bytes:
    """One of the page's files as this installation has it."""
    path = resources.files("manila").joinpath("web").joinpath(name)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        if name == WASM:
            raise NoEngineError(
                "this installation of manila has no manila.wasm: install the WebAssembly toolchain "
                "(.ci/wasm-toolchain) and reinstall, or build it with cpp/wasm/build.sh"
            ) from None
        raise


def write_site(out: Path, page: bytes, names: dict[str, Any]) -> list[Path]:
    """Writes the static site into ``out``: ``page`` (the page with ``names`` filled in) as
    index.html, the engine and its scripts, and ``names`` as names.json for other callers
    of engine.js. Returns the files written."""
    files = {
        "index.html": page,
        WASM: web_file(WASM),
        "names.json": json.dumps(names, ensure_ascii=False).encode("utf-8"),
    }
    for name in SCRIPTS:
        files[name] = web_file(name)
    version = hashlib.sha256(b"".join(files[k] for k in sorted(files) if k != "sw.js")).hexdigest()[:12]
    files["sw.js"] = files["sw.js"].replace(_VERSION_SLOT, version.encode("ascii"))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in files.items():
        path = out / name
        path.write_bytes(data)
        written.append(path)
    return written

"""The page's files: the page with its names filled in, the engine compiled to WebAssembly
and its JavaScript. ``python -m manila serve`` serves them beside the API, and
``python -m manila web --out DIR`` writes them into a folder that any static host serves
(docs/web.md).

manila.wasm is built from the engine's own sources with zig (the ziglang build requirement,
CMakeLists.txt) and shipped beside the page; an installation built without it has none, and
there the page computes on the server.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..common.vocab import ARRIVED, LAST_SPACE, PLAYER_COUNTS, ROLLS, accomplice_limit
from ..voyage.example import EXAMPLE
from ..voyage.reach import reachability_problems
from .play import page_options

PAGE = "index.html"
PLAY_PAGE = "play.html"
WASM = "manila.wasm"
# The pages' own files beside index.html; sw.js gets the site's version filled in.
SCRIPTS = (
    "engine.js",
    "worker.js",
    "sw.js",
    "ask.mjs",
    "board.mjs",
    "calculator.mjs",
    "dom.mjs",
    "play.mjs",
    "review.mjs",
    "words.mjs",
)
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
}
_NAMES_SLOT = b"/*NAMES*/null"
_PLAY_SLOT = b"/*PLAY*/null"
_VERSION_SLOT = b"/*VERSION*/"
_FILES_SLOT = b"/*FILES*/[]"
POSITIONS: tuple[Any, ...] = (*range(LAST_SPACE + 1), ARRIVED)


class NoEngineError(OSError):
    """This installation was built without zig (the ziglang build requirement): it has no
    manila.wasm."""


@lru_cache(maxsize=1)
def reachable_bitmap() -> str:
    """Which boat positions a real voyage reaches, for the page to tell without a server:
    bit ((roll - 1) * P + a) * P + b) * P + c for positions a, b, c of the boats in good
    order (P = 15 positions, "arrived" last), base64. The rule is the engine's (voyage/reach.py)."""
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
    """What engine.js and the page need beside the words (names.page_data)."""
    return {
        "accomplices": {str(p): accomplice_limit(p) for p in PLAYER_COUNTS},
        "default_accomplices": accomplice_limit(None),
        "reachable": reachable_bitmap(),
        "last_space": LAST_SPACE,  # the board's track: spaces 0..last_space, then Manila
        "example": EXAMPLE,  # the Example button, with no server to ask
    }


def web_file(name: str) -> bytes:
    """One of the page's files as this installation has it."""
    try:
        return resources.files("manila.server").joinpath("web").joinpath(name).read_bytes()
    except FileNotFoundError:
        if name == WASM:
            raise NoEngineError(
                "this installation of manila has no manila.wasm, the page's engine: it was built "
                "without its build requirement ziglang (pip install --no-build-isolation skips "
                "them) or with MANILA_WASM=OFF. Reinstall it from the source with `pip install .`, "
                "which fetches ziglang itself (docs/web.md)"
            ) from None
        raise


def script_json(value: Any) -> bytes:
    """``value`` as JSON to sit inside a <script> element ("<" escaped)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").encode("utf-8")


def fill_page(page: bytes, names: dict[str, Any]) -> bytes:
    if _NAMES_SLOT not in page:
        raise OSError("the page has no slot for the names")
    return page.replace(_NAMES_SLOT, script_json(names))


def fill_play_page(page: bytes, names: dict[str, Any]) -> bytes:
    """The play page with the names and the bots it offers filled in."""
    page = fill_page(page, names)
    if _PLAY_SLOT not in page:
        raise OSError("the play page has no slot for the bots")
    return page.replace(_PLAY_SLOT, script_json(page_options()))


def site_files(names: dict[str, Any], *, need_engine: bool) -> dict[str, bytes]:
    """Every file of the site by name: the calculator and the play page with ``names``
    filled in, names.json (for other callers of engine.js), the scripts and, when this
    installation has it (or ``need_engine`` says it must), manila.wasm."""
    names = {**engine_data(), **names}
    files = {PAGE: fill_page(web_file(PAGE), names), PLAY_PAGE: fill_play_page(web_file(PLAY_PAGE), names)}
    files["names.json"] = json.dumps(names, ensure_ascii=False).encode("utf-8")
    try:
        files[WASM] = web_file(WASM)
    except NoEngineError:
        if need_engine:
            raise
    for name in SCRIPTS:
        files[name] = web_file(name)
    version = hashlib.sha256(b"".join(files[k] for k in sorted(files) if k != "sw.js")).hexdigest()[:12]
    # The service worker keeps every file of the site ("./" is the calculator).
    kept = ["./", *sorted(k for k in files if k not in (PAGE, "sw.js"))]
    files["sw.js"] = (
        files["sw.js"]
        .replace(_VERSION_SLOT, version.encode("ascii"))
        .replace(_FILES_SLOT, json.dumps(kept).encode("ascii"))
    )
    return files


def write_site(out: Path, names: dict[str, Any]) -> list[Path]:
    """Writes the static site into ``out`` (made if missing); returns its files.

    Every file is made in memory first, so that an installation without the engine refuses
    before anything is on disk; then each is written beside its place and renamed into it
    once all are written. If writing fails (a full disk, a folder that refuses), what this
    call made is removed again, the folders too: no empty folder, no half a site.
    """
    files = site_files(names, need_engine=True)
    made = [p for p in (out, *out.parents) if not p.exists()]  # the deepest first
    parts: list[Path] = []
    placed: list[Path] = []  # new files, not ones replaced
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            # "x": a fresh file, with the usual permissions (a web server must read it).
            part = out / f".{name}.{secrets.token_hex(4)}.part"
            parts.append(part)
            with open(part, "xb") as f:
                f.write(data)
        for name, part in zip(files, parts):
            path = out / name
            fresh = not path.exists()
            os.replace(part, path)
            if fresh:
                placed.append(path)
    except BaseException:
        for path in (*parts, *placed):
            path.unlink(missing_ok=True)
        for folder in made:
            try:
                folder.rmdir()
            except OSError:
                break  # not empty: someone else's now
        raise
    return [out / name for name in files]

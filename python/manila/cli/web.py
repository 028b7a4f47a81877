"""``python -m manila web --out DIR``: the page and its engine as a static site."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..server.names import page_data
from ..server.site import NoEngineError, write_site


def _folder(text: str) -> Path:
    # Path("") is the working directory: an empty --out would write the site over it.
    if not text.strip():
        raise argparse.ArgumentTypeError("a folder is needed, got an empty name")
    return Path(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", required=True, type=_folder, metavar="DIR", help="the folder to write (made if missing)"
    )


def run(args: argparse.Namespace) -> int:
    try:
        written = write_site(args.out, page_data())
    except NoEngineError as exc:
        print(f"manila: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"manila: error: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    size = sum(p.stat().st_size for p in written)
    print(
        f"wrote {len(written)} files ({size / 1024:.0f} KiB) to {args.out}: serve the folder with any static "
        f"web server (python -m http.server -d {args.out}); it works offline once loaded when served over "
        f"HTTPS or from localhost: docs/web.md says how to host it for a phone"
    )
    return 0

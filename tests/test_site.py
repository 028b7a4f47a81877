"""``python -m manila web --out DIR``: the whole static site or nothing. An installation
without the engine is refused before anything is written; a write that fails half-way
takes back what it made (docs/web.md)."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
import urllib.request
from importlib import resources
from pathlib import Path

import pytest

from helpers.serving import serving
from manila.cli import main
from manila.server import site
from manila.server.names import page_data

SITE = {"index.html", "play.html", "names.json", "manila.wasm", "engine.js", "worker.js", "sw.js"} | {
    f"{m}.mjs" for m in ("ask", "board", "calculator", "dom", "play", "review", "words")
}


def web(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "manila", "web", *args], capture_output=True, text=True, timeout=120
    )


def everything_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def test_web_writes_the_whole_site_into_a_new_folder(tmp_path):
    out = tmp_path / "new" / "site"
    run = web("--out", str(out))
    assert run.returncode == 0, run.stderr
    assert everything_under(out) == SITE  # and no temporary file left beside them
    assert (out / "manila.wasm").read_bytes()[:4] == b"\0asm"
    assert b"/*NAMES*/null" not in (out / "index.html").read_bytes()  # the names are filled in
    # Readable by a web server running as another user, as any file this user makes.
    umask = os.umask(0)
    os.umask(umask)
    for name in SITE:
        assert (out / name).stat().st_mode & 0o777 == 0o666 & ~umask, name
    assert f"wrote {len(SITE)} files" in run.stdout and "HTTPS" in run.stdout


def test_web_over_an_older_site_keeps_what_is_not_its_own(tmp_path):
    (tmp_path / "index.html").write_text("an older page")
    (tmp_path / "CNAME").write_text("manila.example.org\n")  # a static host's own file
    assert main(["web", "--out", str(tmp_path)]) == 0
    assert everything_under(tmp_path) == SITE | {"CNAME"}
    assert (tmp_path / "CNAME").read_text() == "manila.example.org\n"
    assert (tmp_path / "index.html").read_bytes() != b"an older page"


@pytest.fixture
def no_engine(tmp_path, monkeypatch):
    """This installation's page files as one built without zig has them: no manila.wasm."""
    package = tmp_path / "installed"
    (package / "web").mkdir(parents=True)
    for file in resources.files("manila.server").joinpath("web").iterdir():
        if file.name != "manila.wasm":
            (package / "web" / file.name).write_bytes(file.read_bytes())

    class Installed:
        @staticmethod
        def files(name: str) -> Path:
            assert name == "manila.server"
            return package

    monkeypatch.setattr(site, "resources", Installed)


def test_without_the_engine_nothing_is_written(tmp_path, no_engine, capsys):
    out = tmp_path / "new" / "site"
    assert main(["web", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("manila: error: this installation of manila has no manila.wasm")
    assert "ziglang" in err and "pip install ." in err  # the cause, and the way out
    assert not (tmp_path / "new").exists()


def failing_on(monkeypatch, name: str, call: int) -> None:
    """Makes the ``call``-th call of ``name`` (open or os.replace) in site fail as a full disk
    does."""
    real = {"open": open, "replace": os.replace}[name]
    calls = []

    def fail(*args, **kwargs):
        calls.append(args)
        if len(calls) == call:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(*args, **kwargs)

    if name == "open":
        monkeypatch.setattr(site, "open", fail, raising=False)  # site's, over the builtin
    else:
        monkeypatch.setattr(os, "replace", fail)


@pytest.mark.parametrize(("name", "call"), [("open", 1), ("open", 4), ("replace", 1), ("replace", 3)])
def test_a_failed_write_takes_back_what_it_made(tmp_path, monkeypatch, capsys, name, call):
    out = tmp_path / "new" / "site"
    failing_on(monkeypatch, name, call)
    assert main(["web", "--out", str(out)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()


def test_a_failed_write_into_a_folder_leaves_the_folder_as_it_was(tmp_path, monkeypatch, capsys):
    (tmp_path / "CNAME").write_text("manila.example.org\n")
    failing_on(monkeypatch, "replace", 3)
    assert main(["web", "--out", str(tmp_path)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert everything_under(tmp_path) == {"CNAME"}


def test_out_is_a_file(tmp_path, capsys):
    (tmp_path / "site").write_text("not a folder")
    assert main(["web", "--out", str(tmp_path / "site")]) == 2
    assert capsys.readouterr().err.startswith(f"manila: error: cannot write {tmp_path / 'site'}: ")
    assert (tmp_path / "site").read_text() == "not a folder"


def kept_offline(sw: bytes) -> list[str]:
    """The files sw.js keeps at the first visit, as it lists them."""
    found = re.search(rb"const FILES = (\[.*?\]);", sw)
    assert found, sw
    return json.loads(found[1])


def test_the_service_worker_keeps_every_file_at_the_first_visit(tmp_path):
    files = site.site_files(page_data(), need_engine=True)
    kept = kept_offline(files["sw.js"])
    # Every file but sw.js itself, the calculator as "./": modules a page has not loaded yet
    # too, or the first visit would not be enough to work offline.
    assert sorted(kept) == sorted({"./", *files} - {"index.html", "sw.js"})
    assert {"play.html", "manila.wasm", "calculator.mjs"} <= set(kept)
    # `manila serve` serves each of them (one missing, and the worker would keep none).
    with serving() as srv:
        host, port = srv.server_address[:2]
        for name in kept:
            with urllib.request.urlopen(f"http://{host}:{port}/{name.lstrip('./')}", timeout=10) as res:
                assert res.status == 200, name

"""POST /v1/play as the server's module answers it (manila.server.play.play, the engine's
route with the server's host), for tests that play games to some point."""

from __future__ import annotations

import json
from typing import Any, Optional

from manila import _core
from manila.server import play as sp


def answer(body: dict, **host: Any) -> dict:
    """The 200 answer to ``body`` (any other status fails the test)."""
    status, text = sp.play(body, **host)
    assert status == 200, text
    return json.loads(text)


def refusal(body: dict, **host: Any) -> Optional[dict]:
    """The first error of a 400 answer to ``body``, or None when it is answered."""
    status, text = sp.play(body, **host)
    if status == 200:
        return None
    assert status == 400, text
    return json.loads(text)["errors"][0]


def move(out: dict, action: Optional[str] = None) -> dict:
    """The answer after the player's ``action`` (None: only the bots and chance)."""
    body: dict = {"game": out["game"]}
    if action is not None:
        body["action"] = action
    return answer(body)


def checksum(record: dict) -> str:
    """A saved game's check (docs/play.md): SHA-256 of the record without it, keys sorted."""
    body = {k: v for k, v in record.items() if k != "check"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return _core.sha256_hex(text.encode("utf-8"))[: _core.PLAY_CHECK_DIGITS]


class LastLegal:
    """A Python bot (``module:Class``) that plays its last legal action, and counts what it
    was shown: only ever its own seat's view."""

    views: list = []

    def step(self, view: Any) -> int:
        LastLegal.views.append(view)
        return int(view.legal_actions()[-1])


class Cheat:
    """A Python bot that answers an action its view does not allow."""

    def step(self, view: Any) -> int:
        return 10**6

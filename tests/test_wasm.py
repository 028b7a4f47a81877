"""The engine compiled to WebAssembly, through its JavaScript (python/manila/server/web/engine.js)
under Node: ``engine.call(route, body)`` answers every POST route it serves exactly as the
Python server does, for the same generated bodies as tests/test_contract.py sends to the
engine in Python (tests/wasm/contract.test.mjs), and the page's calls behave as the page
needs (tests/wasm/engine.test.mjs).

Needs node (20 or later) and manila.wasm in the installation (built by `pip install .`: docs/web.md).
"""

from __future__ import annotations

import base64
import http.client
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from helpers.contract import (
    EDGES,
    FEWER_EXAMPLES,
    PLAY_EDGES,
    PLAY_REQUESTS,
    REQUESTS,
    WHOLE_REVIEWS,
    play_game_edges,
    review_record,
    served,
    whole_review,
)
from helpers.serving import serving
from manila.server.names import page_data
from manila.server.site import write_site

NODE = shutil.which("node")
HERE = Path(__file__).parent / "wasm"
EXAMPLES = 100  # per format: the same generators as test_contract.py, fewer of them
PLAY_EXAMPLES = {"play": 20, "play_expert": 2}  # games the bots play: fewer still


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    write_site(out, page_data())
    return out


def node(test: str, site: Path, cases: Path) -> None:
    if NODE is None:
        pytest.fail("the WebAssembly tests need node 20 or later")
    run = subprocess.run(
        [NODE, "--test", str(HERE / test)],
        env={"MANILA_SITE": str(site), "MANILA_CASES": str(cases), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(run.stdout[-6000:], run.stderr[-3000:])
    assert run.returncode == 0
    assert "# fail 0" in run.stdout


def contract_cases() -> list[dict]:
    """Requests of every form, each with the server's answer (the same every run)."""
    requests = [*EDGES, *PLAY_EDGES, *play_game_edges()]
    requests += [("/v1/review", whole_review(k)) for k in range(len(WHOLE_REVIEWS))]
    forms = {**REQUESTS, **PLAY_REQUESTS}
    for form in sorted(forms):

        @settings(
            max_examples=PLAY_EXAMPLES.get(form, min(EXAMPLES, FEWER_EXAMPLES.get(form, EXAMPLES))),
            derandomize=True,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(forms[form])
        def collect(drawn):
            requests.extend(drawn)

        collect()
    cases = []
    with serving(time_limit=120.0) as srv:  # the bots of a play body never pending
        conn = http.client.HTTPConnection(*srv.server_address[:2], timeout=60)
        for route, body in requests:
            status, text = served(conn, route, body)
            cases.append(
                {"route": route, "body": base64.b64encode(body).decode(), "status": status, "text": text}
            )
        conn.close()
    return cases


def test_contract_under_node(site, tmp_path):
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(contract_cases()))
    node("contract.test.mjs", site, cases)


def test_page_calls_under_node(site, tmp_path):
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"record": json.loads(review_record(0))}))  # a finished game
    node("engine.test.mjs", site, cases)

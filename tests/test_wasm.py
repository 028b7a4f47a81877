"""The engine compiled to WebAssembly, through its JavaScript (python/manila/server/web/engine.js)
under Node: the same exact numbers as manila.evaluate and manila.advise on seeded states,
and bad input answered with the engine's own message (tests/wasm/engine.test.mjs).

Needs node (20 or later) and manila.wasm in the installation (built by `pip install .`: docs/web.md).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import manila
from helpers.states import SeededDraws, add_wealth, random_state
from manila.server.names import page_data
from manila.server.site import write_site

NODE = shutil.which("node")
TEST = Path(__file__).parent / "wasm" / "engine.test.mjs"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    write_site(out, page_data())
    return out


def cases() -> dict:
    rng = random.Random(23)
    evaluations = []
    for i in range(120):
        state = random_state(rng)
        if i % 3 == 0:
            state = add_wealth(SeededDraws(rng), state)
        evaluations.append(
            {"state": state, "expected": manila.evaluate(state, exact=True, strict=False).to_dict()}
        )
    advice = []
    while len(advice) < 12:
        state = random_state(rng, 3 if len(advice) % 2 else 2, busy=0.3)
        players = ["red", "blue", "green", "yellow", "purple"][: state.get("players", 4)]
        position = {**state, "moment": {"kind": "placement", "order": players, "to_move": players[1]}}
        try:
            expected = manila.advise(position, exact=True, strict=False).to_dict()
        except manila.StateError:
            continue  # a state where that player has no accomplice left
        advice.append({"position": position, "expected": expected})
    # The deepest search: a whole round of four before roll 1, which overflowed a small stack.
    deep = manila.parse("r1 ginseng@3 silk@3 jade@3 player=red").to_dict()
    order = ["red", "blue", "green", "yellow"]
    deep["moment"] = {"kind": "placement", "order": order, "to_move": "red"}
    advice.append({"position": deep, "expected": manila.advise(deep, exact=True).to_dict()})
    return {"evaluate": evaluations, "advise": advice}


def test_engine_under_node(site, tmp_path):
    if NODE is None:
        pytest.fail("the WebAssembly tests need node 20 or later")
    data = tmp_path / "cases.json"
    data.write_text(json.dumps(cases()))
    run = subprocess.run(
        [NODE, "--test", str(TEST)],
        env={"MANILA_SITE": str(site), "MANILA_CASES": str(data), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=300,
    )
    print(run.stdout[-3000:], run.stderr[-3000:])
    assert run.returncode == 0
    assert "# fail 0" in run.stdout

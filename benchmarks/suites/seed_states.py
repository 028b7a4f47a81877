"""The voyage states equivalent to the published seed calculator's own test cases
(framist/manila, seed 004), with the time that calculator took on each (seed_states.json).
"""

from __future__ import annotations

import json
import os

with open(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "seed_states.json"), encoding="utf-8"
) as _f:
    _CASES = json.load(_f)["cases"]

# Case id -> voyage state (the JSON contract), in the calculator's order.
SEED_STATES: dict[str, dict] = {c["id"]: c["state"] for c in _CASES}
# Case id -> the seed calculator's time for that state, in microseconds.
SEED_US: dict[str, float] = {c["id"]: c["seed_calculator_us"] for c in _CASES}

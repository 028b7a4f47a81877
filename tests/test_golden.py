"""Golden playthroughs: a few seeded games between built-in bots, recorded and told, must
come out byte for byte as stored under tests/golden/.

Each game has its record, ``NAME.jsonl``: what ``python -m manila simulate --games 1
--record -`` writes for the arguments below. The games in ``TOLD`` also have ``NAME.txt``,
what ``python -m manila replay --board`` tells of that record. A change to the rules engine,
a bot, the seeding or the replay's wording shows up here as a difference.

When such a change is meant, regenerate the files and review the diff before committing:

    MANILA_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("MANILA_UPDATE_GOLDEN") == "1"

# name: the simulate arguments (3, 4 and 5 players; a rule option on in two of them). The
# sages' games hold the searching bots to what their ladder rows were measured with: the
# learned value's model, the sage's and the expert's bidding shares, the solver's search.
GAMES = {
    "3p-sage-expert-solver": ["--players", "3", "--bots", "sage,expert,solver", "--seed", "6"],
    "4p-sage-expert-solver": ["--players", "4", "--bots", "sage,expert,solver,sage", "--seed", "5"],
    "3p-greedy-pirate-variant": ["--players", "3", "--bots", "greedy", "--seed", "1", "--pirate-variant"],
    "4p-mixed-bots": ["--players", "4", "--bots", "greedy,random,greedy-wealth,greedy", "--seed", "2"],
    "5p-greedy-wealth-shipyard": [
        "--players",
        "5",
        "--bots",
        "greedy-wealth",
        "--seed",
        "3",
        "--thirteen-after-last-roll",
        "shipyard",
    ],
}
# The games whose replay is stored too: the replay's wording needs telling once per player
# count and rule option; the sages' games are there for their bots' moves, which the
# records hold.
TOLD = ("3p-greedy-pirate-variant", "4p-mixed-bots", "5p-greedy-wealth-shipyard")


def manila_cli(*args: str) -> bytes:
    out = subprocess.run(
        [sys.executable, "-m", "manila", *args], capture_output=True, check=False, timeout=300
    )
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout


def check(path: Path, actual: bytes) -> None:
    if UPDATE:
        path.write_bytes(actual)
        return
    assert path.exists(), f"{path.name} is missing: regenerate with MANILA_UPDATE_GOLDEN=1"
    expected = path.read_bytes()
    if actual != expected:
        # The first differing line says more than a byte dump.
        for n, (a, e) in enumerate(zip(actual.splitlines(), expected.splitlines()), 1):
            assert a == e, f"{path.name}, line {n} differs"
        assert actual == expected, f"{path.name}: lengths differ ({len(actual)} != {len(expected)})"


@pytest.mark.parametrize("name", GAMES)
def test_the_recorded_game_is_the_golden_one(name):
    record = manila_cli(
        "simulate", *GAMES[name], "--games", "1", "--threads", "1", "--no-progress", "--record", "-"
    )
    check(GOLDEN / f"{name}.jsonl", record)


@pytest.mark.parametrize("name", TOLD)
def test_the_replay_is_the_golden_one(name):
    check(GOLDEN / f"{name}.txt", manila_cli("replay", "--board", str(GOLDEN / f"{name}.jsonl")))


def test_the_golden_files_are_small_and_complete():
    stored = {p.name for p in GOLDEN.iterdir() if p.name != ".gitattributes"}
    assert stored == {f"{name}.jsonl" for name in GAMES} | {f"{name}.txt" for name in TOLD}
    assert all((GOLDEN / name).stat().st_size < 300_000 for name in stored)
    for name in GAMES:  # each one a whole game, played to its end
        assert b'"winners":' in (GOLDEN / f"{name}.jsonl").read_bytes()
    for name in TOLD:  # and told to its end
        assert b"== game over after " in (GOLDEN / f"{name}.txt").read_bytes()

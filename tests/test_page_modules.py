"""The pages' JavaScript modules under Node (tests/web/*.test.mjs): the words the pages
show for the engine's names, the ask() gateway's protocol with a fake worker, and each
analysis option mapped to the action it begins with, as the library maps it.

Needs node (20 or later).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from manila.analysis.analysis import analyse
from manila.bots import bots_for
from manila.game.engine import Game, action_id, action_name
from manila.game.play import bot_move
from manila.game.view import PlayerView
from manila.server.names import page_data

NODE = shutil.which("node")
TESTS = Path(__file__).parent / "web"


def option_cases() -> list[dict]:
    """Decisions of one seat in seeded games (the bots greedy, the seat's moves drawn at
    random, leaning to the spots that bring pilots and pirates): for every option the
    analysis names, the action it begins with (the library's own mapping)."""
    rng = random.Random(7)
    cases: list[dict] = []
    kinds: set[str] = set()
    for seed in range(4):
        state = Game(3, seed).new_initial_state()
        bots = bots_for(["greedy"] * 3, seed)
        while not state.is_terminal():
            if state.is_chance_node() or state.current_player() != 0:
                p = state.current_player()
                state.apply_action(state.sample_chance() if p < 0 else bot_move(bots[p], state, p))
                continue
            view = PlayerView(state, 0)
            legal = view.legal_action_names()
            phase = state.phase
            if phase not in kinds or rng.random() < 0.05:
                result = analyse(view, horizon="voyage", rollouts=2, time_limit=0.05, threads=1, seed=seed)
                kinds.add(phase)
                for name, o in result.options.items():
                    want = action_name(o.actions[0]) if o.actions else name
                    cases.append({"kind": result.kind, "option": name, "legal": legal, "action": want})
            liked = [a for a in legal if "pilot" in a or "pirate" in a or a.startswith(("board", "plunder"))]
            moves = [a for a in legal if a not in ("mortgage", "repay")] or legal
            choice = liked[0] if liked and rng.random() < 0.7 else rng.choice(moves)
            if phase == "auction" and rng.random() < 0.5 and "bid 8" in legal:
                choice = "bid 8"  # a harbour master's decisions, now and then
            state.apply_action(action_id(choice))
    return cases


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_the_page_modules_under_node(tmp_path: Path) -> None:
    names = tmp_path / "names.json"
    names.write_text(json.dumps(page_data()))
    options = tmp_path / "options.json"
    options.write_text(json.dumps(option_cases()))
    env = {"PATH": str(Path(NODE).parent), "MANILA_NAMES": str(names), "MANILA_OPTIONS": str(options)}
    run = subprocess.run(
        [NODE, "--test", *sorted(str(p) for p in TESTS.glob("*.test.mjs"))],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout

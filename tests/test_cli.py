"""The command line, run as a user would run it."""

import json
import subprocess
import sys

import manila

EXAMPLE_JSON = json.dumps(manila.EXAMPLE)


def run(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "manila", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_example_then_evaluate():
    example = run("example")
    assert example.returncode == 0 and json.loads(example.stdout) == manila.EXAMPLE
    out = run("evaluate", "-", stdin=example.stdout)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == manila.evaluate(manila.EXAMPLE).to_dict()


def test_exact_and_player(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(EXAMPLE_JSON)
    out = run("evaluate", str(path), "--exact", "--player", "blue", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == manila.evaluate(manila.EXAMPLE, exact=True, player="blue").to_dict()


def test_human_table_lists_every_spot():
    from manila.report import render
    result = manila.evaluate(manila.EXAMPLE)
    text = render(result)
    for name, entry in result.spots.items():
        line = next(l for l in text.splitlines() if f" {name} " in l)
        assert line.startswith("+") == (entry["expected_net"] > 0)
    assert "\033[" not in text and "\033[" in render(result, color=True)


def test_bad_state_is_one_line_per_problem_and_status_2():
    bad = json.dumps({"next_roll": 9, "boats": {"tea": {"position": 3}}})
    out = run("evaluate", "-", stdin=bad)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 3 and all(l.startswith("manila: error: ") for l in lines)
    assert any("next_roll" in l for l in lines) and any("boats.tea" in l for l in lines)


def test_unreadable_input(tmp_path):
    for args, stdin in ((["evaluate", str(tmp_path / "missing.json")], ""),
                        (["evaluate", "-"], "{not json")):
        out = run(*args, stdin=stdin)
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert out.stderr.startswith("manila: error: ")
    assert run("evaluate").returncode == 2
    assert run("fly").returncode == 2

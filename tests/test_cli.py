"""The command line, run as a user would run it."""

import json
import os
import pty
import re
import subprocess
import sys

import pytest

import manila
from manila.cli.report import render
from manila.common.inputs import MAX_INPUT
from manila.server.names import NOBODY_AFTER_YOU, spot_label

EXAMPLE_JSON = json.dumps(manila.EXAMPLE)


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "manila", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_example_then_evaluate():
    example = run("example")
    assert example.returncode == 0 and json.loads(example.stdout) == manila.EXAMPLE
    out = run("evaluate", "-", stdin=example.stdout)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == manila.evaluate(manila.EXAMPLE).to_dict()


def test_text_even_when_piped_and_never_with_json():
    example = run("example").stdout
    position = "r3 ginseng@9:a silk@11:b jade@10:c,d order=a,b,c,d turn=b"
    for command, given, head in (("evaluate", "-", "Voyage before roll 3"), ("advise", position, "")):
        out = run(command, given, "--text", stdin=example)
        assert out.returncode == 0, out.stderr
        assert head in out.stdout and "\033[" not in out.stdout  # a pipe gets no colours
        with pytest.raises(json.JSONDecodeError):
            json.loads(out.stdout)
        assert json.loads(run(command, given, stdin=example).stdout)  # piped: JSON
        both = run(command, given, "--text", "--json", stdin=example)
        assert both.returncode == 2 and "not allowed with argument" in both.stderr


def test_exact_and_player(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(EXAMPLE_JSON)
    out = run("evaluate", str(path), "--exact", "--player", "blue", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == manila.evaluate(manila.EXAMPLE, exact=True, player="blue").to_dict()


def test_human_table_lists_every_spot():
    result = manila.evaluate(manila.EXAMPLE)
    text = render(result)
    for name, entry in result.spots.items():
        line = next(l for l in text.splitlines() if f" {spot_label(name)} " in l)
        assert line.startswith("+") == (entry["expected_net"] > 0)
    assert "\033[" not in text and "\033[" in render(result, color=True)


def test_table_speaks_as_the_page_does():
    result = manila.evaluate(manila.EXAMPLE, exact=True)
    lines = render(result).splitlines()
    assert lines[0] == str(result.state)  # the board, in notation, above the table
    rows = [l for l in lines if l[:1] in "+ " and ("pay " in l or "receive " in l)]
    assert len(rows) == len(result.spots)
    assert any(" Jade seat " in r for r in rows) and any(" Pirate 2 " in r for r in rows)
    insurance = next(r for r in rows if " Insurance " in r)
    assert "receive 10" in insurance and "-10" not in insurance
    # The assumption stands right below the table.
    after = lines.index(rows[-1]) + 1
    assert NOBODY_AFTER_YOU in " ".join(lines[after : after + 2])
    # Exact fractions line up on their slash (a whole number where the slash would be).
    columns = set()
    for r in rows:
        net = r.split()[-1]
        start = r.rindex(net)
        columns.add(start + (net.index("/") if "/" in net else len(net)))
    assert len(columns) == 1, rows
    assert any("/" in r.split()[-1] for r in rows) and any("/" not in r.split()[-1] for r in rows)


def test_bad_state_is_one_line_per_problem_and_status_2():
    bad = json.dumps({"next_roll": 9, "boats": {"tea": {"position": 3}}})
    out = run("evaluate", "-", stdin=bad)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 3 and all(l.startswith("manila: error: ") for l in lines)
    assert any("next_roll" in l for l in lines) and any("boats.tea" in l for l in lines)


def test_unreadable_input(tmp_path):
    for args, stdin in ((["evaluate", str(tmp_path / "missing.json")], ""), (["evaluate", "-"], "{not json")):
        out = run(*args, stdin=stdin)
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert out.stderr.startswith("manila: error: ")
    assert run("evaluate").returncode == 2
    assert run("fly").returncode == 2


def one_error_line(out, *words):
    """Refused as the README says: status 2, one `manila: error:` line, nothing else."""
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("manila: error: "), out.stderr
    assert out.stdout == ""
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_text_that_is_no_file_is_read_as_a_state():
    line = one_error_line(run("evaluate", "ginseng@3 nutmeg@4 silk@2"), "roll", "r1, r2 or r3")
    assert "No such file" not in line and "cannot read" not in line
    out = run("evaluate", "r1 ginseng@3 nutmeg@4 silk@2", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["spots"]
    out = run("evaluate", EXAMPLE_JSON, "--json")  # JSON given inline
    assert out.returncode == 0 and json.loads(out.stdout) == manila.evaluate(manila.EXAMPLE).to_dict()
    one_error_line(run("evaluate", "state.jsn"), "state.jsn", "no such file")


def test_player_must_be_someone_in_the_state():
    one_error_line(
        run("evaluate", EXAMPLE_JSON, "--player", "blu"),
        "--player",
        "'blu'",
        'did you mean "blue"',
        "--new-player",
    )
    out = run("evaluate", EXAMPLE_JSON, "--player", "newcomer", "--new-player", "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout) == manila.evaluate(manila.EXAMPLE, player="newcomer").to_dict()


def test_validate_prints_problems_as_the_readme_says():
    out = run("validate", "r2 ginseng@8 silk@arrived jade@12")
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.splitlines()
    assert [l.split(":")[2].strip() for l in lines] == ["boats.silk.position", "boats.jade.position"]
    assert all(l.startswith("manila: error: boats.") for l in lines)
    assert all("--no-strict" in l and "strict=False" not in l for l in lines)
    ok = run("validate", "r1 ginseng@3 nutmeg@4 silk@2")
    assert ok.returncode == 0 and ok.stdout == "valid\n" and ok.stderr == ""


@pytest.mark.parametrize(
    "case", ["output missing folder", "output is a folder", "record missing folder", "plot missing folder"]
)
def test_unwritable_outputs_are_refused_before_any_work(tmp_path, case):
    missing = tmp_path / "no" / "such"
    argv = {
        "output missing folder": ["sweep", "-o", str(missing / "s.npz")],
        "output is a folder": ["sweep", "-o", str(tmp_path)],
        "record missing folder": ["simulate", "--games", "1", "--record", str(missing / "g.jsonl")],
        "plot missing folder": [
            "plot",
            "starts",
            "--goods",
            "ginseng,silk,jade",
            "-o",
            str(missing / "p.png"),
        ],
    }[case]
    one_error_line(run(*argv), str(tmp_path))


def test_replay_of_something_else_than_a_game_record(tmp_path):
    state = tmp_path / "state.json"
    state.write_text(EXAMPLE_JSON)
    one_error_line(run("replay", str(state)), "not a game record", "history")
    one_error_line(run("replay", "-", stdin="[1, 2]\n"), "not a game record", "array")
    one_error_line(run("replay", "-", stdin='{"history": ["bid 3"]}'), "not a game record")
    one_error_line(run("replay", "-", stdin="{oops}\n"), "not valid JSON")


@pytest.mark.parametrize("top", ["0", "-1", "x"])
def test_top_below_one(top):
    one_error_line(run("starts", "--goods", "ginseng,silk,jade", "--top", top), "--top", "at least 1")


@pytest.mark.parametrize("command", [["evaluate"], ["validate"], ["replay"]])
def test_input_over_the_size_limit(command, tmp_path):
    one_error_line(run(*command, "/dev/zero"), "/dev/zero", "MB")
    big = " " * (MAX_INPUT + 1)
    one_error_line(run(*command, "-", stdin=big), "standard input", "MB")
    path = tmp_path / "big.json"
    path.write_text(big)
    one_error_line(run(*command, str(path)), "MB")


PYTHON_WORDS = ("NoneType", "Expecting", "utf-8-sig", "codec", "JSONDecodeError", "dict", "str", "Traceback")


@pytest.mark.parametrize(
    "stdin, words",
    [
        ("null", ["not null"]),
        ("[1]", ["not an array"]),
        ('"r1"', ["not a string"]),
        ("{x", ["not valid JSON", "line 1 column 2"]),
        ("", ["empty"]),
        ("{} {}", ["not valid JSON"]),
        ("\ufeff\xff", ["UTF-8"]),
        ('{"next_roll": NaN}', ["NaN"]),
    ],
)
def test_messages_have_no_python_wording(stdin, words):
    out = subprocess.run(
        [sys.executable, "-m", "manila", "evaluate", "-"],
        input=stdin.encode("utf-8", "surrogateescape").replace(b"\xc3\xbf", b"\xff"),
        capture_output=True,
        timeout=120,
    )
    out = subprocess.CompletedProcess(out.args, out.returncode, out.stdout.decode(), out.stderr.decode())
    line = one_error_line(out, *words)
    assert not any(re.search(rf"\b{w}\b", line) for w in PYTHON_WORDS), line


# A heat map with everything but the spot (and one axis: a later --x wins).
HEATMAP = [
    "plot",
    "heatmap",
    "--goods",
    "ginseng,silk,jade",
    "--x",
    "silk",
    "--y",
    "jade",
    "--at",
    "ginseng=8",
]
HEATMAP += ["-o", os.devnull]


@pytest.mark.parametrize(
    "argv, suggestion",
    [
        (["evaluate", "r1 ginsen@3 nutmeg@4 silk@2"], '"ginseng"'),
        (["evaluate", "r1 ginseng@3 nutmeg@4 silk@2 prot_a=red"], '"port_a"'),
        (["evaluate", "r1 ginseng@3 nutmeg@4 silk@2 playr=red"], '"player"'),
        (["evaluate", '{"nextroll": 1, "boats": {}}'], '"next_roll"'),
        (
            ["evaluate", '{"next_roll": 1, "rules": {"pirate_varaint": true}, "boats": {}}'],
            '"pirate_variant"',
        ),
        (["simulate", "--games", "1", "--bots", "greedy,randon,random,random"], '"random"'),
        # Sweep options: the name is a spot (or a good, a criterion), never a state's key.
        (HEATMAP + ["--spot", "insurence"], '"insurance"'),
        (HEATMAP + ["--spot", "port_a", "--x", "slk"], '"silk"'),
        (["starts", "--goods", "ginseng,silk,jade", "--by", "spot:insurence"], '"insurance"'),
        (["starts", "--goods", "ginseng,silk,jade", "--by", "arrive:nutmg"], '"nutmeg"'),
        (["starts", "--goods", "ginseng,silk,jade", "--by", "carg"], '"cargo"'),
    ],
)
def test_did_you_mean(argv, suggestion):
    out = run(*argv)
    assert out.returncode == 2
    assert any(f"did you mean {suggestion}?" in l for l in out.stderr.splitlines()), out.stderr


def test_progress_bars_only_on_a_terminal_and_never_before_an_error():
    # Standard error is a pipe here: no bar, whatever the number of games.
    out = run("simulate", "--games", "3", "--json")
    assert out.returncode == 0 and out.stderr == ""
    # On a terminal a run refused at once shows its error line and nothing before it.
    main, child = pty.openpty()
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "manila",
                "simulate",
                "--games",
                "50",
                "--bots",
                "greedy,greedy,greedy,randm",
            ],
            stdout=subprocess.PIPE,
            stderr=child,
            timeout=120,
        )
        os.close(child)
        child = None
        shown = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if child is not None:
            os.close(child)
        os.close(main)
    assert proc.returncode == 2
    lines = shown.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "manila: error: bots: unknown bot 'randm' (did you mean \"random\"?); the built-in bots are"
    )


def test_a_heat_map_that_would_be_blank_is_refused(tmp_path):
    for spot, words in (("nutmeg", "nutmeg stays home"), ("pirate_2", "may not be taken in any state")):
        png = tmp_path / f"{spot}.png"
        out = run(
            "plot",
            "heatmap",
            "--goods",
            "ginseng,silk,jade",
            "--spot",
            spot,
            "--x",
            "silk",
            "--y",
            "jade",
            "--at",
            "ginseng=8",
            "-o",
            str(png),
        )
        assert out.returncode == 2 and words in out.stderr and "blank" in out.stderr, out.stderr
        assert not png.exists()


def test_help_texts_print_what_they_mean():
    # argparse formats help= strings with %, not descriptions: a %% there is printed as is.
    out = run("ladder", "--help")
    assert "95% interval" in out.stdout and "%%" not in out.stdout

"""The documentation lives in the repository (docs/), and everything points there."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = (
    "rules.md",
    "numbers.md",
    "notation.md",
    "http.md",
    "advice.md",
    "performance.md",
    "sweeps.md",
    "ladder.md",
    "play.md",
)
# Written so that this file does not mention what it looks for.
OUTSIDE = ("MANILA" + ".md", "../" + "shared", "/work/" + "shared")


def product_files():
    for folder in ("python", "cpp", "tests", "docs", "benchmarks"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".pyi", ".cpp", ".hpp", ".md", ".html", ".json"):
                yield path
    yield ROOT / "README.md"
    yield ROOT / "pyproject.toml"


def test_the_docs_are_there():
    for page in PAGES:
        text = (DOCS / page).read_text(encoding="utf-8")
        assert text.startswith("# ") and len(text) > 1500, page
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert "thirteen_after_last_roll" in rules and "pirate_variant" in rules
    assert "except\n    insurance" in rules or "except insurance" in rules  # rule 12
    numbers = (DOCS / "numbers.md").read_text(encoding="utf-8")
    for word in (
        "expected_net",
        "incomes",
        "boats",
        "shares",
        "prices",
        "budget",
        '"payoffs"',
        "blind passenger",
        "advice.md",
    ):
        assert word in numbers, word
    advice = (DOCS / "advice.md").read_text(encoding="utf-8")
    for word in ('"moment"', "placement", "pilot_small", "boarding", "horizon", "turn=", "order="):
        assert word in advice, word
    notation = (DOCS / "notation.md").read_text(encoding="utf-8")
    assert "state   = roll" in notation and "shares=" in notation and "moment" in notation
    sweeps = (DOCS / "sweeps.md").read_text(encoding="utf-8")
    for word in ("by_start", "path_count", "path_denominator", "probability", "manila.Pattern"):
        assert word in sweeps, word
    http = (DOCS / "http.md").read_text(encoding="utf-8")
    for route in ("POST /v1/evaluate", "POST /v1/validate", "GET /v1/example", "GET /healthz", "413"):
        assert route in http, route


@pytest.mark.parametrize("page", ["numbers.md", "http.md"])
def test_the_assumption_is_next_to_the_spot_table(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    assert re.search(r"nobody\s+places\s+after", text, re.I)


def test_nothing_points_outside_the_repository():
    found = []
    for path in product_files():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{rel}: {word}" for word in OUTSIDE if word in text]
    assert found == []


def test_every_link_to_the_docs_leads_somewhere():
    for path in product_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for page in re.findall(r"docs/([a-z_]+\.md)", text):
            assert (DOCS / page).is_file(), (path, page)
        if path.parent == DOCS:
            for target in re.findall(r"\]\(([a-z_]+\.md)(?:#[a-z0-9-]+)?\)", text):
                assert (DOCS / target).is_file(), (path, target)


def test_help_points_to_the_docs():
    def help_text(*args):
        return subprocess.run(
            [sys.executable, "-m", "manila", *args, "--help"], capture_output=True, text=True, timeout=60
        ).stdout

    assert "docs/" in help_text()
    evaluate = help_text("evaluate")
    assert "docs/numbers.md" in evaluate and "docs/notation.md" in evaluate
    assert "nobody places after you" in " ".join(evaluate.split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in PAGES:
        assert f"docs/{page}" in readme


def test_the_sweeps_page_runs():
    # Its examples are statements, not doctests: each block must run as written.
    import manila

    text = (DOCS / "sweeps.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    for block in blocks:
        exec(compile(block, "docs/sweeps.md", "exec"), {"manila": manila})


ANALYSE = re.compile(r"^\$ python -m manila analyse (\S+) (.*)$")


def analysis_examples(text: str):
    """(file, options, the lines shown) of every `$ python -m manila analyse` example."""
    for block in re.findall(r"```\n(\$ python -m manila analyse .*?)```", text, re.S):
        first, *shown = block.rstrip("\n").split("\n")
        path, options = ANALYSE.match(first).groups()
        flags = options.split()
        kwargs = {flags[i][2:].replace("-", "_"): int(flags[i + 1]) for i in range(0, len(flags), 2)}
        yield path, kwargs, shown


@pytest.mark.parametrize("page", ["docs/analysis.md", "README.md"])
def test_the_analysis_examples_print_what_they_show(page):
    """Each shown line (the README shortens with ...) is what the command prints today."""
    import json

    from manila.analysis.analysis import analyse, render_analysis

    examples = list(analysis_examples((ROOT / page).read_text(encoding="utf-8")))
    assert len(examples) == 2
    for path, kwargs, shown in examples:
        printed = render_analysis(analyse(json.loads((ROOT / path).read_text()), **kwargs)).split("\n")
        assert [line for line in shown if line != " ..."] == [line for line in printed if line in shown]
        assert all(line in printed for line in shown if line != " ..."), path


def test_the_readme_value_prints_what_it_shows():
    command = "python -m manila value docs/examples/value-table.json"
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = text.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    run = subprocess.run(
        [sys.executable, "-m", "manila", *command.split()[3:], "--text"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert run.stdout == shown


REVIEWED = "tests/golden/4p-mixed-bots.jsonl"
SECONDS = re.compile(r", [\d.]+ s$", re.M)  # the one part of the report that is not the seed's


def test_the_review_example_prints_what_it_shows():
    """docs/review.md's report of a golden game, and the sentence README and the page's
    opening quote from it, are what `python -m manila review` prints today."""
    from manila.analysis.review import render_review, review

    page = (DOCS / "review.md").read_text(encoding="utf-8")
    command = f"python -m manila review {REVIEWED} --worst 5"
    shown = re.search(re.escape(command) + r"`:\n\n```text\n(.*?)```", page, re.S).group(1)
    printed = render_review(review((ROOT / REVIEWED).read_text(encoding="utf-8")), 5) + "\n"
    assert SECONDS.sub("", shown) == SECONDS.sub("", printed)
    quoted = re.search(r"p1: final equity .*? residual \S+\d", printed).group(0)
    for text in (page.split("```")[0], (ROOT / "README.md").read_text(encoding="utf-8")):
        assert quoted in " ".join(text.split()), quoted


def test_the_readme_ladder_prints_what_it_shows():
    # The first ladder in the README, run as written: every line but the time is the same.
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "python -m manila ladder --players 4 --bots greedy,random,random,random --games 200 --seed 1"
    after = text.split(command, 1)[1]
    shown = after.split("```\n\n```\n", 1)[1].split("```", 1)[0].strip().splitlines()
    run = subprocess.run(
        [sys.executable, "-m", "manila", *command.split()[3:]], capture_output=True, text=True, check=True
    )
    printed = [line for line in run.stdout.strip().splitlines() if not line.startswith("time:")]
    assert printed == shown

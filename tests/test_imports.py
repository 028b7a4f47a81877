"""The package's modules import each other without a cycle: every import counts, those
inside functions and under ``TYPE_CHECKING`` included. And the layers stay in order."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import manila

PACKAGE = Path(manila.__file__).parent
# Each layer may import the layers before it, never one after it.
LAYERS = ["common", "voyage", "sweeps", "game", "bots", "arena", "rl", "analysis", "server", "cli"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = {f"{target}.{a.name}" for a in node.names}
            out |= submodules
            if not submodules <= known:  # names defined in the module itself, not submodules
                out.add(target)
    return {m for m in out if m in known and m != name}


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found) | {"manila._core"}  # the compiled module: imports nothing of ours
    return {name: imports(name, path, known) - {"manila._core"} for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in edges:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    assert cycles(graph()) == []


def layer(name: str) -> int | None:
    parts = name.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_layers_import_only_the_layers_below():
    wrong = [
        f"{a} imports {b}"
        for a, targets in graph().items()
        for b in targets
        if layer(a) is not None and layer(b) is not None and layer(b) > layer(a)  # type: ignore[operator]
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "edges, expected",
    [
        ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ],
)
def test_the_cycle_finder_finds_cycles(edges, expected):
    assert cycles(edges) == expected


def test_the_distribution_name_has_one_home():
    # pyproject.toml names the distribution; the package reads the name from its metadata
    # and every "pip install ..." it prints uses it.
    import tomllib

    from manila.common.version import DISTRIBUTION, install_hint

    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["name"] == DISTRIBUTION != "manila"
    assert install_hint("rl") == f"pip install '{DISTRIBUTION}[rl]'"
    assert manila.__version__ == pyproject["project"]["version"]

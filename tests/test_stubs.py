"""python/manila/_core.pyi against the compiled module it describes.

mypy's stubtest (run by .ci/typecheck, with .ci/stubtest-allowlist) finds names missing on
either side, but it cannot read the signatures of pybind11 functions. pybind11 writes each
one as the first line of its docstring, so the test here compares those with the stub: parameter names, kinds and defaults, and types
wherever pybind11 knows them (the stub may be more precise where pybind11 says only `dict`,
`list`, `tuple`, `numpy.ndarray`, `object` or `typing.Any`).
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

import pytest

import manila
from manila import _core

STUB = Path(manila.__file__).with_name("_core.pyi")

Function = Union[ast.FunctionDef, ast.AsyncFunctionDef]


@dataclass
class Param:
    name: str
    kind: str  # "positional-only", "positional" or "keyword-only"
    annotation: Optional[ast.expr]
    default: Optional[ast.expr]  # None: no default


@dataclass
class Signature:
    params: list[Param]
    returns: Optional[ast.expr]


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """`text` split at each `sep` outside brackets and quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def pybind_type(text: str) -> ast.expr:
    """A type from a pybind11 docstring, spelt as the stub spells it."""
    text = text.replace("typing.SupportsInt | typing.SupportsIndex", "int")
    text = re.sub(r'typing\.Annotated\[(.*), "FixedSize\(\d+\)"\]', r"\1", text)
    for long, short in [
        ("manila._core.", ""),
        ("collections.abc.", ""),
        ("numpy.typing.", "npt."),
        ("numpy.", "np."),
        ("typing.", ""),
    ]:
        text = text.replace(long, short)
    return ast.parse(text, mode="eval").body


def runtime_signature(doc: Optional[str], where: str) -> Signature:
    """The signature pybind11 wrote on the first line of `doc`."""
    first = (doc or "").split("\n", 1)[0]
    match = re.fullmatch(r"[\w.]*\((.*)\) -> (.+)", first)
    assert match, f"{where}: no pybind11 signature in its docstring: {first!r}"
    params, kind = [], "positional"
    for part in split_top_level(match.group(1)):
        if part == "/":
            for p in params:
                p.kind = "positional-only"
            continue
        if part == "*":
            kind = "keyword-only"
            continue
        head, _, default = part.partition(" = ")
        name, _, annotation = head.partition(": ")
        params.append(
            Param(
                name,
                kind,
                pybind_type(annotation) if annotation else None,
                ast.parse(default, mode="eval").body if default else None,
            )
        )
    return Signature(params, pybind_type(match.group(2)))


def stub_signature(f: Function) -> Signature:
    a = f.args
    assert a.vararg is None and a.kwarg is None, f"{f.name}: pybind11 functions take no *args"
    positional = [(x, "positional-only") for x in a.posonlyargs] + [(x, "positional") for x in a.args]
    defaults: list[Optional[ast.expr]] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = [Param(x.arg, k, x.annotation, d) for (x, k), d in zip(positional, defaults)]
    params += [Param(x.arg, "keyword-only", x.annotation, d) for x, d in zip(a.kwonlyargs, a.kw_defaults)]
    return Signature(params, f.returns)


def expand(node: ast.expr, aliases: dict[str, ast.expr]) -> ast.expr:
    """`node` with the stub's own type aliases written out."""
    if isinstance(node, ast.Name) and node.id in aliases:
        return expand(aliases[node.id], aliases)
    if isinstance(node, ast.Subscript):
        return ast.Subscript(expand(node.value, aliases), expand(node.slice, aliases), ast.Load())
    if isinstance(node, ast.Tuple):
        return ast.Tuple([expand(e, aliases) for e in node.elts], ast.Load())
    if isinstance(node, ast.BinOp):
        return ast.BinOp(expand(node.left, aliases), node.op, expand(node.right, aliases))
    return node


# pybind11's names for types it knows only by their class, and how the stub refines each.
REFINED = {"dict": "dict", "list": "list", "tuple": "tuple", "np.ndarray": "npt.NDArray"}


def same_type(runtime: ast.expr, stub: ast.expr) -> bool:
    """Whether the stub's type is pybind11's, or a refinement where pybind11 is vague."""
    r = ast.unparse(runtime)
    if r in ("Any", "object"):  # pybind11's word for a py::object result or argument
        return True
    if r in REFINED and isinstance(stub, ast.Subscript):
        return ast.unparse(stub.value) == REFINED[r]
    if isinstance(runtime, ast.Subscript) and isinstance(stub, ast.Subscript):
        r_args = runtime.slice.elts if isinstance(runtime.slice, ast.Tuple) else [runtime.slice]
        s_args = stub.slice.elts if isinstance(stub.slice, ast.Tuple) else [stub.slice]
        return (
            ast.unparse(runtime.value) == ast.unparse(stub.value)
            and len(r_args) == len(s_args)
            and all(same_type(x, y) for x, y in zip(r_args, s_args))
        )
    if isinstance(runtime, ast.BinOp) and isinstance(stub, ast.BinOp):
        return same_type(runtime.left, stub.left) and same_type(runtime.right, stub.right)
    return r == ast.unparse(stub)


def compare(runtime: Signature, stub: Signature, where: str, aliases: dict[str, ast.expr]) -> list[str]:
    """What differs between the two signatures, as messages."""
    r_names = [p.name for p in runtime.params]
    s_names = [p.name for p in stub.params]
    if r_names != s_names:
        return [f"{where}: parameters {r_names} at run time, {s_names} in the stub"]
    out = []
    for r, s in zip(runtime.params, stub.params):
        if r.kind != s.kind:
            out.append(f"{where}({r.name}): {r.kind} at run time, {s.kind} in the stub")
        if (r.default is None) != (s.default is None):
            out.append(f"{where}({r.name}): a default on one side only")
        elif (
            r.default is not None
            and s.default is not None
            and not is_ellipsis(s.default)
            and ast.literal_eval(r.default) != ast.literal_eval(s.default)
        ):
            out.append(f"{where}({r.name}): default {ast.unparse(r.default)} at run time")
        if s.annotation is None:
            out.append(f"{where}({r.name}): no type in the stub")
        elif r.annotation is not None and not same_type(r.annotation, expand(s.annotation, aliases)):
            out.append(
                f"{where}({r.name}): {ast.unparse(r.annotation)} at run time, "
                f"{ast.unparse(s.annotation)} in the stub"
            )
    if stub.returns is None or runtime.returns is None:
        out.append(f"{where}: no return type")
    elif not same_type(runtime.returns, expand(stub.returns, aliases)):
        out.append(
            f"{where}: returns {ast.unparse(runtime.returns)} at run time, "
            f"{ast.unparse(stub.returns)} in the stub"
        )
    return out


def is_ellipsis(node: Optional[ast.expr]) -> bool:
    """A stub's `= ...`: some default, not written out."""
    return isinstance(node, ast.Constant) and node.value is Ellipsis


def without_self(sig: Signature) -> Signature:
    """A method's signature without its first parameter (pybind11 names it self or arg0)."""
    assert sig.params, "a method takes self"
    return Signature(sig.params[1:], sig.returns)


def check_function(
    f: Function, runtime: Any, where: str, aliases: dict[str, ast.expr], method: bool
) -> list[str]:
    got, declared = runtime_signature(runtime.__doc__, where), stub_signature(f)
    if method:
        got, declared = without_self(got), without_self(declared)
    return compare(got, declared, where, aliases)


def check_property(stub_type: ast.expr, runtime: Any, where: str, aliases: dict[str, ast.expr]) -> list[str]:
    """A property declared as a plain attribute: readable and writable with that type."""
    if not isinstance(runtime, property) or runtime.fset is None:
        return [f"{where}: not a writable property at run time, as the stub says"]
    out = []
    got = runtime_signature(runtime.fget.__doc__, where).returns
    assert got is not None
    if not same_type(got, expand(stub_type, aliases)):
        out.append(f"{where}: reads {ast.unparse(got)} at run time, {ast.unparse(stub_type)} in the stub")
    setter = runtime_signature(runtime.fset.__doc__, where).params[-1].annotation
    assert setter is not None
    if not same_type(setter, expand(stub_type, aliases)):
        out.append(f"{where}: takes {ast.unparse(setter)} at run time, {ast.unparse(stub_type)} in the stub")
    return out


def stub_module() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"))


def stub_aliases(module: ast.Module) -> dict[str, ast.expr]:
    return {
        s.targets[0].id: s.value
        for s in module.body
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
    }


def _is_setter(f: Function) -> bool:
    return any(isinstance(d, ast.Attribute) and d.attr == "setter" for d in f.decorator_list)


def _has_setter(cls: ast.ClassDef, name: str) -> bool:
    return any(
        isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == name and _is_setter(m)
        for m in cls.body
    )


def signature_differences() -> list[str]:
    module = stub_module()
    aliases = stub_aliases(module)
    out: list[str] = []
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out += check_function(node, getattr(_core, node.name), node.name, aliases, method=False)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            cls = getattr(_core, node.name)
            for member in node.body:
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    where = f"{node.name}.{member.name}"
                    runtime = cls.__dict__[member.name]
                    if isinstance(runtime, property):
                        # A property that reads one type and takes another: @property, then
                        # @<name>.setter, each checked against its own side.
                        setter = _is_setter(member)
                        if runtime.fset is not None and not setter and not _has_setter(node, member.name):
                            out.append(
                                f"{where}: writable at run time; the stub should say `{member.name}: T` "
                                "or give it a setter"
                            )
                        elif setter and runtime.fset is None:
                            out.append(f"{where}: read-only at run time, the stub gives it a setter")
                            continue
                        runtime = runtime.fset if setter else runtime.fget
                    out += check_function(member, runtime, where, aliases, method=True)
                elif isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name):
                    where = f"{node.name}.{member.target.id}"
                    out += check_property(member.annotation, cls.__dict__[member.target.id], where, aliases)
    return out


def test_stub_signatures_match_the_bindings() -> None:
    assert signature_differences() == []


@pytest.mark.parametrize(
    ("old", "new", "caught"),
    [
        (
            "def check_invariants(self) -> list[str]",
            "def check_invariants(self) -> None",
            "GameState.check_invariants:",
        ),
        (
            "self, *, players: int, seed: int = 0",
            "self, players: int, seed: int = 0",
            "GameState.__init__(players)",
        ),
        (
            'private_info: str = "single") -> str',
            'private_info: str = "all") -> str',
            "GameState.information_state_string(",
        ),
        (
            "def boat_counts(space: int, rolls: int)",
            "def boat_counts(space: int, turns: int)",
            "boat_counts:",
        ),
        (
            "voyages: Sequence[Voyage], owners",
            "voyages: Sequence[Voyage | None], owners",
            "analyse_batch(voyages)",
        ),
        (
            "def start_triple(index: int) -> list[int]",
            "def start_triple(index: int) -> tuple[int, ...]",
            "start_triple:",
        ),
        (
            "def observation_layout(players: int) -> list[",
            "def observation_layout(players: int) -> tuple[",
            "observation_layout:",
        ),
        (
            ") -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:",
            ") -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64]]:",
            "reachable:",
        ),
        (
            "    def num_players(self) -> int: ...\n",
            "    def num_players(self) -> int: ...\n    phase: str\n",
            "GameState.phase:",
        ),
        ("    state: int\n", "    state: str\n", "Rng.state:"),
        (
            "    rng_state: int\n",
            "    @property\n    def rng_state(self) -> int: ...\n",
            "GameState.rng_state:",
        ),
    ],
)
def test_a_drifted_stub_is_caught(monkeypatch: pytest.MonkeyPatch, old: str, new: str, caught: str) -> None:
    # The comparison itself must be able to fail: each edit makes one entry of the stub wrong.
    text = STUB.read_text(encoding="utf-8")
    assert old in text
    monkeypatch.setattr(sys.modules[__name__], "stub_module", lambda: ast.parse(text.replace(old, new, 1)))
    assert any(d.startswith(caught) for d in signature_differences())

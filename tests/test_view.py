"""A player's view hides the others' face-down shares: every public method and property
of ``PlayerView``, and everything they return, is the same in two games that differ only
in the shares dealt face down to the other players."""

from __future__ import annotations

import inspect
import numbers
import re
from typing import Any

import numpy as np
import pytest

from helpers.hidden import others_shares, reshuffle_others
from helpers.states import SeededDraws
from manila import _core
from manila.bots import bots_for
from manila.game import Game, State, play
from manila.view import PlayerView

# Values for every parameter a public method of the view takes; a new parameter must be
# added here, or the test fails (so that a new method cannot escape the walk).
ARGUMENTS: dict[str, Any] = {
    "objective": ["income", "wealth"],
    "exact": [False, True],
    "threads": [1],
    "out": [None],
    "bot": list(_core.CORE_BOTS),
    "rng": ["fresh"],
    "player": [None, "me"],
}
# Objects from which the deal could be read or replayed: the full state, the engine's
# state, and the game (its seed replays the deal).
FORBIDDEN = (State, _core.GameState, Game)
ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def changed_deal(game: Game, history: list[int], viewer: int) -> list[int] | None:
    """The same history with the other players' face-down deals shuffled among them so that
    at least one of them holds other shares; None if no shuffle changes anything."""
    for seed in range(50):
        other = reshuffle_others(history, game.players, viewer, SeededDraws(seed))
        if others_shares(game, other, viewer) != others_shares(game, history, viewer):
            return other
    return None


def replay(game: Game, history: list[int]) -> State:
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


def call_variants(view: PlayerView, name: str, member: Any) -> list[tuple[str, Any]]:
    """(label, result) for every way the walk calls a public method of the view."""
    params = [p for p in inspect.signature(member).parameters.values()]
    combos: list[dict[str, Any]] = [{}]
    for p in params:
        if p.name == "action":
            values: list[Any] = view.legal_actions() or [0]
        elif p.name in ARGUMENTS:
            values = ARGUMENTS[p.name]
        elif p.default is not inspect.Parameter.empty:
            values = [p.default]
        else:
            pytest.fail(f"PlayerView.{name}: add its parameter {p.name!r} to ARGUMENTS")
        combos = [{**c, p.name: v} for c in combos for v in values]
    out = []
    for kwargs in combos:
        args = {
            k: (_core.Rng(5) if v == "fresh" else view.player if v == "me" else v) for k, v in kwargs.items()
        }
        try:
            result = member(**args)
        except ValueError as exc:  # a refusal is an answer too, and must not differ
            result = ("refused", str(exc))
        out.append((f"{name}({kwargs})", result))
    return out


def flatten(value: Any, path: str, seen: set[int], depth: int = 0) -> list[tuple[str, Any]]:
    """Everything reachable from a returned value, as comparable leaves."""
    assert not isinstance(value, FORBIDDEN), f"{path} hands out {type(value).__name__}"
    if isinstance(value, str):
        return [(path, ADDRESS.sub(" at <address>", value))]  # pybind11's default repr
    if value is None or isinstance(value, numbers.Number):
        return [(path, value)]
    if isinstance(value, np.ndarray):
        return [(path, value.tolist())]
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in flatten(v, f"{path}[{k!r}]", seen, depth + 1)]
    if isinstance(value, (list, tuple)):
        return [leaf for i, v in enumerate(value) for leaf in flatten(v, f"{path}[{i}]", seen, depth + 1)]
    if id(value) in seen or depth > 6:
        return []
    seen.add(id(value))
    leaves: list[tuple[str, Any]] = [(f"{path}:type", type(value).__name__)]
    for attr in dir(value):
        if attr.startswith("_") and attr not in ("__str__", "__repr__"):
            continue
        try:
            member = getattr(value, attr)
        except Exception as exc:  # a property that refuses is an answer
            leaves.append((f"{path}.{attr}", repr(exc)))
            continue
        if callable(member):
            try:
                required = [
                    p
                    for p in inspect.signature(member).parameters.values()
                    if p.default is inspect.Parameter.empty
                    and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                ]
            except (TypeError, ValueError):
                continue
            if required or inspect.isclass(member):
                continue
            try:
                member = member()
            except Exception as exc:
                leaves.append((f"{path}.{attr}()", repr(exc)))
                continue
        leaves += flatten(member, f"{path}.{attr}", seen, depth + 1)
    return leaves


def everything(view: PlayerView) -> dict[str, Any]:
    """Every public method and property of the view, called every way, flattened."""
    out: dict[str, Any] = {}
    for name in dir(view):
        if name.startswith("_") and name not in ("__str__", "__repr__"):
            continue
        member = getattr(view, name)
        results = call_variants(view, name, member) if callable(member) else [(name, member)]
        for label, result in results:
            for path, leaf in flatten(result, label, set()):
                out[path] = leaf
    return out


def moments(players: int, seed: int, every: int) -> list[tuple[Game, list[int], int]]:
    """(game, history up to a decision, the player to decide) along a greedy game."""
    game = Game(players=players, seed=seed)
    final = play(game, bots_for(["greedy"] * players, seed))
    history = final.history()
    out = []
    state = game.new_initial_state()
    for k, a in enumerate(history):
        if not state.is_chance_node() and k % every == 0:
            out.append((game, history[:k], state.current_player()))
        state.apply_action(a)
    return out


CASES = [m for players, seed in [(3, 1), (4, 2), (5, 3)] for m in moments(players, seed, every=17)]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_view_shows_nothing_of_the_others_face_down_shares(case):
    game, history, viewer = CASES[case]
    other_history = changed_deal(game, history, viewer)
    if other_history is None:
        pytest.skip("the other players were dealt the same goods")  # never with these seeds
    state, other = replay(game, history), replay(game, other_history)
    assert state.to_dict() != other.to_dict()  # the referee sees the difference
    seen, seen_other = everything(PlayerView(state, viewer)), everything(PlayerView(other, viewer))
    assert seen.keys() == seen_other.keys()
    differ = [path for path in seen if seen[path] != seen_other[path]]
    assert not differ, f"p{viewer}'s view reveals the others' face-down shares through {differ[:5]}"


def test_the_walk_reaches_every_public_member():
    view = PlayerView(*[replay(CASES[5][0], CASES[5][1]), CASES[5][2]])
    walked = {path.split("(")[0].split("[")[0].split(".")[0].split(":")[0] for path in everything(view)}
    public = {n for n in dir(view) if not n.startswith("_")}
    assert public <= walked
    assert {"evaluate", "voyage_state", "position", "observation", "builtin_move"} <= public


def test_a_seat_is_handed_only_its_view():
    handed = []

    class Spy:
        def step(self, view):
            handed.append(type(view))
            return view.legal_actions()[0]

    game = Game(players=3, seed=4)
    play(game, [Spy(), Spy(), Spy()])
    assert handed and set(handed) == {PlayerView}


def reachable(root: Any) -> list[Any]:
    """Every object reachable from ``root`` through attributes, slots and containers (the
    Python side; an engine object is reached as a whole)."""
    seen: dict[int, Any] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, str, bytes, numbers.Number, type(None))):
            continue
        if inspect.ismodule(obj) or inspect.isroutine(obj):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, dict):
            todo += [*obj.keys(), *obj.values()]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo += list(obj)
        for cls in type(obj).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if hasattr(obj, slot):
                    todo.append(getattr(obj, slot))
        todo += list(getattr(obj, "__dict__", {}).values())
    return list(seen.values())


def contents(obj: Any) -> Any:
    """What an engine-backed object holds, in full (the referee's view of it)."""
    if isinstance(obj, State):
        return ("State", obj.serialize(), obj.to_dict(), contents(obj.game))
    if isinstance(obj, _core.GameState):
        return ("GameState", obj.__getstate__(), obj.to_string(), obj.seed, obj.rng_state)
    if isinstance(obj, Game):
        return ("Game", obj.players, obj.seed, obj.rules)
    return type(obj).__name__


@pytest.mark.parametrize("case", range(0, len(CASES), 3))
def test_nothing_of_the_referee_is_reachable_from_a_view(case):
    # Private attributes included: whatever the view holds is the same in two games that
    # differ only in the others' face-down shares, and none of it is the referee's.
    game, history, viewer = CASES[case]
    other_history = changed_deal(game, history, viewer)
    assert other_history is not None
    state, other = replay(game, history), replay(game, other_history)
    views = PlayerView(state, viewer), PlayerView(other, viewer)
    held = [reachable(v) for v in views]
    referee = {id(x) for s in (state, other) for x in (s, s._s, s.game)}
    assert not referee & {id(x) for x in held[0] + held[1]}
    engine = [[contents(x) for x in h if isinstance(x, FORBIDDEN)] for h in held]
    assert engine[0], "the view holds its own engine state"
    assert engine[0] == engine[1], f"p{viewer}'s view holds something of the face-down deal"
    assert all(x.seed == 0 for x in held[0] if isinstance(x, Game))
    # And the state it holds is a state the rules allow: it plays on as the referee's does.
    assert all(not x.invariant_problems() for x in held[0] if isinstance(x, State))

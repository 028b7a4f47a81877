"""What the contract tests send (tests/test_contract.py to the engine's call in Python,
tests/test_wasm.py to the same call in WebAssembly): bodies for every POST route the two
readers share, valid and broken, and the Python server's answers to them."""

from __future__ import annotations

import copy
import functools
import http.client
import json
import random
import re
import string
from typing import Callable

from hypothesis import strategies as st

from helpers.states import GOODS, PLAYERS, SPOTS, states, wealth_states
from manila import _core
from manila.analysis.analysis import HORIZONS, POLICIES, VALUE_SOURCES
from manila.common.vocab import PLAYER_COUNTS
from manila.game import Game, State
from manila.game.engine import ACTION_NAMES
from manila.server.openapi import ANALYSIS_MAX_ROLLOUTS, REVIEW_KEYS, REVIEW_MAX_ROLLOUTS, VALUE_MAX_ROLLOUTS
from manila.voyage.state import VoyageState

ROUTES = ("/v1/validate", "/v1/evaluate", "/v1/advise")  # the voyage routes
STATE_KEYS = ("rules", "next_roll", "player", "players", "boats", "spots", "objective", "shares")
STATE_KEYS += ("prices", "budget", "exact", "strict", "version", "notation", "moment")
MOMENT_KEYS = ("kind", "order", "to_move", "accomplices", "declined", "protected")
KINDS = ("placement", "pilot_small", "pilot_large", "boarding")
NAMES = GOODS + SPOTS + STATE_KEYS + MOMENT_KEYS + KINDS
NAMES += ("position", "crew", "thirteen_after_last_roll", "pirate_variant", "good", "seat")
NAMES += ("port", "shipyard", "income", "wealth", "arrived", "player", "players", "thirteen")


# An analysis's or a review's timing: the one part of an answer that may differ between the two.
SECONDS = re.compile(r'"seconds": [-+.e0-9]+(?=[,}])')


def timeless(route: str, answer: tuple[int, str]) -> tuple[int, str]:
    """The answer with an analysis's or a review's "seconds" set to 0 (nothing else of it is
    touched: a string in it has its quotes escaped)."""
    status, text = answer
    if route in ("/v1/analyse", "/v1/review") and status == 200:
        text = SECONDS.sub('"seconds": 0', text, count=1)
    return status, text


def served(conn: http.client.HTTPConnection, route: str, body: bytes) -> tuple[int, str]:
    """The server's status and answer text for a POST of ``body`` to ``route``."""
    conn.request("POST", route, body=body, headers={"Content-Type": "application/json"})
    res = conn.getresponse()
    return res.status, res.read().decode("utf-8")


# --------------------------------------------------------------------------- strategies


@st.composite
def misspelt(draw: st.DrawFn) -> str:
    """A name of the contract, often misspelt: a letter dropped, doubled or changed."""
    name = draw(st.sampled_from(NAMES))
    edit = draw(st.integers(0, 4))
    if edit == 0 or len(name) < 2:
        return name
    i = draw(st.integers(0, len(name) - 1))
    if edit == 1:
        return name[:i] + name[i + 1 :]
    if edit == 2:
        return name[:i] + name[i] + name[i:]
    if edit == 3:
        return name[:i] + draw(st.sampled_from(string.ascii_lowercase + "_ ")) + name[i + 1 :]
    return name.upper()


names = st.one_of(
    misspelt(),
    st.sampled_from(PLAYERS + ("", " ", "\t", "\u3000", "a b", 'q"t', "it's", "é", "\x7f")),
    st.text(max_size=6),
    st.text(max_size=300, alphabet="ab"),  # difflib's rule for long words (200 or more)
)
numbers = st.one_of(
    st.integers(-3, 40),
    st.sampled_from((0, 1, 2, 3, 4, 5, 13, 14, 20, 30, 10_000, 10_240, 10_241, 2**31, 2**63, -(2**63) - 1)),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from((0.0, -0.0, 1.0, 3.0, 1e16, 1e-5, 0.0001, 2.5, 1e300)),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, names)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=3)),
    max_leaves=6,
)


def paths(data: object, at: tuple = ()) -> list[tuple]:
    """Every place in a JSON value, the value itself first."""
    out = [at]
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths(v, (*at, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths(v, (*at, i))
    return out


@st.composite
def broken(draw: st.DrawFn, good: st.SearchStrategy) -> object:
    """A valid value with one to three of its fields replaced, removed or added."""
    data = draw(good)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(data)))
        if not where:
            if draw(st.integers(0, 9)) == 0:
                data = draw(values)
            continue
        *up, last = where
        parent = data
        for step in up:
            parent = parent[step]
        action = draw(st.integers(0, 3))
        if action == 0 and isinstance(parent, dict):
            del parent[last]
        elif action == 1 and isinstance(parent, dict):
            parent[draw(names)] = draw(values)
        elif action == 2 and isinstance(parent, list):
            parent.append(draw(values))
        else:
            parent[last] = draw(values)
    return data


@st.composite
def crowded(draw: st.DrawFn) -> dict:
    """A valid state with more owners, accomplices or shares than a game allows, or an
    unreachable board: the limits that need the whole state to see."""
    state = draw(st.one_of(states(), wealth_states()))
    owners = st.sampled_from(PLAYERS + ("x", "y", "z", "w"))
    for spot in draw(st.lists(st.sampled_from(SPOTS), max_size=8)):
        state["spots"][spot] = draw(owners)
    for boat in state["boats"].values():
        if draw(st.booleans()):
            boat["crew"] = draw(st.lists(owners, max_size=4))
        if draw(st.booleans()):
            boat["position"] = draw(st.one_of(st.integers(0, 13), st.just("arrived")))
    if draw(st.booleans()):
        state["shares"] = draw(
            st.dictionaries(owners, st.dictionaries(st.sampled_from(GOODS), st.integers(0, 4)), max_size=7)
        )
        state["budget"] = draw(st.dictionaries(owners, st.integers(0, 30), max_size=7))
    if draw(st.booleans()):
        state["players"] = draw(st.sampled_from((3, 4, 5)))
    if draw(st.booleans()):
        state["strict"] = draw(st.booleans())
    return state


@st.composite
def positions(draw: st.DrawFn, base: st.SearchStrategy | None = None) -> dict:
    """Positions: a state and a moment, often one that does not fit it."""
    state = draw(base or st.one_of(states(next_roll=3), states(), wealth_states(next_roll=3)))
    owners = sorted({o for b in state["boats"].values() for o in b["crew"]} | set(state["spots"].values()))
    kind = draw(st.sampled_from(KINDS))
    moment: dict = {"kind": kind}
    if kind == "placement":
        # Early in a voyage a long round is a long search: three players at most there.
        most = 5 if state["next_roll"] == 3 else 3
        pool = owners + [p for p in PLAYERS if p not in owners]
        order = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=most, unique=True))
        moment["order"] = order
        moment["to_move"] = draw(st.sampled_from(order))
        if draw(st.booleans()):
            moment["accomplices"] = draw(
                st.dictionaries(st.sampled_from(order), st.integers(0, 4), max_size=3)
            )
        if draw(st.booleans()):
            moment["declined"] = draw(st.lists(st.sampled_from(order), max_size=2, unique=True))
    else:
        if draw(st.booleans()) and owners:
            moment["to_move"] = draw(st.sampled_from(owners))
        if kind == "boarding" and draw(st.booleans()):
            moment["protected"] = {"good": draw(st.sampled_from(GOODS)), "seat": draw(st.integers(1, 4))}
            if draw(st.booleans()):
                state["boats"][draw(st.sampled_from(list(state["boats"])))]["position"] = 13
    state["moment"] = moment
    return state


def encode(data: object, ascii_only: bool) -> bytes:
    """JSON as a client would send it (non-ASCII escaped or not; a lone surrogate always)."""
    try:
        return json.dumps(data, ensure_ascii=ascii_only).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data).encode("utf-8")


# --------------------------------------------------------------------------- requests
# Each strategy below draws requests: (route, body bytes) pairs.


@st.composite
def state_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """Valid states (any board: strict false), to be validated and evaluated."""
    state = draw(st.one_of(states(), wealth_states()))
    state["strict"] = False
    if draw(st.booleans()):
        state["exact"] = True
    return [(draw(st.sampled_from(ROUTES[:2])), encode(state, False))]


@st.composite
def broken_state_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """States broken field by field, or past a limit that needs the whole state to see."""
    base = st.one_of(states(), wealth_states())
    if draw(st.booleans()):
        base = base.map(lambda s: {**s, "strict": False})
    state = draw(st.one_of(broken(base), crowded()))
    return [(draw(st.sampled_from(ROUTES[:2])), encode(state, draw(st.booleans())))]


@st.composite
def position_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """Positions, as given and broken, to be advised on."""
    position = draw(st.one_of(positions(), broken(positions())))
    if isinstance(position, dict):
        if draw(st.booleans()):
            position["strict"] = False
        if draw(st.booleans()):
            position["exact"] = True
    return [("/v1/advise", encode(position, False))]


@st.composite
def notation_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """Bodies in the notation: as str(state) writes them, then edited character by
    character; to every route."""
    state = draw(st.one_of(states(), wealth_states(), crowded(), positions()))
    moment = state.pop("moment", None)
    try:
        text = str(VoyageState.from_dict(state, strict=False))
    except ValueError:
        text = "r1 ginseng@3 silk@2 nutmeg@4"
    if moment:
        text += " turn=" + str(moment.get("to_move", "")) + " order=" + ",".join(moment.get("order", []))
    pieces = ('"', ",", ":", "=", "@", " ", "r", "9" * 30, "x", "é", "\\", "")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(pieces)) + text[i + draw(st.integers(0, 2)) :]
    body: dict = {"notation": text}
    for key in ("exact", "strict"):
        if draw(st.booleans()):
            body[key] = draw(st.one_of(st.booleans(), scalars))
    if draw(st.integers(0, 5)) == 0:
        body[draw(names)] = draw(values)
    return [(route, encode(body, False)) for route in ROUTES]


@st.composite
def text_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """Text that is not quite JSON (or not UTF-8): the same reason at the same place."""
    value = draw(st.one_of(states(), positions(), values))
    text = json.dumps(value, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from((None, 1))))
    pieces = (
        '"',
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\\",
        "\\u12",
        "\\ud800",
        "\\udc00",
        "-",
        "0",
        "1e",
        ".",
        "e5",
    )
    pieces += ("E+", "NaN", "Infinity", "-Infinity", "nul", "true", "\n", "\t", "\x01", "\ufeff", " ", "")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(pieces)) + text[i + draw(st.integers(0, 2)) :]
    raw = text.encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        bad = draw(st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80")))
        raw = raw[: draw(st.integers(0, len(raw)))] + bad
    return [(draw(st.sampled_from(ROUTES)), raw)]


@st.composite
def game_states(draw: st.DrawFn) -> State:
    """A game played at random to some point (chance by its own generator)."""
    rules = draw(st.sampled_from((None, {"pirate_variant": True}, {"thirteen_after_last_roll": "shipyard"})))
    state = Game(
        draw(st.sampled_from((3, 4, 5))), seed=draw(st.integers(0, 2**64 - 1)), rules=rules
    ).new_initial_state()
    moves = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 400))):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance()
        else:
            state.apply_action(moves.choice(state.legal_actions()))
    while state.is_chance_node():  # a table is a player's decision
        state.apply_chance()
    return state


@st.composite
def value_bodies(draw: st.DrawFn) -> dict:
    """A value's body: a player's view (as JSON, or as its text) or a serialized state."""
    state = draw(game_states())
    form = draw(st.integers(0, 2))
    viewer = draw(st.integers(0, state.game.players - 1))
    table: object = state.to_json() if form == 1 else state.observation(viewer)
    if form == 2:
        table = json.dumps(table)
    body: dict = {"table": table}
    # A few play-outs: a value in the middle of a voyage plays out hundreds by default.
    body["rollouts"] = draw(st.integers(1, 4))
    if draw(st.booleans()):
        body["seed"] = draw(st.one_of(st.integers(0, 9), st.integers(0, 2**64 - 1)))
    if draw(st.booleans()):
        body["policy"] = draw(st.sampled_from(POLICIES))
    return body


@st.composite
def value_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """Values of tables and serialized states, as given and broken (the body's options,
    a table's fields, a record's history)."""
    body = draw(st.one_of(value_bodies(), broken(value_bodies())))
    if isinstance(body, dict):
        # Many play-outs take seconds (the server would answer 503 past its time limit).
        count = body.get("rollouts")
        if isinstance(count, int) and not isinstance(count, bool) and 8 < count <= VALUE_MAX_ROLLOUTS:
            body["rollouts"] = 3
        if "rollouts" not in body:
            body["rollouts"] = 2
    return [("/v1/value", encode(body, False))]


# The decisions an analysis values (engine's decision_kind), which games played at random
# are stopped at.
DECISIONS = ("auction", "harbour_master", "placement", "pilot_small", "pilot_large", "boarding", "plunder")


@st.composite
def game_at_decision(draw: st.DrawFn) -> State:
    """A game played at random up to a decision of a drawn kind, some of them passed by (or
    to its end, or further than a game goes, when it never comes)."""
    kind = draw(st.sampled_from(DECISIONS))
    rules = draw(st.sampled_from((None, {"pirate_variant": True}, {"thirteen_after_last_roll": "shipyard"})))
    state = Game(
        draw(st.sampled_from((3, 4, 5))), seed=draw(st.integers(0, 2**64 - 1)), rules=rules
    ).new_initial_state()
    moves = random.Random(draw(st.integers(0, 2**32)))
    skip = draw(st.sampled_from((0, 1, 2, 4, 8, 12)))
    for _ in range(draw(st.sampled_from((3000, 3000, 3000, 40)))):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance()
            continue
        if _core.decision_kind(state._s) == kind:
            if skip == 0:
                break
            skip -= 1
        state.apply_action(moves.choice(state.legal_actions()))
    return state


@st.composite
def analysis_bodies(draw: st.DrawFn) -> dict:
    """An analysis's body: a table (a player's view, often the decider's, as JSON or as its
    text) or a serialized state, and options drawn so that it takes milliseconds: a few
    rollouts, a few bids and harbour master's combinations, the slow solver policy and play
    to the game's end seldom."""
    state = draw(game_at_decision())
    form = draw(st.integers(0, 3))
    players = state.game.players
    decider = state.current_player()
    viewer = decider if 0 <= decider < players and draw(st.booleans()) else draw(st.integers(0, players - 1))
    table: object = state.to_json() if form == 1 else state.observation(viewer)
    if form == 2:
        table = json.dumps(table)
    body: dict = {"table": table}
    policy = draw(
        st.sampled_from(("greedy", "greedy", "greedy-wealth", "greedy-wealth", "greedy-wealth", "solver"))
    )
    assert policy in POLICIES
    slow = policy == "solver"
    if slow or draw(st.booleans()):
        body["policy"] = policy
    body["rollouts"] = draw(st.integers(1, 2 if slow else 8))
    if draw(st.integers(0, 2)) == 0:
        body["horizon"] = HORIZONS[1]
        if not slow and draw(st.integers(0, 3)) == 0:
            body["value"] = VALUE_SOURCES[1]  # to the game's end
        elif draw(st.booleans()):
            body["value"] = VALUE_SOURCES[0]
    elif draw(st.booleans()):
        body["horizon"] = HORIZONS[0]
    if draw(st.booleans()):
        body["seed"] = draw(st.one_of(st.integers(0, 9), st.integers(0, 2**64 - 1)))
    if draw(st.integers(0, 3)) == 0:
        body["exact"] = draw(st.booleans())
    if slow or draw(st.integers(0, 3)):
        body["max_bids"] = draw(st.integers(1, 4))
    if slow or draw(st.integers(0, 3)):
        body["screen"] = draw(st.integers(1, 6))
    if draw(st.integers(0, 4)) == 0:
        body["time_limit"] = draw(st.sampled_from((0, 0.5, 8, 8.0, 9, 30.5, 10**30, 1e300)))
    return body


# The short finished games the reviews take: (players, bots, seed) of simulate, each game
# over in 4 or 5 voyages (110 to 140 actions).
REVIEW_GAMES = ((3, "random", 8), (4, "random", 8), (3, "greedy", 1), (5, "random", 3))


@functools.cache
def review_record(k: int) -> str:
    from manila.arena.simulate import simulate

    players, bots, seed = REVIEW_GAMES[k]
    out: list[dict] = []
    simulate(players=players, games=1, bots=bots, seed=seed, record=out.append)
    return json.dumps(out[0])


# Whole reviews both tests send (a 3-player game at horizon voyage, a 4-player one at game):
# every decision's class and table, every event's luck, the summaries and their words.
WHOLE_REVIEWS = (
    (0, {"horizon": "voyage", "luck_rollouts": 2, "seed": 3}),
    (1, {"policy": "greedy", "quick": False}),
)


def whole_review(k: int) -> bytes:
    game, options = WHOLE_REVIEWS[k]
    return json.dumps({"record": json.loads(review_record(game)), "rollouts": 2, **options}).encode()


@st.composite
def review_bodies(draw: st.DrawFn) -> dict:
    """A review's body: a short finished game (its record, the record as JSON text, or a
    State.serialize()) with few rollouts and the options drawn."""
    record = json.loads(review_record(draw(st.integers(0, len(REVIEW_GAMES) - 1))))
    form = draw(st.integers(0, 2))
    if form == 1:  # State.serialize(): no "voyages", "bots" or "actions"
        record = {
            k: v for k, v in record.items() if k in ("game", "version", "players", "seed", "rules", "history")
        }
    body: dict = {"record": json.dumps(record) if form == 2 else record}
    body["rollouts"] = 2
    body["luck_rollouts"] = draw(st.integers(0, 2))
    for key, choices in (
        ("horizon", ("game", "voyage")),
        ("policy", ("greedy", "greedy-wealth")),
        ("value", ("learned", "rollout")),
        ("quick", (True, False)),
        ("exact", (True, False)),
        ("seed", (0, 7, 2**64 - 1)),
    ):
        if draw(st.integers(0, 2)) == 0:
            body[key] = draw(st.sampled_from(choices))
    return body


@st.composite
def analysis_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """Analyses of tables and serialized states at every kind of decision, as given and
    broken (the body's options, a table's fields, a record's history)."""
    body = draw(st.one_of(analysis_bodies(), broken(analysis_bodies())))
    if isinstance(body, dict):
        # Without rollouts, or with many, an analysis takes up to the time limit: the answers
        # would depend on the clock. A broken option may undo what kept it quick: keep it so.
        count = body.get("rollouts")
        if not whole(count) or 8 < count <= ANALYSIS_MAX_ROLLOUTS:
            body["rollouts"] = 2
        slow = body.get("policy") == "solver" or body.get("value") == VALUE_SOURCES[1]
        if slow:
            body["rollouts"] = 1
        for key in ("max_bids", "screen"):
            n = body.get(key)
            if (whole(n) and (n == 0 or n > 6)) or (slow and n is None):
                body[key] = 3
    return [("/v1/analyse", encode(body, False))]


def whole(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool)


@st.composite
def review_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """Reviews of short finished games, as given and broken: the record's fields and
    history (cut short, illegal actions), the body's keys and options (types, bounds)."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        body = draw(review_bodies())
    elif kind == 1:
        body = draw(broken(review_bodies()))
    else:  # one option of the body replaced, or an unknown key added
        body = draw(review_bodies())
        key = draw(st.one_of(st.sampled_from(REVIEW_KEYS), misspelt()))
        body[key] = draw(st.one_of(values, st.sampled_from((1, 2, 3, 64, 65, -1, 2**64, 1.5, "game", None))))
        record = body.get("record")
        if kind == 3 and isinstance(record, dict) and isinstance(record.get("history"), list):
            record["history"] = record["history"][: draw(st.integers(0, 120))]  # cut short
    if isinstance(body, dict):
        # Many rollouts take seconds (and with none given, the stop rule's time limit makes
        # the answer depend on the clock): a review here is one of two rollouts.
        for key, fixed in (("rollouts", 2), ("luck_rollouts", 1)):
            n = body.get(key)
            if n is None or (isinstance(n, int) and not isinstance(n, bool) and 2 < n <= REVIEW_MAX_ROLLOUTS):
                body[key] = fixed
        # Part 4's exact answers for five players take seconds a voyage.
        record = body.get("record")
        if isinstance(record, dict) and record.get("players") == 5 and body.get("horizon") == "voyage":
            body["exact"] = False
    return [("/v1/review", encode(body, False))]


# The strategies by format, for the tests to name.
REQUESTS = {
    "reviews": review_requests(),
    "values": value_requests(),
    "states": state_requests(),
    "broken_states": broken_state_requests(),
    "positions": position_requests(),
    "notation": notation_requests(),
    "json_text": text_requests(),
    "analyses": analysis_requests(),
}
# A review takes longer than the other routes' work (a second or so): the tests draw fewer.
FEWER_EXAMPLES = {"reviews": 10}
# A request of the forms whose draws the engine seldom accepts (a position about one draw
# in seventy, a garbled notation one in twenty), which it does: every run reaches its answer.
_BOARD = "r1 ginseng@3 silk@2 nutmeg@4"
ACCEPTED = {
    "notation": [(route, encode({"notation": _BOARD}, False)) for route in ROUTES],
    "positions": [
        (
            "/v1/advise",
            encode(
                {
                    "next_roll": 1,
                    "player": "p0",
                    "boats": {
                        good: {"position": at, "crew": []}
                        for good, at in (("ginseng", 3), ("silk", 2), ("nutmeg", 4))
                    },
                    "moment": {"kind": "placement", "order": ["p0", "p1", "p2"], "to_move": "p0"},
                },
                False,
            ),
        )
    ],
}


def played(players: int, seed: int, stop: Callable[[State], bool]) -> State:
    """A game played at random (its moves from ``seed`` too) until ``stop`` says so."""
    state = Game(players, seed=seed).new_initial_state()
    moves = random.Random(seed)
    while not stop(state) and not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
        else:
            state.apply_action(moves.choice(state.legal_actions()))
    return state


def _deciding(kind: str, last_round: bool = False) -> Callable[[State], bool]:
    def stop(s: State) -> bool:
        return (
            s.is_player_node()
            and _core.decision_kind(s._s) == kind
            and (not last_round or s.to_dict()["next_roll"] == 3)
        )

    return stop


def _analyse_body(table: object, **options: object) -> tuple[str, bytes]:
    return ("/v1/analyse", json.dumps({"table": table, **options}).encode())


_LAST_ROUND = played(4, 3, _deciding("placement", last_round=True))
_DECIDER = _LAST_ROUND.current_player()
_PILOT = played(3, 4, _deciding("pilot_large"))

# Bodies at the edges of what the readers take, each for a reason the generators rarely hit.
EDGES = [
    ("/v1/nothing", b"{}"),  # no such route
    ("/v1/" + "x" * 300, b"{}"),  # ... named in its first 200 characters
    ("/v1/evaluate", b""),
    ("/v1/evaluate", " \u3000\n".encode()),  # blank as Python's str.strip sees it
    ("/v1/evaluate", b"\xef\xbb\xbf{}"),  # a byte-order mark
    ("/v1/evaluate", b"[1, 2]"),
    ("/v1/evaluate", b'"r1 ginseng@3"'),
    # Numbers past int()'s 4300 digits: in a notation, and in JSON.
    ("/v1/validate", b'{"notation": "r1 ginseng@3 silk@2 nutmeg@4 prices=jade' + b"9" * 5000 + b'"}'),
    ("/v1/evaluate", b'{"notation": "r' + b"1" * 4301 + b' ginseng@3"}'),
    ("/v1/evaluate", b'{"next_roll": ' + b"1" * 4301 + b"}"),
    ("/v1/evaluate", b'{"next_roll": -' + b"1" * 4300 + b"}"),
    ("/v1/evaluate", b'{"next_roll": 1e400, "boats": {"silk": {"position": -0.0}}}'),
    ("/v1/evaluate", b'{"shares": {"a": {"jade": ' + b"9" * 40 + b', "silk": 1}, "b": {"jade": 3}}}'),
    # Pilots and boarding, which the generated positions reach less often.
    ("/v1/advise", b'{"notation": "r3 ginseng@13:a silk@9 jade@10 pirate_1=b moment=boarding"}'),
    (
        "/v1/advise",
        b'{"notation": "r3 ginseng@13:a,c,d silk@13:e jade@10 pirate_1=b pirate_2=c '
        b'moment=boarding turn=b protect=ginseng:2 variant"}',
    ),
    (
        "/v1/advise",
        b'{"notation": "r3 ginseng@12:a silk@9 jade@10 pilot_small=b moment=pilot_small", "exact": true}',
    ),
    ("/v1/advise", b'{"notation": "r3 ginseng@12:a silk@9 jade@10 pilot_large=b moment=pilot_large"}'),
    # More owners than the engine holds (strict false lets them through to it): its refusal.
    (
        "/v1/evaluate",
        b'{"next_roll": 3, "boats": {"jade": {"position": 1}, "silk": {"position": 2}, '
        b'"ginseng": {"position": 6}}, "strict": false, "budget": {'
        + b", ".join(b'"o%d": 1' % i for i in range(70))
        + b"}}",
    ),
    # A fresh player (no "player") beside 63 owners, and beside 64, which the engine holds
    # no more of (fuzz_wasm found the evaluator reading past its owner arrays there).
    *(
        (
            "/v1/evaluate",
            b'{"next_roll": 3, "boats": {"jade": {"position": 1}, "silk": {"position": 2}, '
            b'"ginseng": {"position": 6}}, "strict": false, "budget": {'
            + b", ".join(b'"o%d": 1' % i for i in range(n))
            + b"}}",
        )
        for n in (63, 64)
    ),
    # Misspelt names that a later pass suggests (voyage/suggest.py).
    ("/v1/evaluate", b'{"notation": "r1 ginseng@3 silk@2 nutmeg@4 playr=a thirten=port"}'),
    (
        "/v1/evaluate",
        b'{"next_roll": 1, "boats": {"silk": {"positon": 2, "crw": []}}, "rules": {"pirat_variant": 1}}',
    ),
    ("/v1/evaluate", b'{"notation": "r1 silk@2", "exct": true}'),
    ("/v1/evaluate", b'{"next_roll": 1, "boats": {"a.crw": {}}, "extra_owner": 1}'),
    # Reviews: a record that is no game, cut short, or not JSON; the server's bounds.
    ("/v1/review", b"[]"),
    ("/v1/review", b'{"horizon": "game"}'),
    ("/v1/review", b'{"record": null}'),
    ("/v1/review", b'{"record": "{\\"history\\": [1,"}'),
    ("/v1/review", b'{"record": "NaN"}'),
    ("/v1/review", b'{"record": {"history": [1141, 1140]}, "rollouts": 2}'),
    ("/v1/review", b'{"record": {"players": 3, "history": []}, "rollouts": 2}'),
    ("/v1/review", b'{"record": {}, "rollouts": 65}'),
    ("/v1/review", b'{"record": {}, "luck_rollouts": 1e3}'),
    ("/v1/review", b'{"record": {}, "rollouts": 1, "seed": -1}'),
    ("/v1/review", b'{"record": {}, "quick": "yes", "horizon": "voyage"}'),
    ("/v1/review", b'{"record": {}, "policy": "expert"}'),
    ("/v1/review", b'{"record": {}, "horizon": "week"}'),
    ("/v1/review", b'{"record": {}, "value": null}'),
    ("/v1/review", b'{"record": {}, "exact": 1}'),
    ("/v1/review", b'{"record": {}, "max_rollouts": 2}'),
    ("/v1/review", b'{"record": ' + review_record(2).encode() + b', "luck_rollouts": 1}'),
    # A lone surrogate in what comes back: the answer is written in ASCII.
    ("/v1/evaluate", b'{"\\ud800": 1}'),
    # Analyses: a finished game, chance to move, a last round's placement (exact from the
    # decider's view, without rollouts too; by rollouts from another's), a pilot, and the
    # numbers past a float's range (float() of them made the server answer 500).
    _analyse_body(played(3, 5, State.is_terminal).to_json(), rollouts=2),
    _analyse_body(Game(4, seed=2).new_initial_state().to_json(), rollouts=2),
    _analyse_body(_LAST_ROUND.observation(_DECIDER), rollouts=None),
    _analyse_body(_LAST_ROUND.observation(_DECIDER), rollouts=4, horizon="game"),
    _analyse_body(_LAST_ROUND.observation((_DECIDER + 1) % 4), rollouts=4, seed=2**64 - 1),
    _analyse_body(_LAST_ROUND.to_json(), rollouts=3, exact=False, seed=2**64),
    _analyse_body(_PILOT.to_json(), rollouts=3, horizon="game", value="rollout", policy="greedy"),
    *(_analyse_body(_PILOT.to_json(), rollouts=2, time_limit=t) for t in (10**400, -(10**400), True, 0)),
    # Tables given as JSON text, read as the server reads any JSON (no NaN): not JSON, NaN, a
    # field at fault (placed within the table).
    ("/v1/value", b'{"table": "{"}'),
    ("/v1/value", b'{"table": "{\\"voyage\\": NaN}"}'),
    ("/v1/analyse", b'{"table": "[1, 2", "rollouts": 2}'),
    ("/v1/analyse", b'{"table": "{\\"voyage\\": 0}", "rollouts": 2}'),
    ("/v1/value", b'{"table": "' + b"[" * 2000 + b'"}'),
    # Past a float's range in JSON text: infinite (not a constant the server refuses).
    ("/v1/analyse", b'{"table": {}, "time_limit": -1e400}'),
    ("/v1/analyse", b'{"table": {}, "time_limit": 1e400, "rollouts": 1}'),
]


# --------------------------------------------------------------------------- the play route
# Games are played here by the server's own module (helpers.play_route) to some point, so
# that a body can carry a game an answer gave; then both are sent it, as given and broken.
# Fast bots (milliseconds a move) for most games, the expert (a fraction of a second) for a
# few: the whole play form stays within seconds.

FAST_BOTS = ("random", "greedy", "greedy-wealth", "solver")
PLAY_RULES = (None, {"pirate_variant": True}, {"thirteen_after_last_roll": "shipyard"})
# Kept small: a hint's analysis rolls every option this many times (the same in both).
HINT_ROLLOUTS = (2, 3, 4)


@st.composite
def new_games(draw: st.DrawFn, slow: bool = False) -> dict:
    """The "new" of a request: 3 to 5 players, a seat, a built-in bot in every other."""
    players = draw(st.sampled_from(PLAYER_COUNTS))
    pool = ("expert",) if slow else FAST_BOTS
    spec: dict = {"players": players, "seed": draw(st.one_of(st.integers(0, 99), st.integers(0, 2**64 - 1)))}
    spec["human"] = draw(st.integers(0, players - 1))
    spec["bots"] = [draw(st.sampled_from(pool)) for _ in range(players - 1)]
    rules = draw(st.sampled_from(PLAY_RULES))
    if rules is not None:
        spec["rules"] = dict(rules)  # a copy: a broken body changes it
    return spec


@st.composite
def played_games(draw: st.DrawFn) -> dict:
    """The last answer of a game played some moves in (the player's moves at random)."""
    from helpers import play_route

    out = play_route.answer({"new": draw(new_games())})
    moves = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.sampled_from((0, 1, 3, 10, 30, 60, 200)))):
        if out["terminal"]:
            break
        out = play_route.move(out, moves.choice(out["legal_actions"]))
    return out


def rechecked(game: object) -> object:
    """The game with its check written anew, so that a change reaches the later checks."""
    from helpers.play_route import checksum

    if isinstance(game, dict):
        game = {**game, "check": checksum(game)}
    return game


ACTION_TEXTS = ("pass", "bid 1", "bid 7", "bid 60", " bid  3 ", "place silk", "place port_b", "decline")
ACTION_TEXTS += (
    "buy nothing",
    "mortgage",
    "repay",
    "roll 3-5-1",
    "deal silk",
    "Pass",
    "bid",
    "",
    "\u3000pass",
)


@st.composite
def play_bodies(draw: st.DrawFn) -> dict:
    """A request of the play route: a new game, or a played game with the player's action
    (legal or not), only the bots, the whole log, or a hint of fixed rollouts."""
    if draw(st.integers(0, 5)) == 0:
        body: dict = {"new": draw(new_games())}
        if draw(st.integers(0, 3)) == 0:
            body["log"] = draw(st.booleans())
        return body
    out = draw(played_games())
    body = {"game": out["game"]}
    form = draw(st.integers(0, 5))
    if form <= 1 and out["legal_actions"]:
        body["action"] = draw(st.sampled_from(out["legal_actions"]))
    elif form == 2:
        body["action"] = draw(
            st.one_of(st.sampled_from(ACTION_TEXTS), st.sampled_from(ACTION_NAMES), st.text(max_size=12))
        )
    elif form == 3:
        body["log"] = True
    elif form == 4:
        body["hint"] = True
        body["rollouts"] = draw(st.sampled_from(HINT_ROLLOUTS))
    return body


@st.composite
def play_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """Play bodies as given, broken field by field (the game's check written anew or not),
    or with a game's section tampered with."""
    body = draw(play_bodies())
    kind = draw(st.integers(0, 5))
    if kind == 1:
        body = draw(broken(st.just(body)))
    elif kind == 2 and "game" in body:
        game = draw(broken(st.just(body["game"])))
        body["game"] = rechecked(game) if draw(st.booleans()) else game
    elif kind >= 3 and "game" in body:
        game = copy.deepcopy(body["game"])
        field = draw(st.sampled_from(("history", "rng", "seed", "players", "play", "rules", "version")))
        if field == "history" and game["history"]:
            i = draw(st.integers(0, len(game["history"]) - 1))
            game["history"][i] = draw(st.one_of(st.integers(0, 2000), numbers))
            if draw(st.booleans()):
                del game["history"][i:]
        elif field == "play":
            play = game["play"]
            key = draw(st.sampled_from(("human", "bots", "bot_rng", "version")))
            play[key] = draw(
                st.one_of(
                    values,
                    st.lists(
                        st.one_of(st.none(), st.sampled_from(("0" * 16, "-1", "1" * 17, "x"))), max_size=5
                    ),
                    st.lists(
                        st.sampled_from((*FAST_BOTS, "expert", "cmd:./bot", "greedyy", "x:y")), max_size=5
                    ),
                )
            )
        else:
            game[field] = draw(values)
        body["game"] = rechecked(game)
    return [("/v1/play", encode(body, draw(st.booleans())))]


@st.composite
def expert_requests(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """A new game against experts, then the player's first move in it."""
    from helpers import play_route

    spec = draw(new_games(slow=True))
    out = play_route.answer({"new": spec})
    requests = [("/v1/play", encode({"new": spec}, False))]
    if out["legal_actions"]:
        body = {"game": out["game"], "action": draw(st.sampled_from(out["legal_actions"]))}
        requests.append(("/v1/play", encode(body, False)))
    return requests


PLAY_REQUESTS = {"play": play_requests(), "play_expert": expert_requests()}

# Play bodies at the edges: keys, flags and versions the generators rarely hit.
PLAY_EDGES = [
    ("/v1/play", b"[]"),
    ("/v1/play", b"{}"),
    ("/v1/play", b'{"new": {}, "game": {}}'),
    ("/v1/play", b'{"nwe": {}}'),
    ("/v1/play", b'{"new": {}, "hint": true}'),
    ("/v1/play", b'{"new": {}, "hint": 1}'),
    ("/v1/play", b'{"new": {}, "log": null}'),
    ("/v1/play", b'{"new": {}, "rollouts": 3}'),
    ("/v1/play", b'{"new": {}, "action": 7}'),
    ("/v1/play", b'{"new": [], "action": "pass"}'),
    ("/v1/play", b'{"new": {"playrs": 4}}'),
    ("/v1/play", b'{"new": {"players": 6}}'),
    ("/v1/play", b'{"new": {"players": 4.0}}'),
    ("/v1/play", b'{"new": {"players": true}}'),
    ("/v1/play", b'{"new": {"seed": 18446744073709551616}}'),
    ("/v1/play", b'{"new": {"seed": 18446744073709551615, "players": 3, "bots": ["random", "greedy"]}}'),
    ("/v1/play", b'{"new": {"human": 4, "players": 4}}'),
    ("/v1/play", b'{"new": {"bots": ["greedy"]}}'),
    ("/v1/play", b'{"new": {"bots": ["greedy", "cmd:python3 bot.py", "random"]}}'),
    ("/v1/play", b'{"new": {"bots": ["greedy", "helpers.ladder_bots:Bot", "random"]}}'),
    ("/v1/play", b'{"new": {"bots": ["greedy", "expret", "random"]}}'),
    ("/v1/play", b'{"new": {"bots": ["greedy", null, 3]}}'),
    ("/v1/play", b'{"new": {"players": 3, "bots": ["random", "random"], "rules": []}}'),
    ("/v1/play", b'{"new": {"players": 3, "bots": ["random", "random"], "rules": {"pirat_variant": true}}}'),
    ("/v1/play", b'{"new": {"players": 3, "bots": ["random", "random"], "rules": {"pirate_variant": 1}}}'),
    ("/v1/play", b'{"game": 3}'),
    ("/v1/play", b'{"game": {"history": [], "bots": []}}'),
    ("/v1/play", b'{"game": {"game": "chess"}}'),
    ("/v1/play", b'{"game": {"game": "manila", "play": []}}'),
    ("/v1/play", b'{"game": {"game": "manila", "play": {"version": 2}}}'),
    ("/v1/play", b'{"game": {"game": "manila", "play": {"version": true}, "extra": 1}}'),
    ("/v1/play", b'{"game": {"game": "manila", "play": {"version": 1.0}, "check": "0"}}'),
]


def play_game_edges() -> list[tuple[str, bytes]]:
    """Bodies with a real game changed where only a whole game reaches: a history with an
    illegal action or another deal than the seed's (the check written anew), a seat's bot
    or generator changed, an action the rules refuse, a move out of turn, a finished game."""
    from helpers import play_route

    out = play_route.answer(
        {"new": {"players": 4, "seed": 11, "human": 1, "bots": ["random", "expert", "greedy"]}}
    )
    auction = copy.deepcopy(out)  # the player's first bid
    moves = random.Random(3)
    for _ in range(15):
        out = play_route.move(out, moves.choice(out["legal_actions"]))
    game = out["game"]

    def edited(change) -> dict:
        g = copy.deepcopy(game)
        change(g)
        return rechecked(g)

    def at(i, a):
        return lambda g: g["history"].__setitem__(i, a)

    bodies: list[dict] = [
        {"game": edited(at(0, game["history"][0] + 1))},  # another deal than the seed's
        {"game": edited(at(9, 0))},  # a pass where a bid or a deal was due
        {"game": edited(at(len(game["history"]) - 1, 1001))},
        {"game": edited(lambda g: g["history"].append(1001))},
        {"game": edited(lambda g: g.update(rng="0" * 16))},
        {"game": edited(lambda g: g.update(rng=" 0x" + g["rng"] + " "))},
        {"game": edited(lambda g: g.__setitem__("actions", 3))},
        {"game": edited(lambda g: g["play"].__setitem__("bots", ["random", "cmd:./bot", "greedy"]))},
        {"game": edited(lambda g: g["play"].__setitem__("bots", ["greedy", "expert", "greedy"]))},
        {"game": edited(lambda g: g["play"].__setitem__("bots", ["random", "export", "greedy"]))},
        {"game": edited(lambda g: g["play"].__setitem__("human", 4))},
        {"game": edited(lambda g: g["play"]["bot_rng"].__setitem__(0, "1" * 17))},
        {"game": edited(lambda g: g["play"]["bot_rng"].__setitem__(0, "-1"))},
        {"game": edited(lambda g: g["play"]["bot_rng"].__setitem__(0, None))},
        {"game": edited(lambda g: g["play"]["bot_rng"].__setitem__(1, "0"))},
        {"game": edited(lambda g: g["play"]["bot_rng"].__setitem__(0, "0x_1f"))},
        {"game": edited(lambda g: g["play"]["bot_rng"].pop())},
        {"game": edited(lambda g: g["play"].__setitem__("version", 1.0))},
        {"game": edited(lambda g: g.update(seed=12))},
        {"game": edited(lambda g: g.update(players=5))},
        {"game": edited(lambda g: g.update(rules={"pirate_variant": True}))},
        {"game": {**game, "check": game["check"].upper()}},
        {"game": game, "action": "bid 60"},
        {"game": game, "action": "roll 3-5-1"},
        {"game": game, "action": " " + (out["legal_actions"] or ["pass"])[0] + "  "},
        {"game": game, "hint": True, "action": "pass"},
        {"game": game, "hint": True, "rollouts": 0},
        {"game": game, "hint": True, "rollouts": 2001},
        {"game": game, "rollouts": 3},
        {"game": game, "log": True},
        {"game": auction["game"], "action": "bid 55"},
        {"game": auction["game"], "action": "bid  3"},
        {"game": auction["game"], "hint": True, "rollouts": 2},
    ]
    while not out["terminal"]:
        out = play_route.move(out, moves.choice(out["legal_actions"]))
    bodies += [
        {"game": out["game"], "action": "pass"},
        {"game": out["game"], "hint": True},
        {"game": out["game"]},
    ]
    return [("/v1/play", encode(b, False)) for b in bodies]

"""The voyage state as a typed, validated Python object (docs/numbers.md).

Beside the board it may carry what values a player's wealth: the shares each player
holds, the goods' prices, what each player can pay now, and the objective the players
maximise (voyage income, or income plus share gains).
"""

from __future__ import annotations

import difflib
from collections import abc
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, Optional, Union, cast

from .. import _core
from ..common.errors import Problem, StateError
from .notation import format_state, notation_to_dict
from .reach import ARRIVED, LAST_SPACE, reachability_problems

if TYPE_CHECKING:
    from typing import TypeGuard  # Python 3.10+: only the type checker reads it

GOODS: tuple[str, ...] = tuple(_core.GOODS)
SPOTS: tuple[str, ...] = tuple(_core.SPOTS)
SEATS: dict[str, tuple[int, ...]] = {g: tuple(c) for g, c in _core.SEAT_COSTS.items()}  # seat costs
CARGO_VALUES: dict[str, int] = dict(_core.CARGO_VALUES)
THIRTEEN_OPTIONS = ("port", "shipyard")
OBJECTIVES = ("income", "wealth")
PRICE_TRACK: tuple[int, ...] = tuple(_core.PRICE_TRACK)
PRICES: tuple[int, ...] = PRICE_TRACK[:-1]  # a good at the top has ended the game
SHARES_PER_GOOD: int = _core.SHARES_PER_GOOD
PLAYER_COUNTS: tuple[int, ...] = tuple(range(_core.MIN_PLAYERS, _core.MAX_PLAYERS + 1))
ROLLS: tuple[int, ...] = tuple(range(1, _core.NUM_ROLLS + 1))  # the values of next_roll
# Optional keys of a state that value it in wealth rather than voyage income.
WEALTH_KEYS = ("objective", "shares", "prices", "budget")
# Keys a client may send beside the state: request options, not part of the voyage.
REQUEST_KEYS = ("exact", "strict", "version")
STATE_KEYS = ("rules", "next_roll", "player", "players", "boats", "spots") + WEALTH_KEYS
_KNOWN_KEYS = frozenset(STATE_KEYS + REQUEST_KEYS)
_GOOD_INDEX = {g: i for i, g in enumerate(GOODS)}
_NO_SHARES = [0] * len(GOODS)


def _share_row(held: Optional[Mapping[str, int]]) -> list[int]:
    """One owner's share counts in good order, as the engine takes them."""
    if not held:
        return _NO_SHARES
    row = [0] * len(GOODS)
    for good, n in held.items():
        row[_GOOD_INDEX[good]] = n
    return row


Position = Union[int, Literal["arrived"]]


def accomplice_limit(players: Optional[int]) -> int:
    """How many accomplices one player has (the rules' table; unknown players: the usual count)."""
    return _core.ACCOMPLICES if players is None else _core.accomplices_per_player(players)


def spoken(values: tuple[int, ...]) -> str:
    """``3, 4 or 5``: the choices, as a message names them."""
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


@dataclass(frozen=True)
class Rules:
    thirteen_after_last_roll: str = "port"
    pirate_variant: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "thirteen_after_last_roll": self.thirteen_after_last_roll,
            "pirate_variant": self.pirate_variant,
        }


RULE_OPTIONS: tuple[str, ...] = tuple(Rules.__dataclass_fields__)


def read_rules(data: Any) -> tuple[Rules, list[Problem]]:
    """The rule options of a JSON object (None: the defaults), with every problem found;
    the defaults stand in for a bad value."""
    default = Rules()
    if data is None:
        return default, []
    if not is_mapping(data):
        return default, [Problem("rules", "must be an object of rule options")]
    options = " and ".join(RULE_OPTIONS)
    problems = [
        Problem(f"rules.{key}", f"unknown rule option; the options are {options}")
        for key in data
        if key not in RULE_OPTIONS
    ]
    thirteen = data.get("thirteen_after_last_roll", default.thirteen_after_last_roll)
    if thirteen not in THIRTEEN_OPTIONS:
        problems.append(
            Problem("rules.thirteen_after_last_roll", f'must be "port" or "shipyard", got {thirteen!r}')
        )
        thirteen = default.thirteen_after_last_roll
    variant = data.get("pirate_variant", default.pirate_variant)
    if not isinstance(variant, bool):
        problems.append(Problem("rules.pirate_variant", f"must be true or false, got {variant!r}"))
        variant = default.pirate_variant
    return Rules(thirteen, variant), problems


@dataclass(frozen=True)
class Boat:
    position: Position
    crew: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"position": self.position, "crew": list(self.crew)}


@dataclass(frozen=True)
class VoyageState:
    """A voyage about to make roll ``next_roll``: boats (in good order), occupied spots, owners."""

    next_roll: int
    boats: Mapping[str, Boat]
    spots: Mapping[str, str] = field(default_factory=dict)
    player: Optional[str] = None
    players: Optional[int] = None
    rules: Rules = Rules()
    objective: str = "income"
    shares: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # owner -> good -> count
    prices: Mapping[str, int] = field(default_factory=dict)  # good -> price; missing goods at 0
    budget: Mapping[str, int] = field(default_factory=dict)  # owner -> most they can pay now
    # Players who hold nothing yet but take part (a placement round's order), after the rest.
    extra_owners: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: Any, strict: Optional[bool] = None) -> VoyageState:
        """Builds a state from the JSON contract, raising StateError with every problem found.

        With ``strict`` (the default; or the JSON's own ``"strict"`` key when the argument
        is None) positions that cannot arise from a legal start are refused too.
        """
        return _Parser().parse(data, strict)

    def __str__(self) -> str:
        """The one-line notation (see manila.notation); ``manila.parse`` reads it back."""
        return format_state(self.to_dict())

    def reachability_problems(self) -> list[Problem]:
        """Why the boats cannot stand where they are in a real voyage; empty if they can."""
        return reachability_problems(self.next_roll, {g: b.position for g, b in self.boats.items()})

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules.to_dict(), "next_roll": self.next_roll}
        if self.player is not None:
            out["player"] = self.player
        if self.players is not None:
            out["players"] = self.players
        out["boats"] = {g: b.to_dict() for g, b in self.boats.items()}
        out["spots"] = dict(self.spots)
        if self.objective != "income":
            out["objective"] = self.objective
        if self.shares:
            out["shares"] = {o: dict(held) for o, held in self.shares.items()}
        if self.prices:
            out["prices"] = dict(self.prices)
        if self.budget:
            out["budget"] = dict(self.budget)
        return out

    @cached_property
    def owners(self) -> tuple[str, ...]:
        """Every owner named in the state: crews in good order, spots, the player, then
        those named only in ``shares`` or ``budget``."""
        seen = dict.fromkeys([o for boat in self.boats.values() for o in boat.crew])
        seen.update(dict.fromkeys([self.spots[s] for s in SPOTS if s in self.spots]))
        if self.player is not None:
            seen[self.player] = None
        for more in (self.shares, self.budget, self.extra_owners):
            if more:
                seen.update(dict.fromkeys(more))
        return tuple(seen)

    @property
    def max_accomplices(self) -> int:
        return accomplice_limit(self.players)

    @property
    def point_of_view(self) -> int:
        """The engine's owner id of ``player``, or -1 for a fresh player."""
        return -1 if self.player is None else self.owners.index(self.player)

    def to_core(self) -> _core.Voyage:
        """The engine's form of this state; owners are numbered in the order of ``owners``."""
        return self._core

    @cached_property
    def _core(self) -> _core.Voyage:
        # Built once per state: states are immutable, and bots evaluate the same one often.
        ids = {name: i for i, name in enumerate(self.owners)}
        return _core.Voyage(
            next_roll=self.next_roll,
            goods=[_GOOD_INDEX[g] for g in self.boats],
            positions=[_core.ARRIVED if b.position == ARRIVED else b.position for b in self.boats.values()],
            crews=[[ids[o] for o in b.crew] for b in self.boats.values()],
            spots=[ids[self.spots[s]] if s in self.spots else -1 for s in SPOTS],
            num_owners=len(ids),
            thirteen_to_port=self.rules.thirteen_after_last_roll == "port",
            pirate_variant=self.rules.pirate_variant,
            wealth=self.objective == "wealth",
            # Empty lists leave the engine's defaults: price 0, no shares, no budget limit.
            prices=[self.prices.get(g, 0) for g in GOODS] if self.prices else [],
            shares=[_share_row(self.shares.get(o)) for o in self.owners] if self.shares else [],
            budgets=[self.budget.get(o, -1) for o in self.owners] if self.budget else [],
        )


def parse(text: str, strict: Optional[bool] = True) -> VoyageState:
    """Reads a state written in the one-line notation (see manila.notation)."""
    return VoyageState.from_dict(notation_to_dict(text), strict)


def as_state(state: Union[VoyageState, Mapping[str, Any], str], strict: Optional[bool] = None) -> VoyageState:
    """A VoyageState from a state object, its JSON form, or its notation.

    A VoyageState is taken as it is unless strict=True asks for the reachability check.
    """
    if isinstance(state, VoyageState):
        if strict and state.reachability_problems():
            raise StateError(state.reachability_problems())
        return state
    if isinstance(state, str):
        return parse(state, True if strict is None else strict)
    return VoyageState.from_dict(state, strict)


def validate(
    data: Union[VoyageState, Mapping[str, Any], str], strict: Optional[bool] = None
) -> list[Problem]:
    """Every problem of a state (JSON form, notation or object); an empty list if valid."""
    try:
        as_state(data, strict)
    except StateError as exc:
        return exc.problems
    return []


def _did_you_mean(word: Any, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(str(word), choices, n=1) if isinstance(word, str) else []
    return f' (did you mean "{close[0]}"?)' if close else ""


def _is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_owner(x: Any) -> TypeGuard[str]:
    return isinstance(x, str) and bool(x.strip())


def is_mapping(x: Any) -> TypeGuard[Mapping[Any, Any]]:
    """A JSON object or any other mapping (a dict is checked first: typing's and the abc's
    isinstance checks cost more than the rest of parsing a small state)."""
    return isinstance(x, (dict, abc.Mapping))


class _Parser:
    """Reads a JSON-like value into a VoyageState, collecting every problem on the way."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def owner(self, value: Any, path: str) -> Optional[str]:
        if _is_owner(value):
            return value
        self.fail(path, f"an owner must be a non-empty string (a player's name), got {value!r}")
        return None

    def parse(self, data: Any, strict: Optional[bool]) -> VoyageState:
        if not is_mapping(data):
            raise StateError(
                [Problem("", f"a voyage state must be a JSON object, got {type(data).__name__}")]
            )
        keys = STATE_KEYS
        for key in data:
            if key in _KNOWN_KEYS:
                continue
            if key == "moment":
                self.fail(
                    key,
                    "a voyage state with a moment is a position: ask manila.advise "
                    "(python -m manila advise) for it",
                )
            else:
                self.fail(
                    str(key), f"unknown key{_did_you_mean(key, keys)}; a voyage state has {', '.join(keys)}"
                )
        rules = self.rules(data.get("rules"))
        next_roll = self.next_roll(data.get("next_roll", None), "next_roll" in data)
        player = None
        if data.get("player") is not None:
            player = self.owner(data["player"], "player")
        players = data.get("players")
        if players is not None and not (_is_int(players) and players in PLAYER_COUNTS):
            self.fail("players", f"the player count must be {spoken(PLAYER_COUNTS)}, got {players!r}")
            players = None
        boats = self.boats(data.get("boats"))
        spots = self.spots(data.get("spots"))
        objective = self.objective(data.get("objective", "income"))
        shares = self.shares(data.get("shares"))
        prices = self.prices(data.get("prices"))
        budget = self.budget(data.get("budget"))
        for key in ("exact", "strict"):
            if key in data and not isinstance(data[key], bool):
                self.fail(key, f"must be true or false, got {data[key]!r}")
        if "version" in data and (not _is_int(data["version"]) or data["version"] != 1):
            self.fail("version", f"this is version 1 of the voyage state, got {data['version']!r}")
        if strict is None:
            strict = data.get("strict", True) is not False
        if self.problems:
            raise StateError(self.problems)
        state = VoyageState(
            next_roll=next_roll,
            boats=boats,
            spots=spots,
            player=player,
            players=players,
            rules=rules,
            objective=objective,
            shares=shares,
            prices=prices,
            budget=budget,
        )
        self.accomplice_limits(state)
        if strict is True:
            self.problems += state.reachability_problems()
        if self.problems:
            raise StateError(self.problems)
        return state

    def rules(self, data: Any) -> Rules:
        rules, problems = read_rules(data)
        self.problems += problems
        return rules

    def next_roll(self, value: Any, present: bool) -> int:
        if not present:
            self.fail("next_roll", f"missing: say which roll comes next ({spoken(ROLLS)})")
        elif not (_is_int(value) and value in ROLLS):
            self.fail("next_roll", f"must be {spoken(ROLLS)} (the roll that comes next), got {value!r}")
        else:
            return value
        return 1

    def boats(self, data: Any) -> dict[str, Boat]:
        if not is_mapping(data):
            self.fail("boats", "must be an object mapping each of the three sailing goods to its boat")
            return {}
        for good in data:
            if good not in _GOOD_INDEX:
                self.good(good, f"boats.{good}")
        sailing = [g for g in GOODS if g in data]
        if len(data) != 3:
            self.fail("boats", f"exactly three goods sail each voyage, got {len(data)}")
        out = {}
        for good in sailing:
            boat = self.boat(good, data[good])
            if boat is not None:
                out[good] = boat
        return out

    def boat(self, good: str, data: Any) -> Optional[Boat]:
        path = f"boats.{good}"
        if not is_mapping(data):
            self.fail(path, "must be an object with position and crew")
            return None
        for key in data:
            if key != "position" and key != "crew":
                self.fail(f"{path}.{key}", "unknown key; a boat has position and crew")
        position: Any = data.get("position")  # JSON, checked below
        if "position" not in data:
            self.fail(f"{path}.position", f'missing: 0..{LAST_SPACE} or "arrived"')
        elif not (position == ARRIVED or (_is_int(position) and 0 <= position <= LAST_SPACE)):
            self.fail(f"{path}.position", f'must be a space 0..{LAST_SPACE} or "arrived", got {position!r}')
        crew = data.get("crew", [])
        if not isinstance(crew, list):
            self.fail(f"{path}.crew", "must be a list of owners, front seat first")
            crew = []
        seats = len(SEATS[good])
        if len(crew) > seats:
            self.fail(f"{path}.crew", f"a {good} boat has {seats} seats, but {len(crew)} are taken")
        if all(map(_is_owner, crew)):
            return Boat(position, tuple(crew))
        owners = tuple(self.owner(o, f"{path}.crew[{i}]") for i, o in enumerate(crew))
        return Boat(position, owners)  # type: ignore[arg-type]

    def given_object(self, data: Any, field: str, what: str) -> bool:
        """An optional key that must hold an object: False when it is absent or (a problem
        noted) not an object."""
        if data is None:
            return False
        if not is_mapping(data):
            self.fail(field, what)
            return False
        return True

    def spots(self, data: Any) -> dict[str, str]:
        if not self.given_object(data, "spots", "must be an object mapping spot ids to owners"):
            return {}
        out = {}
        for spot, owner in data.items():
            if spot not in SPOTS:
                hint = (
                    f"; cargo seats are given in boats.{spot}.crew"
                    if spot in GOODS
                    else f"{_did_you_mean(spot, SPOTS)}; the spots are {', '.join(SPOTS)}"
                )
                self.fail(f"spots.{spot}", "unknown spot" + hint)
            elif _is_owner(owner):
                out[spot] = owner
            elif owner is not None:
                self.owner(owner, f"spots.{spot}")
        if "pirate_2" in out and "pirate_1" not in out:
            self.fail("spots.pirate_2", "pirate_2 may only be taken once pirate_1 is occupied")
        return {s: out[s] for s in SPOTS if s in out}

    def objective(self, value: Any) -> str:
        if value in OBJECTIVES:
            return cast(str, value)
        self.fail(
            "objective", f'must be "income" or "wealth"{_did_you_mean(value, OBJECTIVES)}, got {value!r}'
        )
        return "income"

    def good(self, good: Any, path: str) -> bool:
        if good in GOODS:
            return True
        self.fail(path, f"unknown good{_did_you_mean(good, GOODS)}; the goods are {', '.join(GOODS)}")
        return False

    def count(self, value: Any, path: str, what: str) -> Optional[int]:
        if _is_int(value) and value >= 0:
            return value
        self.fail(path, f"{what} must be a whole number 0 or more, got {value!r}")
        return None

    def shares(self, data: Any) -> dict[str, dict[str, int]]:
        if not self.given_object(
            data, "shares", 'must be an object mapping players to their shares, e.g. {"red": {"jade": 2}}'
        ):
            return {}
        out: dict[str, dict[str, int]] = {}
        totals = dict.fromkeys(GOODS, 0)
        for owner, held in data.items():
            # Paths are built only for a problem: a wealth state is parsed on every request.
            if not (type(owner) is str and owner.strip()):
                self.owner(owner, f"shares.{owner}")
                continue
            if type(held) is not dict and not is_mapping(held):
                self.fail(
                    f"shares.{owner}", 'must be an object mapping goods to share counts, e.g. {"jade": 2}'
                )
                continue
            counts = {}
            for good, n in held.items():
                if good in totals and type(n) is int and n >= 0:
                    if n:
                        counts[good] = n
                        totals[good] += n
                elif self.good(good, f"shares.{owner}.{good}"):
                    self.count(n, f"shares.{owner}.{good}", "a share count")
            if len(counts) > 1:
                out[owner] = {g: counts[g] for g in GOODS if g in counts}  # canonical order
            elif counts:
                out[owner] = counts
        for good, total in totals.items():
            if total > SHARES_PER_GOOD:
                self.fail(
                    "shares",
                    f"{total} shares of {good} are held, but there are only {SHARES_PER_GOOD} in all",
                )
        return out

    def prices(self, data: Any) -> dict[str, int]:
        if not self.given_object(
            data, "prices", 'must be an object mapping goods to prices, e.g. {"jade": 10}'
        ):
            return {}
        out = {}
        for good, price in data.items():
            if good in _GOOD_INDEX and type(price) is int and price in PRICES:
                if price:
                    out[good] = price
                continue
            path = f"prices.{good}"
            if not self.good(good, path):
                continue
            if price == PRICE_TRACK[-1] and _is_int(price):
                self.fail(
                    path,
                    f"a good at {price} has ended the game; prices are "
                    f"{', '.join(map(str, PRICES))} during a voyage",
                )
            else:
                self.fail(
                    path, f"must be a price on the track ({', '.join(map(str, PRICES))}), got {price!r}"
                )
        return {g: out[g] for g in GOODS if g in out}

    def budget(self, data: Any) -> dict[str, int]:
        if not self.given_object(
            data, "budget", 'must be an object mapping players to what they can pay, e.g. {"red": 7}'
        ):
            return {}
        out = {}
        for owner, amount in data.items():
            if _is_owner(owner) and type(amount) is int and amount >= 0:
                out[owner] = amount
                continue
            path = f"budget.{owner}"
            if self.owner(owner, path) is not None:
                self.count(amount, path, f"a budget (cash plus {_core.LOAN_AMOUNT} per unmortgaged share)")
        return out

    def accomplice_limits(self, state: VoyageState) -> None:
        """Reports, at the first accomplice over the limit, an owner who holds too many."""
        limit = state.max_accomplices
        counts: dict[str, int] = {}
        for boat in state.boats.values():
            for o in boat.crew:
                counts[o] = counts.get(o, 0) + 1
        for o in state.spots.values():
            counts[o] = counts.get(o, 0) + 1
        if max(counts.values(), default=0) <= limit:
            return  # the common case, without a path for every accomplice
        held = [(o, f"boats.{g}.crew[{i}]") for g, b in state.boats.items() for i, o in enumerate(b.crew)]
        held += [(o, f"spots.{s}") for s, o in state.spots.items()]
        counts.clear()
        for owner, path in held:
            counts[owner] = counts.get(owner, 0) + 1
            if counts[owner] == limit + 1:
                total = sum(o == owner for o, _ in held)
                fewest = PLAYER_COUNTS[0]
                game = (
                    f"in a {fewest}-player game"
                    if state.players == fewest
                    else f'unless "players" is {fewest}'
                )
                self.fail(path, f"{owner} holds {total} accomplices, but a player has only {limit} {game}")


# --------------------------------------------------------------------------- the fast path
#
# Most states arrive as plain JSON: a dict of the common keys, no wealth, nothing wrong.
# plain_state reads such a dict straight into the engine's arguments, without the parser's
# objects and paths; on anything else (another shape, another type, anything the parser
# would refuse) it returns None, and the parser reads the state and words every problem.

_PLAIN_KEYS = frozenset(("rules", "next_roll", "player", "players", "boats", "spots", "exact", "strict"))
_RULE_KEYS = frozenset(("thirteen_after_last_roll", "pirate_variant"))
_RULES = {(t, v): Rules(t, v) for t in THIRTEEN_OPTIONS for v in (False, True)}
_DEFAULT_RULES = Rules()
_SPOT_INDEX = {s: i for i, s in enumerate(SPOTS)}
_GOOD_SET = frozenset(GOODS)
_SEAT_COUNT = {g: len(c) for g, c in SEATS.items()}
_PIRATE_1, _PIRATE_2 = _SPOT_INDEX["pirate_1"], _SPOT_INDEX["pirate_2"]
_NO_CREW: list[str] = []  # a missing crew; never changed
# Whether a board can arise in a real voyage, by (next_roll, positions): at most 3 * 15 ** 3.
_REACHABLE: dict[tuple[int, Position, Position, Position], bool] = {}
_Crews = list[list[int]]
CoreArgs = tuple[int, list[int], list[int], _Crews, list[int], int, bool, bool, int, int]


class PlainState:
    """A plain JSON state that plain_state found valid: the engine's arguments, the names
    the evaluation needs, and the VoyageState itself, built only when asked for."""

    __slots__ = ("_parts", "_state", "core_args", "goods", "owners")

    def __init__(
        self,
        core_args: CoreArgs,
        goods: tuple[str, ...],
        owners: tuple[str, ...],
        parts: tuple[
            int,
            tuple[tuple[Position, tuple[str, ...]], ...],
            dict[str, str],
            Optional[str],
            Optional[int],
            Rules,
        ],
    ):
        # core_args: _core.analyse_voyage's arguments before ``threads``.
        self.core_args = core_args
        self.goods = goods
        self.owners = owners
        self._parts = parts
        self._state: Optional[VoyageState] = None

    def state(self) -> VoyageState:
        """The VoyageState the parser would have made of the same dict."""
        if self._state is None:
            next_roll, boats, spots, player, players, rules = self._parts
            self._state = VoyageState(
                next_roll=next_roll,
                boats={g: Boat(position, crew) for g, (position, crew) in zip(self.goods, boats)},
                spots=spots,
                player=player,
                players=players,
                rules=rules,
            )
        return self._state


def plain_state(data: Any, strict: Optional[bool] = None) -> Optional[PlainState]:
    """The fast reading of a plain, valid JSON state (``strict`` as for from_dict); None
    whenever the parser should read it instead, which is always safe."""
    if type(data) is not dict or not _PLAIN_KEYS.issuperset(data):
        return None
    get = data.get
    next_roll, boats = get("next_roll"), get("boats")
    if (
        type(next_roll) is not int
        or not ROLLS[0] <= next_roll <= ROLLS[-1]
        or type(boats) is not dict
        or len(boats) != 3
    ):
        return None
    given_strict = get("strict", True)
    if type(given_strict) is not bool or type(get("exact", False)) is not bool:
        return None
    rules = get("rules")
    if rules is None:
        rules = _DEFAULT_RULES
    elif type(rules) is dict and _RULE_KEYS.issuperset(rules):
        thirteen = rules.get("thirteen_after_last_roll", "port")
        variant = rules.get("pirate_variant", False)
        if type(thirteen) is not str or type(variant) is not bool:
            return None
        rules = _RULES.get((thirteen, variant))
        if rules is None:
            return None
    else:
        return None
    players = get("players")
    if players is not None and not (
        type(players) is int and PLAYER_COUNTS[0] <= players <= PLAYER_COUNTS[-1]
    ):
        return None

    if not _GOOD_SET.issuperset(boats):
        return None
    goods = sorted(boats, key=_GOOD_INDEX.__getitem__)  # the engine's order, which numbers owners too
    positions: list[Position] = []
    given_crews: list[list[str]] = []
    for good in goods:
        boat = boats[good]
        if type(boat) is not dict or "position" not in boat:
            return None
        crew = boat.get("crew", _NO_CREW)
        if len(boat) != 1 + (crew is not _NO_CREW) or type(crew) is not list or len(crew) > _SEAT_COUNT[good]:
            return None
        position = boat["position"]
        if type(position) is int:
            if not 0 <= position <= LAST_SPACE:
                return None
        elif position != ARRIVED or type(position) is not str:
            return None
        positions.append(position)
        given_crews.append(crew)

    # Owners are numbered as VoyageState.owners lists them: crews, spots, the player.
    ids: dict[str, int] = {}
    held: list[int] = []  # accomplices per owner id
    crews: _Crews = []
    for crew in given_crews:
        seated = []
        for name in crew:
            if type(name) is not str:
                return None
            i = ids.get(name)
            if i is None:
                if not name.strip():
                    return None
                i = ids[name] = len(held)
                held.append(0)
            held[i] += 1
            seated.append(i)
        crews.append(seated)
    spot_ids = [-1] * len(SPOTS)
    spots = get("spots")
    taken: dict[str, str] = {}
    if spots:
        if type(spots) is not dict:
            return None
        for spot, name in spots.items():
            j = _SPOT_INDEX.get(spot)
            if j is None or type(name) is not str:
                return None
            spot_ids[j] = -2 - j  # a placeholder, numbered below in canonical order
        for j, spot in enumerate(SPOTS):
            if spot_ids[j] == -2 - j:
                name = spots[spot]
                i = ids.get(name)
                if i is None:
                    if not name.strip():
                        return None
                    i = ids[name] = len(held)
                    held.append(0)
                held[i] += 1
                spot_ids[j] = i
                taken[spot] = name
        if spot_ids[_PIRATE_2] >= 0 and spot_ids[_PIRATE_1] < 0:
            return None
    elif spots is not None and type(spots) is not dict:
        return None
    limit = accomplice_limit(players)
    if held and max(held) > limit:
        return None
    player = get("player")
    point_of_view = -1
    if player is not None:
        if type(player) is not str:
            return None
        point_of_view = ids.get(player, -1)
        if point_of_view < 0:
            if not player.strip():
                return None
            point_of_view = ids[player] = len(held)
    if given_strict if strict is None else strict:
        board = (next_roll, positions[0], positions[1], positions[2])
        reachable = _REACHABLE.get(board)
        if reachable is None:
            reachable = _REACHABLE[board] = not reachability_problems(next_roll, dict(zip(goods, positions)))
        if not reachable:
            return None
    core_args = (
        next_roll,
        list(map(_GOOD_INDEX.__getitem__, goods)),
        [p if type(p) is int else _core.ARRIVED for p in positions],
        crews,
        spot_ids,
        len(ids),
        rules.thirteen_after_last_roll == "port",
        rules.pirate_variant,
        point_of_view,
        limit,
    )
    parts = (
        next_roll,
        tuple(zip(positions, map(tuple, given_crews))),
        taken,
        player,
        players,
        rules,
    )
    return PlainState(core_args, tuple(goods), tuple(ids), parts)

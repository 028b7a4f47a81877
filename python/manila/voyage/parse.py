"""The parser of the voyage state's JSON form: every problem found, each naming its field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, cast

from .. import _core
from ..common.errors import Problem, StateError
from ..common.text import did_you_mean, is_int, is_mapping, is_owner, spoken
from ..common.vocab import (
    ARRIVED,
    GOOD_INDEX,
    GOODS,
    LAST_SPACE,
    MAX_BUDGET,
    OBJECTIVES,
    PLAYER_COUNTS,
    PRICE_TRACK,
    PRICES,
    ROLLS,
    SEATS,
    SHARES_PER_GOOD,
    SPOTS,
    accomplice_limit,
)
from .board import Boat, Rules, read_rules
from .reach import reachability_problems

# Optional keys of a state that value it in wealth rather than voyage income.
WEALTH_KEYS = ("objective", "shares", "prices", "budget")
# Keys a client may send beside the state: request options, not part of the voyage.
REQUEST_KEYS = ("exact", "strict", "version")
STATE_KEYS = ("rules", "next_roll", "player", "players", "boats", "spots") + WEALTH_KEYS
_KNOWN_KEYS = frozenset(STATE_KEYS + REQUEST_KEYS)


def read_fields(data: Any, strict: Optional[bool]) -> dict[str, Any]:
    """The fields of a VoyageState read from its JSON form; StateError with every problem."""
    return _Parser().parse(data, strict)


class _Parser:
    """Reads a JSON-like value into a VoyageState's fields, collecting every problem on the way."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def owner(self, value: Any, path: str) -> Optional[str]:
        if is_owner(value):
            return value
        self.fail(path, f"an owner must be a non-empty string (a player's name), got {value!r}")
        return None

    def parse(self, data: Any, strict: Optional[bool]) -> dict[str, Any]:
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
                    str(key), f"unknown key{did_you_mean(key, keys)}; a voyage state has {', '.join(keys)}"
                )
        rules = self.rules(data.get("rules"))
        next_roll = self.next_roll(data.get("next_roll", None), "next_roll" in data)
        player = None
        if data.get("player") is not None:
            player = self.owner(data["player"], "player")
        players = data.get("players")
        if players is not None and not (is_int(players) and players in PLAYER_COUNTS):
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
        if "version" in data and (not is_int(data["version"]) or data["version"] != 1):
            self.fail("version", f"this is version 1 of the voyage state, got {data['version']!r}")
        if strict is None:
            strict = data.get("strict", True) is not False
        if self.problems:
            raise StateError(self.problems)
        self.accomplice_limits(boats, spots, players)
        if strict is True:
            # A hypothetical board (strict false: a sweep's family, a test's) may name more
            # owners than a game has players, as far as the engine holds them.
            self.owner_count(boats, spots, player, shares, budget)
            self.problems += reachability_problems(next_roll, {g: b.position for g, b in boats.items()})
        if self.problems:
            raise StateError(self.problems)
        return {
            "next_roll": next_roll,
            "boats": boats,
            "spots": spots,
            "player": player,
            "players": players,
            "rules": rules,
            "objective": objective,
            "shares": shares,
            "prices": prices,
            "budget": budget,
        }

    def rules(self, data: Any) -> Rules:
        rules, problems = read_rules(data)
        self.problems += problems
        return rules

    def next_roll(self, value: Any, present: bool) -> int:
        if not present:
            self.fail("next_roll", f"missing: say which roll comes next ({spoken(ROLLS)})")
        elif not (is_int(value) and value in ROLLS):
            self.fail("next_roll", f"must be {spoken(ROLLS)} (the roll that comes next), got {value!r}")
        else:
            return value
        return 1

    def boats(self, data: Any) -> dict[str, Boat]:
        if not is_mapping(data):
            self.fail("boats", "must be an object mapping each of the three sailing goods to its boat")
            return {}
        for good in data:
            if good not in GOOD_INDEX:
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
        elif not (position == ARRIVED or (is_int(position) and 0 <= position <= LAST_SPACE)):
            self.fail(f"{path}.position", f'must be a space 0..{LAST_SPACE} or "arrived", got {position!r}')
        crew = data.get("crew", [])
        if not isinstance(crew, list):
            self.fail(f"{path}.crew", "must be a list of owners, front seat first")
            crew = []
        seats = len(SEATS[good])
        if len(crew) > seats:
            self.fail(f"{path}.crew", f"a {good} boat has {seats} seats, but {len(crew)} are taken")
        if all(map(is_owner, crew)):
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
                    else f"{did_you_mean(spot, SPOTS)}; the spots are {', '.join(SPOTS)}"
                )
                self.fail(f"spots.{spot}", "unknown spot" + hint)
            elif is_owner(owner):
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
            "objective", f'must be "income" or "wealth"{did_you_mean(value, OBJECTIVES)}, got {value!r}'
        )
        return "income"

    def good(self, good: Any, path: str) -> bool:
        if good in GOODS:
            return True
        self.fail(path, f"unknown good{did_you_mean(good, GOODS)}; the goods are {', '.join(GOODS)}")
        return False

    def count(self, value: Any, path: str, what: str) -> Optional[int]:
        if is_int(value) and value >= 0:
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
            if good in GOOD_INDEX and type(price) is int and price in PRICES:
                if price:
                    out[good] = price
                continue
            path = f"prices.{good}"
            if not self.good(good, path):
                continue
            if price == PRICE_TRACK[-1] and is_int(price):
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
            if is_owner(owner) and type(amount) is int and 0 <= amount <= MAX_BUDGET:
                out[owner] = amount
                continue
            path = f"budget.{owner}"
            what = f"a budget (cash plus {_core.LOAN_AMOUNT} per unmortgaged share)"
            if self.owner(owner, path) is not None and self.count(amount, path, what) is not None:
                self.fail(path, f"{what} must be at most {MAX_BUDGET}, got {amount}")
        return out

    def owner_count(
        self,
        boats: Mapping[str, Boat],
        spots: Mapping[str, str],
        player: Optional[str],
        shares: Mapping[str, Any],
        budget: Mapping[str, int],
    ) -> None:
        """Reports the first owner past the most players a game has."""
        most = PLAYER_COUNTS[-1]
        named: dict[str, str] = {}  # owner -> where first named
        for g, b in boats.items():
            for i, o in enumerate(b.crew):
                named.setdefault(o, f"boats.{g}.crew[{i}]")
        for s, o in spots.items():
            named.setdefault(o, f"spots.{s}")
        if player is not None:
            named.setdefault(player, "player")
        for o in shares:
            named.setdefault(o, f"shares.{o}")
        for o in budget:
            named.setdefault(o, f"budget.{o}")
        if len(named) <= most:
            return
        path = list(named.values())[most]
        self.fail(
            path, f"this state names {len(named)} players ({', '.join(named)}), but a game has at most {most}"
        )

    def accomplice_limits(
        self, boats: Mapping[str, Boat], spots: Mapping[str, str], players: Optional[int]
    ) -> None:
        """Reports, at the first accomplice over the limit, an owner who holds too many."""
        limit = accomplice_limit(players)
        counts: dict[str, int] = {}
        for boat in boats.values():
            for o in boat.crew:
                counts[o] = counts.get(o, 0) + 1
        for o in spots.values():
            counts[o] = counts.get(o, 0) + 1
        if max(counts.values(), default=0) <= limit:
            return  # the common case, without a path for every accomplice
        held = [(o, f"boats.{g}.crew[{i}]") for g, b in boats.items() for i, o in enumerate(b.crew)]
        held += [(o, f"spots.{s}") for s, o in spots.items()]
        counts.clear()
        for owner, path in held:
            counts[owner] = counts.get(owner, 0) + 1
            if counts[owner] == limit + 1:
                total = sum(o == owner for o, _ in held)
                fewest = PLAYER_COUNTS[0]
                game = f"in a {fewest}-player game" if players == fewest else f'unless "players" is {fewest}'
                self.fail(path, f"{owner} holds {total} accomplices, but a player has only {limit} {game}")

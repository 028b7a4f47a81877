"""The fast path: a plain JSON state read straight into the engine's arguments.

Most states arrive as plain JSON: a dict of the common keys, no wealth, nothing wrong.
plain_state reads such a dict straight into the engine's arguments, without the parser's
objects and paths; on anything else (another shape, another type, anything the parser
would refuse) it returns None, and the parser reads the state and words every problem.
"""

from __future__ import annotations

from typing import Any, Optional

from .. import _core
from ..common.vocab import (
    ARRIVED,
    GOOD_INDEX,
    GOODS,
    LAST_SPACE,
    PLAYER_COUNTS,
    ROLLS,
    SEATS,
    SPOTS,
    THIRTEEN_OPTIONS,
    Space,
    accomplice_limit,
)
from .board import Boat, Rules
from .reach import reachability_problems
from .state import VoyageState

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
_REACHABLE: dict[tuple[int, Space, Space, Space], bool] = {}
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
            tuple[tuple[Space, tuple[str, ...]], ...],
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
    goods = sorted(boats, key=GOOD_INDEX.__getitem__)  # the engine's order, which numbers owners too
    positions: list[Space] = []
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
    if len(ids) > PLAYER_COUNTS[-1]:
        return None  # more players than a game has: the parser says so
    if given_strict if strict is None else strict:
        board = (next_roll, positions[0], positions[1], positions[2])
        reachable = _REACHABLE.get(board)
        if reachable is None:
            reachable = _REACHABLE[board] = not reachability_problems(next_roll, dict(zip(goods, positions)))
        if not reachable:
            return None
    core_args = (
        next_roll,
        list(map(GOOD_INDEX.__getitem__, goods)),
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

"""The whole game of Manila (docs/rules.md) with an OpenSpiel-style interface.

    >>> from manila.game import Game
    >>> game = Game(players=4, seed=7)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node()          # the shares are dealt first
    True
    >>> while state.is_chance_node():
    ...     _ = state.apply_chance()
    >>> state.current_player(), state.phase
    (0, 'auction')
    >>> state.apply_action("bid 3")
    >>> [state.action_name(a) for a in state.legal_actions()][:3]
    ['pass', 'bid 4', 'bid 5']

Every move of every phase is an integer from a fixed action space (``Game.num_distinct_actions()``)
with a readable name (``Game.action_name``); ``apply_action`` takes either. Chance nodes
(the deal, the dice) have exact probabilities (``chance_outcomes(exact=True)``) and can
be drawn from the state's own generator, seeded by the game's seed (``apply_chance``).
Settlement, price rise and the next voyage's set-up need no decision: they happen
inside the action that leads to them.

Choices this engine makes where part 1 leaves room, all stated in the docs of
``State``: forced mortgages are taken automatically and only as many as needed; loans
are moves of the player to move (mortgage / repay) offered at every decision; a pirate
who boards frees their pirate spot, and a pilot that has acted no longer counts in
``voyage_state()``.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Optional, Union, cast

from .. import _core
from ..common.inputs import engine_json, json_value
from ..common.vocab import OBJECTIVES, PLAYER_COUNTS
from ..voyage.board import Rules
from ..voyage.evaluation import Evaluation, evaluate

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CHANCE: int = _core.CHANCE_PLAYER
TERMINAL: int = _core.TERMINAL_PLAYER
NUM_ACTIONS: int = _core.NUM_ACTIONS
MAX_BID: int = _core.MAX_BID
ACTION_OFFSETS: dict[str, int] = dict(_core.ACTION_OFFSETS)
ACTION_NAMES: tuple[str, ...] = tuple(_core.action_name(a) for a in range(NUM_ACTIONS))
_ACTION_IDS: dict[str, int] = {name: a for a, name in enumerate(ACTION_NAMES)}
SERIAL_VERSION = 1

ActionLike = Union[int, str]
RulesLike = Union[Rules, Mapping[str, Any], None]


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the state is left unchanged.

    ``reason`` names the rule broken (e.g. ``"bid 50: a bid may not exceed cash plus 12
    per unmortgaged share, 54 for p1 (rule 1: auction)"``).
    """

    def __init__(self, reason: str, action: Optional[int] = None):
        super().__init__(reason)
        self.reason = reason
        self.action = action


def action_name(action: int) -> str:
    """The name of an action id, the same in every state."""
    return ACTION_NAMES[action_id(action)]


def action_id(action: ActionLike) -> int:
    """The id of an action given by id or by name (``"bid 7"``, ``"place silk"``, ``"roll 3-5-1"``)."""
    if isinstance(action, str):
        key = " ".join(action.split())
        if key not in _ACTION_IDS:
            raise IllegalActionError(
                f"{action!r} is not the name of an action (e.g. 'pass', 'bid 7', "
                "'place silk', 'start 3-2-4', 'roll 3-5-1')"
            )
        return _ACTION_IDS[key]
    try:
        if isinstance(action, bool):
            raise TypeError
        action = operator.index(action)
    except TypeError:
        raise IllegalActionError(f"an action is an int or a name, got {type(action).__name__}") from None
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"action {action} is not in the action space 0..{NUM_ACTIONS - 1}")
    return int(action)


_SIGNED = re.compile(r"([a-z]+)([+-]\d)")


def advice_action(phase: str, option: str) -> str:
    """The game's action name of an advice option (``manila.advise``, docs/advice.md) in
    this phase: ``"silk"`` -> ``"place silk"``, ``"jade+1"`` -> ``"small pilot: jade +1"``,
    ``"board silk displace 2"`` -> ``"board silk, displacing seat 2"``."""
    if phase == "placement":
        return option if option == "decline" else "place " + option
    if phase in ("small_pilot", "large_pilot"):
        head = "small pilot: " if phase == "small_pilot" else "large pilot: "
        if option == "none":
            return head + "none"
        return head + ", ".join(f"{g} {d}" for g, d in _SIGNED.findall(option))
    if " displace " in option:
        board, seat = option.split(" displace ")
        return f"{board}, displacing seat {seat}"
    return option


def _rules(rules: RulesLike) -> Rules:
    if isinstance(rules, Rules):
        rules = rules.to_dict()
    elif rules is not None and not isinstance(rules, Mapping):
        raise ValueError(f"rules: a manila.Rules or a dict of rule options, got {type(rules).__name__}")
    try:
        text = engine_json(rules)
    except ValueError as exc:
        raise ValueError(f"rules: {exc}") from None
    # The engine reads them (the reader of the records', the tables' and the play route's).
    thirteen_to_port, pirate_variant = _core.read_game_rules(text)
    return Rules("port" if thirteen_to_port else "shipyard", pirate_variant)


class Game:
    """Manila for 3 to 5 players with the rule options of docs/rules.md.

    ``seed`` seeds the generator that ``State.apply_chance`` draws the deal and the dice
    from; the same seed and the same player moves give the same game.
    """

    def __init__(self, players: int = 4, seed: int = 0, rules: RulesLike = None):
        if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
            raise ValueError(
                f"players: Manila is for {PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]} players, got {players!r}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError(f"seed: an integer in 0..2**64-1, got {seed!r}")
        self.players = players
        self.seed = seed
        self.rules = _rules(rules)

    def __repr__(self) -> str:
        return f"Game(players={self.players}, seed={self.seed}, rules={self.rules.to_dict()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.players, self.seed, self.rules) == (
            other.players,
            other.seed,
            other.rules,
        )

    def __hash__(self) -> int:
        return hash((self.players, self.seed, self.rules))

    # OpenSpiel-style description of the game.
    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        """Size of the action space, chance outcomes included."""
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return _core.NUM_ROLL_OUTCOMES  # a roll of three dice

    def max_accomplices(self) -> int:
        return _core.accomplices_per_player(self.players)

    def min_utility(self) -> float:
        """A lower bound of final wealth: the game ends with a good at 30, where a mortgaged
        share is still worth 15, so at worst every share of the three other goods is
        mortgaged (-15 each) at price 0, with no cash."""
        return float(_core.MIN_FINAL_WEALTH)

    def max_utility(self) -> float:
        """No bound: a voyage may bring no boat to Manila whatever the players do (rolls of
        all ones), so the game may last any number of voyages, each paying the shipyard
        spots from the bank."""
        return float("inf")

    @staticmethod
    def action_name(action: int) -> str:
        return action_name(action)

    @staticmethod
    def action_id(action: ActionLike) -> int:
        return action_id(action)

    def new_initial_state(self) -> State:
        """The state before the deal (a chance node)."""
        core = _core.GameState(
            players=self.players,
            seed=self.seed,
            thirteen_to_port=self.rules.thirteen_after_last_roll == "port",
            pirate_variant=self.rules.pirate_variant,
        )
        return State(self, core)

    @classmethod
    def of(cls, core: _core.GameState) -> Game:
        """The game an engine state belongs to (new_initial_state's inverse)."""
        thirteen = "port" if core.thirteen_to_port else "shipyard"
        rules = Rules(thirteen_after_last_roll=thirteen, pirate_variant=core.pirate_variant)
        return cls(core.num_players, core.seed, rules)

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "seed": self.seed, "rules": self.rules.to_dict()}

    def deserialize_state(self, data: Union[str, Mapping[str, Any]]) -> State:
        """The state that ``State.serialize()`` wrote (its game must be this one)."""
        state = State.deserialize(data)
        if state.game != self:
            raise ValueError(f"the serialized state belongs to {state.game!r}, not {self!r}")
        return state


class State:
    """A point in a game: whose move, what is legal, and everything on the table.

    The rules engine is C++ (``manila._core.GameState``); this class adds names, errors
    and JSON. Rule choices where docs/rules.md leaves room:

    - Payments (bids, share purchases, spots) that exceed a player's cash are covered by
      mortgaging automatically, one share at a time, only as many as needed (rule 11);
      a bid or purchase is legal when cash + 12 per unmortgaged share covers it.
    - ``mortgage`` and ``repay`` are legal at every decision of the player to move
      ("at any time" of rule 11, as far as a turn-based interface allows); they leave
      the same player to move.
    - Blind passenger (rule 12): a player who cannot pay the cheapest free spot other
      than insurance, even by mortgaging, may take any free spot but insurance and
      pays all their cash; insurance is not open to a blind passenger.
    - Accomplices may be placed on a boat already in Manila, as the evaluator allows.
    - A pirate who boards leaves their pirate spot, and a remaining pirate moves up to
      ``pirate_1`` (captain); the freed spots can be taken in the last placement round.
      Under ``pirate_variant`` a displaced crew member goes home and may be placed again.
    - A decision with no choice (boarding with nowhere to board, a pilot with no boat
      left to move) is skipped; so is a roll when every boat is in Manila.
    - Shares are dealt face down. The state itself holds them openly (``to_dict``,
      ``to_string``, ``returns``: the referee's view, for simulation and analysis);
      ``observation(p)``, ``information_state_string(p)``, ``observation_tensor(p)`` and
      ``observation_string(p)`` are player p's view, and bots are handed only that
      (``manila.view.PlayerView``).
    """

    __slots__ = ("_s", "game")

    def __init__(self, game: Game, core: _core.GameState):
        self.game = game
        self._s = core

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        """0..n-1, or CHANCE (-1) at a chance node, or TERMINAL (-4) once the game is over."""
        return self._s.current_player()

    def is_chance_node(self) -> bool:
        return self._s.is_chance_node()

    def is_terminal(self) -> bool:
        return self._s.is_terminal()

    def is_player_node(self) -> bool:
        return self._s.current_player() >= 0

    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        """Sorted legal action ids (chance outcomes at a chance node); [] for another player."""
        if player is not None and self._player(player) != self._s.current_player():
            return []
        return self._s.legal_actions()

    def legal_action_names(self) -> list[str]:
        """The names of the legal actions (``apply_action`` takes them back)."""
        return [ACTION_NAMES[a] for a in self._s.legal_actions()]

    def is_legal(self, action: ActionLike) -> bool:
        try:
            return self._s.is_legal(action_id(action))
        except IllegalActionError:
            return False

    def illegal_reason(self, action: ActionLike) -> Optional[str]:
        """Why the action is illegal now (naming the rule), or None if it is legal."""
        try:
            return self._s.illegal_reason(action_id(action)) or None
        except IllegalActionError as exc:
            return exc.reason

    def apply_action(self, action: ActionLike) -> None:
        """Plays an action (id or name). Raises IllegalActionError, changing nothing, if illegal."""
        a = action_id(action)
        try:
            self._s.apply_action(a)
        except ValueError as exc:
            raise IllegalActionError(str(exc), a) from None

    def chance_outcomes(self, exact: bool = False) -> list[tuple[int, Union[float, Fraction]]]:
        """(action, probability) pairs of a chance node; Fractions with ``exact``."""
        if not exact:
            return [tuple(x) for x in self._s.chance_outcomes()]  # type: ignore[misc]
        weights, den = self._s.chance_weights()
        return [(a, Fraction(w, den)) for a, w in weights]

    def sample_chance(self) -> int:
        """A chance outcome drawn from the state's generator (advancing it)."""
        try:
            return self._s.sample_chance()
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None

    def apply_chance(self) -> int:
        """Draws a chance outcome from the state's generator, plays it and returns it."""
        a = self.sample_chance()
        self._s.apply_action(a)
        return a

    def returns(self) -> list[int]:
        """Each player's wealth (rule 13): final once the game is over, so far before."""
        return self._s.returns()

    def rewards(self) -> list[int]:
        return self.returns()

    def wealth(self, player: int) -> int:
        return self._s.wealth(self._player(player))

    def winners(self) -> list[int]:
        """The players of highest wealth (all of them on a tie); [] before the end."""
        if not self.is_terminal():
            return []
        w = self.returns()
        return [p for p, x in enumerate(w) if x == max(w)]

    def clone(self) -> State:
        return State(self.game, self._s.clone())

    def __copy__(self) -> State:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self.clone()

    def history(self) -> list[int]:
        """Every action so far, chance outcomes included."""
        return self._s.history()

    def history_str(self) -> str:
        return " ".join(str(a) for a in self._s.history())

    def move_number(self) -> int:
        return self._s.history_length()

    def action_name(self, action: int) -> str:
        return action_name(action)

    def action_to_string(self, action: ActionLike) -> str:
        """The action's name, with the goods spelled out where that helps (starts, rolls)."""
        return self._s.action_to_string(action_id(action))

    def to_string(self) -> str:
        return self._s.to_string()

    def __str__(self) -> str:
        return self._s.to_string()

    def __repr__(self) -> str:
        return (
            f"<manila State voyage {self.voyage_number} {self.phase}, move {self.move_number()}, "
            f"player {self.current_player()}>"
        )

    # ------------------------------------------------------------------ serialization
    def to_json(self) -> dict[str, Any]:
        """The game, the full history and the generator: enough to rebuild this state."""
        return {
            "version": SERIAL_VERSION,
            "game": "manila",
            **self.game.to_dict(),
            "history": self._s.history(),
            "rng": f"{self._s.rng_state:016x}",
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def deserialize(cls, data: Union[str, Mapping[str, Any]]) -> State:
        """Rebuilds a state from ``serialize()`` / ``to_json()`` by replaying its history
        (``read_record`` and ``replay``, the one reader of records; ``RecordError`` names
        the field)."""
        record = read_record(data)
        state = replay(record)
        if record.rng is not None:
            state._s.rng_state = record.rng
        return state

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.game == other.game
            and self._s.history() == other._s.history()
            and self._s.rng_state == other._s.rng_state
        )

    __hash__ = None  # type: ignore[assignment]  # a state changes as it is played

    # ------------------------------------------------------------------ the table
    def to_dict(self) -> dict[str, Any]:
        """Everything on the table: phase, players (cash, shares, loans, accomplices), prices,
        supply, bank, boats, spots, the auction, and the last settlement."""
        return self._s.snapshot()

    @property
    def phase(self) -> str:
        return self._s.phase

    @property
    def voyage_number(self) -> int:
        """The number of the voyage in progress (1 for the first; 0 during the deal)."""
        return self._s.voyage_number

    def voyages_completed(self) -> int:
        return self._s.voyages_completed()

    def invariant_problems(self) -> list[str]:
        """Broken invariants (money, shares, accomplices, prices, board); [] when all hold."""
        return self._s.check_invariants()

    def player_name(self, player: int) -> str:
        return f"p{player}"

    # ------------------------------------------------------------------ a player's view
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may know, as JSON: the table of ``to_dict`` with the others'
        face-down shares masked (``shares`` lists the shares bought from the supply,
        ``hidden_shares`` how many lie face down, ``wealth`` is null for a player with
        hidden shares), ``observer``, and ``history``: every action id so far, another
        player's deal written as null. Dealt shares stay hidden even once the game is over.
        """
        return self._s.observation(self._player(player))

    def information_state_string(self, player: int) -> str:
        """``player``'s information state: the observer and every action so far by name,
        another player's deal written ``deal ?`` (perfect recall)."""
        return self._s.information_state_string(self._player(player))

    def observation_string(self, player: int) -> str:
        """The table as ``player`` sees it (``to_string`` with the hidden shares masked)."""
        return self._s.observation_string(self._player(player))

    def observation_tensor(
        self, player: int, out: Optional[npt.NDArray[np.float32]] = None
    ) -> npt.NDArray[np.float32]:
        """``player``'s observation as a float32 numpy vector of fixed length for the game's
        number of players (``manila.view.observation_layout``; docs/observation.md).

        Only what ``player`` may know: their own shares, the shares everyone bought from
        the supply and how many each holds face down, cash, loans, prices, supply, the
        auction, the boats, crews and spots; seats are relative (row 0 is ``player``).
        The engine writes it straight into numpy memory: a new array, or ``out`` (a
        float32 C-contiguous vector of the right length) when given.
        """
        return self._s.observation_tensor(self._player(player), out=out)

    def _player(self, player: int) -> int:
        try:
            p = None if isinstance(player, bool) else operator.index(player)
        except TypeError:
            p = None
        if p is None or not 0 <= p < self.game.players:
            raise ValueError(f"player: must be 0..{self.game.players - 1}, got {player!r}")
        return int(p)

    # ------------------------------------------------------------------ the evaluator
    def voyage_state(
        self, player: Optional[int] = None, objective: str = "income"
    ) -> Optional[dict[str, Any]]:
        """The voyage in progress as the evaluator's JSON (docs/numbers.md), or None.

        None before the boats are placed and once roll 3 is over (plunder choice,
        settlement). Players are named ``p0``, ``p1``, ...; ``player`` sets the point of
        view. Pilots that have acted and pirates who boarded are off their spots. During
        the boarding decisions the state shows the boarding done so far (the evaluator
        takes it as finished). Positions a pilot made unreachable from a legal start
        carry ``"strict": false`` so that ``manila.evaluate`` accepts them. Every player's
        shares, the prices and every player's budget (cash plus 12 per unmortgaged share)
        come with it, so that ``objective="wealth"`` values the moment in wealth.

        This is the referee's view: the shares include the face-down ones of every player.
        A player's own view is ``PlayerView(state, player).voyage_state()``.
        """
        return self._voyage(-1 if player is None else self._player(player), -1, objective, False)

    def _voyage(self, player: int, viewer: int, objective: str, moment: bool) -> Optional[dict[str, Any]]:
        """The voyage from ``player``'s point of view (-1: none) with the shares ``viewer``
        sees (-1: every share), and with ``moment`` the decision due: the engine writes both."""
        if objective not in OBJECTIVES:
            raise ValueError(f"objective: must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        return _core.game_voyage_json(self._s, player, viewer, objective == "wealth", moment)

    def position(self, objective: str = "wealth") -> Optional[dict[str, Any]]:
        """The decision at hand as a position for ``manila.advise`` (docs/advice.md): a
        placement turn, a pilot's move or a pirate's boarding choice, from the mover's point
        of view; None at other moments. The referee's view, every share known; the mover's
        own is ``PlayerView(state, state.current_player()).position()``."""
        return self._voyage(max(self.current_player(), -1), -1, objective, True)

    def evaluate(self, player: Optional[int] = None, exact: bool = False, threads: int = 0) -> Evaluation:
        """``manila.evaluate`` of the voyage in progress, from ``player``'s point of view
        (the referee's view of the shares; a player's own: ``PlayerView.evaluate``)."""
        return _evaluate_voyage(self.voyage_state(player), self.phase, exact, threads)


def _evaluate_voyage(data: Optional[dict[str, Any]], phase: str, exact: bool, threads: int) -> Evaluation:
    if data is None:
        raise ValueError(
            f"no voyage to evaluate in the {phase} phase: the boats are not placed yet, or roll 3 is over"
        )
    return evaluate(data, exact, threads=threads, strict=False)


# ---------------------------------------------------------------------- game records
# The one reader of a game record: ``simulate --record`` lines, ``State.serialize()``, the
# play page's saved games and the review's input all go through ``read_record`` and
# ``replay``. A record is a JSON object with the game (``players``, ``seed``, ``rules``) and
# its ``history`` of action ids; it may say ``"game": "manila"``, its ``version``, its
# generator (``rng``) and how many ``actions`` it holds. Whatever else it carries (a
# simulation's bots and wealth, the play page's seats) is its writer's to read. Every
# refusal is a ``RecordError`` naming the field, worded the same wherever a record is read:
# ``history[7]: action 1012 (buy jade): ...``.

RecordLike = Union[str, bytes, Mapping[str, Any]]


class RecordError(ValueError):
    """A record no game wrote. ``field`` is the JSON path of what is wrong ("" for the
    whole); the text says "not a game record" when it is not one at all."""

    def __init__(self, message: str, field: str = "", *, lead: str = ""):
        where = f"{field}: " if field else ""
        super().__init__(f"{lead}: {where}{message}" if lead else f"{where}{message}")
        self.message = message
        self.field = field


def _not_a_record(message: str, field: str = "") -> RecordError:
    return RecordError(message, field, lead="not a game record")


@dataclass(frozen=True)
class Record:
    """A record read and checked: its game, its history, its generator's state if it gave
    one, and the whole JSON object (for what its writer added)."""

    game: Game
    history: list[int]
    rng: Optional[int] = None
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)


def read_record(data: RecordLike) -> Record:
    """The game and history of a record (text or parsed JSON), every field checked; the
    actions are checked by ``replay``.

    >>> state = Game(players=3, seed=2).new_initial_state()
    >>> _ = state.apply_chance()
    >>> replay(read_record(state.serialize())).history() == state.history()
    True
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json_value(data, constants=True)  # as the engine reads a record's text
        except ValueError as exc:
            raise _not_a_record(str(exc)) from None
    try:
        text = engine_json(data)
    except ValueError as exc:
        raise _not_a_record(str(exc)) from None
    # The engine reads the fields (the reader the routes and the play route use).
    fields, problem = _core.read_record_fields(text)
    if problem is not None:
        message, where, lead = problem
        raise RecordError(message, where, lead="not a game record" if lead else "")
    assert fields is not None  # the engine gives the fields or the problem
    players, seed, thirteen_to_port, pirate_variant, history, rng = fields
    game = Game(
        players=players, seed=seed, rules=Rules("port" if thirteen_to_port else "shipyard", pirate_variant)
    )
    return Record(game, history, rng, cast(Mapping[str, Any], data))  # the engine read an object


def replay(
    record: Record,
    to: Optional[int] = None,
    *,
    seeded: bool = False,
    finished: bool = False,
    before: Optional[Callable[[State, int], object]] = None,
) -> State:
    """The record's state after its first ``to`` actions (all by default), every action
    checked: legal where it is played, and with ``seeded`` every deal and roll the one the
    game's seed draws there. ``finished``: the game must be over at the end. ``before(state,
    i)`` is called before action i. The generator is the one the history leaves (the
    record's own is ``record.rng``)."""
    history = record.history
    if to is None:
        to = len(history)
    elif not 0 <= to <= len(history):
        raise RecordError(f"the game has {len(history)} actions, so 0..{len(history)}, got {to}", "to")
    state = record.game.new_initial_state()
    for i, a in enumerate(history[:to]):
        where = f"history[{i}]"
        if state.is_terminal():
            raise RecordError(f"action {a}: the game was already over", where)
        if not 0 <= a < _core.NUM_ACTIONS:
            raise RecordError(f"action {a}: no such action (0..{_core.NUM_ACTIONS - 1})", where)
        named = f"action {a} ({state.action_name(a)})"
        if seeded and state.is_chance_node():
            drawn = state.sample_chance()
            if a != drawn:
                raise RecordError(
                    f"{named}: not what the game's seed draws here ({state.action_name(drawn)})", where
                )
        if before is not None:
            before(state, i)
        try:
            state.apply_action(a)
        except IllegalActionError as exc:
            raise RecordError(f"{named}: {unnamed_reason(state.action_name(a), exc.reason)}", where) from None
    if finished and not state.is_terminal():
        raise RecordError(
            f"cut short: the game is not over after its {len(history)} actions "
            f"(voyage {state.voyage_number}, {state.phase})"
        )
    return state


def unnamed_reason(action: str, reason: str) -> str:
    """The engine's reason without the action's name it starts with (said once)."""
    head = " ".join(action.split()) + ": "
    return reason[len(head) :] if reason.startswith(head) else reason

"""Manila in OpenSpiel: ``import manila.openspiel`` registers the game ``python_manila``.

    >>> import pyspiel
    >>> import manila.openspiel
    >>> game = pyspiel.load_game("python_manila", {"players": 3})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())       # the deal
    (True, 4)

The C++ engine does the work; this module only maps it onto OpenSpiel's interface:

- parameter ``players``: 3 to 5 (default 4);
- chance nodes (the deal, one share at a time, and each roll of the dice) with the rules'
  probabilities: a deal gives good g with probability (its shares still face down) / (all
  still face down), of 3 per good shuffled; a roll gives each die of a boat not in Manila
  1..6 with probability 1/6. ``chance_outcomes()`` writes them as the nearest floats;
  ``state.exact_chance_outcomes()`` gives them as Fractions, which sum to exactly 1.
  Chance outcome ``k`` is the engine's action ``ACTION_OFFSETS["deal"] + k``, numbered as
  in ``manila.VectorEnv(explicit_chance=True)``;
- player actions are the engine's fixed action space below its chance actions
  (``num_distinct_actions()``), legal actions sorted, with the engine's action names;
- returns: each player's final wealth at the end (0 before: terminal rewards);
  ``min_utility`` is -225 (``Game.min_utility``): the game ends with a good at 30,
  where a mortgaged share is still worth 15, so at worst a player has every share of
  the three other goods mortgaged at price 0 and no cash; ``max_utility`` is infinite,
  as the rules set no bound (see ``max_game_length``);
- imperfect information: the observer gives each player's observation tensor and string
  (``manila.view``; docs/observation.md) and the information state string (perfect
  recall); ``private_info`` none / single player / all players are supported. There is
  no information state tensor.
- ``max_game_length`` is the engine's guard against an endless game: the rules bound
  neither the length nor the wealth. Rolls of all ones bring no boat to Manila whatever
  the players do (a boat starts at most on 5, and 3 pips plus both pilots' 3 spaces
  never pass 13), so no price rises and the next voyage begins: every voyage, with
  probability at least 6**-9, and each may pay the shipyard spots out of the bank
  (tests/test_game_rules.py plays 25 such voyages). Loans add no bound either: a
  mortgage (+12) and a repayment (-15) may follow each other at any decision while the
  cash lasts. Games end with probability 1.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Optional

import numpy as np

from ..common.version import install_hint

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"manila.openspiel needs OpenSpiel: {install_hint('openspiel')}") from exc

from .. import _core
from ..game.view import observation_layout, observation_size

SHORT_NAME = "python_manila"
DEFAULT_PLAYERS = 4
MIN_PLAYERS, MAX_PLAYERS = 3, 5
_CHANCE_BASE = _core.ACTION_OFFSETS["deal"]  # player actions come before it, chance from it on
_NUM_CHANCE = _core.NUM_ACTIONS - _CHANCE_BASE

# OpenSpiel's player ids for chance and the end are the engine's own.
assert int(pyspiel.PlayerId.CHANCE) == _core.CHANCE_PLAYER
assert int(pyspiel.PlayerId.TERMINAL) == _core.TERMINAL_PLAYER

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Manila (Zoch 2005)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": DEFAULT_PLAYERS},
)


def _players(params: Optional[dict[str, Any]]) -> int:
    players = (params or {}).get("players", DEFAULT_PLAYERS)
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players: Manila is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")
    return players


class ManilaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """The OpenSpiel game; ``pyspiel.load_game("python_manila", {"players": n})`` makes one."""

    def __init__(self, params: Optional[dict[str, Any]] = None):
        self.players = _players(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=_CHANCE_BASE,
            max_chance_outcomes=_NUM_CHANCE,
            num_players=self.players,
            min_utility=float(_core.MIN_FINAL_WEALTH),
            max_utility=float("inf"),
            utility_sum=None,
            max_game_length=_core.MAX_GAME_ACTIONS,
        )
        super().__init__(GAME_TYPE, info, {"players": self.players})

    def new_initial_state(self) -> ManilaState:
        return ManilaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Optional[dict[str, Any]] = None
    ) -> ManilaObserver:
        return ManilaObserver(
            self.players, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class ManilaState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """A state of the game: the engine's ``GameState`` behind OpenSpiel's interface."""

    def __init__(self, game: ManilaGame, core: Optional[_core.GameState] = None):
        super().__init__(game)
        # Chance is OpenSpiel's to draw (chance_outcomes); the engine's seed is unused.
        self._s = core if core is not None else _core.GameState(players=game.players, seed=0)

    def current_player(self) -> int:
        return self._s.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._s.legal_actions() if player == self._s.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, float(p)) for k, p in self.exact_chance_outcomes()]  # the nearest floats

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The chance outcomes with their exact probabilities (empty unless a chance node)."""
        weights, den = self._s.chance_weights()
        return [(a - _CHANCE_BASE, Fraction(w, den)) for a, w in weights]

    def _apply_action(self, action: int) -> None:
        if self._s.is_chance_node():
            action += _CHANCE_BASE
        self._s.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            action += _CHANCE_BASE
        if not 0 <= action < _core.NUM_ACTIONS:
            raise ValueError(f"action: {action} is not an action of the game")
        return _core.action_name(int(action))

    def is_terminal(self) -> bool:
        return self._s.is_terminal()

    def returns(self) -> list[float]:
        if not self._s.is_terminal():
            return [0.0] * self._s.num_players
        return [float(w) for w in self._s.returns()]

    def __str__(self) -> str:
        return self._s.to_string()


class ManilaObserver:
    """OpenSpiel's PyObserver for Manila: observation tensor and string, or (perfect
    recall) the information state string."""

    _PRIVATE = {
        pyspiel.PrivateInfoType.NONE: "none",
        pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
        pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
    }

    def __init__(self, players: int, iig_obs_type: Any, params: Optional[dict[str, Any]]):
        if params:
            raise ValueError(f"observer params: none are supported, got {params}")
        if not iig_obs_type.public_info:
            raise ValueError("iig_obs_type.public_info: a Manila view always includes the public table")
        self.private_info = self._PRIVATE[iig_obs_type.private_info]
        self.perfect_recall = iig_obs_type.perfect_recall
        size = 0 if self.perfect_recall else observation_size(players)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        if not self.perfect_recall:
            for name, offset, shape in observation_layout(players):
                self.dict[name] = self.tensor[offset : offset + int(np.prod(shape))].reshape(shape)

    def set_from(self, state: ManilaState, player: int) -> None:
        if not self.perfect_recall:
            state._s.observation_tensor(player, self.private_info, out=self.tensor)

    def string_from(self, state: ManilaState, player: int) -> str:
        if self.perfect_recall:
            return state._s.information_state_string(player, self.private_info)
        return state._s.observation_string(player, self.private_info)


pyspiel.register_game(GAME_TYPE, ManilaGame)

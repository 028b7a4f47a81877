"""One player's view of a game: what a bot may read.

In Manila the dealt shares lie face down. ``PlayerView(state, player)`` is built from
``player``'s table alone: a state of its own (``GameState.seen_by``) in which the others'
face-down shares are one fixed deal consistent with what the player sees, whatever the true
deal, with no generator and no seed from which the deal or the dice could be replayed. It
offers the part of the ``State`` interface a player may use — legal actions, the voyage on
the table, their observation in its three forms — and holds nothing of the referee's state
(tests/test_view.py walks everything reachable from it). It is a snapshot of the moment it
was made: a seat is handed a new one at each decision, by ``manila.game.play``, simulations
and the ladder.

    >>> from manila.game import Game
    >>> state = Game(players=4, seed=3).new_initial_state()
    >>> while state.is_chance_node():
    ...     _ = state.apply_chance()
    >>> view = PlayerView(state, state.current_player())
    >>> view.observation()["players"][1]["hidden_shares"]
    2
    >>> len(view.observation_tensor()) == observation_size(4)
    True
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional

import numpy as np
import numpy.typing as npt

from .. import _core
from .engine import Game, State, _evaluate_voyage

if TYPE_CHECKING:
    from ..voyage.board import Rules
    from ..voyage.evaluation import Evaluation
    from .engine import ActionLike

__all__ = ["PlayerView", "observation_layout", "observation_low", "observation_size"]


def observation_size(players: int) -> int:
    """Length of the observation tensor for a game of ``players`` players."""
    return _core.observation_size(players)


def observation_layout(players: int) -> list[tuple[str, int, tuple[int, ...]]]:
    """The tensor's sections in order: (name, offset, shape), as the engine defines them."""
    return [(name, offset, tuple(shape)) for name, offset, shape, _ in _core.observation_layout(players)]


def observation_low(players: int) -> npt.NDArray[np.float32]:
    """The least value of every entry of the tensor (float32); none has an upper bound
    common to all games (cash has none)."""
    low = np.zeros(observation_size(players), np.float32)
    for _, offset, shape, least in _core.observation_layout(players):
        low[offset : offset + int(np.prod(shape))] = least
    return low


@lru_cache(maxsize=64)
def _public_game(players: int, rules: Rules) -> Game:
    # The referee's game holds the seed the deal was drawn from: a view holds this one.
    return Game(players=players, seed=0, rules=rules)


class PlayerView:
    """``state`` as ``player`` sees it now (a snapshot: make a new one after each move)."""

    __slots__ = ("_state", "player")

    def __init__(self, state: State, player: int):
        state._player(player)  # checks the seat
        self._state = State(_public_game(state.game.players, state.game.rules), state._s.seen_by(player))
        self.player = int(player)

    # What the player to move needs to act.
    def current_player(self) -> int:
        return self._state.current_player()

    def is_terminal(self) -> bool:
        return self._state.is_terminal()

    def is_chance_node(self) -> bool:
        return self._state.is_chance_node()

    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        return self._state.legal_actions(player)

    def legal_action_names(self) -> list[str]:
        return self._state.legal_action_names()

    def is_legal(self, action: ActionLike) -> bool:
        return self._state.is_legal(action)

    def action_name(self, action: int) -> str:
        return self._state.action_name(action)

    def action_to_string(self, action: ActionLike) -> str:
        return self._state.action_to_string(action)

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def voyage_number(self) -> int:
        return self._state.voyage_number

    @property
    def players(self) -> int:
        return self._state.game.players

    @property
    def rules(self) -> Rules:
        return self._state.game.rules

    # The table: boats, crews and spots are public; the shares are those this player sees.
    def voyage_state(self, objective: str = "income") -> Optional[dict[str, Any]]:
        """The voyage on the table with the shares this player can see (docs/numbers.md):
        their own, and of the others only those bought from the supply."""
        return self._state._voyage(self.player, self.player, objective, False)

    def position(self, objective: str = "wealth") -> Optional[dict[str, Any]]:
        """The decision at hand, for ``manila.advise``, when it is this player's."""
        if self._state.current_player() != self.player:
            return None
        return self._state._voyage(self.player, self.player, objective, True)

    def evaluate(self, exact: bool = False, threads: int = 0) -> Evaluation:
        """``manila.evaluate`` of the voyage on the table, as this player sees it."""
        return _evaluate_voyage(self.voyage_state(), self.phase, exact, threads)

    def builtin_move(self, bot: str, rng: Optional[_core.Rng] = None) -> int:
        """The move of the built-in bot ``bot`` (``_core.CORE_BOTS``) for this player, who
        must be to move; ``rng`` is the seat's generator (the random bot draws from it).
        The engine's bots read only this player's information (tests/test_view.py)."""
        if self._state.current_player() != self.player:
            raise ValueError(f"builtin_move: it is not p{self.player}'s move")
        return _core.bot_action(self._state._s, bot, rng)

    # The player's own knowledge.
    def observation(self) -> dict[str, Any]:
        return self._state.observation(self.player)

    def to_dict(self) -> dict[str, Any]:
        return self._state.observation(self.player)

    def information_state_string(self) -> str:
        return self._state.information_state_string(self.player)

    def observation_string(self) -> str:
        return self._state.observation_string(self.player)

    def __str__(self) -> str:
        return self.observation_string()

    def observation_tensor(self, out: Optional[npt.NDArray[np.float32]] = None) -> npt.NDArray[np.float32]:
        return self._state.observation_tensor(self.player, out=out)

    def __repr__(self) -> str:
        return f"<manila PlayerView of p{self.player}: voyage {self.voyage_number} {self.phase}>"

"""Playing a game to its end with one bot per seat, each handed only its own view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable, Optional, Protocol

from .engine import Game, State
from .view import PlayerView


class Bot(Protocol):
    """A player: picks a legal action for the player to move, from that player's view."""

    def step(self, state: PlayerView) -> int: ...


def play(
    game: Game,
    bots: Sequence[Bot],
    state: Optional[State] = None,
    on_action: Optional[Callable[[State, int], object]] = None,
) -> State:
    """Plays a game to its end: chance from the state's generator, seat p's move from
    ``bots[p].step(view)`` where ``view`` is ``PlayerView(state, p)``: a bot never sees
    the others' face-down shares. ``on_action(state, action)`` is called before each
    action."""
    if len(bots) != game.players:
        raise ValueError(f"bots: one per seat is needed, {game.players} in all, got {len(bots)}")
    state = game.new_initial_state() if state is None else state
    while not state.is_terminal():
        if state.is_chance_node():
            a = state.sample_chance()
        else:
            a = bots[state.current_player()].step(PlayerView(state, state.current_player()))
        if on_action is not None:
            on_action(state, a)
        state.apply_action(a)
    return state

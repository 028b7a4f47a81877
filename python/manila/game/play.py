"""Playing a game to its end with one bot per seat, each handed only its own view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, Optional, Protocol

from .engine import Game, State
from .view import PlayerView


class Bot(Protocol):
    """A player: picks a legal action for the player to move, from that player's view."""

    def step(self, state: PlayerView) -> int: ...


class BotError(ValueError):
    """A bot that failed at its seat: a program (``manila.bots.cmd``) that could not start,
    exited, answered something that is not a legal action, or ran out of time. The message
    names the bot, its seat, the game's seed and the move, says what went wrong, and ends
    with the last lines the program wrote to its standard error. The bot raises it without
    the game's seed, which only the referee knows (a view has none): ``bot_move`` adds it."""

    def __init__(
        self,
        bot: str,
        seat: int,
        move: int,
        problem: str,
        stderr: Sequence[str] = (),
        game_seed: Optional[int] = None,
    ):
        self.bot, self.seat, self.move, self.problem = bot, seat, move, problem
        self.stderr, self.game_seed = tuple(stderr), game_seed
        game = "" if game_seed is None else f", game seed {game_seed}"
        text = f"bot {bot!r} at seat {seat}{game}, move {move}: {problem}"
        if self.stderr:
            text += "\n  the last lines it wrote to stderr:\n" + "\n".join(
                f"    {line}" for line in self.stderr
            )
        super().__init__(text)

    def in_game(self, game_seed: int) -> BotError:
        """This error, naming the game's seed."""
        return BotError(self.bot, self.seat, self.move, self.problem, self.stderr, game_seed)

    def __reduce__(self) -> tuple[Any, ...]:  # it crosses to the parent from a process pool
        return (BotError, (self.bot, self.seat, self.move, self.problem, self.stderr, self.game_seed))


def bot_move(bot: Bot, state: State, player: int) -> int:
    """``bot``'s action for ``player``, to move in ``state``, from the view it is handed now
    (``PlayerView(state, player)``); a ``BotError`` it raises comes out naming the game's seed."""
    try:
        return bot.step(PlayerView(state, player))
    except BotError as exc:
        raise exc.in_game(state.game.seed) from None


def play(
    game: Game,
    bots: Sequence[Bot],
    state: Optional[State] = None,
    on_action: Optional[Callable[[State, int], object]] = None,
) -> State:
    """Plays a game to its end: chance from the state's generator, seat p's move from
    ``bots[p].step(view)`` where ``view`` is ``PlayerView(state, p)`` (``bot_move``): a bot
    never sees the others' face-down shares. ``on_action(state, action)`` is called before each
    action."""
    if len(bots) != game.players:
        raise ValueError(f"bots: one per seat is needed, {game.players} in all, got {len(bots)}")
    state = game.new_initial_state() if state is None else state
    while not state.is_terminal():
        if state.is_chance_node():
            a = state.sample_chance()
        else:
            a = bot_move(bots[state.current_player()], state, state.current_player())
        if on_action is not None:
            on_action(state, a)
        state.apply_action(a)
    return state

"""Many games between bots, their statistics, game records, and replays.

    >>> from manila import simulate
    >>> result = simulate(players=4, games=20, bots="greedy,random,random,random", seed=1)
    >>> result.games, len(result.wins)
    (20, 4)

Game ``i`` of a run with seed ``s`` has seed ``derive_seed(s, i)``; each game is the same
whatever the number of threads or the chunking, so the same seed gives the same games
(and the same JSON lines) byte for byte. With built-in bots only, games are played in
C++ with the GIL released, spread over threads; bot objects of your own (anything with
``step(state)``, given as a factory ``seed -> bot``) are played from Python.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from .. import _core
from ..bots.builtin import BotFactory, bot_factory, bot_seed, is_core_bot
from ..common.limits import as_list, check_number, check_threads
from ..game.engine import Game, RulesLike
from ..game.play import bot_move

RECORD_VERSION = 1
BotSpec = Union[str, BotFactory]


@dataclass
class SimulationResult:
    """Statistics of a run. ``wins`` splits a shared win equally among the tied players,
    so the wins add up to the number of games."""

    players: int
    games: int
    bots: list[str]
    seed: int
    rules: dict[str, Any]
    wins: list[float] = field(default_factory=list)
    ties: int = 0
    mean_wealth: list[float] = field(default_factory=list)
    mean_voyages: float = 0.0
    mean_actions: float = 0.0
    seconds: float = 0.0

    @property
    def win_rates(self) -> list[float]:
        return [w / self.games if self.games else 0.0 for w in self.wins]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        """The JSON summary (deterministic: no timing in it)."""
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "rules": self.rules,
            "bots": self.bots,
            "wins": self.wins,
            "win_rates": self.win_rates,
            "ties": self.ties,
            "mean_wealth": self.mean_wealth,
            "mean_voyages": self.mean_voyages,
            "mean_actions": self.mean_actions,
        }


class _Totals:
    def __init__(self, players: int):
        self.wins = [0.0] * players
        self.wealth = [0] * players
        self.ties = 0
        self.voyages = 0
        self.actions = 0
        self.games = 0

    def add(self, wealth: Sequence[int], voyages: int, actions: int) -> None:
        best = max(wealth)
        winners = [p for p, w in enumerate(wealth) if w == best]
        for p in winners:
            self.wins[p] += 1 / len(winners)
        self.ties += len(winners) > 1
        for p, w in enumerate(wealth):
            self.wealth[p] += int(w)
        self.voyages += int(voyages)
        self.actions += int(actions)
        self.games += 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return _core.derive_seed(seed, index)


def game_record(
    index: int,
    seed: int,
    game: Game,
    bots: Sequence[str],
    history: Sequence[int],
    wealth: Sequence[int],
    voyages: int,
) -> dict[str, Any]:
    """One line of the JSON-lines output: enough to replay the game (``replay``)."""
    best = max(wealth)
    return {
        "version": RECORD_VERSION,
        "index": index,
        "seed": seed,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "bots": list(bots),
        "history": [int(a) for a in history],
        "wealth": [int(w) for w in wealth],
        "winners": [p for p, w in enumerate(wealth) if w == best],
        "voyages": int(voyages),
        "actions": len(history),
    }


def lineup_of(bots: Union[str, Sequence[BotSpec]], players: int) -> list[BotSpec]:
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    bots = as_list(bots, "bots")
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise ValueError(f"bots: one per seat is needed, {players} in all, got {len(bots)}")
    for b in bots:
        if isinstance(b, str):
            try:
                bot_factory(b)
            except ValueError as exc:
                raise ValueError(f"bots: {exc}") from None
        elif not callable(b):
            raise ValueError("bots: a bot is a name or a factory seed -> bot")
    return bots


def _label(b: BotSpec) -> str:
    return b if isinstance(b, str) else getattr(b, "name", getattr(b, "__name__", "custom"))


def simulate(
    players: int = 4,
    games: int = 1000,
    bots: Union[str, Sequence[BotSpec]] = "random",
    seed: int = 0,
    rules: RulesLike = None,
    threads: int = 0,
    record: Optional[Callable[[dict[str, Any]], None]] = None,
    progress: Optional[Callable[[int], object]] = None,
    check: bool = False,
) -> SimulationResult:
    """Plays ``games`` games and returns their statistics.

    ``bots``: one per seat (or one for all), as names ("random", "greedy", or the
    comma-separated string) or factories ``seed -> bot``. ``record(dict)`` receives
    every game's record in game order. ``progress(n)`` is called as games finish.
    ``check`` verifies the invariants after every action (slower).
    """
    check_number(games, "games", 1, integer=True)  # no rates of no games
    check_threads(threads)
    base = Game(players=players, seed=seed, rules=rules)
    specs = lineup_of(bots, players)
    labels = [_label(b) for b in specs]
    totals = _Totals(players)
    start = time.perf_counter()
    if all(isinstance(b, str) and is_core_bot(b) for b in specs):
        _simulate_core(base, games, [str(b) for b in specs], threads, record, progress, check, totals)
    else:
        _simulate_python(base, games, specs, labels, record, progress, check, totals)
    elapsed = time.perf_counter() - start
    n = max(totals.games, 1)
    return SimulationResult(
        players=players,
        games=totals.games,
        bots=labels,
        seed=seed,
        rules=base.rules.to_dict(),
        wins=totals.wins,
        ties=totals.ties,
        mean_wealth=[w / n for w in totals.wealth],
        mean_voyages=totals.voyages / n,
        mean_actions=totals.actions / n,
        seconds=elapsed,
    )


def _chunk_size(games: int, bots: Sequence[str]) -> int:
    # Small enough for a lively progress bar, large enough to keep the threads busy.
    per_second = 300 if "greedy" in bots else 20000
    return max(1, min(games, per_second // 10, max(1, games // 50)))


def _simulate_core(
    base: Game,
    games: int,
    bots: list[str],
    threads: int,
    record: Optional[Callable[[dict[str, Any]], None]],
    progress: Optional[Callable[[int], object]],
    check: bool,
    totals: _Totals,
) -> None:
    done = 0
    chunk = _chunk_size(games, bots)
    while done < games:
        n = min(chunk, games - done)
        seeds, wealth, voyages, actions, histories = _core.play_games(
            players=base.players,
            seed=base.seed,
            first=done,
            n=n,
            bots=bots,
            threads=threads,
            record=record is not None,
            check=check,
            thirteen_to_port=base.rules.thirteen_after_last_roll == "port",
            pirate_variant=base.rules.pirate_variant,
        )
        for i in range(n):
            w = wealth[i].tolist()
            totals.add(w, int(voyages[i]), int(actions[i]))
            if record is not None:
                game = Game(base.players, int(seeds[i]), base.rules)
                record(game_record(done + i, int(seeds[i]), game, bots, histories[i], w, int(voyages[i])))
        done += n
        if progress is not None:
            progress(n)


def _simulate_python(
    base: Game,
    games: int,
    specs: Sequence[BotSpec],
    labels: list[str],
    record: Optional[Callable[[dict[str, Any]], None]],
    progress: Optional[Callable[[int], object]],
    check: bool,
    totals: _Totals,
) -> None:
    for i in range(games):
        seed = game_seed(base.seed, i)
        game = Game(base.players, seed, base.rules)
        # Seat p's bot is seeded bot_seed(seed, p), as in the C++ play-outs.
        factories = [bot_factory(spec) if isinstance(spec, str) else spec for spec in specs]
        bots = [f(bot_seed(seed, p)) for p, f in enumerate(factories)]
        state = game.new_initial_state()
        while not state.is_terminal():
            a = (
                state.sample_chance()
                if state.is_chance_node()
                else bot_move(bots[state.current_player()], state, state.current_player())
            )
            state.apply_action(a)
            if check:
                problems = state.invariant_problems()
                if problems:
                    raise AssertionError(
                        f"game {i} (seed {seed}), move {state.move_number()}: {'; '.join(problems)}"
                    )
        w = state.returns()
        totals.add(w, state.voyages_completed(), state.move_number())
        if record is not None:
            record(game_record(i, seed, game, labels, state.history(), w, state.voyages_completed()))
        if progress is not None:
            progress(1)

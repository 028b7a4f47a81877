"""asv benchmarks of the whole game: play-outs, bot decisions and state operations.

The headline figure is ``RandomGames.track_games_per_second``: complete four-player
games with four random bots, in one process, on one thread.
"""

import time

from manila import _core
from manila.bots import GreedyBot, RandomBot, bots_for
from manila.game import Game, play


def _state_in_phase(phase, seed=3):
    """A state of a random game at its first decision of `phase`."""
    for s in range(seed, seed + 50):
        state = Game(4, s).new_initial_state()
        bots = bots_for(["random"] * 4, s)
        while not state.is_terminal():
            if state.phase == phase and not state.is_chance_node():
                return state
            a = state.sample_chance() if state.is_chance_node() else bots[state.current_player()].step(state)
            state.apply_action(a)
    raise RuntimeError(f"no {phase} decision found")


class RandomGames:
    """Complete games with random bots in the C++ loop (the issue's benchmark)."""

    params = [[3, 4, 5], [1, 0]]
    param_names = ["players", "threads"]
    timeout = 120

    def time_1000_games(self, players, threads):
        _core.play_games(players=players, seed=1, first=0, n=1000, bots=["random"] * players, threads=threads)

    def track_games_per_second(self, players, threads):
        n = 4000
        start = time.perf_counter()
        _core.play_games(players=players, seed=1, first=0, n=n, bots=["random"] * players, threads=threads)
        return n / (time.perf_counter() - start)

    track_games_per_second.unit = "games/s"


class PythonLoop:
    """The same games driven from Python, one action per call (OpenSpiel style)."""

    def time_10_random_games(self):
        for s in range(10):
            play(Game(4, s), bots_for(["random"] * 4, s))


class GreedyGames:
    """Greedy against three random bots: an exact spot table per greedy placement."""

    timeout = 300

    def time_50_games(self):
        _core.play_games(
            players=4, seed=1, first=0, n=50, bots=["greedy", "random", "random", "random"], threads=1
        )

    def track_win_rate_vs_random(self):
        _, wealth, _, _, _ = _core.play_games(
            players=4, seed=1, first=0, n=400, bots=["greedy", "random", "random", "random"], threads=0
        )
        return float((wealth.argmax(axis=1) == 0).mean())

    track_win_rate_vs_random.unit = "win rate"


class Decisions:
    """One decision or state operation at typical points of a game."""

    params = [["auction", "placement", "small_pilot"]]
    param_names = ["phase"]

    def setup(self, phase):
        try:
            self.state = _state_in_phase(phase)
        except RuntimeError:
            raise NotImplementedError from None  # asv skips a parameter that cannot be set up
        self.greedy = GreedyBot()
        self.random = RandomBot(1)

    def time_legal_actions(self, phase):
        self.state.legal_actions()

    def time_clone(self, phase):
        self.state.clone()

    def time_greedy_decision(self, phase):
        self.greedy.step(self.state)

    def time_random_decision(self, phase):
        self.random.step(self.state)

    def time_serialize_round_trip(self, phase):
        self.state.game.deserialize_state(self.state.serialize())

"""Engine states copy, deep-copy and pickle as values (OpenSpiel and process pools need it)."""

import copy
import pickle

import pytest

from manila import _core
from manila.bots import bots_for
from manila.game import Game
from manila.view import PlayerView


def test_copies_and_pickles_are_the_same_state():
    game = Game(4, 8, {"pirate_variant": True})
    state = game.new_initial_state()
    bots = bots_for(["random"] * 4, 8)
    for _ in range(120):
        state.apply_action(
            state.sample_chance()
            if state.is_chance_node()
            else bots[state.current_player()].step(PlayerView(state, state.current_player()))
        )
    for other in (copy.copy(state._s), copy.deepcopy(state._s), pickle.loads(pickle.dumps(state._s))):
        assert other.history() == state._s.history() and other.to_string() == state._s.to_string()
        assert other.rng_state == state._s.rng_state and other.pirate_variant
        other.apply_action(other.legal_actions()[0])
        assert other.history() != state._s.history()  # a copy, not the same object


def test_a_tampered_pickle_raises_value_error():
    players, seed, port, variant, _history, rng = _core.GameState(players=3, seed=1).__getstate__()
    fresh = _core.GameState.__new__(_core.GameState)  # what unpickling does, before __setstate__
    with pytest.raises(ValueError, match="action space"):
        fresh.__setstate__((players, seed, port, variant, [99999], rng))
    with pytest.raises(ValueError, match="pickle"):
        _core.GameState.__new__(_core.GameState).__setstate__((3, 1))

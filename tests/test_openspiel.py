"""Manila in OpenSpiel: OpenSpiel's own random simulation test, MCTS, chance, observers."""

from fractions import Fraction

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import manila.openspiel  # noqa: E402, F401  (registers python_manila with pyspiel)
from helpers.chance_rules import Layout, rules_chance  # noqa: E402
from manila import _core  # noqa: E402

DEAL = _core.ACTION_OFFSETS["deal"]


def random_states(game, seed, every=5):
    """States along a random play-out, chance drawn by its probabilities."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    k = 0
    while not state.is_terminal():
        if k % every == 0:
            yield state.clone()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        k += 1
    yield state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_openspiel_random_sim_test(players):
    game = pyspiel.load_game("python_manila", {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_default_and_bad_parameters():
    assert pyspiel.load_game("python_manila").num_players() == 4
    for bad in (2, 6):
        with pytest.raises(Exception, match="players"):
            pyspiel.load_game("python_manila", {"players": bad})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_chance_outcomes_are_the_rules_exact_probabilities(players):
    game = pyspiel.load_game("python_manila", {"players": players})
    layout = Layout(players)
    rng = np.random.RandomState(players)
    seen = {"deal": 0, "roll": 0}
    for _ in range(40):
        state, dealt = game.new_initial_state(), []
        while not state.is_terminal():
            if not state.is_chance_node():
                state.apply_action(int(rng.choice(state.legal_actions())))
                continue
            kind, outcomes, numerators, den = rules_chance(state._s.observation_tensor(0), layout, dealt)
            seen[kind] += 1
            exact = state.exact_chance_outcomes()
            assert exact == [(k, Fraction(int(n), den)) for k, n in zip(outcomes, numerators)]
            assert sum(p for _, p in exact) == 1
            floats = state.chance_outcomes()
            assert floats == [(k, float(p)) for k, p in exact]  # the nearest floats
            assert all(0 <= k < game.max_chance_outcomes() for k, _ in floats)
            assert abs(sum(p for _, p in floats) - 1) < 1e-12
            k = int(rng.choice(outcomes, p=[p for _, p in floats]))
            if kind == "deal":
                dealt.append(k)
            state.apply_action(k)
        assert len(dealt) == 2 * players
    assert seen["deal"] == 40 * 2 * players and seen["roll"] > 40 * 3


def test_actions_names_and_returns():
    game = pyspiel.load_game("python_manila", {"players": 3})
    for state in random_states(game, seed=2):
        if state.is_terminal():
            assert state.returns() == [float(w) for w in state._s.returns()]
            assert max(state.returns()) > 0
        elif state.is_chance_node():
            assert state.action_to_string(pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0][0]).startswith(
                ("deal", "roll")
            )
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal) and all(0 <= a < game.num_distinct_actions() for a in legal)
            p = state.current_player()
            assert [state.action_to_string(p, a) for a in legal] == [_core.action_name(a) for a in legal]
            assert state.returns() == [0.0] * 3


def test_mcts_bot_plays_a_game():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_manila", {"players": 4})
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(
        game, uct_c=2, max_simulations=4, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )
    state = game.new_initial_state()
    mcts_moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            mcts_moves += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert mcts_moves > 0 and len(state.returns()) == 4


def test_observer_gives_the_players_view():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_manila", {"players": 4})
    obs = make_observation(game)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    checked = 0
    for state in random_states(game, seed=3, every=11):
        for p in range(4):
            obs.set_from(state, p)
            assert np.array_equal(obs.tensor, state._s.observation_tensor(p))
            assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), obs.tensor)
            assert obs.string_from(state, p) == state._s.observation_string(p)
            assert (
                info.string_from(state, p)
                == state.information_state_string(p)
                == state._s.information_state_string(p)
            )
            public.set_from(state, p)
            hidden = public.dict["hidden_shares"]
            if state.move_number() >= 8:  # after the deal nobody's dealt shares are public
                assert hidden[0] == 2 and obs.dict["hidden_shares"][0] == 0
            checked += 1
    assert checked > 20
    with pytest.raises(ValueError, match="public_info"):
        make_observation(game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False))

"""The game interface (OpenSpiel-style), random self-play with invariants after every
action, serialization, determinism, illegal actions, the evaluator link and the bots."""

import json
import random
import threading
import time
from fractions import Fraction

import numpy as np
import pytest

import manila
import manila.common.vocab
from manila import _core
from manila.arena.simulate import game_seed, simulate
from manila.bots import GreedyBot, RandomBot, bots_for, make_bot
from manila.game import (
    ACTION_NAMES,
    CHANCE,
    NUM_ACTIONS,
    TERMINAL,
    Game,
    IllegalActionError,
    State,
    action_id,
    action_name,
    play,
)
from manila.view import PlayerView

PRICES = {0, 5, 10, 20, 30}
CONFIGS = [
    (3, None),
    (4, None),
    (5, None),
    (4, {"pirate_variant": True}),
    (3, {"thirteen_after_last_roll": "shipyard"}),
    (5, {"pirate_variant": True, "thirteen_after_last_roll": "shipyard"}),
]


def random_game_states(n_games, seed=0, every=1, bots=None):
    """(state, next action) pairs along random games, for property tests."""
    rng = random.Random(seed)
    for i in range(n_games):
        players, rules = CONFIGS[i % len(CONFIGS)]
        gs = rng.randrange(2**32)
        names = bots or ["random"] * players
        state = Game(players, gs, rules).new_initial_state()
        seat_bots = bots_for(names[:players], gs)
        k = 0
        while not state.is_terminal():
            a = (
                state.sample_chance()
                if state.is_chance_node()
                else seat_bots[state.current_player()].step(PlayerView(state, state.current_player()))
            )
            if k % every == 0:
                yield state, a
            state.apply_action(a)
            k += 1
        yield state, None


# ------------------------------------------------------------------ the action space
def test_action_names_are_unique_and_round_trip():
    assert len(ACTION_NAMES) == NUM_ACTIONS == Game().num_distinct_actions()
    assert len(set(ACTION_NAMES)) == NUM_ACTIONS
    for a, name in enumerate(ACTION_NAMES):
        assert action_id(name) == a and action_name(a) == name
    assert action_id("  place   silk ") == action_id("place silk")
    assert action_id(np.int64(5)) == 5
    for bad in (-1, NUM_ACTIONS, "fly", 2.5, True, None):
        with pytest.raises(IllegalActionError):
            action_id(bad)


@pytest.mark.parametrize(
    "rules",
    [None, {"pirate_variant": True}, {"thirteen_after_last_roll": "shipyard", "pirate_variant": True}],
)
def test_the_game_of_an_engine_state_is_its_own(rules):
    game = Game(players=5, seed=2**64 - 3, rules=rules)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_chance()
    assert Game.of(state._s) == game


def test_game_arguments_are_checked():
    for players in (2, 6, "4", True):
        with pytest.raises(ValueError, match="players"):
            Game(players=players)
    with pytest.raises(ValueError, match="seed"):
        Game(seed=-1)
    with pytest.raises(ValueError, match="unknown rule option"):
        Game(rules={"pirates": True})
    with pytest.raises(ValueError, match="thirteen_after_last_roll"):
        Game(rules={"thirteen_after_last_roll": "sea"})
    with pytest.raises(ValueError, match="pirate_variant"):
        Game(rules={"pirate_variant": "yes"})
    assert Game(rules=manila.Rules("shipyard", True)).rules == manila.Rules("shipyard", True)


def test_core_argument_checks_raise_value_error():
    with pytest.raises(ValueError, match="3 to 5 players"):
        _core.GameState(players=6)
    with pytest.raises(ValueError, match="positive"):
        _core.Rng(1).below(0)
    with pytest.raises(ValueError, match="one bot per seat"):
        _core.play_games(players=4, seed=0, first=0, n=1, bots=["random"] * 3)
    with pytest.raises(ValueError, match="unknown bot"):
        _core.play_games(players=3, seed=0, first=0, n=1, bots=["random", "clever", "random"])
    with pytest.raises(ValueError, match="games"):
        _core.play_games(players=3, seed=0, first=0, n=-1, bots=["random"] * 3)
    with pytest.raises(ValueError, match="action space"):
        _core.action_name(NUM_ACTIONS)
    with pytest.raises(ValueError, match="start triple"):
        _core.start_triple(25)
    state = _core.GameState(players=4, seed=0)
    with pytest.raises(ValueError, match="player"):
        state.wealth(4)
    with pytest.raises(ValueError, match="no player to move"):
        _core.greedy_action(state)  # a chance node
    assert state.placement_terms(9, 0) is None
    with pytest.raises(ValueError):
        Game().new_initial_state().clone()._s.apply_action(0)


# ------------------------------------------------------------------ self-play with invariants
def check_invariants(state):
    """Independent of the engine's own check: from the public table only."""
    d = state.to_dict()
    n = state.game.players
    players = d["players"]
    assert len(players) == n
    assert sum(p["cash"] for p in players) + d["bank"] == 30 * n, "money is not conserved"
    for good in manila.GOODS:
        held = sum(p["shares"][good] for p in players)
        dealing = d["phase"] == "deal"
        assert held + d["supply"][good] <= 5 if dealing else held + d["supply"][good] == 5, good
        assert d["prices"][good] in PRICES
    assert (max(d["prices"].values()) == 30) == state.is_terminal()
    limit = state.game.max_accomplices()
    counts = [0] * n
    for boat in d["boats"].values():
        for owner in boat["crew"]:
            counts[owner] += 1
    for owner in d["spots"].values():
        counts[owner] += 1
    for p, player in enumerate(players):
        assert player["cash"] >= 0
        assert 0 <= player["mortgaged"] <= sum(player["shares"].values())
        assert player["accomplices"] == counts[p] <= limit
        assert player["wealth"] == (
            player["cash"]
            - 15 * player["mortgaged"]
            + sum(player["shares"][g] * d["prices"][g] for g in manila.GOODS)
        )
    if d["boats"]:
        assert set(d["boats"]) == set(manila.GOODS) - {d["stays_home"]}
        for good, boat in d["boats"].items():
            seats = len(manila.common.vocab.SEATS[good])
            assert len(boat["crew"]) <= seats
            assert boat["position"] == "arrived" or 0 <= boat["position"] <= 13
        assert "pirate_2" not in d["spots"] or "pirate_1" in d["spots"]
    assert state.invariant_problems() == []
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    if state.is_terminal():
        assert legal == [] and state.current_player() == TERMINAL
    elif state.is_chance_node():
        outcomes = state.chance_outcomes(exact=True)
        assert [a for a, _ in outcomes] == legal
        assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
        assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-12
    else:
        assert 0 <= state.current_player() < n and legal


# 240 games in blocks: the checks' time is Python's, so the sanitizers' run takes one block.
@pytest.mark.reference
@pytest.mark.parametrize("block", range(6))
def test_random_self_play_keeps_every_invariant_after_every_action(block):
    games = actions = 0
    for state, a in random_game_states(40, seed=block + 1):
        check_invariants(state)
        actions += 1
        games += a is None
    assert games == 40 and actions > 40 * 100


@pytest.mark.parametrize("players,rules", CONFIGS)
def test_thousands_of_games_checked_after_every_action_in_cpp(players, rules):
    rules = manila.game.engine._rules(rules)
    seeds, wealth, voyages, actions, _ = _core.play_games(
        players=players,
        seed=123,
        first=0,
        n=600,
        bots=["random"] * players,
        threads=0,
        check=True,
        thirteen_to_port=rules.thirteen_after_last_roll == "port",
        pirate_variant=rules.pirate_variant,
    )
    assert wealth.shape == (600, players) and (voyages >= 1).all() and (actions > 20).all()
    assert len(set(seeds.tolist())) == 600


def test_greedy_self_play_keeps_every_invariant():
    for players, rules in CONFIGS[:4]:
        _core.play_games(
            players=players,
            seed=5,
            first=0,
            n=20,
            bots=["greedy"] * players,
            check=True,
            pirate_variant=bool(rules and rules.get("pirate_variant")),
        )
    for state, _ in random_game_states(6, seed=2, bots=["greedy", "random", "greedy", "random", "random"]):
        check_invariants(state)


# ------------------------------------------------------------------ OpenSpiel-style state API
def test_chance_nodes_and_sampling():
    state = Game(4, seed=3).new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert state.legal_actions(player=0) == []
    seen = set()
    while not state.is_terminal():
        if state.is_chance_node():
            a = state.sample_chance()
            assert a in state.legal_actions()
            seen.add(state.phase)
            state.apply_action(a)
        else:
            state.apply_action(random.Random(len(state.history())).choice(state.legal_actions()))
    assert seen == {"deal", "roll"}
    with pytest.raises(IllegalActionError):
        state.sample_chance()


def test_serialization_round_trips_and_clones_are_independent():
    for k, (state, _) in enumerate(random_game_states(30, seed=4, every=17)):
        text = state.serialize()
        back = State.deserialize(text)
        assert back == state and back.serialize() == text
        assert back.to_dict() == state.to_dict() and back.legal_actions() == state.legal_actions()
        assert str(back) == str(state)
        assert state.game.deserialize_state(json.loads(text)) == state
        if not state.is_terminal() and k % 3 == 0:
            clone = state.clone()
            before = state.serialize()
            for _ in range(5):
                if clone.is_terminal():
                    break
                if clone.is_chance_node():
                    clone.apply_chance()
                else:
                    clone.apply_action(clone.legal_actions()[0])
            assert state.serialize() == before
            # The generator is part of the state: the same draws follow.
            if state.is_chance_node():
                assert back.apply_chance() == state.clone().apply_chance()
    with pytest.raises(ValueError):
        Game(4, seed=1).deserialize_state(Game(4, seed=2).new_initial_state().serialize())
    bad = json.loads(Game().new_initial_state().serialize())
    bad["history"] = [state.game.action_id("bid 3")]
    with pytest.raises(ValueError, match=r"history\[0\]: action \d+ \(bid 3\)"):
        State.deserialize(bad)


def test_history_and_action_strings():
    state = Game(4, seed=9).new_initial_state()
    play(state.game, [RandomBot(i) for i in range(4)], state)
    history = state.history()
    assert state.move_number() == len(history) > 50
    assert state.history_str().split() == [str(a) for a in history]
    assert all(isinstance(state.action_to_string(a), str) for a in history)
    replay = Game(4, seed=9).new_initial_state()
    for a in history:
        replay.apply_action(a)
    assert replay.returns() == state.returns() and replay.is_terminal()


def test_same_seed_same_game_and_different_seeds_differ():
    names = ["greedy", "random", "random", "random"]
    a = play(Game(4, 77), bots_for(names, 77))
    b = play(Game(4, 77), bots_for(names, 77))
    c = play(Game(4, 78), bots_for(names, 78))
    assert a.serialize() == b.serialize() and a.history() != c.history()


def test_python_and_cpp_play_outs_are_the_same_games():
    for names in (
        ["random"] * 3,
        ["greedy", "random", "random", "random"],
        ["random", "greedy"] * 2 + ["random"],
    ):
        n = len(names)
        seeds, wealth, voyages, _, histories = _core.play_games(
            players=n, seed=31, first=0, n=4, bots=names, threads=2, record=True
        )
        for i in range(4):
            assert int(seeds[i]) == game_seed(31, i)
            state = play(Game(n, int(seeds[i])), bots_for(names, int(seeds[i])))
            assert state.history() == histories[i]
            assert state.returns() == wealth[i].tolist() and state.voyages_completed() == voyages[i]


def test_simulation_is_deterministic_whatever_the_threads_and_chunks():
    def lines(threads, games, bots="greedy,random,random,random"):
        out = []
        simulate(
            players=4,
            games=games,
            bots=bots,
            seed=1,
            threads=threads,
            record=lambda rec: out.append(json.dumps(rec)),
        )
        return out

    one = lines(1, 24)
    assert one == lines(2, 24) and one[:10] == lines(2, 10)
    assert len(set(one)) == 24
    r1 = simulate(players=3, games=300, seed=2, threads=1).to_dict()
    assert r1 == simulate(players=3, games=300, seed=2, threads=2).to_dict()
    assert abs(sum(r1["wins"]) - 300) < 1e-9


def test_custom_bots_play_from_python():
    class FirstLegal:
        name = "first"

        def __init__(self, seed):
            self.seed = seed

        def step(self, state):
            legal = [a for a in state.legal_actions() if state.action_name(a) not in ("mortgage", "repay")]
            return legal[0]

    result = simulate(players=4, games=3, bots=[FirstLegal, "random", "greedy", "random"], seed=3)
    assert result.bots == ["first", "random", "greedy", "random"] and result.games == 3
    named = simulate(players=4, games=3, bots=["random"] * 4, seed=3).to_dict()
    python = simulate(players=4, games=3, bots=[lambda s: RandomBot(s)] + ["random"] * 3, seed=3).to_dict()
    assert python["mean_wealth"] == named["mean_wealth"]
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(players=4, games=1, bots="random,random,random,smart")
    with pytest.raises(ValueError, match="one per seat"):
        simulate(players=4, games=1, bots="random,random")


# ------------------------------------------------------------------ illegal actions
def test_illegal_actions_raise_and_leave_the_state_unchanged():
    rng = random.Random(5)
    checked = 0
    for state, _ in random_game_states(25, seed=6, every=7):
        legal = set(state.legal_actions())
        before, table = state.serialize(), state.to_dict()
        rng_state = state._s.rng_state
        candidates = [rng.randrange(NUM_ACTIONS) for _ in range(12)] + [0, 1, 1001, 1002, NUM_ACTIONS - 1]
        for a in candidates:
            if a in legal:
                continue
            with pytest.raises(IllegalActionError) as info:
                state.apply_action(a)
            assert info.value.reason and info.value.reason.startswith(ACTION_NAMES[a])
            assert state.illegal_reason(a) == info.value.reason
            checked += 1
        assert state.serialize() == before and state.to_dict() == table and state._s.rng_state == rng_state
        for a in legal:
            assert state.illegal_reason(a) is None and state.is_legal(a)
    assert checked > 1000


# ------------------------------------------------------------------ the evaluator
def test_the_voyage_in_progress_is_evaluated_at_every_decision():
    evaluated = 0
    for state, _ in random_game_states(9, seed=7, bots=["greedy", "random", "random", "random", "random"]):
        if state.is_chance_node() or state.is_terminal():
            continue
        data = state.voyage_state(player=state.current_player())
        if state.phase in ("placement", "boarding", "small_pilot", "large_pilot"):
            assert data is not None
        if data is None:
            with pytest.raises(ValueError, match="no voyage"):
                state.evaluate()
            continue
        result = manila.evaluate(data)
        evaluated += 1
        assert set(result.incomes) <= {f"p{p}" for p in range(state.game.players)}
        if state.phase == "placement":
            spots = {
                state.action_name(a)[6:]
                for a in state.legal_actions()
                if state.action_name(a).startswith("place ")
            }
            assert spots <= set(result.spots)
    assert evaluated > 100


def test_greedy_places_on_the_best_expected_net_spot():
    decided = 0
    for state, action in random_game_states(8, seed=8, bots=["greedy"] * 5):
        if state.phase != "placement":
            continue
        me = state.current_player()
        cash = state.to_dict()["players"][me]["cash"]
        spots = state.evaluate(player=me, exact=True).spots
        options = []
        for a in state.legal_actions():
            name = state.action_name(a)
            if not name.startswith("place "):
                continue
            cost, blind = state._s.placement_terms(me, a - _core.ACTION_OFFSETS["place"])
            if blind or (cost > cash and name != "place insurance"):
                break  # loans and blind passengers change the sums; covered by the rule tests
            options.append((spots[name[6:]]["expected_net"], name))
        else:
            best = max([o for o in options if o[0] > 0], key=lambda o: o[0], default=(0, "decline"))
            top = [n for v, n in options if v == best[0] and v > 0]
            expected = top[0] if top else "decline"
            assert state.action_name(action) == expected
            decided += 1
    assert decided > 30


@pytest.mark.parametrize("bot, objective", [("greedy", "income"), ("greedy-wealth", "wealth")])
def test_greedy_pilots_maximise_their_expected_payoff(bot, objective):
    decided = differs = 0
    for state, action in random_game_states(30, seed=9, bots=[bot] * 5):
        if state.phase not in ("small_pilot", "large_pilot"):
            continue
        me = f"p{state.current_player()}"
        values, incomes = {}, {}
        for a in state.legal_actions():
            if state.action_name(a) in ("mortgage", "repay"):
                continue
            after = state.clone()
            after.apply_action(a)
            # The bot sees only its own face-down shares.
            data = PlayerView(after, state.current_player()).voyage_state(objective)
            result = manila.evaluate(data, exact=True) if data is not None else None
            values[a] = result.payoffs.get(me, Fraction(0)) if result else None
            incomes[a] = result.incomes.get(me, Fraction(0)) if result else None
        if None in values.values():
            continue
        assert values[action] == max(values.values())
        differs += values != incomes
        decided += 1
    assert decided > 5
    assert (differs > 0) == (objective == "wealth")


def test_greedy_beats_random_over_2000_games():
    greedy_first = simulate(players=4, games=2000, bots="greedy,random,random,random", seed=1)
    assert greedy_first.win_rates[0] > 0.9
    assert greedy_first.mean_wealth[0] > 2 * max(greedy_first.mean_wealth[1:])
    greedy_third = simulate(players=4, games=200, bots="random,random,greedy,random", seed=11)
    assert greedy_third.win_rates[2] > 0.9


def test_bots():
    assert isinstance(make_bot("random", 1), RandomBot) and isinstance(make_bot("greedy"), GreedyBot)
    assert make_bot("greedy-wealth").wealth and not make_bot("greedy").wealth
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("smart")
    state = Game(4, 1).new_initial_state()
    while state.is_chance_node():
        state.apply_chance()
    assert GreedyBot().step(PlayerView(state, state.current_player())) in state.legal_actions()
    assert RandomBot(3).step(PlayerView(state, state.current_player())) in state.legal_actions()


def test_play_outs_release_the_gil():
    done = threading.Event()

    def work():
        _core.play_games(players=4, seed=0, first=0, n=6000, bots=["random"] * 4, threads=1)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    spins = 0
    start = time.perf_counter()
    while not done.is_set():
        spins += 1
        time.sleep(0)
    worker.join()
    elapsed = time.perf_counter() - start
    assert elapsed < 0.02 or spins > 100  # the main thread ran while C++ played

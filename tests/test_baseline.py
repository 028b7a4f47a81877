"""The training baseline (manila.rl.baseline) and its policy played as a bot (policy:PATH)."""

from __future__ import annotations

import csv
import json
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import manila
from manila import _core
from manila.bots.policy import (
    BID_RAISES,
    NUM_CHOICES,
    NUM_PLAYER_ACTIONS,
    Policy,
    choice_actions,
    choice_masks,
    forward,
)
from manila.cli import main
from manila.game import Game
from manila.rl.baseline import (
    TrainConfig,
    Trainer,
    _backward,
    _init_layers,
    actor_loss,
    critic_loss,
    evaluate,
    train,
)

# A run of a second or two: enough games to learn to beat random, few enough for a test.
TINY = TrainConfig(
    seed=7,
    updates=5,
    opponents=("random",),
    envs=4,
    steps=40,
    hidden=(16,),
    learning_rate=3e-3,
    minibatch=512,
    eval_every=5,
    eval_games=8,
)


@pytest.fixture(scope="module")
def trained():
    return train(TINY)


@pytest.fixture(scope="module")
def policy_file(trained, tmp_path_factory):
    path = tmp_path_factory.mktemp("policy") / "p.npz"
    trained.policy.save(path)
    return path


def test_a_run_is_reproducible_from_its_seed(trained, tmp_path):
    again = tmp_path / "again.npz"
    train(TINY).policy.save(again)
    first = tmp_path / "first.npz"
    trained.policy.save(first)
    assert first.read_bytes() == again.read_bytes()
    other = tmp_path / "other.npz"
    train(replace(TINY, seed=8)).policy.save(other)
    assert other.read_bytes() != first.read_bytes()


def test_training_beats_the_untrained_policy_against_random():
    trainer = Trainer(TINY)
    before = trainer.policy()
    after = trainer.run().policy
    untrained = evaluate(before, "random", 100, seed=99)
    learned = evaluate(after, "random", 100, seed=99)
    assert untrained.rate < 0.5  # about 0.37: near the 0.25 of a seat among equals
    assert learned.rate >= 0.8, (untrained, learned)


def test_the_file_holds_the_policy_and_how_it_was_made(trained, policy_file):
    loaded = Policy.load(policy_file)
    assert loaded.players == 4 and loaded.seed == TINY.seed
    assert loaded.info["config"]["updates"] == TINY.updates
    for (w, b), (w2, b2) in zip(trained.policy.layers, loaded.layers):
        np.testing.assert_array_equal(w, w2)
        np.testing.assert_array_equal(b, b2)
    # The curve: the untrained policy, then every eval_every updates.
    assert loaded.curve[:, loaded.curve_columns.index("update")].tolist() == [0, 5]
    assert loaded.curve_columns[:3] == ["update", "games", "decisions"]
    with np.load(policy_file) as data:
        assert int(data["format"]) == 1 and int(data["observation_size"]) == 282


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_the_policy_plays_the_ladder_as_it_played_in_training(policy_file, opponent):
    """The ladder plays policy:PATH one move at a time from a PlayerView; the trainer's
    evaluation batched in VectorEnv: the same games must give the same results."""
    ladder = manila.ladder(
        players=4, bots=f"policy:{policy_file},{opponent},{opponent},{opponent}", games=16, seed=5, threads=1
    )
    stats = ladder.bots[f"policy:{policy_file}"]
    score = evaluate(Policy.load(policy_file), opponent, 16, seed=5)
    assert (stats.games, stats.wins, stats.mean_wealth) == (score.games, score.wins, score.mean_wealth)


def test_the_command_line_trains_and_the_ladder_plays_it(tmp_path, capsys):
    out, curve = tmp_path / "p.npz", tmp_path / "curve.csv"
    argv = ["train-policy", "--out", str(out), "--curve", str(curve), "--updates", "2", "--eval-every", "1"]
    argv += ["--envs", "1", "--steps", "8", "--hidden", "4,4", "--eval-games", "4", "--quiet"]
    assert main(argv) == 0
    assert f"wrote {out}: 2 updates" in capsys.readouterr().out
    with curve.open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["update"]) for r in rows] == [0, 1, 2]
    assert all(
        0 <= float(r["greedy_lo"]) <= float(r["greedy_rate"]) <= float(r["greedy_hi"]) <= 1 for r in rows
    )
    assert [w.shape for w, _ in Policy.load(out).layers] == [(282, 4), (4, 4), (4, NUM_CHOICES)]
    assert main(["ladder", "--bots", f"policy:{out},greedy,greedy,greedy", "--games", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["bots"][f"policy:{out}"]["games"] == 4


def test_the_policy_bot_refuses_another_number_of_players(policy_file):
    with pytest.raises(ValueError, match="trained for 4 players, the game has 3"):
        manila.ladder(players=3, bots=f"policy:{policy_file},random,random", games=3, seed=1)


def _arrays(path):
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def _write(path, arrays):
    with zipfile.ZipFile(path, "w") as zf:
        for name, a in arrays.items():
            with zf.open(f"{name}.npy", "w") as f:
                np.lib.format.write_array(f, a)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda a: a.pop("format"), "not a policy file: it has no 'format'"),
        (lambda a: a.update(format=np.array(2)), "format version 2, but this manila reads version 1"),
        (
            lambda a: a.update(observation_size=np.array(281)),
            "observation_size is 281, but this engine's is 282",
        ),
        (lambda a: a.update(bid_raises=np.array(5)), f"bid_raises is 5, but this engine's is {BID_RAISES}"),
        (lambda a: a.update(players=np.array(9)), "players:"),
        (lambda a: a.update(scale=a["scale"][::-1]), "observation scales are not this engine's"),
        (lambda a: a.pop("w1"), r"layer 1 of 2 is missing \(w1, b1\)"),
        (lambda a: a.update(w0=a["w0"][:-1]), r"layer 0 has weights \(281, 16\)"),
        (lambda a: a.update(w1=a["w1"][:, :-1], b1=a["b1"][:-1]), f"must give {NUM_CHOICES} scores"),
        (lambda a: a.update(b0=np.full_like(a["b0"], np.nan)), "layer 0 holds a value that is not finite"),
        (lambda a: a.update(w0=a["w0"].astype(np.float64)), "layer 0 must be float32"),
    ],
)
def test_a_mismatched_file_is_refused(policy_file, tmp_path, change, message):
    arrays = _arrays(policy_file)
    change(arrays)
    bad = tmp_path / "bad.npz"
    _write(bad, arrays)
    with pytest.raises(ValueError, match=message):
        Policy.load(bad)


def test_a_missing_or_corrupt_file_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"bots: policy file '.*nothing.npz': no such file"):
        manila.ladder(bots=f"policy:{tmp_path / 'nothing.npz'},random,random,random", games=4)
    text = tmp_path / "text.npz"
    text.write_text("not a zip")
    with pytest.raises(ValueError, match=r"text.npz': not a policy file \(.npz from train-policy\)$"):
        Policy.load(text)
    pickled = tmp_path / "pickled.npy"
    np.save(pickled, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match=r"pickled.npy': not a policy file \(.npz from train-policy\)$"):
        Policy.load(pickled)  # never numpy's advice to load it unsafely
    with pytest.raises(ValueError, match="a folder, not a policy file"):
        Policy.load(tmp_path)
    with pytest.raises(ValueError, match="give the policy file after 'policy:'"):
        manila.ladder(bots="policy:,random,random,random", games=4)


def test_the_command_line_names_the_option_at_fault(tmp_path, capsys):
    out = str(tmp_path / "p.npz")
    for argv, message in [
        (["--eval-games", "6"], "--eval-games: a positive multiple of the players (4)"),
        (["--opponents", "greedyy"], "--opponents: unknown bot 'greedyy'"),
        (["--opponents", "mybots:Bot"], "--opponents: bot 'mybots:Bot': cannot import mybots"),
        (["--opponents", "manila.bots.builtin:RandomBot"], "is not played inside VectorEnv"),
        (["--minutes", "0"], "--minutes: must be above 0"),
        (["--hidden", "0"], "--hidden: one or more layer widths from 1 to 4096"),
    ]:
        assert main(["train-policy", "--out", out, *argv]) == 2
        assert message in capsys.readouterr().err, argv
    assert main(["train-policy", "--out", str(tmp_path / "no" / "p.npz")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["train-policy", "--out", out, "--curve", str(tmp_path)]) == 2
    assert "is a folder; give a file name" in capsys.readouterr().err


def test_every_choice_is_a_legal_action_and_every_other_action_a_choice():
    rng = np.random.default_rng(1)
    state = Game(players=4, seed=3).new_initial_state()
    seen_bids = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        legal = state.legal_actions()
        mask = np.zeros((1, NUM_PLAYER_ACTIONS), bool)
        mask[0, legal] = True
        choices, lowest = choice_masks(mask)
        actions = choice_actions(np.flatnonzero(choices[0]), np.repeat(lowest, choices[0].sum())).tolist()
        assert len(set(actions)) == len(actions) and set(actions) <= set(legal)
        bids = [a for a in legal if 1 <= a <= _core.MAX_BID]
        assert set(legal) - set(actions) == set(bids[BID_RAISES:])  # only the high bids are left out
        seen_bids += bool(bids)
        state.apply_action(int(rng.choice(legal)))
    assert seen_bids


def _numeric_gradient(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f()
        x[i] = old - eps
        down = f()
        x[i] = old
        g[i] = (up - down) / (2 * eps)
    return g


def test_the_gradients_are_those_of_the_losses():
    rng = np.random.default_rng(0)
    n, k = 6, 5
    scores = rng.normal(size=(n, k))
    legal = rng.random((n, k)) < 0.7
    legal[:, 0] = True
    choice = np.array([np.flatnonzero(row)[-1] for row in legal])
    old_logp = rng.normal(-1.5, 0.2, n)
    adv = rng.normal(size=n)
    _, grad = actor_loss(scores, legal, choice, old_logp, adv, 0.2, 0.05)
    numeric = _numeric_gradient(
        lambda: actor_loss(scores, legal, choice, old_logp, adv, 0.2, 0.05)[0], scores
    )
    np.testing.assert_allclose(grad, numeric, atol=1e-7)
    assert np.all(grad[~legal] == 0)

    layers = _init_layers([7, 5, 3, 1], 1.0, rng)
    layers = [(w.astype(np.float64), b.astype(np.float64)) for w, b in layers]
    x = rng.normal(size=(4, 7))
    returns = rng.normal(size=4)

    def total() -> float:
        return critic_loss(forward(layers, x)[-1], returns)[0]

    outs = forward(layers, x)
    grads = _backward(layers, outs, critic_loss(outs[-1], returns)[1])
    for (w, b), (gw, gb) in zip(layers, grads):
        np.testing.assert_allclose(gw, _numeric_gradient(total, w), atol=1e-7)
        np.testing.assert_allclose(gb, _numeric_gradient(total, b), atol=1e-7)


def test_the_example_policy_still_fits_the_engine_and_beats_random():
    """examples/baseline-policy.npz is the run of docs/training.md: a change to the
    observation or the actions makes it unreadable, and it must then be trained again."""
    path = Path(__file__).resolve().parents[1] / "examples" / "baseline-policy.npz"
    policy = Policy.load(path)
    assert policy.info["config"]["updates"] == 955 and policy.seed == 1
    assert evaluate(policy, "random", 40, seed=3).rate >= 0.9

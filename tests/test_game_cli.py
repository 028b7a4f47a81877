"""The simulate and replay commands (through their add_*_arguments / run_* pieces)."""

import argparse
import json
import sys

import pytest

from manila.bots import bots_for
from manila.cli.games import add_simulate_arguments, run_simulate
from manila.cli.replay import add_replay_arguments, read_records, replay_lines, run_replay
from manila.game import Game, play
from manila.view import PlayerView


def run(command, argv):
    parser = argparse.ArgumentParser(prog="manila")
    sub = parser.add_subparsers(dest="command", required=True)
    add_simulate_arguments(sub.add_parser("simulate"))
    add_replay_arguments(sub.add_parser("replay"))
    args = parser.parse_args([command, *argv])
    return (run_simulate if command == "simulate" else run_replay)(args)


def test_simulate_json(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a bar is drawn on terminals only
    code = run(
        "simulate",
        ["--players", "4", "--games", "60", "--bots", "greedy,random,random,random", "--seed", "1", "--json"],
    )
    out, err = capsys.readouterr()
    assert code == 0
    result = json.loads(out)
    assert result["games"] == 60 and result["players"] == 4
    assert len(result["wins"]) == len(result["mean_wealth"]) == 4
    assert abs(sum(result["wins"]) - 60) < 1e-9 and result["mean_voyages"] > 1
    assert result["bots"] == ["greedy", "random", "random", "random"]
    assert result["wins"][0] > 50
    assert "60/60" in err  # the progress bar, on standard error
    run(
        "simulate",
        [
            "--games",
            "60",
            "--bots",
            "greedy,random,random,random",
            "--seed",
            "1",
            "--json",
            "--no-progress",
            "--threads",
            "1",
        ],
    )
    again, err = capsys.readouterr()
    assert again == out and err == ""


def test_a_random_seed_is_drawn_anew_and_printed_to_repeat_the_run(capsys):
    argv = ["--players", "3", "--games", "6", "--bots", "random", "--json", "--no-progress"]
    results = []
    for seed in ("random", "random"):
        assert run("simulate", [*argv, "--seed", seed]) == 0
        results.append(json.loads(capsys.readouterr().out))
    first, second = results
    assert first["seed"] != second["seed"] and 0 <= first["seed"] < 2**64
    assert run("simulate", [*argv, "--seed", str(first["seed"])]) == 0
    assert json.loads(capsys.readouterr().out) == first
    with pytest.raises(SystemExit):
        run("simulate", [*argv, "--seed", "often"])
    assert "not an integer or 'random': 'often'" in capsys.readouterr().err


def test_simulate_table(capsys):
    assert (
        run(
            "simulate",
            [
                "--players",
                "3",
                "--games",
                "30",
                "--seed",
                "2",
                "--no-progress",
                "--pirate-variant",
                "--thirteen-after-last-roll",
                "shipyard",
                "--check",
            ],
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "30 games, 3 players, seed 2" in out and "pirate_variant=true" in out
    assert "win rate" in out and "mean game length" in out and "games/s" in out


def test_records_are_byte_for_byte_reproducible_and_replay(tmp_path, capsys):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path, threads in ((first, "1"), (second, "2")):
        assert (
            run(
                "simulate",
                [
                    "--games",
                    "12",
                    "--bots",
                    "greedy,random,random,random",
                    "--seed",
                    "5",
                    "--record",
                    str(path),
                    "--no-progress",
                    "--threads",
                    threads,
                ],
            )
            == 0
        )
    assert first.read_bytes() == second.read_bytes()
    records = read_records(str(first))
    assert len(records) == 12 and [r["index"] for r in records] == list(range(12))
    rec = records[3]
    state = play(Game(4, rec["seed"]), bots_for(rec["bots"], rec["seed"]))
    assert state.history() == rec["history"] and state.returns() == rec["wealth"]
    capsys.readouterr()
    assert run("replay", [str(first), "--game", "3"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("game 3, game seed")
    assert "== voyage 1 ==" in text and "is harbour master" in text and "voyage over." in text
    assert "incomes:" in text and "prices:" in text and "== game over after" in text
    for p, w in enumerate(rec["wealth"]):
        assert f"p{p}: wealth {w}" in text
    assert run("replay", [str(first), "--game", "3", "--board"]) == 0
    assert "cash" in capsys.readouterr().out


def test_record_to_standard_output(capsys):
    assert run("simulate", ["--games", "3", "--record", "-", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and all(json.loads(x)["version"] == 1 for x in lines)


def test_replay_a_serialized_state_and_errors(tmp_path, capsys):
    state = Game(3, seed=4).new_initial_state()
    for _ in range(40):
        if state.is_chance_node():
            state.apply_chance()
        else:
            state.apply_action(state.legal_actions()[0])
    path = tmp_path / "state.json"
    path.write_text(state.serialize())
    assert run("replay", [str(path)]) == 0
    assert "== stopped after 40 moves" in capsys.readouterr().out
    assert run("replay", [str(path), "--game", "1"]) == 2
    assert "has 1 game" in capsys.readouterr().err
    assert run("replay", [str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"players": 4, "history": [5]}\n')
    assert run("replay", [str(bad)]) == 2
    assert f"error: {bad}: history[0]: action 5 (bid 5)" in capsys.readouterr().err  # as review says it
    done = play(Game(3, 4), bots_for(["random"] * 3, 4))
    record = {**json.loads(done.serialize()), "wealth": [w + 1 for w in done.returns()]}
    with pytest.raises(ValueError, match="the record says"):
        list(replay_lines(record))


def test_replay_to_a_move_and_show_the_position(tmp_path, capsys):
    done = play(Game(4, 9), bots_for(["greedy"] * 4, 9))
    path = tmp_path / "game.json"
    path.write_text(done.serialize())
    # Find a move during a voyage, with a player to move.
    state = Game(4, 9).new_initial_state()
    to = None
    for i, a in enumerate(done.history()):
        if to is None and i > 20 and state.is_player_node() and state.voyage_state() is not None:
            to, seat, expected = i, state.current_player(), state.clone()
        state.apply_action(a)
    assert run("replay", [str(path), "--to", str(to)]) == 0
    out = capsys.readouterr().out
    assert f"== stopped after {to} moves, {expected.phase}, p{seat} to move ==" in out
    assert "game over" not in out
    assert (
        run("replay", [str(path), "--to", str(to), "--show", "state", "--show", "view", "--show", "voyage"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    rebuilt = Game(4, 9).deserialize_state(lines[0])
    assert rebuilt.history() == done.history()[:to] and rebuilt == expected
    assert json.loads(lines[1]) == expected.observation(seat)
    assert json.loads(lines[2]) == PlayerView(expected, seat).voyage_state()
    assert run("replay", [str(path), "--to", str(to), "--show", "view", "--player", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == expected.observation(2)
    assert run("replay", [str(path), "--to", "0"]) == 0
    assert "stopped after 0 moves" in capsys.readouterr().out
    for argv, message in [
        (["--to", str(len(done.history()) + 1)], f"the game has {len(done.history())} moves"),
        (["--to", "-1", "--show", "state"], "--to -1"),
        (["--to", "3", "--show", "voyage"], "no voyage in progress at move 3"),
        (["--show", "view"], "nobody is to move (game_over)"),
        (["--to", "30", "--show", "view", "--player", "7"], "--player: must be 0..3"),
    ]:
        assert run("replay", [str(path), *argv]) == 2
        assert message in capsys.readouterr().err


def test_the_table_widens_to_a_long_bot_name(capsys):
    assert (
        run("simulate", ["--players", "3", "--games", "3", "--bots", "greedy-wealth", "--no-progress"]) == 0
    )
    header, *rows = capsys.readouterr().out.splitlines()[1:5]
    end = header.index("wins") + len("wins")
    for row in rows:  # every number under its heading, right-aligned to it
        assert row.split()[1] == "greedy-wealth" and row[:end].endswith(row.split()[2])

"""Bots that are programs (``cmd:PROGRAM ARGS``, docs/bots.md): the example bots play
ladders, the messages are what the page says, and a program that fails is named with its
seat and game seed, within its time limit, and leaves nothing running."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest

from helpers.serving import call, serving
from manila import Cancelled, CancelToken, _core, cancellable, ladder, simulate
from manila.bots import BotError, CmdBot, RandomBot, bot_factory, bot_seed, bots_for, program_seed
from manila.bots.cmd import Limits, parse_cmd, stop_idle_programs
from manila.cli import main
from manila.game import Game, play
from manila.game.view import PlayerView

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "bots"
HELPER = Path(__file__).resolve().parent / "helpers" / "cmd_bots.py"
LINUX = sys.platform.startswith("linux")
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (CI installs it)")


def cmd(*argv: object, limits: str = "") -> str:
    return f"cmd{f'[{limits}]' if limits else ''}:{shlex.join(map(str, argv))}"


def helper(mode: str, *extra: object, limits: str = "") -> str:
    return cmd(sys.executable, HELPER, mode, *extra, limits=limits)


EXAMPLE_BOTS = {
    "python": cmd(sys.executable, EXAMPLES / "random_bot.py"),
    "node": cmd("node", EXAMPLES / "random_bot.mjs"),
}


# The interpreter's own helpers, started once by the first process pool of the test
# process (a ladder or a sweep on processes, in any test file of this worker) and kept.
_INTERPRETER_HELPERS = (b"multiprocessing.resource_tracker", b"multiprocessing.forkserver")


def children() -> list[str]:
    """This process's child processes, zombies included (Linux: read from /proc), but the
    interpreter's own helpers."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        state, ppid = stat.rpartition(")")[2].split()[:2]
        if int(ppid) == os.getpid() and not any(h in cmdline for h in _INTERPRETER_HELPERS):
            found.append(f"{pid} ({state}): {cmdline!r}")
    return found


@pytest.fixture(autouse=True)
def nothing_left_running():
    yield
    stop_idle_programs()
    if LINUX:
        assert children() == []


@pytest.mark.parametrize("language", [pytest.param("node", marks=needs_node), "python"])
def test_an_example_bot_plays_a_ladder_against_the_built_in_bots(language):
    spec = EXAMPLE_BOTS[language]
    result = ladder(players=3, bots=[spec, "random", "greedy"], games=102, seed=11)
    assert result.games == 102 and result.bots[spec].games == 102
    assert sum(s.wins for s in result.bots.values()) == pytest.approx(102)


def test_a_seeded_program_plays_the_same_games_on_any_executor():
    spec = EXAMPLE_BOTS["python"]
    run = dict(players=3, bots=[spec, "random", "greedy"], games=6, seed=3)
    first = ladder(**run).to_dict()
    assert ladder(**run, executor="threads").to_dict() == first
    assert ladder(**run, executor="processes").to_dict() == first
    assert ladder(**{**run, "seed": 4}).to_dict() != first


def test_the_docs_show_the_example_bots_in_full():
    page = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    for name, fence in (("random_bot.py", "python"), ("random_bot.mjs", "js")):
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        assert f"```{fence}\n{text}```" in page, name
        assert 15 <= len(text.splitlines()) <= 25, name
        assert os.access(EXAMPLES / name, os.X_OK), name  # runs by its path, as cmd:examples/bots/...


def test_the_messages_are_the_seats_table_and_its_legal_actions(tmp_path):
    log = tmp_path / "messages.jsonl"
    seen = []  # what the seat's view showed at each of its decisions

    def watch(state, action):
        if not state.is_chance_node() and state.current_player() == 0:
            view = PlayerView(state, 0)
            seen.append((view.observation(), view.legal_actions(), view.legal_action_names()))

    game = Game(3, seed=5)
    with CmdBot([sys.executable, str(HELPER), "record", str(log)], bot_seed(5, 0)) as bot:
        play(game, [bot, RandomBot(1), RandomBot(2)], on_action=watch)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    start, moves = lines[0]["message"], [line["message"] for line in lines[1:]]
    assert start == {
        "type": "start",
        "protocol": 1,
        "seat": 0,
        "players": 3,
        "seed": bot_seed(5, 0),
        "rules": game.rules.to_dict(),
        "limits": {"start": 10.0, "move": 5.0, "game": None},
    }
    assert len(moves) == len(seen) > 20
    for message, (observation, legal, names) in zip(moves, seen):
        assert set(message) == {"type", "observation", "legal", "time_left"}
        assert message["type"] == "move" and message["observation"] == observation
        assert message["legal"] == [{"id": a, "name": n} for a, n in zip(legal, names)]
        assert 0 < message["time_left"] <= 5.0


def game_seed_behind(seat_seed: int, seat: int) -> int:
    """The game seed whose seat ``seat`` has seed ``seat_seed`` by derive_seed (splitmix64,
    run backwards): what a bot handed the seat's seed itself could compute, and replay
    the deal and the dice from."""
    mask, golden = 2**64 - 1, 0x9E3779B97F4A7C15

    def unshift(y: int, s: int) -> int:
        x = y
        for _ in range(64 // s + 1):
            x = y ^ (x >> s)
        return x & mask

    z = unshift(seat_seed ^ (seat + 1), 31)
    z = unshift(z * pow(0x94D049BB133111EB, -1, 2**64) & mask, 27)
    z = unshift(z * pow(0xBF58476D1CE4E5B9, -1, 2**64) & mask, 30)
    return ((z - 2 * golden) & mask) ^ ((seat + 1) * 0xD1B54A32D192ED03 & mask)


def test_a_bot_from_outside_the_engine_cannot_compute_the_games_seed(tmp_path):
    from helpers import ladder_bots

    for seed in (5, 2**64 - 1):  # the inverse is right: the seat's own seed gives the game's
        assert game_seed_behind(bot_seed(seed, 2), 2) == seed
    ladder_bots.SEEDS_SEEN.clear()
    simulate(players=3, games=1, bots=["greedy", "greedy", "helpers.ladder_bots:SeedKeeper"], seed=4)
    log = tmp_path / "messages.jsonl"
    play(Game(3, seed=6), bots_for(["greedy", helper("record", log), "greedy"], 6))
    start = json.loads(log.read_text().splitlines()[0])["message"]
    for (seat, seed), game_seed in [
        (ladder_bots.SEEDS_SEEN[0], _core.derive_seed(4, 0)),
        ((1, start["seed"]), 6),
    ]:
        assert seed == program_seed(bot_seed(game_seed, seat))  # reproducible
        assert game_seed_behind(seed, seat) != game_seed


def test_a_program_is_started_once_and_plays_game_after_game(tmp_path):
    log = tmp_path / "messages.jsonl"
    ladder(players=3, bots=[helper("record", log), "random", "greedy"], games=6, seed=2)
    starts = [
        line for line in map(json.loads, log.read_text().splitlines()) if line["message"]["type"] == "start"
    ]
    assert len(starts) == 6
    assert len({line["pid"] for line in starts}) == 1
    assert sorted(line["message"]["seat"] for line in starts) == [0, 0, 1, 1, 2, 2]


def test_an_answer_by_name_plays_the_same_games_as_the_same_bot_in_python():
    lineup = ["random", "greedy"]
    by_name = ladder(players=3, bots=[helper("names"), *lineup], games=6, seed=8).to_dict()["bots"]
    python = ladder(players=3, bots=["helpers.ladder_bots:FirstLegal", *lineup], games=6, seed=8).to_dict()[
        "bots"
    ]
    assert by_name[helper("names")] == python["helpers.ladder_bots:FirstLegal"]
    assert by_name["greedy"] == python["greedy"]


# mode, its limits, the seconds before the error (the limit that applies: none for a
# failure that needs no waiting), what the error says, lines of its stderr shown
FAILURES = [
    (
        "crash",
        "",
        0,
        "exited with code 1 before answering",
        ["thinking about", "RuntimeError: the bot broke down"],
    ),
    ("garbage", "", 0, "answered 'foo bar', which is not JSON", []),
    (
        "illegal",
        "",
        0,
        """answered '{"action": 99999}': 99999 is not a legal action; legal are 0 'pass', """,
        [],
    ),
    ("silent", "move=0.5", 0.5, "no answer within 0.5 s", []),
    ("asleep", "start=0.5", 0.5, "no answer within 0.5 s", []),
]


@pytest.mark.parametrize(
    ("mode", "limits", "bound", "problem", "stderr"), FAILURES, ids=[f[0] for f in FAILURES]
)
def test_a_failing_program_is_named_with_its_seat_and_seed_within_its_time_limit(
    mode, limits, bound, problem, stderr
):
    spec = helper(mode, limits=limits)
    began = time.monotonic()
    with pytest.raises(BotError) as caught:
        ladder(players=3, bots=["random", spec, "greedy"], games=3, seed=7)
    elapsed = time.monotonic() - began
    error, seed = caught.value, _core.derive_seed(7, 0)  # rotation 0, seating 0: the bot in seat 1
    assert (error.bot, error.seat, error.game_seed) == (spec, 1, seed)
    assert str(error).startswith(f"bot {spec!r} at seat 1, game seed {seed}, move {error.move}: {problem}")
    for line in stderr:
        assert any(line in shown for shown in error.stderr), error.stderr
        assert line in str(error)
    assert bound <= elapsed < bound + 4  # the start of a program is in it too
    if LINUX:
        assert children() == []  # killed and reaped at once, not left for later


@pytest.mark.parametrize("where", ["simulate", "play", "processes"])
def test_every_way_of_playing_names_the_seat_and_seed(where):
    spec = helper("crash")
    with pytest.raises(BotError) as caught:
        if where == "simulate":
            simulate(players=3, games=2, bots=["greedy", "greedy", spec], seed=4)
        elif where == "play":
            play(Game(3, seed=4), bots_for(["greedy", "greedy", spec], 4))
        else:
            ladder(players=3, bots=["greedy", "greedy", spec], games=3, seed=4, executor="processes")
    seed = 4 if where == "play" else _core.derive_seed(4, 0)
    assert (caught.value.seat, caught.value.game_seed) == (2, seed)
    assert f"at seat 2, game seed {seed}" in str(caught.value)
    assert "RuntimeError: the bot broke down" in str(caught.value)


def test_the_game_limit_counts_every_move_of_the_game():
    with pytest.raises(
        BotError, match=r"(no answer within .* s \(the rest|are used up).*0\.5 s for the game"
    ):
        ladder(
            players=3, bots=[helper("slow", limits="move=2 game=0.5"), "random", "random"], games=3, seed=1
        )


def test_a_line_nobody_asked_for_is_an_error():
    bot = CmdBot([sys.executable, str(HELPER), "twice"], 1)

    def after_its_first_move(state, action):
        # The stray line: wait until it is read, for the check not to depend on timing.
        program = bot._program
        while program is not None and program.answers.qsize() == 0 and program.running():
            time.sleep(0.01)

    with pytest.raises(BotError, match=re.escape('wrote a line nobody asked for: \'{"action": ')):
        play(Game(3, seed=2), [bot, RandomBot(1), RandomBot(2)], on_action=after_its_first_move)


def test_a_program_that_ignores_the_end_of_its_input_is_killed():
    spec = helper("stubborn")
    ladder(players=3, bots=[spec, "random", "random"], games=3, seed=1)
    began = time.monotonic()
    stop_idle_programs()
    assert time.monotonic() - began < 5  # a second's grace, then killed
    if LINUX:
        assert children() == []


def starts(log):
    """The process id of each start the record bot read, and of each end of its input."""
    lines = map(json.loads, log.read_text().splitlines())
    return [
        (line["pid"], "end" if line["message"] == "end of input" else line["message"]["type"])
        for line in lines
    ]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_forked_child_leaves_its_parents_programs_alone(tmp_path):
    log = tmp_path / "messages.jsonl"
    run = dict(players=3, bots=[helper("record", log), "random", "random"], games=3, seed=1)
    ladder(**run)  # its program waits for the next game: the fork copies it, pipes and all
    ready, done = os.pipe(), os.pipe()
    child = os.fork()
    if child == 0:  # plays with a program of its own, and keeps running while the parent stops its
        status = 1
        try:
            ladder(**run)
            stop_idle_programs()
            os.write(ready[1], b".")
            os.read(done[0], 1)
            status = 0
        finally:
            os._exit(status)
    os.read(ready[0], 1)
    stop_idle_programs()  # the child holds no copy of the program's input: it ends as asked
    os.write(done[1], b".")
    assert os.waitpid(child, 0)[1] == 0
    events = [event for event in starts(log) if event[1] != "move"]
    parent, forked = events[0][0], events[4][0]
    assert parent != forked
    assert events == [(parent, "start")] * 3 + [(forked, "start")] * 3 + [(forked, "end"), (parent, "end")]


def test_cancelling_stops_the_wait_for_an_answer():
    bot = CmdBot([sys.executable, str(HELPER), "silent"], 1, limits=Limits(move=60))
    began = time.monotonic()
    with cancellable(CancelToken(0.5)), pytest.raises(Cancelled):
        play(Game(3, seed=2), [bot, RandomBot(1), RandomBot(2)])
    assert time.monotonic() - began < 10
    if LINUX:
        assert children() == []


@pytest.mark.skipif(not LINUX, reason="counts descriptors in /proc")
def test_nothing_is_left_behind():
    spec = EXAMPLE_BOTS["python"]
    ladder(players=3, bots=[spec, spec, "random"], games=3, seed=1)  # the reaper thread starts
    stop_idle_programs()
    descriptors, threads = len(os.listdir("/proc/self/fd")), threading.active_count()
    ladder(players=3, bots=[spec, spec, "random"], games=6, seed=2, executor="threads")
    with pytest.raises(BotError):
        ladder(players=3, bots=[spec, helper("crash"), "random"], games=3, seed=1)
    bots = bots_for([spec, "random", spec], 3)
    play(Game(3, seed=3), bots)
    del bots  # dropped without close(): the programs go back all the same
    stop_idle_programs()
    assert children() == []
    assert len(os.listdir("/proc/self/fd")) == descriptors
    assert threading.active_count() == threads


BAD_NAMES = [
    ("cmd:", "no program after 'cmd:'"),
    ("cmd:  ", "no program after 'cmd:'"),
    ("cmd:'python3", "cannot be split as a shell would: No closing quotation"),
    ("cmd:no-such-program-3141", "program 'no-such-program-3141': not found on PATH"),
    ("cmd:./no/such/bot", "program './no/such/bot': no such executable file"),
    ("cmd[move=0]:python3", "move: seconds, more than 0 and at most"),
    ("cmd[game=soon]:python3", "game: seconds, got 'soon'"),
    ("cmd[speed=1]:python3", "'speed=1' is not a time limit; the limits are start=SECONDS, move=SECONDS"),
    ("cmd[move=1:python3", "a program bot is cmd:PROGRAM ARGS, or cmd[move=S game=S start=S]:PROGRAM ARGS"),
]


@pytest.mark.parametrize(("spec", "message"), BAD_NAMES)
def test_a_bad_name_is_refused_before_any_game(spec, message):
    with pytest.raises(ValueError, match=f"^bots: bot {re.escape(repr(spec))}: .*{re.escape(message)}"):
        ladder(players=3, bots=[spec, "random", "random"], games=3)
    with pytest.raises(ValueError, match=re.escape(message)):
        bot_factory(spec)


def test_limits_are_read_from_the_name():
    argv, limits = parse_cmd(f"cmd[move=0.5 game=30]:{sys.executable} -u 'a b.py'")
    assert argv == (sys.executable, "-u", "a b.py")
    assert limits == Limits(start=10.0, move=0.5, game=30.0)
    assert parse_cmd(f"cmd:{sys.executable}")[1] == Limits()


def test_the_server_plays_a_program_only_from_its_allow_list():
    spec = EXAMPLE_BOTS["python"]
    new = {"new": {"players": 3, "seed": 3, "human": 0, "bots": [spec, "greedy"]}}
    with serving(allow_bots=[spec]) as srv:
        reply = call(srv, "POST", "/v1/play", new)
        assert reply.status == 200, reply.body
        data = reply.json()
        assert data["bots"] == {"p1": spec, "p2": "greedy"}
        assert spec in call(srv, "GET", "/openapi.json").body.decode()
        while not data["terminal"]:  # the whole game, a request a move
            action = next(a for a in data["legal_actions"] if a not in ("mortgage", "repay"))
            reply = call(srv, "POST", "/v1/play", {"game": data["game"], "action": action})
            assert reply.status == 200, reply.body
            data = reply.json()
        saved = data["game"]
        other = call(srv, "POST", "/v1/play", {"new": {**new["new"], "bots": [spec + " ", "greedy"]}})
        assert other.status == 400 and other.errors[0]["path"] == "new.bots[0]"
    with serving() as srv:
        for body, path in ((new, "new.bots[0]"), ({"game": saved}, "game.play.bots[0]")):
            reply = call(srv, "POST", "/v1/play", body)
            assert reply.status == 400
            [error] = reply.errors
            assert error["path"] == path
            assert f"bot {spec!r} is not allowed" in error["message"]
            assert "serve --allow-bot" in error["message"]


def test_a_failing_program_on_the_server_is_logged_with_its_seat_and_seed(capfd):
    crash = helper("crash")
    with serving(allow_bots=[crash]) as srv:
        reply = call(
            srv, "POST", "/v1/play", {"new": {"players": 3, "seed": 3, "human": 2, "bots": [crash, "greedy"]}}
        )
    assert reply.status == 500
    log = capfd.readouterr().err
    assert f"BotError: bot {crash!r} at seat 0, game seed 3, move " in log
    assert "RuntimeError: the bot broke down" in log


def test_the_server_checks_its_allow_list_when_it_starts(capsys):
    assert main(["serve", "--port", "0", "--allow-bot", "cmd:no-such-program-3141"]) == 2
    err = capsys.readouterr().err
    assert "manila: error: --allow-bot: bot 'cmd:no-such-program-3141': program 'no-such-program-3141'" in err
    with pytest.raises(ValueError, match="allow_bots: bot 'cmd:'"), serving(allow_bots=["cmd:"]):
        pass


def test_the_command_line_plays_a_program_and_reports_its_failure(capsys):
    spec = EXAMPLE_BOTS["python"]
    assert main(["ladder", "--players", "3", "--games", "3", "--bots", f"{spec},random,greedy"]) == 0
    assert spec in capsys.readouterr().out
    crash = helper("crash")
    assert (
        main(
            [
                "simulate",
                "--players",
                "3",
                "--games",
                "1",
                "--no-progress",
                "--bots",
                f"{crash},random,random",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.startswith(f"manila: error: bot {crash!r} at seat 0, game seed ")
    assert "RuntimeError: the bot broke down" in err

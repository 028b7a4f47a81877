"""Bots in any language: a program that plays over JSON lines (docs/bots.md).

A bot given as ``cmd:PROGRAM ARGS`` (split as a shell would, by ``shlex``) is a program
that reads one JSON message per line on its standard input and writes one JSON answer per
line on its standard output: ``start`` (a game begins: seat, players, seed, rules, time
limits), answered ``{"ready": true}``; ``move`` (the seat's table, its legal actions by
id and name, the seconds left), answered ``{"action": <id or name>}``. The time limits
are written ``cmd[move=2 game=60 start=10]:PROGRAM ARGS``.

A program plays one game at a time and is kept for the next game the same command plays
in this Python process: it is started when a game first needs it, returned when its
``CmdBot`` is closed or dropped, and stopped (its standard input closed, then killed)
after ``IDLE_SECONDS`` unused, when Python exits, or at once when it fails. A program that
cannot start, exits, answers what is not a legal action, or outruns its time raises
``BotError``, naming the bot, the seat, the game seed and the move, with the last lines
the program wrote to its standard error.
"""

from __future__ import annotations

import atexit
import collections
import functools
import json
import math
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import IO, Any, Callable, Optional, Union

from .. import _core
from ..common.limits import MAX_SECONDS
from ..game.play import BotError
from ..game.view import PlayerView

__all__ = [
    "IDLE_SECONDS",
    "PROTOCOL",
    "BotError",
    "CmdBot",
    "Limits",
    "cmd_factory",
    "is_cmd_spec",
    "parse_cmd",
    "stop_idle_programs",
]

PROTOCOL = 1  # the version of the messages, sent in every start (docs/bots.md)
PREFIX = "cmd"
IDLE_SECONDS = 5.0  # how long a program waits unused for its next game before it is stopped
STOP_GRACE = 1.0  # seconds a program is given to exit once its standard input is closed
MAX_ANSWER = 64 * 1024  # bytes in one answer line: an action is a few dozen
STDERR_LINES = 12  # the last lines of standard error an error shows
_SHOWN_LEGAL = 12  # legal actions listed in an error, at most
_POLL = 0.05  # seconds between two looks at the thread's cancel token while waiting
_Argv = tuple[str, ...]


@dataclass(frozen=True)
class Limits:
    """Seconds a program may take: to answer a game's ``start`` (its launch included),
    for one move, and for all its moves in one game (None: no limit but the move's)."""

    start: float = 10.0
    move: float = 5.0
    game: Optional[float] = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name == "game":
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
                or not 0 < value <= MAX_SECONDS
            ):
                raise ValueError(f"{f.name}: seconds, more than 0 and at most {MAX_SECONDS:g}, got {value!r}")

    def to_dict(self) -> dict[str, Optional[float]]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def is_cmd_spec(spec: str) -> bool:
    """Whether ``spec`` names a program bot (``cmd:...`` or ``cmd[...]:...``)."""
    return spec.startswith((PREFIX + ":", PREFIX + "["))


def parse_cmd(spec: str) -> tuple[_Argv, Limits]:
    """The program's arguments and the time limits of ``cmd[LIMITS]:PROGRAM ARGS``; the
    program must be found (on PATH, or as a path)."""
    form = f"a program bot is {PREFIX}:PROGRAM ARGS, or {PREFIX}[move=S game=S start=S]:PROGRAM ARGS"
    head, sep, command = spec.partition(":")
    if not sep or not is_cmd_spec(spec):
        raise ValueError(f"bot {spec!r}: {form}")
    limits = Limits()
    if head != PREFIX:
        if not (head.startswith(PREFIX + "[") and head.endswith("]")):
            raise ValueError(f"bot {spec!r}: {form}")
        limits = _limits(spec, head[len(PREFIX) + 1 : -1])
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:  # an unclosed quotation
        raise ValueError(f"bot {spec!r}: the command cannot be split as a shell would: {exc}") from None
    if not argv:
        raise ValueError(f"bot {spec!r}: no program after '{head}:'; {form}")
    if shutil.which(argv[0]) is None:
        where = "no such executable file" if os.sep in argv[0] else "not found on PATH"
        raise ValueError(f"bot {spec!r}: program {argv[0]!r}: {where}")
    return argv, limits


def _limits(spec: str, text: str) -> Limits:
    names = [f.name for f in fields(Limits)]
    given: dict[str, float] = {}
    for item in text.split():
        key, eq, value = item.partition("=")
        if not eq or key not in names:
            raise ValueError(
                f"bot {spec!r}: {item!r} is not a time limit; the limits are "
                f"{', '.join(n + '=SECONDS' for n in names)}, separated by spaces"
            )
        try:
            given[key] = float(value)
        except ValueError:
            raise ValueError(f"bot {spec!r}: {key}: seconds, got {value!r}") from None
    try:
        return replace(Limits(), **given)
    except ValueError as exc:
        raise ValueError(f"bot {spec!r}: {exc}") from None


class _Failure(Exception):
    """What went wrong with a program, before it is said with the bot, seat and seed."""


class _Late(_Failure):
    """No answer in time."""


_EOF = b""  # what the reader hands on when the program's standard output closes


class _Program:
    """A running bot program: its pipes, a thread reading its answers, a thread keeping
    the tail of its standard error."""

    def __init__(self, argv: _Argv):
        self.argv = argv
        self.owner = os.getpid()  # a forked child must never signal its parent's programs
        try:
            # Its own process group: a wrapper's children (uv run, npx, sh -c) are stopped with it.
            self.popen = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=os.name == "posix",
            )
        except OSError as exc:
            raise _Failure(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        self.answers: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self.tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        assert self.popen.stdout is not None and self.popen.stderr is not None
        self.readers = [
            threading.Thread(target=self._read_answers, args=(self.popen.stdout,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(self.popen.stderr,), daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    # Each reader closes its own pipe at the end: closing it from here while the reader
    # is blocked in it would wait on the reader's lock.
    def _read_answers(self, out: IO[bytes]) -> None:
        with out:
            while True:
                line = out.readline(MAX_ANSWER + 1)
                self.answers.put(line)
                if not line:
                    return
                if len(line) > MAX_ANSWER:
                    return  # an answer that long ends the program: nothing after it is read

    def _read_stderr(self, err: IO[bytes]) -> None:
        with err:
            for line in iter(functools.partial(err.readline, 4096), b""):
                self.tail.append(line.decode("utf-8", "replace").rstrip())

    def running(self) -> bool:
        return self.popen.poll() is None

    def send(self, message: dict[str, Any]) -> None:
        stdin = self.popen.stdin
        assert stdin is not None
        if not self.answers.empty():  # a line nobody asked for would answer this message
            stray = self.answers.get()
            if stray == _EOF:
                raise _Failure(self.exit_text("before its next message"))
            raise _Failure(f"wrote a line nobody asked for: {_shown(stray)}")
        try:
            stdin.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
            stdin.flush()
        except OSError:  # a broken pipe: it has exited
            raise _Failure(self.exit_text("before reading its message")) from None

    def receive(self, seconds: float, cancel: Optional[_core.CancelToken]) -> bytes:
        """The next line it writes; _Failure if it exits first or takes longer than ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.answers.get(timeout=max(0.0, min(left, _POLL) if cancel else left))
                break
            except queue.Empty:
                if cancel is not None and cancel.cancelled:
                    self.stop(kill=True)
                    raise _core.Cancelled("stopped: the computation was cancelled") from None
                if time.monotonic() >= deadline:
                    raise _Late(f"no answer within {seconds:g} s") from None
        if line == _EOF:
            raise _Failure(self.exit_text("before answering"))
        if len(line) > MAX_ANSWER:
            raise _Failure(f"answered a line longer than {MAX_ANSWER} bytes: {_shown(line)}")
        return line

    def exit_text(self, when: str) -> str:
        try:
            code = self.popen.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            return f"closed its standard output {when}"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name} {when}"
            except ValueError:
                return f"was killed by signal {-code} {when}"
        return f"exited with code {code} {when}"

    def stderr_tail(self) -> list[str]:
        """The last lines of its standard error, once it has stopped (all of them read)."""
        self.readers[1].join(STOP_GRACE)
        return [line for line in self.tail if line]

    def stop(self, kill: bool = False) -> None:
        """Ends the program: its standard input closed, ``STOP_GRACE`` to exit (none if
        ``kill``), then its process group killed; always reaped."""
        _stop_all([self], 0.0 if kill else STOP_GRACE)

    def _close_input(self) -> None:
        stdin = self.popen.stdin
        if stdin is not None and not stdin.closed:
            try:
                stdin.close()
            except OSError:
                pass  # it had gone: the pipe was broken

    def _end(self, deadline: float) -> None:
        try:
            self.popen.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            # Still unreaped, so its process group cannot have been reused.
            if os.name == "posix":
                try:
                    os.killpg(self.popen.pid, signal.SIGKILL)
                except OSError:
                    self.popen.kill()
            else:
                self.popen.kill()
            self.popen.wait()
        for reader in self.readers:
            reader.join(STOP_GRACE)


def _stop_all(programs: Sequence[_Program], grace: float) -> None:
    """Stops programs together: every input closed first, then ``grace`` seconds in all."""
    mine = [p for p in programs if p.owner == os.getpid()]  # never the parent's, after a fork
    for program in mine:
        program._close_input()
    deadline = time.monotonic() + grace
    for program in mine:
        program._end(deadline)


def _shown(line: Union[bytes, str], width: int = 200) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\r\n")
    return repr(text if len(text) <= width else text[:width] + "…")


class _Pool:
    """Programs between two games, by command: a game takes the one used last; one unused
    for ``IDLE_SECONDS`` is stopped. Programs come back through a SimpleQueue, which a
    finalizer may put to at any moment (even within ``take`` on the same thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.idle: dict[_Argv, list[tuple[float, _Program]]] = {}
        self.returned: queue.SimpleQueue[tuple[_Argv, float, _Program]] = queue.SimpleQueue()
        self.closed = False  # Python is exiting: programs given back are stopped
        self.wake = threading.Event()
        self.reaper: Optional[threading.Thread] = None
        self.inherited: list[_Program] = []  # a forked child's copies of the parent's, parked

    def give(self, program: _Program) -> None:
        if program.owner != os.getpid():
            self._park(program)  # a bot of the parent's game, dropped in a forked child
        elif self.closed:
            program.stop()
        else:
            self.returned.put((program.argv, time.monotonic(), program))

    def _park(self, program: _Program) -> None:
        """A forked child's copy of a program of its parent: the child closes its copies of
        the pipes (at the descriptors: a reader's lock may have been copied held) and keeps
        the object for good, never signalling the program."""
        for pipe in (program.popen.stdin, program.popen.stdout, program.popen.stderr):
            if pipe is not None:
                try:
                    os.close(pipe.fileno())
                except (OSError, ValueError):
                    pass
        self.inherited.append(program)

    def take(self, argv: _Argv) -> Optional[_Program]:
        """An idle program of this command that still runs, or None."""
        found, doomed = None, []
        with self.lock:
            self._collect()
            stack = self.idle.get(argv, [])
            while stack and found is None:
                _, program = stack.pop()
                if program.running():
                    found = program
                else:
                    doomed.append(program)
            if self.reaper is None:
                self._watch()
        for program in doomed:
            program.stop(kill=True)
        return found

    def _watch(self) -> None:
        """Starts the reaper, and makes sure this process stops its programs as it ends."""
        self.reaper = threading.Thread(target=self._reap_forever, name="manila-cmd-bots", daemon=True)
        self.reaper.start()
        atexit.register(self.close)
        if "multiprocessing" in sys.modules:
            # A worker of a process pool ends with os._exit, past atexit; multiprocessing
            # runs its own finalizers there (registered here: a new worker clears them).
            from multiprocessing import util

            util.Finalize(None, self.close, exitpriority=0)

    def _collect(self) -> None:
        """Moves the programs given back into ``idle`` (with the lock held)."""
        while True:
            try:
                argv, since, program = self.returned.get_nowait()
            except queue.Empty:
                return
            self.idle.setdefault(argv, []).append((since, program))

    def stop_idle(self, older_than: float = 0.0) -> None:
        """Stops every idle program unused for ``older_than`` seconds, and any that has exited."""
        now = time.monotonic()
        doomed: list[_Program] = []
        with self.lock:
            self._collect()
            for argv, stack in self.idle.items():
                keep = []
                for since, program in stack:
                    if now - since < older_than and program.running():
                        keep.append((since, program))
                    else:
                        doomed.append(program)
                self.idle[argv] = keep
        _stop_all(doomed, STOP_GRACE)

    def _reap_forever(self) -> None:
        while not self.wake.wait(IDLE_SECONDS / 4):
            self.stop_idle(IDLE_SECONDS)

    def close(self) -> None:
        self.closed = True
        self.wake.set()
        self.stop_idle()

    def forget(self) -> None:
        """In a child just forked: the idle programs are the parent's, and parked."""
        self.lock = threading.Lock()
        self._collect()
        for stack in self.idle.values():
            for _, program in stack:
                self._park(program)
        self.idle.clear()
        self.reaper = None
        self.wake = threading.Event()


_POOL = _Pool()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_POOL.forget)


def stop_idle_programs() -> None:
    """Stops now every program waiting for its next game (they are stopped anyway after
    ``IDLE_SECONDS``, and when Python exits)."""
    _POOL.stop_idle()


def _current_cancel_token() -> Optional[_core.CancelToken]:
    # The engine keeps the thread's token; reading it is a swap and a swap back.
    token = _core.use_cancel_token(None)
    _core.use_cancel_token(token)
    return token


class CmdBot:
    """Seat ``seed``'s bot played by a program (``command``: its arguments, or a command
    line split by ``shlex``), for one game: the program is taken or started at the first
    move and given back by ``close()`` (or when the bot is dropped), then plays another game.

    ``name`` is what errors call it (default ``cmd:`` and the command line).
    """

    def __init__(
        self,
        command: Union[str, Sequence[str]],
        seed: int = 0,
        *,
        limits: Optional[Limits] = None,
        name: Optional[str] = None,
    ):
        argv = tuple(shlex.split(command)) if isinstance(command, str) else tuple(command)
        if not argv or not all(isinstance(a, str) for a in argv):
            raise ValueError(f"command: a program and its arguments, got {command!r}")
        if limits is not None and not isinstance(limits, Limits):
            raise ValueError(f"limits: a manila.bots.cmd.Limits, got {limits!r}")
        self.command = argv
        self.seed = int(seed)
        self.limits = limits or Limits()
        self.name = name or f"{PREFIX}:{shlex.join(argv)}"
        self._program: Optional[_Program] = None
        self._release: Optional[weakref.finalize[[_Program], CmdBot]] = None
        self._seat: Optional[int] = None
        self._used = 0.0  # seconds of this game's moves so far

    def step(self, state: PlayerView) -> int:
        observation = state.observation()
        move = len(observation["history"])
        try:
            if self._program is None:
                self._start(state, move)
            elif state.player != self._seat:
                raise ValueError(f"{self.name}: plays seat {self._seat} of one game, not seat {state.player}")
            return self._move(state, observation, move)
        except BaseException:
            self._drop()  # an error of any kind (Ctrl-C included) ends the program
            raise

    def _error(self, state: PlayerView, move: int, problem: str) -> BotError:
        program = self._program
        self._drop()
        tail = program.stderr_tail() if program is not None else []
        # Without the game's seed, which the view does not hold: manila.game.play.bot_move,
        # through which every game asks its bots, adds it.
        return BotError(self.name, state.player, move, problem, tail)

    def _start(self, state: PlayerView, move: int) -> None:
        program = _POOL.take(self.command)
        try:
            if program is None:
                program = _Program(self.command)
        except _Failure as exc:
            raise self._error(state, move, str(exc)) from None
        self._program, self._seat, self._used = program, state.player, 0.0
        # The finalizer holds the program, never the bot: a dropped bot gives its program back.
        self._release = weakref.finalize(self, _POOL.give, program)
        answer = self._ask(
            state,
            move,
            {
                "type": "start",
                "protocol": PROTOCOL,
                "seat": state.player,
                "players": state.players,
                "seed": self.seed,
                "rules": state.rules.to_dict(),
                "limits": self.limits.to_dict(),
            },
            self.limits.start,
            clock=False,
        )
        if not isinstance(answer, dict) or answer.get("ready") is not True:
            shown = _shown(json.dumps(answer))
            raise self._error(state, move, f'answered {shown} to start; the answer is {{"ready": true}}')

    def _move(self, state: PlayerView, observation: dict[str, Any], move: int) -> int:
        legal = state.legal_actions()
        names = state.legal_action_names()
        left = self.limits.move
        if self.limits.game is not None:
            left = min(left, self.limits.game - self._used)
            if left <= 0:
                raise self._error(state, move, f"its {self.limits.game:g} s for the game are used up")
        message = {
            "type": "move",
            "observation": observation,
            "legal": [{"id": a, "name": n} for a, n in zip(legal, names)],
            "time_left": round(left, 3),
        }
        answer = self._ask(state, move, message, left, clock=True)
        action = answer.get("action") if isinstance(answer, dict) else None
        if isinstance(action, int) and not isinstance(action, bool) and action in legal:
            return action
        if isinstance(action, str) and action in names:
            return legal[names.index(action)]
        shown = _shown(json.dumps(answer))
        if action is None:
            problem = f'answered {shown}; an answer is {{"action": <id or name>}}'
        else:
            problem = (
                f"answered {shown}: {action!r} is not a legal action; legal are {_legal_text(legal, names)}"
            )
        raise self._error(state, move, problem)

    def _ask(self, state: PlayerView, move: int, message: dict[str, Any], seconds: float, clock: bool) -> Any:
        program = self._program
        assert program is not None
        begun = time.monotonic()
        try:
            program.send(message)
            line = program.receive(max(seconds, 0.0), _current_cancel_token())
        except _Failure as exc:
            text = str(exc)
            if (
                isinstance(exc, _Late)
                and clock
                and self.limits.game is not None
                and seconds < self.limits.move
            ):
                text += f" (the rest of its {self.limits.game:g} s for the game)"
            raise self._error(state, move, text) from None
        if clock:
            self._used += time.monotonic() - begun
        try:
            return json.loads(line)
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            raise self._error(state, move, f"answered {_shown(line)}, which is not JSON") from None

    def _drop(self) -> None:
        """Ends the program for good (after an error)."""
        program, self._program = self._program, None
        if self._release is not None:
            self._release.detach()
            self._release = None
        if program is not None:
            program.stop(kill=True)

    def close(self) -> None:
        """The game is over for this bot: its program goes back for another game."""
        if self._release is not None:
            self._release()  # gives the program back, once
            self._release = None
        self._program = None

    def __enter__(self) -> CmdBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"CmdBot({self.name!r}, seed={self.seed})"


def _legal_text(legal: Sequence[int], names: Sequence[str]) -> str:
    shown = ", ".join(f"{a} {n!r}" for a, n in zip(legal[:_SHOWN_LEGAL], names))
    more = len(legal) - _SHOWN_LEGAL
    return shown + (f" and {more} more" if more > 0 else "")


def cmd_factory(spec: str) -> Callable[[int], CmdBot]:
    """The factory (seat's seed -> bot) of ``cmd[LIMITS]:PROGRAM ARGS``, checked now."""
    argv, limits = parse_cmd(spec)
    return functools.partial(CmdBot, argv, limits=limits, name=spec)

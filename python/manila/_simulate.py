"""Many games between bots, their statistics, game records, and replays.

    >>> from manila._simulate import simulate
    >>> result = simulate(players=4, games=20, bots="greedy,random,random,random", seed=1)
    >>> result.games, len(result.wins)
    (20, 4)

Game ``i`` of a run with seed ``s`` has seed ``derive_seed(s, i)``; each game is the same
whatever the number of threads or the chunking, so the same seed gives the same games
(and the same JSON lines) byte for byte. With built-in bots only, games are played in
C++ with the GIL released, spread over threads; bot objects of your own (anything with
``step(state)``, given as a factory ``seed -> bot``) are played from Python.

The command line pieces ``add_simulate_arguments``/``run_simulate`` and
``add_replay_arguments``/``run_replay`` plug into ``python -m manila``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from . import _core
from .bots import bot_factory, bot_names, bot_seed, is_core_bot
from .game import Game, IllegalActionError, RulesLike, State
from ._state import THIRTEEN_OPTIONS
from ._inputs import json_error_text, json_type, read_text
from .view import PlayerView

RECORD_VERSION = 1
BotSpec = Union[str, Callable[[int], Any]]


@dataclass
class SimulationResult:
    """Statistics of a run. ``wins`` splits a shared win equally among the tied players,
    so the wins add up to the number of games."""

    players: int
    games: int
    bots: list[str]
    seed: int
    rules: dict
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

    def to_dict(self) -> dict:
        """The JSON summary (deterministic: no timing in it)."""
        return {"games": self.games, "players": self.players, "seed": self.seed,
                "rules": self.rules, "bots": self.bots, "wins": self.wins,
                "win_rates": self.win_rates, "ties": self.ties,
                "mean_wealth": self.mean_wealth, "mean_voyages": self.mean_voyages,
                "mean_actions": self.mean_actions}


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


def game_record(index: int, seed: int, game: Game, bots: Sequence[str], history: Sequence[int],
                wealth: Sequence[int], voyages: int) -> dict:
    """One line of the JSON-lines output: enough to replay the game (``replay``)."""
    best = max(wealth)
    return {"version": RECORD_VERSION, "index": index, "seed": seed, "players": game.players,
            "rules": game.rules.to_dict(), "bots": list(bots), "history": [int(a) for a in history],
            "wealth": [int(w) for w in wealth], "winners": [p for p, w in enumerate(wealth) if w == best],
            "voyages": int(voyages), "actions": len(history)}


def _bot_names(bots: Union[str, Sequence[BotSpec]], players: int) -> list[BotSpec]:
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    bots = list(bots)
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


def simulate(players: int = 4, games: int = 1000, bots: Union[str, Sequence[BotSpec]] = "random",
             seed: int = 0, rules: RulesLike = None, threads: int = 0,
             record: Optional[Callable[[dict], None]] = None, progress: Any = None,
             check: bool = False) -> SimulationResult:
    """Plays ``games`` games and returns their statistics.

    ``bots``: one per seat (or one for all), as names ("random", "greedy", or the
    comma-separated string) or factories ``seed -> bot``. ``record(dict)`` receives
    every game's record in game order. ``progress(n)`` is called as games finish.
    ``check`` verifies the invariants after every action (slower).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games: a number of games >= 0, got {games!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ValueError(f"threads: >= 0 (0: all cores), got {threads!r}")
    base = Game(players=players, seed=seed, rules=rules)
    specs = _bot_names(bots, players)
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
        players=players, games=totals.games, bots=labels, seed=seed, rules=base.rules.to_dict(),
        wins=totals.wins, ties=totals.ties, mean_wealth=[w / n for w in totals.wealth],
        mean_voyages=totals.voyages / n, mean_actions=totals.actions / n, seconds=elapsed)


def _chunk_size(games: int, bots: Sequence[str]) -> int:
    # Small enough for a lively progress bar, large enough to keep the threads busy.
    per_second = 300 if "greedy" in bots else 20000
    return max(1, min(games, per_second // 10, max(1, games // 50)))


def _simulate_core(base: Game, games: int, bots: list[str], threads: int, record, progress,
                   check: bool, totals: _Totals) -> None:
    done = 0
    chunk = _chunk_size(games, bots)
    while done < games:
        n = min(chunk, games - done)
        seeds, wealth, voyages, actions, histories = _core.play_games(
            players=base.players, seed=base.seed, first=done, n=n, bots=bots, threads=threads,
            record=record is not None, check=check,
            thirteen_to_port=base.rules.thirteen_after_last_roll == "port",
            pirate_variant=base.rules.pirate_variant)
        for i in range(n):
            w = wealth[i].tolist()
            totals.add(w, int(voyages[i]), int(actions[i]))
            if record is not None:
                game = Game(base.players, int(seeds[i]), base.rules)
                record(game_record(done + i, int(seeds[i]), game, bots, histories[i], w, int(voyages[i])))
        done += n
        if progress is not None:
            progress(n)


def _simulate_python(base: Game, games: int, specs: Sequence[BotSpec], labels: list[str], record,
                     progress, check: bool, totals: _Totals) -> None:
    for i in range(games):
        seed = game_seed(base.seed, i)
        game = Game(base.players, seed, base.rules)
        # Seat p's bot is seeded bot_seed(seed, p), as in the C++ play-outs.
        factories = [bot_factory(spec) if isinstance(spec, str) else spec for spec in specs]
        bots = [f(bot_seed(seed, p)) for p, f in enumerate(factories)]
        state = game.new_initial_state()
        views = [PlayerView(state, p) for p in range(base.players)]  # each bot sees its own view
        while not state.is_terminal():
            a = state.sample_chance() if state.is_chance_node() else bots[state.current_player()].step(views[state.current_player()])
            state.apply_action(a)
            if check:
                problems = state.invariant_problems()
                if problems:
                    raise AssertionError(f"game {i} (seed {seed}), move {state.move_number()}: {problems}")
        w = state.returns()
        totals.add(w, state.voyages_completed(), state.move_number())
        if record is not None:
            record(game_record(i, seed, game, labels, state.history(), w, state.voyages_completed()))
        if progress is not None:
            progress(1)


# ---------------------------------------------------------------------------------- CLI
def add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    """The game's rule options as flags, for every command that plays games."""
    parser.add_argument("--thirteen-after-last-roll", choices=THIRTEEN_OPTIONS, default="port",
                        help="where a boat on 13 after roll 3 goes when no pirate is aboard")
    parser.add_argument("--pirate-variant", action="store_true",
                        help="boarding pirates may displace crew (rule option pirate_variant)")


def rules_from_args(args: argparse.Namespace) -> dict:
    """The rule options the flags of add_rule_arguments give."""
    return {"thirteen_after_last_roll": args.thirteen_after_last_roll,
            "pirate_variant": bool(args.pirate_variant)}


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m manila simulate``."""
    parser.add_argument("--players", type=int, default=4, metavar="N", help="3, 4 or 5 (default 4)")
    parser.add_argument("--games", type=int, default=1000, metavar="N", help="games to play (default 1000)")
    parser.add_argument("--bots", default="random", metavar="LIST",
                        help=f"a bot per seat, comma-separated ({', '.join(bot_names())}, or a "
                             "Python bot as module:Class), or one for all (default random)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--threads", type=int, default=0, metavar="N",
                        help="threads to play games on (default 0: all cores)")
    add_rule_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--record", metavar="FILE",
                        help="write every game as a JSON line to FILE (- for standard output)")
    parser.add_argument("--check", action="store_true",
                        help="check the invariants (money, shares, accomplices) after every action")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


class _Progress:
    """tqdm on standard error when it is installed, else a plain counter; only on a
    terminal, and only from the first finished game: a run refused at once shows no bar."""

    def __init__(self, total: int, enabled: bool):
        self.total = total
        self.done = 0
        self.bar = None
        self.enabled = enabled and sys.stderr.isatty()
        self.last = 0.0

    def _start(self) -> None:
        try:
            from tqdm import tqdm
        except ImportError:  # pragma: no cover - tqdm is optional
            return
        self.bar = tqdm(total=self.total, unit="game", file=sys.stderr, dynamic_ncols=True)

    def __call__(self, n: int) -> None:
        if self.enabled and self.done == 0 and self.bar is None:
            self._start()
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.enabled and (time.monotonic() - self.last > 0.2 or self.done == self.total):
            self.last = time.monotonic()
            width = 30
            filled = width * self.done // max(self.total, 1)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def format_result(result: SimulationResult) -> str:
    rules = result.rules
    lines = [f"{result.games} games, {result.players} players, seed {result.seed} "
             f"(thirteen_after_last_roll={rules['thirteen_after_last_roll']}, "
             f"pirate_variant={str(rules['pirate_variant']).lower()})",
             f"{'seat':<5} {'bot':<8} {'wins':>8} {'win rate':>9} {'mean wealth':>12}"]
    for p in range(result.players):
        lines.append(f"{p:<5} {result.bots[p]:<8} {result.wins[p]:>8.1f} "
                     f"{100 * result.win_rates[p]:>8.1f}% {result.mean_wealth[p]:>12.1f}")
    lines.append(f"shared wins: {result.ties}")
    lines.append(f"mean game length: {result.mean_voyages:.2f} voyages, {result.mean_actions:.1f} actions")
    lines.append(f"time: {result.seconds:.2f} s ({result.games_per_second:,.0f} games/s)")
    return "\n".join(lines)


def _line_writer(out: IO[str]) -> Callable[[dict], None]:
    def write(record: dict) -> None:
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
    return write


def run_simulate(args: argparse.Namespace) -> int:
    """``python -m manila simulate``: statistics (table or --json), optional JSON lines."""
    rules = rules_from_args(args)
    out: Optional[IO[str]] = None
    close = False
    if args.record == "-":
        out = sys.stdout
    elif args.record:
        out = open(args.record, "w", encoding="utf-8")
        close = True
    write = None if out is None else _line_writer(out)
    bar = _Progress(args.games, enabled=not args.no_progress)
    try:
        result = simulate(players=args.players, games=args.games, bots=args.bots, seed=args.seed,
                          rules=rules, threads=args.threads, record=write, progress=bar,
                          check=args.check)
    finally:
        bar.close()
        if close and out is not None:
            out.close()
    if args.record == "-":
        return 0  # standard output carries the games; the summary would break the JSON lines
    if args.json:
        json.dump(result.to_dict(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(format_result(result))
    return 0


# ---------------------------------------------------------------------------------- replay
def read_records(source: str) -> list[dict]:
    """Game records from a JSON-lines file (or one JSON object: a record or a serialized state)."""
    text = read_text(source)  # InputError if unreadable, too large or not UTF-8
    name = "standard input" if source == "-" else source
    stripped = text.strip()
    if not stripped:
        raise ValueError(f"{name}: empty")
    try:
        whole = json.loads(stripped)
    except (json.JSONDecodeError, RecursionError):
        whole = None
    if isinstance(whole, dict):
        _check_record(whole, name)
        return [whole]
    records = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{name}, line {n}: not a game record: not valid JSON: "
                                 f"{json_error_text(exc)}") from None
            except RecursionError:
                raise ValueError(f"{name}, line {n}: not a game record: nested too deeply") from None
            _check_record(record, f"{name}, line {n}")
            records.append(record)
    return records


def _check_record(record: Any, where: str) -> None:
    """A game record (or serialized state) has a history of action ids; anything else is
    refused here rather than replayed as an empty game."""
    lead = f"{where}: not a game record (simulate --record writes them)"
    if not isinstance(record, dict):
        raise ValueError(f"{lead}: a record is a JSON object, not {json_type(record)}")
    history = record.get("history")
    if not isinstance(history, list):
        raise ValueError(f"{lead}: history: missing, or not a list of actions")
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in history):
        raise ValueError(f"{lead}: history: the actions must be whole numbers")
    players = record.get("players", 4)
    if isinstance(players, bool) or players not in (3, 4, 5):
        raise ValueError(f"{lead}: players: must be 3, 4 or 5, got {players!r}")
    if not isinstance(record.get("seed", 0), int) or isinstance(record.get("seed"), bool):
        raise ValueError(f"{lead}: seed: must be a whole number")
    if not isinstance(record.get("rules", {}), (dict, type(None))):
        raise ValueError(f"{lead}: rules: must be an object of rule options")


def _who(state: State) -> str:
    return "chance" if state.is_chance_node() else f"p{state.current_player()}"


def replay_lines(record: dict, board: bool = False) -> Iterator[str]:
    """A game told step by step: every action with who made it, each voyage's outcome,
    the final wealth; with ``board`` the whole table after every action."""
    game = Game(players=record.get("players", 4), seed=record.get("seed", 0), rules=record.get("rules"))
    state = game.new_initial_state()
    bots = record.get("bots")
    head = f"game seed {game.seed}, {game.players} players"
    if "index" in record:
        head = f"game {record['index']}, " + head
    if bots:
        head += ", bots " + ", ".join(f"p{p} {b}" for p, b in enumerate(bots))
    yield head
    rules = game.rules
    yield (f"rules: thirteen_after_last_roll={rules.thirteen_after_last_roll}, "
           f"pirate_variant={str(rules.pirate_variant).lower()}")
    history = record.get("history", [])
    for i, a in enumerate(history):
        voyage, phase, who = state.voyage, state.phase, _who(state)
        text = state.action_to_string(a) if 0 <= a < _core.NUM_ACTIONS else str(a)
        try:
            state.apply_action(a)
        except IllegalActionError as exc:
            raise ValueError(f"move {i}: {exc.reason}") from None
        if phase == "deal":
            yield f"  deal to p{(i) // 2}: {text.split(' ', 1)[1]}"
        else:
            yield f"  {who}: {text}"
        if phase == "auction" and state.phase != "auction":
            snap = state.to_dict()
            yield f"  -> p{snap['harbour_master']} is harbour master"
        if state.voyage != voyage and voyage == 0:
            yield f"== voyage {state.voyage} =="
        elif state.voyage != voyage or state.is_terminal():
            yield from _settlement_lines(state)
            if not state.is_terminal():
                yield f"== voyage {state.voyage} =="
        if board:
            yield "    " + str(state).rstrip().replace("\n", "\n    ")
    if state.is_terminal():
        w = state.returns()
        yield f"== game over after {state.voyages_completed()} voyages =="
        for p, x in enumerate(w):
            yield f"  p{p}: wealth {x}" + ("  (winner)" if p in state.winners() else "")
        if "wealth" in record and list(record["wealth"]) != w:
            raise ValueError(f"the replay ends with wealth {w}, the record says {record['wealth']}")
    else:
        yield f"== stopped after {len(history)} moves, {state.phase} =="


def _settlement_lines(state: State) -> Iterable[str]:
    snap = state.to_dict()
    last = snap["last_settlement"]
    parts = [f"Manila: {', '.join(last['port']) or 'none'}",
             f"shipyard: {', '.join(last['shipyard']) or 'none'}"]
    if last["plundered"]:
        parts.append(f"plundered: {', '.join(last['plundered'])}")
    yield "  voyage over. " + "; ".join(parts)
    incomes = ", ".join(f"p{p} {x:+d}" for p, x in enumerate(last["income"]))
    yield f"  incomes: {incomes}"
    if last["insurer"] is not None and last["insurance_due"]:
        note = ""
        if last["insurance_paid"] < last["insurance_due"]:
            note = f", paid {last['insurance_paid']}, the bank covered the rest"
        mort = last["forced_mortgages"][last["insurer"]]
        if mort:
            note += f", {mort} forced mortgage{'s' * (mort > 1)}"
        yield f"  insurance: p{last['insurer']} owed {last['insurance_due']}{note}"
    prices = ", ".join(f"{g} {v}" for g, v in snap["prices"].items())
    yield f"  prices: {prices}"


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m manila replay``."""
    parser.add_argument("file", metavar="FILE",
                        help="game records as JSON lines (simulate --record), one record, or a "
                             "serialized state; - for standard input")
    parser.add_argument("--game", type=int, default=0, metavar="K",
                        help="which game of a JSON-lines file (0-based line among the records, default 0)")
    parser.add_argument("--board", action="store_true", help="print the whole table after every action")


def run_replay(args: argparse.Namespace) -> int:
    """``python -m manila replay``: one game step by step."""
    try:
        records = read_records(args.file)
    except OSError as exc:
        print(f"manila: error: {args.file}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"manila: error: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.game < len(records):
        print(f"manila: error: --game {args.game}: the file has {len(records)} game(s)", file=sys.stderr)
        return 2
    try:
        for line in replay_lines(records[args.game], board=args.board):
            print(line)
    except ValueError as exc:
        print(f"manila: error: {exc}", file=sys.stderr)
        return 2
    return 0


def _main(argv: Optional[Sequence[str]] = None) -> int:  # pragma: no cover - until cli.py wires it
    parser = argparse.ArgumentParser(prog="python -m manila.simulate")
    sub = parser.add_subparsers(dest="command", required=True)
    add_simulate_arguments(sub.add_parser("simulate"))
    add_replay_arguments(sub.add_parser("replay"))
    args = parser.parse_args(argv)
    return run_simulate(args) if args.command == "simulate" else run_replay(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())

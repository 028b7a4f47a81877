"""``python -m manila replay``: a recorded game told step by step."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, Optional

from ..common.inputs import json_value, read_text
from ..game.engine import RecordError, State, read_record, replay
from ..game.view import PlayerView
from .rules import rules_text

POSITION_FORMS = ("state", "view", "voyage")


def read_records(source: str) -> list[dict[str, Any]]:
    """Game records from a JSON-lines file (or one JSON object: a record or a serialized state)."""
    text = read_text(source)  # InputError if unreadable, too large or not UTF-8
    name = "standard input" if source == "-" else source
    stripped = text.strip()
    if not stripped:
        raise ValueError(f"{name}: empty")
    try:
        whole = json_value(stripped)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        _check_record(whole, name)
        return [whole]
    records = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                record = json_value(line)
            except ValueError as exc:
                raise ValueError(f"{name}, line {n}: not a game record: {exc}") from None
            _check_record(record, f"{name}, line {n}")
            records.append(record)
    return records


def _check_record(record: Any, where: str) -> None:
    """Refused here, naming the file and line, rather than replayed as an empty game."""
    try:
        read_record(record)
    except RecordError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _who(state: State) -> str:
    return "chance" if state.is_chance_node() else f"p{state.current_player()}"


def state_at(record: dict[str, Any], to: int) -> State:
    """The position of the recorded game before its move ``to`` (after ``to`` moves)."""
    read = read_record(record)
    if not 0 <= to <= len(read.history):
        raise ValueError(f"--to {to}: the game has {len(read.history)} moves (0..{len(read.history)})")
    return replay(read, to)


def position_json(state: State, form: str, player: Optional[int]) -> dict[str, Any]:
    """The position as ``form``: "state" (serialized: replay and State.deserialize read it
    back), "view" (``player``'s observation) or "voyage" (the voyage state from
    ``player``'s point of view, with the shares they see). ``player`` defaults to the
    player to move."""
    if form == "state":
        return state.to_json()
    if player is None and state.is_player_node():
        player = state.current_player()
    if player is not None and not 0 <= player < state.game.players:
        raise ValueError(f"--player: must be 0..{state.game.players - 1}, got {player}")
    if form == "view":
        if player is None:
            raise ValueError(f"--show view: nobody is to move ({state.phase}); say whose view with --player")
        return state.observation(player)
    # Without a player (chance to move) the voyage as the referee sees it: every share.
    voyage = state.voyage_state() if player is None else PlayerView(state, player).voyage_state()
    if voyage is None:
        raise ValueError(
            f"--show voyage: no voyage in progress at move {state.move_number()} ({state.phase})"
        )
    return voyage


def replay_lines(record: dict[str, Any], board: bool = False, to: Optional[int] = None) -> Iterator[str]:
    """A game told step by step: every action with who made it, each voyage's outcome,
    the final wealth; with ``board`` the whole table after every action; with ``to``
    only the first ``to`` moves."""
    read = read_record(record)
    game = read.game
    history = read.history
    if to is not None:
        if not 0 <= to <= len(history):
            raise ValueError(f"--to {to}: the game has {len(history)} moves (0..{len(history)})")
        history = history[:to]
    replay(read, len(history))  # every action checked first, worded as every reader words it
    state = game.new_initial_state()
    bots = record.get("bots")
    head = f"game seed {game.seed}, {game.players} players"
    if "index" in record:
        head = f"game {record['index']}, " + head
    if bots:
        head += ", bots " + ", ".join(f"p{p} {b}" for p, b in enumerate(bots))
    yield head
    yield f"rules: {rules_text(game.rules)}"
    for i, a in enumerate(history):
        voyage, phase, who = state.voyage_number, state.phase, _who(state)
        text = state.action_to_string(a)
        state.apply_action(a)
        if phase == "deal":
            yield f"  deal to p{(i) // 2}: {text.split(' ', 1)[1]}"
        else:
            yield f"  {who}: {text}"
        if phase == "auction" and state.phase != "auction":
            snap = state.to_dict()
            yield f"  -> p{snap['harbour_master']} is harbour master"
        if state.voyage_number != voyage and voyage == 0:
            yield f"== voyage {state.voyage_number} =="
        elif state.voyage_number != voyage or state.is_terminal():
            yield from _settlement_lines(state)
            if not state.is_terminal():
                yield f"== voyage {state.voyage_number} =="
        if board:
            yield "    " + str(state).rstrip().replace("\n", "\n    ")
    if state.is_terminal() and to is None:
        w = state.returns()
        yield f"== game over after {state.voyages_completed()} voyages =="
        for p, x in enumerate(w):
            yield f"  p{p}: wealth {x}" + ("  (winner)" if p in state.winners() else "")
        if "wealth" in record and list(record["wealth"]) != w:
            raise ValueError(f"the replay ends with wealth {w}, the record says {record['wealth']}")
    elif state.is_terminal():
        yield f"== stopped after {len(history)} moves: the game is over =="
    else:
        yield f"== stopped after {len(history)} moves, {state.phase}, {_who(state)} to move =="


def _settlement_lines(state: State) -> Iterable[str]:
    snap = state.to_dict()
    last = snap["last_settlement"]
    parts = [
        f"Manila: {', '.join(last['port']) or 'none'}",
        f"shipyard: {', '.join(last['shipyard']) or 'none'}",
    ]
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
    parser.add_argument(
        "file",
        metavar="FILE",
        help="game records as JSON lines (simulate --record), one record, or a "
        "serialized state; - for standard input",
    )
    parser.add_argument(
        "--game",
        type=int,
        default=0,
        metavar="K",
        help="which game of a JSON-lines file (0-based line among the records, default 0)",
    )
    parser.add_argument("--board", action="store_true", help="print the whole table after every action")
    parser.add_argument(
        "--to", type=int, default=None, metavar="N", help="stop at move N (0-based: after the first N moves)"
    )
    parser.add_argument(
        "--show",
        action="append",
        choices=POSITION_FORMS,
        default=None,
        help="print the position there (the end, or --to N) as JSON instead of the story: "
        "state (serialized, replay reads it back), view (a player's observation), voyage "
        "(the voyage state for manila.evaluate); repeat for several, one line each",
    )
    parser.add_argument(
        "--player", type=int, default=None, metavar="P", help="whose view (default: the player to move)"
    )


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
    record = records[args.game]
    try:
        if args.show:
            state = state_at(record, len(record.get("history", [])) if args.to is None else args.to)
            for form in args.show:
                print(json.dumps(position_json(state, form, args.player)))
            return 0
        for line in replay_lines(record, board=args.board, to=args.to):
            print(line)
    except RecordError as exc:  # an action the game does not allow: where, as review says it
        name = "standard input" if args.file == "-" else args.file
        print(f"manila: error: {name}: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"manila: error: {exc}", file=sys.stderr)
        return 2
    return 0

"""``POST /v1/play``: a game against the bots that the page holds (docs/play.md).

The server keeps nothing between requests. A request is a new game or the game the page
holds plus the player's action; the answer is the game after that action and every bot
reply and chance event up to the player's next decision (or the end), the player's view,
their legal actions by name, and readable log lines.

The game carries what is needed to go on: the engine's serialized state
(``State.to_json``: game, history, generator), the player's seat, the bots' names and
the state of each bot's own generator. The bots are seeded as ``manila.bots.bots_for``
seeds them from the game's seed, so the same seed and the same choices give the same
game as ``manila.game.play`` with those bots, action for action.

Loading checks the game: its versions, seats and bot names; every action in its history
legal; every deal and roll the one the game's seed draws there; and a checksum over the
whole, which catches a file edited by hand or damaged (it is no signature: anyone may
recompute it, and a player who forges their bots' moves only cheats themselves).
"""

from __future__ import annotations

import hashlib
import json
import operator
import re
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from .. import _core
from ..analysis.analysis import analyse
from ..bots.builtin import bot_names, bot_seed, make_bot
from ..common.errors import Problem
from ..common.text import did_you_mean
from ..common.vocab import GOODS, PLAYER_COUNTS
from ..game.engine import (
    Game,
    IllegalActionError,
    RecordError,
    State,
    action_id,
    action_name,
    advice_action,
    read_record,
    replay,
    unnamed_reason,
)
from ..game.play import Bot, bot_move
from ..game.view import PlayerView
from ..voyage.advice import advise
from .names import spot_label

# The route's facts live in the engine (cpp/include/manila/api.hpp), whose own /v1/play
# (manila._core.call, the page's WebAssembly) answers as this module does.
PLAY_VERSION: int = _core.PLAY_VERSION
NEW_KEYS: tuple[str, ...] = tuple(_core.PLAY_NEW_KEYS)
REQUEST_KEYS: tuple[str, ...] = tuple(_core.PLAY_KEYS)
# The bot the others are played by unless the request names one.
DEFAULT_BOT: str = _core.PLAY_DEFAULT_BOT
_RECORD_KEYS: tuple[str, ...] = tuple(_core.PLAY_RECORD_KEYS)
# A hint's analysis: seconds of rollouts, or with "rollouts" a fixed number per option.
HINT_SECONDS: float = _core.PLAY_HINT_SECONDS
HINT_MAX_ROLLOUTS: int = _core.PLAY_HINT_MAX_ROLLOUTS


class PlayError(ValueError):
    """A request /v1/play refuses: the message names the action or the field (``path``)."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.problem = Problem(path, message)


@dataclass
class Table:
    """A game being played: the engine's state, the player's seat, a bot in every other."""

    state: State
    human: int
    names: list[str]  # the bot of every seat in seat order, "" for the player's
    bots: list[Optional[Bot]]

    @property
    def players(self) -> int:
        return self.state.game.players

    def label(self, player: int) -> str:
        return "you" if player == self.human else f"p{player}"


# --------------------------------------------------------------------------- the game record


def _seat_bots(names: Sequence[str], seed: int) -> list[Optional[Bot]]:
    """The bot of every seat, seeded as ``bots_for`` seeds it; None for the player's."""
    return [make_bot(name, bot_seed(seed, p)) if name else None for p, name in enumerate(names)]


def _bot_rng(bot: Optional[Bot]) -> Optional[_core.Rng]:
    # The built-in bots that draw (random, expert) keep their generator as _rng; saving
    # its state is what lets a stateless server go on exactly as one long game would.
    rng = getattr(bot, "_rng", None)
    return rng if isinstance(rng, _core.Rng) else None


def _checksum(record: Mapping[str, Any]) -> str:
    body = {k: v for k, v in record.items() if k != "check"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[: _core.PLAY_CHECK_DIGITS]


def to_record(table: Table) -> dict[str, Any]:
    """The game as the page holds it (JSON): what the server needs to go on."""
    rngs = [_bot_rng(b) for b in table.bots]
    record = table.state.to_json()
    record["play"] = {
        "version": PLAY_VERSION,
        "human": table.human,
        "bots": [n for n in table.names if n],
        "bot_rng": [None if r is None else f"{r.state:016x}" for r in rngs],
    }
    record["check"] = _checksum(record)
    return record


def _int(value: Any, path: str, low: int, high: int) -> int:
    try:
        if isinstance(value, bool):
            raise TypeError
        n = operator.index(value)
    except TypeError:
        raise PlayError(f"must be an integer {low}..{high}, got {value!r}", path) from None
    if not low <= n <= high:
        raise PlayError(f"must be {low}..{high}, got {n}", path)
    return int(n)


def _bot_names(given: Any, players: int, human: int, path: str, allowed: Collection[str]) -> list[str]:
    """Every seat's bot in seat order ("" for the player's), from the others' names."""
    others = players - 1
    if given is None:
        given = [DEFAULT_BOT] * others
    if not isinstance(given, list) or len(given) != others:
        raise PlayError(f"one bot name for each of the {others} other seats, in seat order", path)
    known = [*bot_names(), *allowed]
    for i, name in enumerate(given):
        # Only the built-in bots and those the server was started with (``allowed``, exact
        # names): a request must never make the server run a program or import code.
        if isinstance(name, str) and ":" in name and name not in known:
            raise PlayError(
                f"bot {name!r} is not allowed: this server plays the bots {', '.join(known)}; a "
                "program (cmd:) or Python (module:Class) bot plays only if the server is started "
                "with it, exactly as written, in an allow-list (serve --allow-bot)",
                f"{path}[{i}]",
            )
        if not isinstance(name, str) or name not in known:
            raise PlayError(
                f"unknown bot {name!r}{did_you_mean(str(name), known)}; the bots are {', '.join(known)}",
                f"{path}[{i}]",
            )
    names = list(given)
    names.insert(human, "")
    return names


def new_table(spec: Any, allowed: Collection[str] = ()) -> Table:
    """A new game from ``{"players", "seed", "human", "bots", "rules"}``; the deal is not made
    yet. ``allowed``: bot names played beside the built-in bots (the server's allow-list)."""
    if not isinstance(spec, Mapping):
        raise PlayError('a new game is {"players": 4, "seed": 3, "human": 0, "bots": [...]}', "new")
    for key in spec:
        if key not in NEW_KEYS:
            raise PlayError(
                f"unknown key{did_you_mean(str(key), NEW_KEYS)}; allowed: {', '.join(NEW_KEYS)}", f"new.{key}"
            )
    players = _int(spec.get("players", 4), "new.players", PLAYER_COUNTS[0], PLAYER_COUNTS[-1])
    seed = _int(spec.get("seed", 0), "new.seed", 0, 2**64 - 1)
    human = _int(spec.get("human", 0), "new.human", 0, players - 1)
    names = _bot_names(spec.get("bots"), players, human, "new.bots", allowed)
    try:
        game = Game(players=players, seed=seed, rules=spec.get("rules"))
    except ValueError as exc:
        raise PlayError(str(exc), "new.rules") from None
    return Table(game.new_initial_state(), human, names, _seat_bots(names, seed))


def load_table(record: Any, allowed: Collection[str] = ()) -> Table:
    """The game the page sent back, checked (see the module doc); ``allowed`` as for new_table."""
    if not isinstance(record, Mapping):
        raise PlayError("the game is the JSON object an earlier answer gave", "game")
    if record.get("game") != "manila":
        if "history" in record and "bots" in record:
            raise PlayError(
                "this is a line of simulate --record (a game the bots played), not a game of "
                "/v1/play: review it with POST /v1/review or python -m manila review; the play "
                "page goes on only with a game it saved",
                "game",
            )
        raise PlayError('not a manila game: the game the page saved has "game": "manila"', "game.game")
    play = record.get("play")
    if not isinstance(play, Mapping):
        raise PlayError("not a game of /v1/play: it has no play section (seat and bots)", "game.play")
    if play.get("version") != PLAY_VERSION:
        raise PlayError(
            f"a game of play version {play.get('version')!r}; this server plays version {PLAY_VERSION}",
            "game.play.version",
        )
    for key in record:
        if key not in _RECORD_KEYS:
            raise PlayError(f"unknown key; a game has {', '.join(_RECORD_KEYS)}", f"game.{key}")
    if record.get("check") != _checksum(record):
        raise PlayError(
            "the game was changed after the server wrote it (its check does not match)", "game.check"
        )
    try:
        read = read_record(record)
        human = _int(play.get("human"), "game.play.human", 0, read.game.players - 1)
        names = _bot_names(play.get("bots"), read.game.players, human, "game.play.bots", allowed)
        # The page's game goes on from where the seed's deals and rolls left it.
        state = replay(read, seeded=True)
    except RecordError as exc:
        raise PlayError(exc.message, f"game.{exc.field}" if exc.field else "game") from None
    if record.get("rng") != state.to_json()["rng"]:
        raise PlayError("the generator's state is not the one this history leaves", "game.rng")
    seed = read.game.seed
    players = read.game.players
    bots = _seat_bots(names, seed)
    rngs = play.get("bot_rng")
    if not isinstance(rngs, list) or len(rngs) != players:
        raise PlayError("one generator state (or null) per seat", "game.play.bot_rng")
    for p, (bot, given) in enumerate(zip(bots, rngs)):
        rng = _bot_rng(bot)
        if (rng is None) != (given is None):
            raise PlayError(
                "this seat's bot has no generator" if rng is None else "missing", f"game.play.bot_rng[{p}]"
            )
        if rng is not None:
            try:
                value = int(str(given), 16)
            except ValueError:
                raise PlayError(
                    f"a hexadecimal generator state, got {given!r}", f"game.play.bot_rng[{p}]"
                ) from None
            if not 0 <= value < 2**64:
                raise PlayError(f"a 64-bit generator state, got {given!r}", f"game.play.bot_rng[{p}]")
            rng.state = value
    return Table(state, human, names, bots)


def _name(a: int) -> str:
    try:
        return repr(action_name(a))
    except (IllegalActionError, IndexError):
        return f"action {a}"


# --------------------------------------------------------------------------- the log


def _goods_list(goods: Sequence[str]) -> str:
    return ", ".join(goods) if goods else "none"


# What a move reads as: (said of the player, said of another); None: the action's name.
_VERBS = {
    "pass": ("pass", "passes"),
    "mortgage": ("mortgage a share", "mortgages a share"),
    "repay": ("repay a loan", "repays a loan"),
    "buy nothing": ("buy no share", "buys no share"),
    "decline": ("place no more this voyage", "places no more this voyage"),
}
_HEADS = {
    "bid": ("bid", "bids"),
    "buy": ("buy a share of", "buys a share of"),
    "board": ("board", "boards"),
}


class Log:
    """Readable lines for the actions played, as the player sees them: another player's
    dealt shares are counted, never named."""

    def __init__(self, table: Table):
        self.table = table
        self.lines: list[str] = []
        self._dealt: dict[int, list[str]] = {}

    def play(self, action: int) -> None:
        """Applies ``action`` to the table's state and writes what happened."""
        state = self.table.state
        if state.phase == "deal":
            self._deal(state, action)
            return
        self._flush_deal()
        snap = state.to_dict()
        completed = state.voyages_completed()
        self.lines.append(self._text(state, state.current_player(), action))
        state.apply_action(action)
        self._after(state, snap, completed)

    def _deal(self, state: State, action: int) -> None:
        # The seat whose hand grows is the one dealt to; only the player's own goods are named.
        me = self.table.human
        before = state.observation(me)["players"]
        state.apply_action(action)
        after = state.observation(me)["players"]
        for p, (b, a) in enumerate(zip(before, after)):
            if p == me:
                self._dealt.setdefault(p, []).extend(g for g in GOODS if a["shares"][g] > b["shares"][g])
            elif a.get("hidden_shares", 0) > b.get("hidden_shares", 0):
                self._dealt.setdefault(p, []).append("?")

    def _flush_deal(self) -> None:
        if not self._dealt:
            return
        me = self.table.human
        text = f"deal: you get {_goods_list(self._dealt.get(me, []))}"
        others = [f"p{p} {len(v)}" for p, v in sorted(self._dealt.items()) if p != me]
        if others:
            text += " (face down: " + ", ".join(others) + ")"
        self.lines.append(text)
        self._dealt = {}

    def finish(self) -> list[str]:
        self._flush_deal()
        return self.lines

    def _text(self, state: State, mover: int, action: int) -> str:
        name = action_name(action)
        if mover < 0:  # a roll: the dice in the boats' order
            dice = name.split()[1].split("-")
            return "roll: " + ", ".join(f"{g} {d}" for g, d in zip(state.to_dict()["boats"], dice))
        you = mover == self.table.human
        who = self.table.label(mover)
        if name in _VERBS:
            return f"{who} {_VERBS[name][not you]}"
        head, _, rest = name.partition(" ")
        if head in _HEADS:
            return f"{who} {_HEADS[head][not you]} {rest}"
        if head == "leave":
            return f"{who} {'leave' if you else 'leaves'} {rest.split()[0]} at home"
        if head == "start":
            return f"{who}: {state.action_to_string(action)}"
        if head == "place":
            return f"{who} {'take' if you else 'takes'} {spot_label(rest)}"
        return f"{who}: {name}"  # pilots and plunder: the name says it all

    def _after(self, state: State, snap: dict[str, Any], completed: int) -> None:
        now = state.to_dict()
        label = self.table.label
        if snap["phase"] == "auction" and now["phase"] != "auction" and now.get("harbour_master") is not None:
            hm = now["harbour_master"]
            bid = (snap.get("auction") or {}).get("high_bid")
            verb = "are" if hm == self.table.human else "is"
            self.lines.append(f"{label(hm)} {verb} harbour master" + (f" for {bid}" if bid else ""))
        if state.voyages_completed() > completed:
            self._settlement(snap, now, state.voyages_completed())
        if state.is_terminal():
            wealth = state.returns()
            win = [label(p) for p, w in enumerate(wealth) if w == max(wealth)]
            verb = "win" if win == ["you"] or len(win) > 1 else "wins"
            self.lines.append(
                "game over: "
                + ", ".join(f"{label(p)} {w}" for p, w in enumerate(wealth))
                + f"; {' and '.join(win)} {verb}"
            )

    def _settlement(self, before: dict[str, Any], now: dict[str, Any], voyage: int) -> None:
        last = now["last_settlement"]
        label = self.table.label
        plundered = f"; plundered {_goods_list(last['plundered'])}" if last["plundered"] else ""
        self.lines.append(
            f"voyage {voyage}: in Manila {_goods_list(last['port'])}; "
            f"in the shipyard {_goods_list(last['shipyard'])}{plundered}"
        )
        income = [f"{label(p)} +{x}" for p, x in enumerate(last["income"]) if x]
        self.lines.append("paid: " + (", ".join(income) if income else "nobody"))
        if last.get("insurer") is not None and last.get("insurance_paid"):
            self.lines.append(f"insurance: {label(last['insurer'])} pays {last['insurance_paid']}")
        rises = [
            f"{g} {before['prices'][g]}→{now['prices'][g]}"
            for g in GOODS
            if now["prices"][g] != before["prices"][g]
        ]
        if rises:
            self.lines.append("prices: " + ", ".join(rises))


# --------------------------------------------------------------------------- a request


def advance(table: Table, log: Log, deadline: Optional[float] = None) -> bool:
    """Plays chance and the bots up to the player's decision or the end (True), or until
    ``deadline`` (time.monotonic) passes before a bot's move (False: the game is pending)."""
    state = table.state
    while not state.is_terminal():
        if state.is_chance_node():
            a = state.sample_chance()
        else:
            p = state.current_player()
            if p == table.human:
                return True
            if deadline is not None and time.monotonic() > deadline:
                return False
            bot = table.bots[p]
            assert bot is not None  # every seat but the player's has one
            a = bot_move(bot, state, p)
        log.play(a)
    return True


def page_options() -> dict[str, Any]:
    """What the play page offers: the player counts, the bots, the default bot."""
    return {"players": list(PLAYER_COUNTS), "bots": list(bot_names()), "default_bot": DEFAULT_BOT}


def face_down(state: State, player: int) -> list[str]:
    """The goods of the shares ``player`` was dealt (face down), from their own history."""
    seen = state.observation(player)["history"]
    return [
        name.split()[1]
        for name in (action_name(a) for a in seen if a is not None)
        if name.startswith("deal ")
    ]


def full_log(table: Table) -> list[str]:
    """The log of the whole game so far, replayed from its history (for a loaded game)."""
    replay = Table(table.state.game.new_initial_state(), table.human, table.names, table.bots)
    log = Log(replay)
    for a in table.state.history():
        log.play(a)
    return log.finish()


def answer(table: Table, lines: list[str], pending: bool = False) -> dict[str, Any]:
    """The answer to the page: the game to send back, the player's view and choices, the log."""
    state = table.state
    view = PlayerView(state, table.human)
    mine = state.current_player() == table.human
    out: dict[str, Any] = {
        "game": to_record(table),
        "you": f"p{table.human}",
        "bots": {f"p{p}": n for p, n in enumerate(table.names) if n},
        "phase": state.phase,
        "voyage": state.voyage_number,
        "to_move": f"p{state.current_player()}" if state.current_player() >= 0 else None,
        "legal_actions": view.legal_action_names() if mine else [],
        "terminal": state.is_terminal(),
        "pending": pending and not state.is_terminal(),
        "view": view.observation(),
        "face_down": face_down(state, table.human),
        "log": lines,
    }
    if state.is_terminal():
        # The game is over: every share is turned face up (rule 13 counts them all).
        shares = [p["shares"] for p in state.to_dict()["players"]]
        out["final"] = {
            "wealth": state.returns(),
            "winners": [f"p{p}" for p in state.winners()],
            "shares": shares,
        }
    return out


@dataclass
class Request:
    """A /v1/play request read: the table, the player's action or None, whether a hint is
    asked (with a fixed number of rollouts per option, or None: time-bounded), and whether
    the whole log is."""

    table: Table
    action: Optional[str]
    hint: bool
    whole: bool
    rollouts: Optional[int] = None


def parse_request(data: Any, allowed: Collection[str] = ()) -> Request:
    """The request in ``data``, checked; ``allowed`` as for new_table."""
    if not isinstance(data, Mapping):
        raise PlayError('the body is {"new": {...}} or {"game": ..., "action": "..."}')
    for key in data:
        if key not in REQUEST_KEYS:
            raise PlayError(
                f"unknown key{did_you_mean(str(key), REQUEST_KEYS)}; allowed: {', '.join(REQUEST_KEYS)}",
                str(key),
            )
    if ("new" in data) == ("game" in data):
        raise PlayError('give either "new" (a new game) or "game" (the game an answer gave)')
    action = data.get("action")
    if action is not None and not isinstance(action, str):
        raise PlayError(f"an action's name such as 'bid 7' or 'place silk', got {action!r}", "action")
    hint, whole = data.get("hint", False), data.get("log", False)
    for key, flag in (("hint", hint), ("log", whole)):
        if not isinstance(flag, bool):
            raise PlayError(f"true or false, got {flag!r}", key)
    rollouts = data.get("rollouts")
    if rollouts is not None:
        if not hint:
            raise PlayError('the rollouts of a hint\'s analysis: only with "hint": true', "rollouts")
        rollouts = _int(rollouts, "rollouts", 1, HINT_MAX_ROLLOUTS)
    if "new" in data:
        if action is not None or hint:
            raise PlayError("a new game takes no action or hint: the bots and the deal move first", "new")
        return Request(new_table(data["new"], allowed), None, False, whole)
    if action is not None and hint:
        raise PlayError("ask for a hint or play an action, not both", "hint")
    return Request(load_table(data["game"], allowed), action, hint, whole, rollouts)


def play_move(table: Table, action: Optional[str], whole: bool, deadline: Optional[float]) -> dict[str, Any]:
    """Plays the player's ``action`` (None: only the bots and chance) and every reply."""
    state = table.state
    log = Log(table)
    if action is not None:
        if state.current_player() != table.human:
            who = "the game is over" if state.is_terminal() else f"p{state.current_player()} is to move"
            raise PlayError(f"{action!r}: not your move, {who}", "action")
        reason = state.illegal_reason(action)
        if reason is not None:
            raise PlayError(f"{action!r}: {unnamed_reason(action, reason)}", "action")
        log.play(action_id(action))
    done = advance(table, log, deadline)
    lines = log.finish()
    if whole:
        lines = full_log(table)
    return answer(table, lines, pending=not done)


# --------------------------------------------------------------------------- the hint


def _plain(action: str) -> str:
    """'take Port B' for 'place port_b'; other actions as they are named."""
    if action.startswith("place "):
        return "take " + spot_label(action[len("place ") :])
    return action


def _pesos(x: float) -> str:
    return f"{x:+.2f}".replace("-", "−")


def hint(table: Table, time_limit: float = HINT_SECONDS, rollouts: Optional[int] = None) -> dict[str, Any]:
    """Advice for the player's decision: exact where the advice covers it (placements,
    pilots, boarding), else the rollout analysis of every option, bounded by ``time_limit``
    seconds, or with ``rollouts`` that many per option (then the same answer everywhere,
    the engine's own /v1/play included). Each option comes with the action's name, its
    value and a few words."""
    state = table.state
    if state.current_player() != table.human:
        raise PlayError("no decision of yours is due", "hint")
    view = PlayerView(state, table.human)
    position = view.position()
    if position is not None:
        advice = advise(position, threads=1)
        kind = advice.kind
        options = [
            {
                "action": advice_action(state.phase, name),
                "value": float(v["expected_net"]),
                "cost": v["cost"],
            }
            for name, v in advice.options.items()
        ]
        best = advice_action(state.phase, advice.best)
        value = float(advice.options[advice.best]["expected_net"])
        against = "placing no more" if kind == "placement" else f"'{options[0]['action']}'"
        words = [
            f"Best: {_plain(best)}, {_pesos(value)} pesos in wealth against {against}.",
            "Exact: every player after you answers with their own best "
            + ("for the rest of this round." if kind == "placement" else "for the rest of the voyage."),
        ]
        return {
            "source": "advice",
            "exact": True,
            "kind": kind,
            "best": best,
            "options": options,
            "words": words,
        }
    return _analysis_hint(table, view, time_limit, rollouts)


def _analysis_hint(
    table: Table, view: PlayerView, time_limit: float, rollouts: Optional[int]
) -> dict[str, Any]:
    """The rollout analysis of the decision (manila.analysis.analysis) from the player's view: the
    others' face-down shares are dealt anew in every rollout."""
    state = table.state
    seed = _core.derive_seed(state.game.seed, _core.PLAY_HINT_SALT + state.move_number())
    result = analyse(
        view,
        horizon="game",  # equity, as the page's own hint (an office pays back over the game)
        rollouts=rollouts,
        time_limit=0.0 if rollouts else time_limit,
        threads=1,
        seed=seed,
    )
    # An option of the harbour master is a whole combination (share, goods, starts): the
    # decision due now is its first action; each is shown with its best combination.
    first: dict[str, Any] = {}
    for o in result.options.values():
        act = action_name(o.actions[0]) if o.actions else o.name
        if act not in first or o.mean > first[act]["value"]:
            first[act] = {"action": act, "value": o.mean, "ci95": o.ci95, "exact": o.exact, "line": o.name}
    best_option = result.options[result.best]
    best = action_name(best_option.actions[0]) if best_option.actions else result.best
    how = "exact" if result.exact else f"{result.rollouts} rollouts, ± is a 95% interval"
    me = state.player_name(table.human)
    words = [
        *(re.sub(rf"\b{me}\b", "you", line) for line in result.plain_words()),
        f"Values: your equity, your expected final wealth minus the others' mean ({how}, each "
        "ending at the next voyage with the learned value), the bots playing greedy-wealth.",
    ]
    return {
        "source": "analysis",
        "exact": result.exact,
        "kind": result.kind,
        "best": best,
        "options": sorted(first.values(), key=lambda o: -float(o["value"])),
        "words": words,
    }


def play_hint(table: Table, time_limit: float, rollouts: Optional[int] = None) -> dict[str, Any]:
    """The answer for the game as it stands (nothing played), with the hint for the player."""
    return {**answer(table, []), "hint": hint(table, time_limit, rollouts)}

"""Analysis of any decision of the game by rollouts (docs/analysis.md).

    >>> from manila.game import Game
    >>> state = Game(4, seed=1).new_initial_state()
    >>> while state.is_chance_node():
    ...     _ = state.apply_chance()
    >>> result = analyse(state, rollouts=64, seed=1, max_bids=4)
    >>> result.kind, result.decider, list(result.options)[:2]
    ('auction', 'p0', ['pass', 'up to 1'])
    >>> result.to_dict()["options"]["pass"]["diff"]
    0.0

Every option of the decision due is played out with a continuation policy (every later
decision, the decider's own included), the same dice for every option's i-th rollout.
Horizon ``"voyage"``: the decider's payoff in wealth at the end of this voyage, exact once
no placement remains (and exact outright where the advice is). Horizon ``"game"``: the
decider's equity (expected final wealth minus the mean of the others'), with the win
probability (ties shared) and the final wealth margin over the best other beside it;
``value="learned"`` (the default) stops each rollout at the next voyage boundary and takes
the learned value there (docs/value.md), ``value="rollout"`` plays it to the end.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from .. import _core
from ..common import limits
from ..game.engine import State
from ..game.table import TableLike, table_view
from ..game.view import PlayerView

__all__ = ["DEFAULT_POLICY", "HORIZONS", "POLICIES", "VALUE_SOURCES", "Analysis", "OptionValue", "analyse"]

HORIZONS: tuple[str, ...] = tuple(_core.HORIZONS)
DEFAULTS = _core.AnalysisConfig()  # the engine's defaults of every option
VALUE_SOURCES: tuple[str, ...] = tuple(_core.VALUE_SOURCES)  # horizon game: learned first
POLICIES: tuple[str, ...] = tuple(_core.POLICIES)  # the bots that may continue a rollout
DEFAULT_POLICY: str = _core.DEFAULT_POLICY
# The harbour master's combinations kept (by their exact no-placement value) for rollouts.
HARBOUR_SCREEN: int = _core.HARBOUR_SCREEN

Progress = Callable[[int, float], Optional[bool]]


@dataclass(frozen=True)
class OptionValue:
    """One option: its value (pesos of payoff at horizon voyage, of equity at game) with its
    95% half-width, and its paired difference from the first option; at horizon game its
    win probability and final wealth margin over the best other beside it."""

    name: str
    mean: float
    ci95: float
    diff: float
    diff_ci95: float
    rollouts: int
    exact: bool
    actions: tuple[int, ...]
    margin: Optional[float] = None
    margin_ci95: Optional[float] = None
    win: Optional[float] = None
    win_ci95: Optional[float] = None


@dataclass(frozen=True)
class Analysis:
    """The analysis of one decision (``to_dict()`` is part 5's JSON)."""

    decider: str
    kind: str
    horizon: str
    policy: str
    rollouts: int
    seed: int
    exact: bool
    options: dict[str, OptionValue]
    best: str
    stop: str
    seconds: float
    gap_ci95: float
    target: float
    screened_out: int = 0
    phase: str = ""
    notes: list[str] = field(default_factory=list)
    value: Optional[str] = None  # horizon game: "learned" or "rollout"
    worth: Optional[int] = None  # auction: the highest ceiling worth at least passing
    report: dict[str, Any] = field(default_factory=dict, repr=False)  # the engine's JSON of it

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON (docs/analysis.md), as the engine wrote it."""
        return copy.deepcopy(self.report)

    @property
    def unit(self) -> str:
        return "pesos" if self.horizon == "voyage" else "equity"

    def plain_words(self, to_decider: bool = False) -> list[str]:
        """The auction and the harbour master in plain words (other kinds: the best option);
        ``to_decider``: said to the decider, their seat as "you". The words are the engine's
        (cpp/src/words.cpp), which its /v1/play hint says."""
        return list(self.report["words_to_decider" if to_decider else "words"])


def _state_of(table_or_state: Union[State, PlayerView, TableLike], seed: int) -> tuple[State, Optional[int]]:
    """The state, and whose view it is: None for a full state (every share known), else the
    table's or the view's player (the others' face-down shares in the state are a sample)."""
    if isinstance(table_or_state, State):
        return table_or_state, None
    if isinstance(table_or_state, PlayerView):
        if table_or_state.is_chance_node() or table_or_state.is_terminal():
            # A table is at a player's decision: the engine reads no other (docs/value.md).
            moment = "the game's end" if table_or_state.is_terminal() else "a roll of the dice"
            raise ValueError(
                f"table_or_state: a player's view at {moment} is at no decision, which a "
                "table must be; give the State, or the view at the next decision"
            )
        # Its table, not the referee's state behind it: that holds every face-down share.
        table_or_state = table_or_state.observation()
    if isinstance(table_or_state, (str, Mapping)):
        return table_view(table_or_state, seed=seed)
    raise ValueError(
        f"table_or_state: a manila.game.State, a player's view, or a table (JSON), got {type(table_or_state).__name__}"
    )


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name}: must be one of {', '.join(choices)}, got {value!r}")
    return str(value)


def check_number(value: Any, name: str, low: float, integer: bool = False) -> None:
    limits.check_number(value, name, low, integer)  # bounded above too (common/limits.py)


def analyse(
    table_or_state: Union[State, PlayerView, TableLike],
    horizon: str = HORIZONS[0],
    policy: str = DEFAULT_POLICY,
    rollouts: Optional[int] = None,
    seed: int = 0,
    time_limit: float = DEFAULTS.time_limit,
    exact: bool = True,
    *,
    target: Optional[float] = None,
    max_rollouts: int = DEFAULTS.max_rollouts,
    threads: int = 0,
    max_bids: int = 0,
    screen: Optional[int] = None,
    sample_hidden: Optional[bool] = None,
    progress: Optional[Progress] = None,
    value: str = VALUE_SOURCES[0],
) -> Analysis:
    """Every option of the decision due, valued by rollouts (docs/analysis.md).

    ``rollouts``: a fixed number per option; None plays batches until the best two options'
    ``diff_ci95`` is at most ``target`` (default 1 peso, of equity at horizon game),
    ``max_rollouts`` or ``time_limit`` seconds, whichever first. ``exact``: part 4's exact
    answers and the exact voyage expectation once no placement remains (horizon voyage);
    False rolls every die. ``screen``: the harbour master's combinations kept for rollouts
    by their exact no-placement value (default 30; 0 keeps all). ``sample_hidden``: value
    the decision from the decider's view, the others' face-down shares dealt anew in every
    rollout and the exact answers averaged over every deal of them (always for a table or a
    view; for a full state, its true shares unless asked). ``progress(rollouts, gap_ci95)``
    is called between batches; returning False stops early. ``value`` (horizon game):
    ``"learned"`` ends each rollout at the next voyage boundary with the learned value,
    ``"rollout"`` plays it to the end.
    """
    horizon = check_choice(horizon, "horizon", HORIZONS)
    value = check_choice(value, "value", VALUE_SOURCES)
    policy = check_choice(policy, "policy", POLICIES)
    if rollouts is not None:
        check_number(rollouts, "rollouts", limits.MIN_ROLLOUTS, integer=True)
    check_number(seed, "seed", 0, integer=True)
    check_number(time_limit, "time_limit", 0)
    check_number(max_rollouts, "max_rollouts", limits.MIN_ROLLOUTS, integer=True)
    check_number(threads, "threads", 0, integer=True)
    check_number(max_bids, "max_bids", 0, integer=True)
    if target is not None:
        check_number(target, "target", 0)
        if target == 0:
            raise ValueError("target: must be above 0 (0 would never stop)")
    if screen is not None:
        check_number(screen, "screen", 0, integer=True)
    if not isinstance(exact, bool):
        raise ValueError(f"exact: true or false, got {exact!r}")
    state, viewer = _state_of(table_or_state, seed)
    if state.is_terminal():
        raise ValueError("state: the game is over, no decision is due")
    if state.is_chance_node():
        raise ValueError("state: chance moves next (a deal or a roll), not a player")
    if viewer is not None and sample_hidden is False:
        raise ValueError(
            "sample_hidden: a table or a player's view hides the others' face-down shares, "
            "they are dealt anew (false needs a full state)"
        )
    hidden = viewer is not None or bool(sample_hidden)
    # The exact answers count every deal of the shares the decider cannot see: from another
    # player's view the decider's own are unknown too, and only rollouts answer.
    exact_answers = exact and viewer in (None, state.current_player())

    def report(done: int, gap: float) -> bool:
        return progress is None or progress(done, gap) is not False

    config = _core.AnalysisConfig()
    config.horizon, config.value, config.policy = horizon, value, policy
    config.seed, config.rollouts, config.max_rollouts = seed, rollouts or 0, max_rollouts
    config.time_limit, config.target, config.threads = time_limit, target or 0.0, threads
    config.max_bids, config.exact_shortcut, config.exact_answers = max_bids, exact, exact_answers
    config.sample_hidden, config.screen = hidden, HARBOUR_SCREEN if screen is None else screen
    raw = _core.analyse_decision(state._s, config, report if progress is not None else None)
    options: dict[str, OptionValue] = {}
    for o in raw["options"]:
        options[o["name"]] = OptionValue(
            name=o["name"],
            mean=o["mean"],
            ci95=o["ci95"],
            diff=o["diff"],
            diff_ci95=o["diff_ci95"],
            rollouts=o["rollouts"],
            exact=o["exact"],
            actions=tuple(o["actions"]),
            margin=o.get("margin"),
            margin_ci95=o.get("margin_ci95"),
            win=o.get("win"),
            win_ci95=o.get("win_ci95"),
        )
    names = list(options)
    return Analysis(
        decider=state.player_name(raw["decider"]),
        kind=raw["kind"],
        horizon=horizon,
        policy=policy,
        rollouts=raw["rollouts"],
        seed=seed,
        exact=raw["exact"],
        options=options,
        best=names[raw["best"]],
        stop=raw["stop"],
        seconds=raw["seconds"],
        gap_ci95=raw["gap_ci95"],
        target=raw["target"],
        screened_out=raw["screened_out"],
        phase=state.phase,
        value=value if horizon == "game" else None,
        worth=raw.get("worth"),
        report=raw["report"],
    )


def render_analysis(result: Analysis, limit: int = 20) -> str:
    """The terminal table: every option (the best ``limit`` and the first when there are
    more) with its value, the paired difference from the first option, and the intervals."""
    game = result.horizon == "game"
    head = (
        f"{result.kind} for {result.decider}: horizon {result.horizon}"
        + (f" ({result.value} value)" if game else "")
        + f", policy {result.policy}, "
        + (
            "exact"
            if result.exact
            else f"{result.rollouts} rollouts, seed {result.seed}, stop: {result.stop}"
        )
    )
    unit = "equity" if game else "pesos"
    rows = list(result.options.values())
    first = rows[0]
    shown = sorted(rows, key=lambda o: -o.mean)[:limit]
    if first not in shown:
        shown.append(first)
    width = max(len(o.name) for o in shown) + 2
    lines = [
        head,
        f"{'option':<{width}} {unit:>16} {'vs ' + first.name:>18} {'n':>6}"
        + (f" {'win %':>13}" if game else ""),
    ]
    for o in shown:
        mark = "*" if o.name == result.best else " "
        value = f"{o.mean:8.2f} ± {o.ci95:5.2f}"
        diff = f"{o.diff:+8.2f} ± {o.diff_ci95:5.2f}"
        win = f" {100 * (o.win or 0):6.1f} ± {100 * (o.win_ci95 or 0):4.1f}" if game else ""
        lines.append(f"{mark}{o.name:<{width - 1}} {value:>16} {diff:>18} {o.rollouts:>6}{win}")
    if len(rows) > len(shown):
        lines.append(f"  ... {len(rows) - len(shown)} more options (--json lists them all)")
    if game:
        b = result.options[result.best]
        if b.margin is not None:
            lines.append(
                f"best's final wealth minus the best other's: {b.margin:.1f} ± {b.margin_ci95 or 0:.1f}"
            )
    lines.extend(result.plain_words())
    return "\n".join(lines)

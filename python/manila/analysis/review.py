"""Review of a recorded game (docs/review.md): every decision against the best, and luck.

    >>> from manila.arena.simulate import simulate
    >>> records = []
    >>> _ = simulate(players=3, games=1, bots="greedy", seed=1, record=records.append)
    >>> result = review(records[0], rollouts=2, luck_rollouts=2)
    >>> sorted(result.players)
    ['p0', 'p1', 'p2']
    >>> all(d.loss >= 0 for d in result.decisions)
    True

Every decision of every player is analysed (manila.analysis.analysis) against the best option:
the **loss** is the value of the best option minus that of the chosen one, never negative, 0
for the best and for forced decisions (rolled out: the best picked on half the rollouts, its
gain measured on the other half, so that noise does not pass for loss); at horizon
``"voyage"`` in pesos of wealth to the end of the voyage, at ``"game"`` in pesos of equity. Every chance event (a share
dealt, a roll) gets each player's **luck**: the value after it minus the expected value
before it. Loans (mortgage, repay) are no decision and are skipped.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import _core
from ..common.limits import MIN_ROLLOUTS, check_number
from ..common.version import install_hint
from ..game.engine import Game, Record, State, read_record, replay
from .analysis import HORIZONS, POLICIES, VALUE_SOURCES

__all__ = [
    "ACCURACY_SCALE",
    "CLASSES",
    "REVIEW_POLICY",
    "THRESHOLDS",
    "Decision",
    "PlayerSummary",
    "PooledLoss",
    "Review",
    "pooled_losses",
    "render_review",
    "review",
]

# The continuation policy by default: greedy-wealth with the solver's office play
# (docs/review.md).
REVIEW_POLICY: str = _core.REVIEW_POLICY

# The classes of a loss, and the least loss of each class above "fine", per horizon (pesos
# of wealth at voyage, of equity at game). A loss not above its own 95% half-width is "fine"
# whatever its size: rollout noise alone makes a chosen option look a little worse. These,
# the bands, the budgets and the whole JSON of a review have their one home in the engine
# (cpp/include/manila/review.hpp, cpp/src/api_review.cpp): POST /v1/review in the page's
# WebAssembly answers from the same code.
CLASSES: tuple[str, ...] = tuple(_core.REVIEW_CLASSES)
_INACCURACY, _MISTAKE, _BLUNDER = _core.REVIEW_THRESHOLDS
THRESHOLDS: dict[str, tuple[float, float, float]] = {h: (_INACCURACY, _MISTAKE, _BLUNDER) for h in HORIZONS}
# accuracy = exp(-mean_loss / scale): 1 for no loss, 1/e at a mean loss of the mistake
# threshold per non-forced decision.
ACCURACY_SCALE = {h: float(_core.REVIEW_ACCURACY_SCALE) for h in HORIZONS}

# The rollout budgets: per option, the stop rule's most and its target (the paired
# half-width of the best two), the seconds per decision; per chance event, the rollouts.
BUDGETS: dict[bool, dict[str, dict[str, float]]] = {
    quick: {h: _core.review_budget(h, quick) for h in HORIZONS} for quick in (False, True)
}

RecordLike = Union[State, str, Mapping[str, Any]]
Progress = Callable[[int, int], Optional[bool]]


# Rating bands by the mean loss per non-forced decision at horizon game (pesos of equity),
# the upper bound of each, fitted on the built-in bots' reviews (benchmarks/review_trust.py,
# docs/review.md).
BANDS: tuple[tuple[str, float], ...] = tuple((name, float(below)) for name, below in _core.REVIEW_BANDS)


def band_of(mean_loss: float) -> str:
    """The rating band of a mean loss per non-forced decision (``BANDS``)."""
    return str(_core.band_of(mean_loss))


def loss_class(loss: float, ci95: float, horizon: str) -> str:
    """The class of a loss at a horizon (``THRESHOLDS``; not above its interval: fine)."""
    if horizon not in HORIZONS:
        raise ValueError(f"horizon: must be one of {', '.join(HORIZONS)}, got {horizon!r}")
    return str(_core.loss_class(loss, ci95))


@dataclass(frozen=True)
class Decision:
    """One reviewed decision (an entry of the report's "decisions", docs/review.md)."""

    index: int
    player: str
    voyage: int
    kind: str
    chosen: str
    best: str
    loss: float
    loss_ci95: float
    cls: str
    forced: bool
    exact: bool
    options: int
    rollouts: int
    chosen_value: Optional[float]
    best_value: Optional[float]
    table: str


@dataclass(frozen=True)
class PlayerSummary:
    decisions: int
    non_forced: int
    total_loss: float
    total_loss_ci95: float
    mean_loss: float
    mean_loss_ci95: float
    accuracy: float
    luck: float
    luck_ci95: float
    classes: dict[str, int]
    wealth: int
    # Equity: final wealth minus the mean of the others'. The reconciliation of part of it:
    # final_equity = luck - (total_loss - the others' mean total_loss) + residual.
    final_equity: float = 0.0
    luck_adjusted: float = 0.0  # final_equity - luck
    residual: float = 0.0
    reconciliation: str = ""  # the line above in words
    band: str = ""


@dataclass(frozen=True)
class Review:
    horizon: str
    policy: str
    seed: int
    quick: bool
    decisions: list[Decision]
    players: dict[str, PlayerSummary]
    events: list[dict[str, Any]]
    voyage_wealth: list[list[int]]
    seconds: float
    voyage_starts: list[int] = field(default_factory=list)  # history index of each voyage's first action
    actions: int = 0
    items: int = 0  # decisions and chance events of the record
    notes: list[str] = field(default_factory=list)
    value: Optional[str] = None  # horizon game: "learned" or "rollout"
    report: dict[str, Any] = field(default_factory=dict)  # the engine's JSON of the review

    @property
    def unit(self) -> str:
        return "pesos" if self.horizon == "voyage" else "equity"

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON (docs/review.md), as the engine wrote it."""
        return copy.deepcopy(self.report)

    @property
    def complete(self) -> bool:
        """False when ``progress`` stopped the review early."""
        return len(self.decisions) + len(self.events) >= self.items

    def worst(self, limit: int = 10) -> list[Decision]:
        """The costliest decisions, worst first (fine ones left out)."""
        bad = [d for d in self.decisions if d.cls != "fine"]
        return sorted(bad, key=lambda d: (-d.loss, d.index))[:limit]


def _replayed(record: RecordLike) -> tuple[Game, list[int], list[int]]:
    """The game and history of a finished game's record (``simulate --record``,
    ``State.serialize()``, a State), every action checked, and the history index of each
    voyage's first action."""
    read = Record(record.game, record.history()) if isinstance(record, State) else read_record(record)
    voyages: list[tuple[int, bool]] = []
    last = replay(read, finished=True, before=lambda state, _: voyages.append((state.voyage_number, False)))
    voyages.append((last.voyage_number, last.is_terminal()))
    starts = [
        i
        for i in range(1, len(voyages))
        if voyages[i][0] != voyages[i - 1][0] and voyages[i][0] >= 1 and not voyages[i][1]
    ]
    return read.game, read.history, starts


def _check(value: Any, name: str, low: float, integer: bool = True) -> None:
    check_number(value, name, low, integer)  # bounded above too (common/limits.py)


def review(
    record: RecordLike,
    horizon: str = "game",
    policy: str = REVIEW_POLICY,
    seed: int = 0,
    quick: bool = False,
    *,
    rollouts: Optional[int] = None,
    max_rollouts: Optional[int] = None,
    target: Optional[float] = None,
    time_limit: Optional[float] = None,
    luck_rollouts: Optional[int] = None,
    max_bids: int = 4,
    screen: int = 12,
    exact: bool = True,
    decisions: bool = True,
    threads: int = 0,
    progress: Optional[Progress] = None,
    value: str = VALUE_SOURCES[0],
) -> Review:
    """Every decision of a recorded game against the best, and every chance event's luck.

    ``horizon``: ``"game"`` (the default) in equity, ``value`` ``"learned"`` ending each
    rollout at the next voyage boundary with the learned value (docs/value.md), or
    ``"rollout"`` playing it to the end; ``"voyage"`` in pesos to the end of the voyage,
    which leaves out what a decision does to later voyages (an office rarely pays back
    within its own).

    ``record``: a game record (``simulate --record``), a serialized state
    (``State.serialize()``), its JSON text, or a finished State. ``rollouts``: a fixed number
    per option; otherwise the stop rule of the analysis per decision (``max_rollouts``,
    ``target``, ``time_limit`` seconds; defaults by horizon in ``BUDGETS``, coarser with
    ``quick``). ``luck_rollouts`` per chance event (0: no luck). Auctions: at most
    ``max_bids`` bids (spread evenly) besides the chosen one; the harbour master:
    ``screen`` combinations besides the chosen one. ``decisions=False``: the luck alone.
    ``progress(done, total)`` is called
    after every item; returning False stops early. Same seed, same review.
    """
    if horizon not in HORIZONS:
        raise ValueError(f"horizon: must be one of {', '.join(HORIZONS)}, got {horizon!r}")
    if policy not in POLICIES:
        raise ValueError(f"policy: must be one of {', '.join(POLICIES)}, got {policy!r}")
    if value not in VALUE_SOURCES:
        raise ValueError(f"value: must be one of {', '.join(VALUE_SOURCES)}, got {value!r}")
    if not isinstance(quick, bool):
        raise ValueError(f"quick: true or false, got {quick!r}")
    if not isinstance(exact, bool):
        raise ValueError(f"exact: true or false, got {exact!r}")
    if not isinstance(decisions, bool):
        raise ValueError(f"decisions: true or false, got {decisions!r}")
    _check(seed, "seed", 0)
    if rollouts is not None:
        _check(rollouts, "rollouts", MIN_ROLLOUTS)
    if max_rollouts is not None:
        _check(max_rollouts, "max_rollouts", MIN_ROLLOUTS)
    if target is not None:
        _check(target, "target", 0, integer=False)
    if time_limit is not None:
        _check(time_limit, "time_limit", 0, integer=False)
    if luck_rollouts is not None:
        _check(luck_rollouts, "luck_rollouts", 0)
    _check(max_bids, "max_bids", 0)
    _check(screen, "screen", 0)
    _check(threads, "threads", 0)

    game, history, voyage_starts = _replayed(record)

    def report(done: int, total: int) -> bool:
        return progress is None or progress(done, total) is not False

    text, items = _core.review_report(
        game.new_initial_state()._s,
        history,
        horizon=horizon,
        value=value,
        policy=policy,
        seed=seed,
        quick=quick,
        rollouts=rollouts or 0,
        max_rollouts=max_rollouts,
        target=None if target is None else float(target),
        time_limit=None if time_limit is None else float(time_limit),
        luck_rollouts=luck_rollouts,
        max_bids=max_bids,
        screen=screen,
        exact=exact,
        decisions=decisions,
        threads=threads,
        progress=report if progress is not None else None,
    )
    data = json.loads(text)
    return Review(
        horizon=horizon,
        policy=policy,
        seed=seed,
        quick=quick,
        decisions=[_decision(d) for d in data["decisions"]],
        players={name: _summary(p) for name, p in data["players"].items()},
        events=data["events"],
        voyage_wealth=data["voyage_wealth"],
        seconds=data["seconds"],
        voyage_starts=voyage_starts,
        actions=len(history),
        items=items,
        value=data.get("value"),
        report=data,
    )


def _decision(d: dict[str, Any]) -> Decision:
    """A decision of the engine's report."""
    return Decision(
        **{k: v for k, v in d.items() if k != "class"},
        cls=d["class"],
    )


def _summary(p: dict[str, Any]) -> PlayerSummary:
    """A player's summary of the engine's report."""
    return PlayerSummary(**{**p, "classes": dict(p["classes"])})


@dataclass(frozen=True)
class PooledLoss:
    """One seat's mean loss per non-forced decision over several reviewed games."""

    games: int
    non_forced: int
    mean_loss: float
    mean_loss_ci95: float


def pooled_losses(
    results: Sequence[Review], labels: Optional[Sequence[Mapping[str, str]]] = None
) -> dict[str, PooledLoss]:
    """Each seat's mean loss per non-forced decision over the reviewed games; with
    ``labels`` (per review, seat -> a name such as the bot that sat there), each label's.

    The games are the independent units, not the decisions: a seat's decisions in one game
    share its fortunes (who holds the office, which boats it backs). The interval is the
    ratio estimator's, clustered by game, with Student's t for the number of games."""
    if len(results) < 2:
        raise ValueError(f"results: at least 2 reviewed games, got {len(results)}")
    horizons = sorted({r.horizon for r in results})
    if len(horizons) > 1:
        raise ValueError(f"results: every review at one horizon, got {', '.join(horizons)}")
    if any(set(r.players) != set(results[0].players) for r in results):
        raise ValueError("results: every review of games with the same seats")
    if labels is None:
        labels = [{seat: seat for seat in r.players} for r in results]
    if len(labels) != len(results):
        raise ValueError(f"labels: one mapping per review, {len(results)} in all, got {len(labels)}")
    out = {}
    for label in dict.fromkeys(v for m in labels for v in m.values()):
        totals = [
            sum(d.loss for d in r.decisions if m.get(d.player) == label and not d.forced)
            for r, m in zip(results, labels)
        ]
        counts = [
            sum(m.get(d.player) == label and not d.forced for d in r.decisions)
            for r, m in zip(results, labels)
        ]
        n = sum(counts)
        mean = sum(totals) / n if n else 0.0
        g = len(results)
        residuals = sum((t - mean * c) ** 2 for t, c in zip(totals, counts))
        se = math.sqrt(g / (g - 1) * residuals) / n if n else 0.0
        out[label] = PooledLoss(games=g, non_forced=n, mean_loss=mean, mean_loss_ci95=_core.t95(g - 1) * se)
    return out


def _amount(x: float, horizon: str) -> str:
    return f"{x:.1f}"


def render_review(result: Review, limit: int = 10) -> str:
    """The terminal report: each player's line, what luck and play say about the result,
    then the worst decisions first with the table as it stood and the better option."""
    h = result.horizon
    unit = "pesos" if h == "voyage" else "pesos of equity"
    lines = [
        f"Review at horizon {h} ({unit}), policy {result.policy}, seed {result.seed}"
        + (", quick" if result.quick else "")
        + f": {len(result.decisions)} decisions, {result.seconds:.1f} s",
        f"{'player':<7}{'wealth':>7}{'decisions':>11}{'loss':>9}{'mean':>8}{'accuracy':>10}"
        f"{'luck':>16}  inacc/mistake/blunder",
    ]
    for name, p in result.players.items():
        luck = f"{_amount(p.luck, h)} ± {_amount(p.luck_ci95, h)}"
        lines.append(
            f"{name:<7}{p.wealth:>7}{p.non_forced:>6}/{p.decisions:<4}{_amount(p.total_loss, h):>9}"
            f"{_amount(p.mean_loss, h):>8}{100 * p.accuracy:>9.0f}%{luck:>16}  "
            f"{p.classes['inaccuracy']}/{p.classes['mistake']}/{p.classes['blunder']}"
        )
    lines.extend(_verdicts(result))
    if h == "voyage":
        lines.append(
            "(horizon voyage counts each decision to the end of its voyage only: an office, a "
            "share or a start that pays in later voyages is not credited)"
        )
    worst = result.worst(limit)
    if worst:
        lines.append("")
        lines.append(f"The {len(worst)} costliest decisions:")
    for d in worst:
        how = "exact" if d.exact else f"± {_amount(d.loss_ci95, h)}"
        lines.append(
            f"  #{d.index} voyage {d.voyage}, {d.player} {d.kind}: {d.cls}: "
            f"chose {d.chosen!r}, better {d.best!r}: loses {_amount(d.loss, h)} {how}"
        )
        lines.append(f"      {d.table}")
    return "\n".join(lines)


def _verdicts(result: Review) -> list[str]:
    """Horizon game: each player's final equity reconciled with their luck and their play
    (the others' losses are their gain: equity is zero-sum). Horizon voyage: "p1 finished 12
    behind p0: 20 of luck against, 8 of play better" for each player behind the winner."""
    if not result.players:
        return []
    if result.horizon == "game":
        return [
            f"{name}: {p.reconciliation}; luck-adjusted {p.luck_adjusted:+.1f}"
            + (f", {p.band}" if p.band else "")
            for name, p in result.players.items()
        ]
    top_name, top = max(result.players.items(), key=lambda kv: kv[1].wealth)
    out = []
    for name, p in result.players.items():
        if name == top_name:
            continue
        behind = top.wealth - p.wealth
        luck = p.luck - top.luck
        play = top.total_loss - p.total_loss
        out.append(
            f"{name} finished {behind} behind {top_name}: {abs(luck):.0f} of luck "
            f"{'against' if luck < 0 else 'for'}, {abs(play):.0f} of play "
            f"{'better' if play >= 0 else 'worse'}"
        )
    return out


def _voyage_axis(result: Review) -> Callable[[int], float]:
    """History index -> voyage axis: voyage v spans (v - 1, v], the deal sits at 0."""
    starts = result.voyage_starts
    last = result.actions

    def at(index: int) -> float:
        for v in range(len(starts), 0, -1):
            begin = starts[v - 1]
            if index >= begin:
                end = starts[v] if v < len(starts) else last
                return v - 1 + (index - begin + 1) / max(1, end - begin)
        return 0.0

    return at


def plot_review(result: Review) -> Any:
    """Each player's value (horizon voyage: expected wealth at the end of the voyage in
    progress; game: equity) along the game, voyage by voyage, before every chance
    event and at every voyage's end, with the blunders (x) and mistakes (o) marked on the
    player's line. A ``matplotlib.figure.Figure`` (the plot extra)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(f"plotting needs matplotlib: {install_hint('plot')}") from None
    fig = Figure(figsize=(9, 4.8))
    ax = fig.add_subplot()
    at = _voyage_axis(result)
    names = list(result.players)
    colors = [f"C{k}" for k in range(len(names))]
    final = [float(p.wealth) for p in result.players.values()]
    final_equity = [w - (sum(final) - w) / (len(final) - 1) for w in final]
    for k, name in enumerate(names):
        xs: list[float] = []
        ys: list[float] = []
        for e in result.events:
            xs.append(at(e["index"]) - 1e-9)
            ys.append(e["before"][name])
        if result.horizon == "voyage":
            for v, wealth in enumerate(result.voyage_wealth, 1):
                xs.append(float(v))
                ys.append(float(wealth[k]))
        else:
            xs.append(float(len(result.voyage_wealth)))
            ys.append(final_equity[k])
        order = sorted(range(len(xs)), key=xs.__getitem__)
        xs, ys = [xs[i] for i in order], [ys[i] for i in order]
        ax.plot(xs, ys, color=colors[k], label=f"{name} ({result.players[name].wealth})", linewidth=1.4)
        for d in result.decisions:
            if d.player != name or d.cls not in ("mistake", "blunder"):
                continue
            x = at(d.index)
            y = float(np.interp(x, xs, ys)) if xs else 0.0
            ax.plot(
                [x],
                [y],
                "x" if d.cls == "blunder" else "o",
                color=colors[k],
                markersize=9 if d.cls == "blunder" else 6,
                fillstyle="none",
            )
    ax.set_xlabel("voyage")
    ax.set_ylabel("expected wealth at the voyage's end" if result.horizon == "voyage" else "equity (pesos)")
    ax.set_title(f"Review (horizon {result.horizon}, policy {result.policy}): x blunder, o mistake")
    ax.set_xticks(range(0, len(result.voyage_wealth) + 1))
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    return fig

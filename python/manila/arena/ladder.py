"""A rated ladder: bots play many seeded games with the seats rotated evenly.

    >>> from manila import ladder
    >>> result = ladder(players=4, bots="greedy,random,random,random", games=8, seed=1)
    >>> result.bots["random"].games, result.bots["greedy"].games    # seat-games
    (24, 8)

How the games are played:

- **Rotations.** ``games`` is a whole number of rotations of ``players`` games each;
  any other count is refused (``ValueError``) rather than rounded, so that every bot
  sits in every seat equally often. Rotation ``r`` deals the game of seed
  ``derive_seed(seed, r)`` once per seating: in its game ``j`` the bot listed ``i``-th
  sits in seat ``(i + j) mod players``. The same deal and the same dice stream are thus
  played from every seat (as in duplicate bridge), which cancels much of the luck.
- **Bots.** Registered names (``manila.bots.register_bot``; built in: random, greedy)
  and Python bots as ``module:Class``. Each bot sees only its own view of the game
  (``manila.view.PlayerView``). When every bot is one the C++ loop knows, the games run
  in C++ with the GIL released.
- **Per bot** (a name used by several seats is one entry, counted per seat-game): games,
  wins (a shared win split equally among the tied), win rate with its 95% Wilson
  interval (par is 1/players), mean final wealth, and an openskill rating.
- **Rating.** openskill's Plackett-Luce model updated with each game's ranking by final
  wealth (equal wealth: equal rank), in game order, starting from openskill's default
  prior. A bot in several seats of one game enters as one team per seat, each with its
  current rating, and takes the mean of those seats' updated mu and sigma. The rating
  needs the optional ``openskill`` package (``pip install 'manila-boardgame[rating]'``); without
  it ratings are ``None``.
- **Executors.** ``executor=None`` plays in this process (C++ threads for built-in bots),
  ``"threads"`` or ``"processes"`` spread chunks of games over a pool, or pass any
  ``concurrent.futures.Executor`` or a Dask ``distributed.Client`` (the chunks go to its
  workers). Results do not depend on the executor.
- **Stopping early.** ``stop_early=True`` (or a ``Sprt``) runs Wald's sequential test
  between two bots after every rotation and stops at the first rotation where it decides
  (docs/ladder.md gives the test and its error rates); ``games`` is then the most played.
  The stopping point depends only on the results in game order, so it too is the same
  whatever the executor.
- **Errors.** A Python bot that returns an illegal action stops the ladder with
  ``IllegalActionError`` naming the bot, its seat, the game seed and the move.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union, cast

from .. import _core
from ..bots.builtin import bot_factory, bot_seed, is_core_bot
from ..common.limits import check_number, check_threads
from ..common.version import install_hint
from ..game.engine import Game, IllegalActionError, RulesLike
from ..game.play import bot_move
from .simulate import lineup_of

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``wins`` may be fractional: shared wins)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    # The interval always holds p; clamping keeps rounding from pushing it past 0 or 1.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(frozen=True)
class Sprt:
    """Wald's sequential probability ratio test of bot ``a`` against bot ``b`` (docs/ladder.md).

    A trial is a rotation in which one of the two won more games per seat than the other
    (rotations with equal shares are left out); ``p`` is the chance that ``a`` takes a
    trial. The test weighs p = 1/2 + delta (``a`` is better) against p = 1/2 - delta
    (``b`` is better): it says ``a`` when the log-likelihood ratio reaches
    log((1 - beta) / alpha), ``b`` when it falls to log(beta / (1 - alpha)). Empty names
    mean the first two distinct bots of the lineup.
    """

    a: str = ""
    b: str = ""
    delta: float = 0.05
    alpha: float = 0.05
    beta: float = 0.05

    def check(self, lineup: Sequence[str]) -> Sprt:
        """This test with its bots named, checked against the lineup."""
        names = list(dict.fromkeys(lineup))
        a, b = self.a, self.b
        if not a and not b:
            if len(names) < 2:
                raise ValueError("stop_early: the lineup needs two different bots to compare")
            a, b = names[0], names[1]
        for field_name, value in (("a", a), ("b", b)):
            if value not in names:
                raise ValueError(f"stop_early.{field_name}: {value!r} is not in the lineup {names}")
        if a == b:
            raise ValueError(f"stop_early: compares two different bots, got {a!r} twice")
        if not 0 < self.delta < 0.5:
            raise ValueError(f"stop_early.delta: between 0 and 0.5, got {self.delta!r}")
        for rate_name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 0.5:
                raise ValueError(f"stop_early.{rate_name}: between 0 and 0.5, got {rate!r}")
        return Sprt(a, b, self.delta, self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): the log-likelihood ratios at which the test decides."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def step(self, a_wins: bool) -> float:
        """The change of the log-likelihood ratio for one trial."""
        p0, p1 = 0.5 - self.delta, 0.5 + self.delta
        return math.log(p1 / p0) if a_wins else math.log((1 - p1) / (1 - p0))


@dataclass
class BotStats:
    """One bot's results over all its seat-games."""

    games: int = 0
    wins: float = 0.0
    wealth: int = 0
    rating: Optional[dict[str, float]] = None  # {"mu", "sigma", "ordinal"} from openskill

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_wealth(self) -> float:
        return self.wealth / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "mean_wealth": self.mean_wealth,
            "rating": self.rating,
        }


@dataclass
class LadderResult:
    """The ladder's outcome; ``to_dict()`` is the JSON (deterministic: no timings in it)."""

    players: int
    games: int
    seed: int
    lineup: list[str]
    rules: dict[str, Any]
    bots: dict[str, BotStats] = field(default_factory=dict)
    seconds: float = 0.0
    # With stop_early: the test, its log-likelihood ratio, trials and decision.
    sequential: Optional[dict[str, Any]] = None

    @property
    def rotations(self) -> int:
        return self.games // self.players

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        out = {
            "players": self.players,
            "games": self.games,
            "rotations": self.rotations,
            "seed": self.seed,
            "lineup": list(self.lineup),
            "rules": self.rules,
            "bots": {name: stats.to_dict() for name, stats in self.bots.items()},
        }
        if self.sequential is not None:
            out["sequential"] = dict(self.sequential)
        return out

    def table(self) -> str:
        """The results for people, best rating (else win rate) first."""

        def key(item: tuple[str, BotStats]) -> float:
            stats = item[1]
            return -(stats.rating["ordinal"] if stats.rating else stats.win_rate)

        width = max([len(n) for n in self.bots] + [3])
        lines = [
            f"{self.games} games ({self.rotations} rotations of {self.players} seats), "
            f"seed {self.seed}: {', '.join(self.lineup)}",
            f"{'bot':<{width}} {'games':>6} {'wins':>8} {'win rate':>9} {'95% interval':>15} "
            f"{'mean wealth':>12} {'rating (mu ± sigma)':>20}",
        ]
        for name, s in sorted(self.bots.items(), key=key):
            lo, hi = s.ci95
            rating = f"{s.rating['mu']:.2f} ± {s.rating['sigma']:.2f}" if s.rating else "n/a"
            lines.append(
                f"{name:<{width}} {s.games:>6} {s.wins:>8.1f} {100 * s.win_rate:>8.1f}% "
                f"{100 * lo:>6.1f}–{100 * hi:>5.1f}% {s.mean_wealth:>12.1f} {rating:>20}"
            )
        if not any(s.rating for s in self.bots.values()):
            lines.append(f"ratings need openskill: {install_hint('rating')}")
        if self.sequential is not None:
            q = self.sequential
            test = f"SPRT {q['a']} against {q['b']}, delta {q['delta']}, alpha {q['alpha']}, beta {q['beta']}"
            if q["decision"] is None:
                lines.append(
                    f"{test}: undecided after {q['trials']} trials (log-likelihood ratio {q['llr']:.2f})"
                )
            else:
                worse = q["b"] if q["decision"] == q["a"] else q["a"]
                lines.append(
                    f"{test}: {q['decision']} is better than {worse}, decided after {q['trials']} "
                    f"trials ({self.rotations} rotations; log-likelihood ratio {q['llr']:.2f})"
                )
        lines.append(f"time: {self.seconds:.2f} s ({self.games_per_second:,.1f} games/s)")
        return "\n".join(lines)


@dataclass(frozen=True)
class _Chunk:
    """Game j of rotations first..first+n-1. Plain values: it may go to a process."""

    players: int
    seed: int
    rules: tuple[str, bool]
    lineup: tuple[str, ...]
    rotation_seat: int  # j: the game of the rotation
    first: int
    n: int
    threads: int

    def seats(self) -> list[str]:
        return seating(self.lineup, self.rotation_seat)


def seating(lineup: Sequence[str], j: int) -> list[str]:
    """The bot in each seat in game j of a rotation: lineup entry i sits in seat (i + j) mod n."""
    n = len(lineup)
    return [lineup[(s - j) % n] for s in range(n)]


def _play_chunk(chunk: _Chunk) -> list[list[int]]:
    """Final wealth by seat of each game of the chunk, in rotation order."""
    seats = chunk.seats()
    thirteen, variant = chunk.rules
    if all(is_core_bot(b) for b in seats):
        _, wealth, _, _, _ = _core.play_games(
            players=chunk.players,
            seed=chunk.seed,
            first=chunk.first,
            n=chunk.n,
            bots=seats,
            threads=chunk.threads,
            thirteen_to_port=thirteen == "port",
            pirate_variant=variant,
        )
        return cast("list[list[int]]", wealth.tolist())
    factories = [bot_factory(b) for b in seats]
    rules = {"thirteen_after_last_roll": thirteen, "pirate_variant": variant}
    out = []
    j = chunk.rotation_seat
    for r in range(chunk.first, chunk.first + chunk.n):
        # The same seeds as the C++ loop: game seed per rotation, bot seed per seat.
        game_seed = _core.derive_seed(chunk.seed, r)
        state = Game(chunk.players, game_seed, rules).new_initial_state()
        bots = [f(bot_seed(game_seed, p)) for p, f in enumerate(factories)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
            else:
                p = state.current_player()
                action = bot_move(bots[p], state, p)
                try:
                    state.apply_action(action)
                except ValueError as exc:  # IllegalActionError, or not an action at all
                    raise IllegalActionError(
                        f"bot {seats[p]!r} at seat {p} returned an illegal action in game seed "
                        f"{game_seed} (rotation {r}, seating {j}), move {state.move_number()}: {exc}"
                    ) from exc
        out.append(state.returns())
    return out


def _chunks(
    players: int,
    seed: int,
    rules: tuple[str, bool],
    lineup: Sequence[str],
    rotations: int,
    threads: int,
    core: bool,
) -> list[_Chunk]:
    # Chunks small enough for a lively progress bar and an even spread over workers.
    size = max(1, min(rotations, (100 if core else 5), math.ceil(rotations / 8)))
    return [
        _Chunk(players, seed, rules, tuple(lineup), j, first, min(size, rotations - first), threads)
        for first in range(0, rotations, size)
        for j in range(players)
    ]


def _is_dask_client(executor: object) -> bool:
    return type(executor).__module__.startswith("distributed") and hasattr(executor, "get_executor")


def _make_executor(executor: Union[str, Executor, Any, None]) -> tuple[Optional[Executor], bool]:
    """(executor, whether we own it)."""
    if executor is None or isinstance(executor, Executor):
        return executor, False
    if _is_dask_client(executor):  # its executor sends each chunk to a worker as a task
        return cast("Executor", cast(Any, executor).get_executor()), False
    if executor == "threads":
        return ThreadPoolExecutor(), True
    if executor == "processes":
        return ProcessPoolExecutor(), True
    raise ValueError(
        'executor: None, "threads", "processes", a concurrent.futures.Executor or a '
        f"distributed.Client, got {executor!r}"
    )


class _Ratings:
    """openskill Plackett-Luce ratings by bot name, or nothing without openskill."""

    def __init__(self, names: Iterable[str]):
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            self.model = None
            return
        self.model = PlackettLuce()
        self.ratings = {name: self.model.rating(name=name) for name in names}

    def update(self, seats: Sequence[str], wealth: Sequence[int]) -> None:
        if self.model is None:
            return
        teams = [
            [self.model.create_rating([self.ratings[b].mu, self.ratings[b].sigma], name=b)] for b in seats
        ]
        # Competition ranking: 1 + the number of players richer; equal wealth, equal rank.
        ranks: list[float] = [1 + sum(other > w for other in wealth) for w in wealth]
        new = self.model.rate(teams, ranks=ranks)
        for name in set(seats):
            mine = [team[0] for b, team in zip(seats, new) if b == name]
            rating = self.ratings[name]
            rating.mu = sum(r.mu for r in mine) / len(mine)
            rating.sigma = sum(r.sigma for r in mine) / len(mine)

    def result(self, name: str) -> Optional[dict[str, float]]:
        if self.model is None:
            return None
        r = self.ratings[name]
        return {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}


def _lineup(bots: Union[str, Sequence[str]], players: int) -> list[str]:
    # The ladder reports per bot name, so every seat's bot is a name (or module:Class).
    lineup = lineup_of(bots, players)
    for b in lineup:
        if not isinstance(b, str):
            raise ValueError(f"bots: a bot is a name or module:Class, got {b!r}")
    return cast("list[str]", lineup)  # every one a str, checked above


def _winners(wealth: Sequence[int]) -> list[float]:
    """Each seat's share of the win: 1 / the number tied for the most wealth, or 0."""
    best = max(wealth)
    tied = sum(w == best for w in wealth)
    return [1 / tied if w == best else 0.0 for w in wealth]


def ladder(
    players: int = 4,
    bots: Union[str, Sequence[str]] = "greedy,random,random,random",
    games: int = 200,
    seed: int = 0,
    rules: RulesLike = None,
    executor: Union[str, Executor, Any, None] = None,
    threads: int = 0,
    progress: Optional[Callable[[int], None]] = None,
    stop_early: Union[bool, Sprt] = False,
) -> LadderResult:
    """Plays ``games`` games (a multiple of ``players``) with the seats rotated evenly and
    returns every bot's results and rating (see the module doc).

    ``bots``: one per seat (or one for all), names or ``module:Class``, as a list or
    comma-separated.
    ``executor``: None, ``"threads"``, ``"processes"``, a ``concurrent.futures.Executor``
    or a ``distributed.Client``.
    ``threads``: C++ threads per chunk when ``executor`` is None (0: all cores).
    ``progress(n)`` is called as games finish.
    ``stop_early``: True or a ``Sprt``: stop once the sequential test decides.
    """
    base = Game(players=players, seed=seed, rules=rules)  # checks players, seed and rules
    lineup = _lineup(bots, players)
    check_number(games, "games", 1, integer=True)  # no rates of no games
    if games % players:
        lower, upper = games - games % players, games - games % players + players
        raise ValueError(
            f"games: must be a multiple of {players} (one rotation puts each bot in each "
            f"seat once), got {games}; use {lower or upper} or {upper}"
        )
    check_threads(threads)
    if not isinstance(stop_early, (bool, Sprt)):
        raise ValueError(f"stop_early: True, False or a Sprt, got {stop_early!r}")
    test = (Sprt() if stop_early is True else stop_early).check(lineup) if stop_early else None
    pool, owned = _make_executor(executor)
    core = all(is_core_bot(b) for b in lineup)
    rule_values = (base.rules.thirteen_after_last_roll, base.rules.pirate_variant)
    rotations = games // players
    chunks = _chunks(players, seed, rule_values, lineup, rotations, threads if pool is None else 1, core)
    results: dict[tuple[int, int], list[int]] = {}  # (rotation, seating) -> wealth by seat
    sprt = _SprtState(test, lineup) if test is not None else None
    played = rotations  # rotations in the result: fewer if the test decides
    start = time.perf_counter()
    futures: list[Future[list[list[int]]]] = []
    try:
        if pool is None:
            outputs: Iterable[list[list[int]]] = map(_play_chunk, chunks)
        else:
            futures = [pool.submit(_play_chunk, c) for c in chunks]
            outputs = (f.result() for f in futures)
        checked = 0  # rotations the test has seen
        for chunk, rows in zip(chunks, outputs):
            for i, row in enumerate(rows):
                results[(chunk.first + i, chunk.rotation_seat)] = row
            if progress is not None:
                progress(chunk.n)
            # Whole rotations in order: the test sees the same sequence on any executor.
            while (
                sprt is not None
                and checked < rotations
                and all((checked, j) in results for j in range(players))
            ):
                if sprt.add([results[(checked, j)] for j in range(players)]):
                    played = checked + 1
                    break
                checked += 1
            if played < rotations:
                break
    finally:
        for f in futures:
            f.cancel()  # the rest, once the test has decided (or on an error)
        if owned and pool is not None:
            pool.shutdown(cancel_futures=True)
    elapsed = time.perf_counter() - start

    names = list(dict.fromkeys(lineup))
    stats = {name: BotStats() for name in names}
    ratings = _Ratings(names)
    for key in sorted(k for k in results if k[0] < played):  # game order: rotation, then seating
        seats = seating(lineup, key[1])
        wealth = results[key]
        for b, w, share in zip(seats, wealth, _winners(wealth)):
            s = stats[b]
            s.games += 1
            s.wealth += int(w)
            s.wins += share
        ratings.update(seats, wealth)
    for name in names:
        stats[name].rating = ratings.result(name)
    return LadderResult(
        players=players,
        games=played * players,
        seed=seed,
        lineup=lineup,
        rules=base.rules.to_dict(),
        bots=stats,
        seconds=elapsed,
        sequential=None if sprt is None else sprt.summary(),
    )


class _SprtState:
    """The sequential test's running log-likelihood ratio over the rotations so far."""

    def __init__(self, test: Sprt, lineup: Sequence[str]):
        self.test, self.lineup = test, list(lineup)
        self.seats_of = {name: self.lineup.count(name) for name in (test.a, test.b)}
        self.llr, self.trials = 0.0, 0
        self.decision: Optional[str] = None

    def add(self, rotation: Sequence[Sequence[int]]) -> bool:
        """Adds one rotation (wealth by seat of its games in seating order); True once decided."""
        share = {self.test.a: 0.0, self.test.b: 0.0}
        for j, wealth in enumerate(rotation):
            for b, w in zip(seating(self.lineup, j), _winners(wealth)):
                if b in share:
                    share[b] += w
        per_a = share[self.test.a] / self.seats_of[self.test.a]
        per_b = share[self.test.b] / self.seats_of[self.test.b]
        if math.isclose(
            per_a, per_b, rel_tol=0, abs_tol=1e-9
        ):  # shares are sums of 1/k: compare with a margin
            return False
        self.trials += 1
        self.llr += self.test.step(per_a > per_b)
        lower, upper = self.test.bounds
        if self.llr >= upper:
            self.decision = self.test.a
        elif self.llr <= lower:
            self.decision = self.test.b
        return self.decision is not None

    def summary(self) -> dict[str, Any]:
        t = self.test
        return {
            "test": "sprt",
            "a": t.a,
            "b": t.b,
            "delta": t.delta,
            "alpha": t.alpha,
            "beta": t.beta,
            "llr": self.llr,
            "trials": self.trials,
            "decision": self.decision,
        }

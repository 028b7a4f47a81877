"""Does the review rank players as results do? (docs/review.md, "Trust")

Seeded 4-player games with the seats random, greedy, solver and expert, rotated over each
deal (every bot in every seat), reviewed with the defaults (horizon game, equity, the learned
value) and, for comparison, at horizon voyage. Per bot: the mean loss per non-forced
decision with its interval (the games as units); the checks of the review's trust: the
order random > greedy > solver > expert, random at least 3x expert, each auction once per
player who took part, the luck's mean near 0, the reconciliation's residual; the time per
game. The rating bands of docs/review.md are the midpoints of the bots' mean losses.

    python benchmarks/review_trust.py [--deals 4] [--threads 2] [--voyage]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any, Optional

from manila.analysis.review import Review, pooled_losses, review
from manila.arena.simulate import simulate

BOTS = ("random", "greedy", "solver", "expert")


def rotated_games(deals: int, seed: int) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """(record, seat -> bot) for every rotation of every deal."""
    out = []
    for d in range(deals):
        for r in range(len(BOTS)):
            seats = [BOTS[(k + r) % len(BOTS)] for k in range(len(BOTS))]
            records: list[dict[str, Any]] = []
            simulate(players=4, games=1, bots=",".join(seats), seed=seed + d, record=records.append)
            out.append((records[0], {f"p{k}": b for k, b in enumerate(seats)}))
    return out


def auctions_once(r: Review, record: dict[str, Any]) -> bool:
    """Every auction appears once per player who took part in it (no more)."""
    seen: dict[tuple[int, str], int] = {}
    for d in r.decisions:
        if d.kind == "auction":
            seen[(d.voyage, d.player)] = seen.get((d.voyage, d.player), 0) + 1
    return all(n == 1 for n in seen.values())


# The stretches of a game between two chance events, by the decisions in them.
STRETCHES = ("opening", "placements", "pilots and boarding", "after the last roll")


def stretch_of(kinds: set[str]) -> str:
    if not kinds or kinds & {"auction", "harbour_master"}:
        # The auction, the harbour master's choices and the first round (no decision: the
        # value before the deal, and between two deals, where nothing moves).
        return "opening"
    if kinds - {"placement"}:
        return "pilots and boarding"  # with the last round's placements and the plunder
    return "placements"


def residual_by_stretch(r: Review) -> dict[str, dict[str, float]]:
    """Each player's residual, split over the stretches between chance events.

    Between two events a player's value moves by what the decisions in between did
    (the next event's value before it minus the last one's after it); the line accounts
    for them by the losses (own minus the others' mean share). What the line leaves out of
    each stretch sums, with the value before the first event, to the player's residual."""
    players = list(r.players)
    share = 1 / (len(players) - 1)
    out = {p: dict.fromkeys(STRETCHES, 0.0) for p in players}
    after = dict.fromkeys(players, 0.0)  # the value after the last event (0: the start)
    pending: list[Any] = []

    def close(before: dict[str, float], stretch: str) -> None:
        for p in players:
            line = sum(-d.loss if d.player == p else d.loss * share for d in pending)
            out[p][stretch] += before[p] - after[p] - line
        pending.clear()

    for _, item in sorted(
        [(e["index"], e) for e in r.events] + [(d.index, d) for d in r.decisions], key=lambda t: t[0]
    ):
        if isinstance(item, dict):
            close(item["before"], stretch_of({d.kind for d in pending}))
            after = {p: item["before"][p] + item["luck"][p] for p in players}
        else:
            pending.append(item)
    close({p: r.players[p].final_equity for p in players}, "after the last roll")
    return out


def report(
    horizon: str,
    games: list[tuple[dict[str, Any], dict[str, str]]],
    threads: int,
    policy: Optional[str] = None,
) -> None:
    reviews, labels, times = [], [], []
    for record, seats in games:
        t = time.perf_counter()
        reviews.append(
            review(record, horizon=horizon, threads=threads, **({"policy": policy} if policy else {}))
        )
        times.append(time.perf_counter() - t)
        labels.append(seats)
    pooled = pooled_losses(reviews, labels)
    print(
        f"\nhorizon {horizon}: {len(reviews)} games, {statistics.fmean(times):.1f} s a game "
        f"(max {max(times):.1f} s)"
    )
    print(f"{'bot':<10}{'decisions':>10}{'mean loss':>12}{'ci95':>8}")
    for bot in BOTS:
        p = pooled[bot]
        print(f"{bot:<10}{p.non_forced:>10}{p.mean_loss:>12.3f}{p.mean_loss_ci95:>8.3f}")
    kinds = sorted({d.kind for r in reviews for d in r.decisions})
    print("mean loss by kind (non-forced decisions):")
    print(f"{'bot':<10}" + "".join(f"{k[:14]:>16}" for k in kinds))
    for bot in BOTS:
        cells = []
        for k in kinds:
            xs = [
                d.loss
                for r, m in zip(reviews, labels)
                for d in r.decisions
                if m[d.player] == bot and d.kind == k and not d.forced
            ]
            cells.append(f"{(sum(xs) / len(xs) if xs else 0):>10.2f} ({len(xs):>3})")
        print(f"{bot:<10}" + "".join(cells))
    # What results say of the same games: each bot's final equity (wealth minus the others'
    # mean), with its interval over the games. A review ranks players as results do when the
    # lower a bot's mean loss, the higher its mean final equity.
    finals: dict[str, list[float]] = {b: [] for b in BOTS}
    for r, m in zip(reviews, labels):
        for player, summary in r.players.items():
            finals[m[player]].append(summary.final_equity)
    print("results of the same games: mean final equity (pesos)")
    for bot in BOTS:
        xs = finals[bot]
        h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
        print(f"{bot:<10}{statistics.fmean(xs):>+10.1f} ± {h:.1f}")
    by_loss = sorted(BOTS, key=lambda b: pooled[b].mean_loss)
    by_result = sorted(BOTS, key=lambda b: -statistics.fmean(finals[b]))
    print(f"best to worst by the review: {', '.join(by_loss)}; by results: {', '.join(by_result)}")
    means = [pooled[b].mean_loss for b in BOTS]
    ordered = all(a > b for a, b in zip(means, means[1:]))
    ratio = means[0] / means[-1] if means[-1] > 0 else math.inf
    print(
        f"order random > greedy > solver > expert: {'yes' if ordered else 'NO'}; "
        f"random / expert = {ratio:.2f} (goal 3)"
    )
    print(f"each auction once per player: {all(auctions_once(r, g) for r, (g, _) in zip(reviews, games))}")
    lucks = [p.luck for r in reviews for p in r.players.values()]
    h = 1.96 * statistics.stdev(lucks) / math.sqrt(len(lucks))
    print(f"luck: mean {statistics.fmean(lucks):+.2f} ± {h:.2f} over {len(lucks)} player-games")
    if horizon == "game":
        residual = statistics.fmean(abs(p.residual) for r in reviews for p in r.players.values())
        equity = statistics.fmean(abs(p.final_equity) for r in reviews for p in r.players.values())
        print(
            f"reconciliation: mean |residual| {residual:.1f}, mean |final equity| {equity:.1f} "
            f"(ratio {residual / equity:.2f}, goal at most 0.25)"
        )
        # Where it goes: a systematic residual by bot is what the line leaves out of its play.
        for bot in BOTS:
            mine = [r.players[s] for r, m in zip(reviews, labels) for s, b in m.items() if b == bot]
            print(
                f"  {bot:<8} residual {statistics.fmean(p.residual for p in mine):+7.1f}, "
                f"luck {statistics.fmean(p.luck for p in mine):+6.1f}, "
                f"loss {statistics.fmean(p.total_loss for p in mine):6.1f} a game"
            )
        # Where it arises: the same residual, stretch by stretch (a game's sum per player).
        parts = [residual_by_stretch(r) for r in reviews]
        print("  residual by stretch, a game:" + "".join(f"{x:>22}" for x in STRETCHES))
        for bot in BOTS:
            mine = [part[s] for part, m in zip(parts, labels) for s, b in m.items() if b == bot]
            print(
                f"  {bot:<28}" + "".join(f"{statistics.fmean(x[k] for x in mine):>+22.1f}" for k in STRETCHES)
            )
        gap = max(
            abs(sum(part[p].values()) - r.players[p].residual)
            for part, r in zip(parts, reviews)
            for p in part
        )
        print(f"  (the stretches add up to each player's residual within {gap:.1e})")
        low = sorted(means)
        cuts = [(a + b) / 2 for a, b in zip(low, low[1:])]
        print(
            f"bands (upper bounds: half the best bot's mean, then the midpoints of the bots' means): "
            f"{low[0] / 2:.2f}, " + ", ".join(f"{c:.2f}" for c in cuts)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=4, help="deals, each played in 4 rotations")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--voyage", action="store_true", help="also at horizon voyage")
    parser.add_argument("--only-voyage", action="store_true", help="at horizon voyage only")
    parser.add_argument("--policy", default=None, help="the review's continuation policy (default its own)")
    args = parser.parse_args()
    games = rotated_games(args.deals, args.seed)
    if not args.only_voyage:
        report("game", games, args.threads, args.policy)
    if args.voyage or args.only_voyage:
        report("voyage", games, args.threads, args.policy)


if __name__ == "__main__":
    main()

"""``python -m manila plot``: heat maps, start charts and game reviews written to PNG."""

from __future__ import annotations

import argparse
import sys

from ..analysis.review import plot_review
from ..common.version import install_hint
from ..sweeps.enumerate import position_code
from ..sweeps.plot import heatmap, starts_chart
from .review import add_review_arguments, review_records, selected_records
from .sweep import add_pattern_arguments, add_starts_arguments, pattern_from_args, starts_from_args


def add_plot_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m manila plot heatmap|starts``."""
    sub = parser.add_subparsers(dest="chart", required=True, metavar="CHART")
    heat = sub.add_parser(
        "heatmap",
        help="one spot's expected value over two boats' positions",
        description="A heat map of one spot's expected net value over the "
        "positions of two boats, the third held fixed.",
    )
    heat.add_argument("-o", "--output", required=True, metavar="FILE.png", help="the PNG to write")
    heat.add_argument("--goods", required=True, metavar="G,G,G", help="the three sailing goods")
    heat.add_argument("--spot", required=True, help="the spot to show (a good or a spot id)")
    heat.add_argument("--x", required=True, metavar="GOOD", help="the boat along the x axis")
    heat.add_argument("--y", required=True, metavar="GOOD", help="the boat along the y axis")
    heat.add_argument(
        "--at", required=True, metavar="GOOD=POSITION", help="where the third boat stands (0..13 or arrived)"
    )
    heat.add_argument(
        "--next-roll", type=int, choices=(1, 2, 3), default=3, help="the roll that comes next (default 3)"
    )
    heat.add_argument("--reachable", action="store_true", help="leave out positions no legal start reaches")
    add_pattern_arguments(heat)
    starts = sub.add_parser(
        "starts",
        help="a bar chart of the harbour master's starts",
        description="A bar chart of the 25 starts of three goods, ranked.",
    )
    starts.add_argument("-o", "--output", required=True, metavar="FILE.png", help="the PNG to write")
    add_starts_arguments(starts, table=False)
    rev = sub.add_parser(
        "review",
        help="each player's value voyage by voyage in a reviewed game, blunders marked",
        description="Reviews a recorded game (as python -m manila review does) and plots each "
        "player's value or win probability voyage by voyage with the blunders and mistakes marked.",
    )
    rev.add_argument("-o", "--output", required=True, metavar="FILE.png", help="the PNG to write")
    add_review_arguments(rev)


def run_plot(args: argparse.Namespace) -> int:
    """``python -m manila plot``: writes the chart to a PNG."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"manila: error: plotting needs matplotlib: {install_hint('plot')}", file=sys.stderr)
        return 2
    if args.chart == "heatmap":
        good, eq, where = args.at.partition("=")
        if not eq:
            raise ValueError(f"--at: expected GOOD=POSITION, got {args.at!r}")
        position = "arrived" if where == "arrived" else int(where) if where.isdigit() else where
        position_code(position, "--at")
        fig = heatmap(
            args.spot,
            args.x,
            args.y,
            goods=args.goods,
            at={good: position},
            next_roll=args.next_roll,
            reachable=args.reachable,
            pattern=pattern_from_args(args),
        )
    elif args.chart == "review":
        records = selected_records(args.record, args.game if args.game is not None else 0)
        fig = plot_review(review_records(args, records)[0])
    else:
        by, ranking = starts_from_args(args)
        fig = starts_chart(ranking, by)
    fig.savefig(args.output, dpi=120)
    print(f"manila: wrote {args.output}", file=sys.stderr)
    return 0

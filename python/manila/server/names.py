"""The words players see for spots and goods: one home for the terminal table and the page.

The server embeds ``page_data()`` in the page when it serves it, so the page keeps no
copy of its own.
"""

from __future__ import annotations

from typing import Any

from .. import _core
from ..common.errors import REMEDIES
from ..common.vocab import (
    CARGO_VALUES,
    GOODS,
    PRICES,
    SEATS,
    SHARES_PER_GOOD,
    SLOT_PAYOUTS,
    SPOT_COSTS,
    SPOTS,
)

# The engine's (cpp/include/manila/words.hpp): its /v1/play log names the spots too.
SPOT_LABELS: dict[str, str] = dict(_core.SPOT_LABELS)


# The assumption behind every spot table, shown beside each one.
NOBODY_AFTER_YOU = (
    "Values assume nobody places after you: the voyage plays out from this board plus your one accomplice."
)


# Said on the page whenever its values are in wealth (shares entered).
IN_WEALTH = "Values in wealth: income plus the price rise of your shares for each good that reaches Manila."

# The one sentence that tells the reply-aware advice from the spot table, beside both.
REPLY_AWARE = (
    "The spot table assumes nobody places after you; the reply-aware choice assumes "
    "everyone after you in this round answers with their own best."
)

# The option of placing no more this voyage, in advice.
DECLINE_LABEL = "Place no more"


def spot_label(spot: str) -> str:
    """'Pirate captain' for pirate_1, 'Jade seat' for jade; the id itself if unknown."""
    return SPOT_LABELS.get(spot, spot)


def good_label(good: str) -> str:
    return good.capitalize()


# What a spot of negative cost does (insurance pays at once), with its amount for {}.
RECEIVE = "receive {}"


def cost_text(cost: int) -> str:
    """'pay 4', or 'receive 10' for insurance (whose cost is -10: it pays at once)."""
    return RECEIVE.format(-cost) if cost < 0 else f"pay {cost}"


def page_data() -> dict[str, Any]:
    """Everything the page needs to know of goods, seats and spots, as JSON (site.site_files
    adds what its engine needs to compute without a server: site.engine_data)."""
    return {
        "goods": list(GOODS),
        "seats": {g: list(c) for g, c in SEATS.items()},
        "cargo": dict(CARGO_VALUES),
        "labels": SPOT_LABELS,
        "spots": [[s, SPOT_LABELS[s], SPOT_NOTES[s]] for s in SPOTS],
        "nobody_after_you": NOBODY_AFTER_YOU,
        # Wealth: the price track during a voyage and the most shares of a good.
        "prices": list(PRICES),
        "shares_per_good": SHARES_PER_GOOD,
        "in_wealth": IN_WEALTH,
        # Advice.
        "reply_aware": REPLY_AWARE,
        "decline": DECLINE_LABEL,
        # The API's words for "strict": false, which the page offers as its own option.
        "strict_remedy_http": REMEDIES["strict"]["http"],
        "receive": RECEIVE,
    }


def _pay(spot: str) -> str:
    return cost_text(SPOT_COSTS[spot])


def _slot_note(spot: str, where: str) -> str:
    k = "abc".index(spot[-1])  # slot A, B, C pays once at least 1, 2, 3 boats end there
    least = "≥" if k + 1 < len(SLOT_PAYOUTS) else ""
    return f"{_pay(spot)} · {SLOT_PAYOUTS[k]} if {least}{k + 1} {where}"


# What each spot costs and earns, in a few words, for the page's buttons.
SPOT_NOTES: dict[str, str] = {
    **{s: _slot_note(s, "in port") for s in SPOTS if s.startswith("port_")},
    **{s: _slot_note(s, "wrecked") for s in SPOTS if s.startswith("shipyard_")},
    "pirate_1": _pay("pirate_1"),
    "pirate_2": f"{_pay('pirate_2')} · after captain",
    "pilot_small": f"{_pay('pilot_small')} · 1 space",
    "pilot_large": f"{_pay('pilot_large')} · 2 spaces",
    "insurance": f"{_pay('insurance')} · pays wrecks",
}

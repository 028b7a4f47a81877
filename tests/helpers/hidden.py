"""What one observer may not see: the face-down shares dealt to the other players. Histories
that differ only in them (the hidden-information tests of the view, the game and the solver
bot), and every deal of them with its probability (the exact answers from a view)."""

import copy
from collections import Counter
from fractions import Fraction
from itertools import permutations

from helpers.advice_reference import advice_reference
from helpers.reference import GOODS
from helpers.states import Draws
from manila import _core

DEAL = _core.ACTION_OFFSETS["deal"]


def reshuffle_others(history, players, observer, d: Draws):
    """The same history with the deals to the players other than `observer` shuffled among
    them (in an order ``d`` chooses): each other player may get different face-down shares,
    the supply stays the same."""
    deals = 2 * players
    assert all(DEAL <= a < DEAL + 4 for a in history[:deals])
    others = [k for k in range(deals) if k // 2 != observer]
    dealt = [history[k] for k in others]
    d.shuffle(dealt)
    out = list(history)
    for k, a in zip(others, dealt):
        out[k] = a
    return out


def others_shares(game, history, observer):
    s = game.new_initial_state()
    for a in history[: 2 * game.players]:
        s.apply_action(a)
    return [s.to_dict()["players"][p]["shares"] for p in range(game.players) if p != observer]


def deals_seen_by(observation):
    """Every deal of the face-down shares that ``observation``'s player cannot see, as
    ``({name: {good: count}}, probability)``: the shares neither visible nor in the supply
    (5 of each good in all), told apart one by one, in every order, dealt in seat order to
    the face-down slots each other player holds. Brute force over the shuffle itself."""
    players = observation["players"]
    pool = []
    for g in GOODS:
        seen = observation["supply"][g] + sum(p["shares"][g] for p in players)
        pool += [g] * (_core.SHARES_PER_GOOD - seen)
    slots = [(f"p{k}", p["hidden_shares"]) for k, p in enumerate(players) if p["hidden_shares"]]
    assert sum(n for _, n in slots) == len(pool)
    counts = Counter()
    for order in permutations(pool):
        hands, i = [], 0
        for _, n in slots:
            hands.append(tuple(sorted(order[i : i + n])))
            i += n
        counts[tuple(hands)] += 1
    total = sum(counts.values())
    return [
        ({name: dict(Counter(hand)) for (name, _), hand in zip(slots, hands)}, Fraction(c, total))
        for hands, c in counts.items()
    ]


def with_hands(position, hands):
    """The position with each player's face-down ``hands`` added to the shares it shows."""
    out = copy.deepcopy(position)
    shares = out.setdefault("shares", {})
    for name, hand in hands.items():
        mine = shares.setdefault(name, {})
        for good, count in hand.items():
            mine[good] = mine.get(good, 0) + count
    return out


def expected_nets(position, observation, advise=advice_reference):
    """Each option's ``expected_net`` from the decider's view (``position`` shows what the
    observer sees): the advice of every deal of the hidden shares (by default the brute
    force's), weighted by its probability. Deals that differ only in goods with no boat value
    alike (a share gains only when its good's boat reaches Manila), so each is valued once."""
    out = {}
    valued = {}
    for hands, probability in deals_seen_by(observation):
        deal = with_hands(position, hands)
        key = repr(
            {
                name: {g: c for g, c in held.items() if g in deal["boats"]}
                for name, held in deal["shares"].items()
            }
        )
        if key not in valued:
            valued[key] = advise(deal)["options"]
        for name, option in valued[key].items():
            out[name] = out.get(name, 0) + probability * Fraction(option["expected_net"])
    return out

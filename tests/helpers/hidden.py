"""Histories that differ only in what one observer may not see: the face-down shares dealt to
the other players (the hidden-information tests of the view, the game and the solver bot)."""

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

"""The ``solver`` bot: every decision valued exactly in wealth, from its own view.

It runs in C++ (``_core.solver_action``, cpp/src/game_solver.cpp), so a simulation or a
ladder whose seats are all built-in bots plays entirely in C++.

- **Placements**: the placement-round solver (``manila.advise``) on the wealth objective,
  over the players still to move this round, as far as it is fast: with roll 3 next the
  whole round; with roll 2 next the next three turns, with roll 1 next the next two
  (later players are left out of the search, as if they declined). The bot's own payoff
  counts its face-down shares; of the others it counts only the shares they were seen to
  buy (their dealt shares are hidden).
- **Pilots and boarding**: the advice's best option (the evaluator's own decision).
  **Plunder**: the destination that leaves it the most wealth.
- **Harbour master**: goods and start spaces that maximise its expected share gains minus
  the mean expected gain of the others, whose face-down shares are assumed to follow the
  pool they were dealt from (what is neither visible nor in the supply, shared out in
  proportion); the arrival odds of a boat from each start space come from the evaluator.
  The start spaces are chosen over every choice of goods, not only the goods that sail
  (the first bot decided from an observation that shows no boats before they are placed;
  the C++ bot keeps its decisions). It buys the share whose expected rise this voyage
  beats its premium over the price.
- **Auction**: bids while the bid stays below what the office is worth to it, from the
  evaluator: the best start's relative gain over an average start's, plus what placing
  first is worth (on the empty board of that start, the best spot's value over the value
  of the spot left to the last player of a round); it bids cash only, never loans.

Deterministic: no randomness, so the same game gives the same moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..game.view import PlayerView


class SolverBot:
    """See the module doc."""

    name = "solver"

    def __init__(self, seed: int = 0):
        del seed  # deterministic; the argument keeps the bot factories uniform

    def step(self, state: PlayerView) -> int:
        return state.builtin_move("solver")

    def __repr__(self) -> str:
        return "SolverBot()"

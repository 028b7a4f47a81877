// Review of a recorded game (docs/review.md): every decision of every player analysed
// against the best option, and the luck of every chance event (a deal, a roll).
//
// A decision is what the analysis values as one choice (manila/analysis.hpp): a bid or a
// pass, the harbour master's share, goods and start spaces together, a placement, a pilot's
// move, a boarding, a plunder. Loans (mortgage, repay) are no decision: they are skipped.
//
// Luck of a chance event for player p: p's value after it minus p's expected value before
// it (the expectation over the event and everything after it, under the policy), where the
// value is p's wealth at the end of the event's voyage (horizon voyage; the deal counts to
// voyage 1) or p's equity (horizon game; manila/value.hpp). Both sides are rolled out with the same
// keys, so the difference is paired; where no chance is left before the horizon's end once the
// event is over (the last roll of a voyage; a roll after which nobody places), both sides
// are exact (the evaluator's expectation, parts 2 and 3).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/game.hpp"

namespace manila {

struct ReviewConfig {
    // Horizon, policy, seed, the stop rule, max_bids, screen, threads, sample_hidden (the
    // decider judged from their own view: the others' face-down shares sampled).
    AnalysisConfig analysis;
    int luck_rollouts = 256;  // per chance event (0: no luck)
    bool decisions = true;    // false: the luck alone
};

struct ReviewedDecision {
    int index = 0;  // history index of the decision's first action
    int player = 0;
    int voyage = 0;
    std::string kind;
    bool forced = false;  // one option only: not analysed
    // Option 0 is the chosen one: every diff is then "this option minus the chosen one",
    // paired. Empty options when forced.
    Analysis analysis;
    std::string chosen;
};

struct ChanceLuck {
    int index = 0;  // history index of the chance action
    int voyage = 0;
    int action = 0;
    std::string kind;                     // "deal" or "roll"
    std::vector<double> before, after;    // every player's value before and after
    std::vector<double> luck, luck_ci95;  // after minus before, paired
    bool exact = false;
};

struct Review {
    std::vector<ReviewedDecision> decisions;
    std::vector<ChanceLuck> events;
    std::vector<std::vector<int>> voyage_wealth;  // every player's wealth after each voyage
    std::vector<int> wealth;                      // at the end of the record
    int items = 0;  // decisions and chance events of the record (more than reviewed if stopped)
    double seconds = 0;
};

// Called after every decision and chance event with the items done and their total;
// returning false stops the review (what is done so far is returned).
using ReviewProgress = std::function<bool(int done, int total)>;

// Replays `history` from `initial` (checked: std::invalid_argument naming the history index
// and the action if one is illegal) and reviews it.
Review review_game(const GameState& initial, const std::vector<int>& history,
                   const ReviewConfig& config, const ReviewProgress& progress = {});

// Every player's value of s (see above; voyage: at the end of voyage `voyage`; game: equity,
// with the learned value from the next boundary or played to the end as c.value says) in
// one rollout keyed by `key`; `sampled` tells whether any chance was drawn.
std::vector<double> rollout_values(GameState g, const AnalysisConfig& c, int voyage,
                                   std::uint64_t key, bool& sampled);

}  // namespace manila

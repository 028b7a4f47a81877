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

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/game.hpp"
#include "manila/json.hpp"

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

// ------------------------------------------------------------------ the report
// What the review says of the numbers above (docs/review.md): one home for the classes,
// the bands, the budgets and the JSON of a review, read by Python (analysis/review.py
// wraps it), by POST /v1/review (api_review.cpp) and so by the page.

// The classes of a loss, and the least loss of each class above "fine" (pesos of wealth at
// horizon voyage, of equity at game: the same numbers). A loss not above its own 95%
// half-width is "fine" whatever its size: rollout noise alone makes a chosen option look a
// little worse.
inline constexpr const char* kLossClasses[] = {"fine", "inaccuracy", "mistake", "blunder"};
inline constexpr double kLossThresholds[] = {1.0, 3.0, 6.0};
// accuracy = exp(-mean_loss / scale): 1 for no loss, 1/e at a mean loss of the mistake
// threshold per non-forced decision.
inline constexpr double kAccuracyScale = 3.0;

// Rating bands by the mean loss per non-forced decision at horizon game (pesos of equity),
// the upper bound of each, fitted on the built-in bots' reviews (benchmarks/review_trust.py,
// docs/review.md): half the expert's mean loss, then the midpoints between the bots' means
// (expert 0.59, greedy 0.99, solver 1.48, random 5.90 over 16 rotated games, greedy-office
// continuing, the learned value of 20,000 games with seats drawn anew at every boundary, the
// losses split gains).
struct ReviewBand {
    const char* name;
    double below;  // infinity for the last
};
inline constexpr ReviewBand kReviewBands[] = {
    {"world class", 0.29},
    {"expert", 0.79},
    {"advanced", 1.23},
    {"intermediate", 3.68},
    {"beginner", std::numeric_limits<double>::infinity()},
};

// The rollout budgets: per option, the stop rule's most and its target (the paired
// half-width of the best two), the seconds per decision; per chance event, the rollouts.
struct ReviewBudget {
    int max_rollouts;
    double target, time_limit;
    int luck_rollouts;
};
ReviewBudget review_budget(Horizon horizon, bool quick);
inline constexpr int kReviewBatch = 16;  // rollouts per option between checks of the stop rule
inline constexpr bool kReviewRelative = false;  // the decider's own payoff, not minus the others'

// The class of a loss (kLossThresholds; not above its interval: fine), and the band of a
// mean loss per non-forced decision.
const char* loss_class(double loss, double ci95);
const char* band_of(double mean_loss);

// The review's continuation policy by default: greedy-office, which plays the office as the
// solver does. With greedy-wealth continuing, whose rough bids and harbour master's choices
// undervalue the office, every bid and harbour master's choice of a player who uses the
// office well counted as a loss (docs/review.md, "Rating bands and trust").
inline constexpr BotKind kReviewPolicy = BotKind::kGreedyOffice;

// What a review is asked (manila.review's arguments): nothing given, the budget's.
struct ReviewRequest {
    Horizon horizon = Horizon::kGame;
    ValueSource value = ValueSource::kLearned;
    BotKind policy = kReviewPolicy;
    Json seed = Json(0);  // a whole number 0..2^64-1, as given (echoed in the JSON)
    bool quick = false;
    int rollouts = 0;  // per option, fixed (0: the stop rule)
    std::optional<int> max_rollouts, luck_rollouts;
    std::optional<double> target, time_limit;
    int max_bids = 4, screen = 12;
    bool exact = true, decisions = true;
    int threads = 0;
};

// The review of a finished game's history from its initial state, as its JSON (the
// contract's, docs/review.md: every decision with its class and the table as the decider
// saw it, every chance event's luck, each player's summary with the reconciliation and the
// band), and the record's items (decisions and chance events: more than the JSON holds when
// `progress` stopped the review). Throws as review_game does.
struct ReviewReport {
    Json json;
    int items = 0;
    bool complete = true;
};
ReviewReport review_report(const GameState& initial, const std::vector<int>& history,
                           const ReviewRequest& request, const ReviewProgress& progress);

}  // namespace manila

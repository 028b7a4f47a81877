// Analysis of a decision by rollouts (docs/analysis.md): every legal option of the decision
// due, each played out many times with a continuation policy, the same luck for every option.
//
// Rollout i of every option draws its chance from generators keyed by (seed, i) only: the
// dice of voyage v's roll r from one keyed by (seed, i, v, r), so options that lead to
// different numbers of moves still see the same dice; the policy's seats and (when asked)
// the others' face-down shares from their own keys. Differences between options are then
// paired, and far more precise than the values.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "manila/bots.hpp"
#include "manila/game.hpp"
#include "manila/value.hpp"

namespace manila {

enum class Horizon : int { kVoyage, kGame };
const char* horizon_name(Horizon h);
// The horizon called `name`; std::invalid_argument naming the choices otherwise.
Horizon horizon_of(const std::string& name);

// How a rollout at horizon game ends: at the next voyage boundary with the learned value
// (manila/value.hpp), or played to the end of the game.
enum class ValueSource : int { kLearned, kRollout };
const char* value_source_name(ValueSource v);
// The value source called `name`; std::invalid_argument naming the choices otherwise.
ValueSource value_source_of(const std::string& name);
// The built-in bots that may continue a rollout (greedy, greedy-wealth, solver: not random,
// whose play says nothing of an option, nor expert, which would roll out inside rollouts).
std::vector<std::string> continuation_policies();
// The continuation policy called `name`; std::invalid_argument naming the choices otherwise.
BotKind policy_of(const std::string& name);

// One option of a decision: the actions that make it, applied in order (the harbour
// master's share, goods and start spaces are one option, valued as a whole).
struct DecisionOption {
    std::string name;
    std::vector<int> actions;
    // Auction, "up to X": the decider bids the lowest legal amount now (actions), then in
    // this auction raises by the minimum whenever outbid while the bid stays at most X, and
    // passes after (-1: no ceiling).
    int ceiling = -1;
};

// "auction", "harbour_master", "placement", "boarding", "pilot_small", "pilot_large" or
// "plunder"; throws std::invalid_argument unless a player is to move.
const char* decision_kind(const GameState& s);

// Every option of the decision due, loans left out (they are no option of a decision).
// Auction: pass, then the ceilings "up to X" from the lowest legal bid to the decider's
// limit (or, without `ceilings`, the single bids "bid X"); with more than max_bids of them
// (0: no limit), max_bids spread evenly from the lowest to the highest. Placement: decline,
// then the spots.
std::vector<DecisionOption> decision_options(const GameState& s, int max_bids = 0,
                                             bool ceilings = true);

// The move an auction ceiling makes for the player to move (a raise by the minimum while
// it stays at most `ceiling`, else a pass).
int ceiling_action(const GameState& s, int ceiling);

// The fewest rollouts an estimate is made of: one has no spread, so no interval.
inline constexpr int kMinRollouts = 2;

// Student's t quantile of 0.975 with `df` degrees of freedom (df >= 1): a 95% interval of
// a mean of n rollouts is t95(n - 1) standard errors wide on each side.
double t95(int df);

// The harbour master's combinations an analysis keeps for rollouts by default (screen),
// by their exact no-placement value.
inline constexpr int kHarbourScreen = 30;

struct AnalysisConfig {
    Horizon horizon = Horizon::kVoyage;
    ValueSource value = ValueSource::kLearned;  // horizon game
    const ValueModel* model = nullptr;          // the learned value's (null: the shipped one)
    BotKind policy = BotKind::kGreedyWealth;    // every later decision, the decider's included
    std::uint64_t seed = 0;
    int rollouts = 0;            // a fixed number per option; 0: until the stop rule
    int max_rollouts = 20000;    // stop rule: per option
    double time_limit = 10.0;    // stop rule: seconds (0: none)
    double target = 0.0;         // stop rule: the best two's diff_ci95; 0: 1 peso
    int batch = 64;              // rollouts per option between checks of the stop rule
    int threads = 0;             // 0: all hardware threads (results do not depend on it)
    int max_bids = 0;            // see decision_options
    bool exact_shortcut = true;  // voyage: the exact expectation once no placement remains
    bool exact_answers = true;   // voyage: part 4's answer where it is exact
    bool sample_hidden = false;  // deal the others' face-down shares anew in every rollout
    // Stop rule: options clearly behind the best (paired, 3 standard errors) stop rolling.
    bool racing = true;
    // Harbour master: keep only the `screen` combinations (0: all) of the highest exact
    // voyage value with no placement at all (the share's cost and the share gains of the
    // start spaces, the one part of the value that needs no rollout) before rolling out.
    int screen = 0;
    // Horizon voyage: the decider's change of wealth minus the mean of the others' (the
    // shortcut then values every player's payoff as the rollout's state holds their shares).
    bool relative = false;
    // Horizon voyage: every share also counts its expected premium at the game's end over
    // today's price (learned from self-play), at the voyage's end. The voyage is then played
    // to its end: the exact shortcut would value the price rises at today's prices only.
    bool final_worth = false;
    // The screen keeps option 0 whatever its value (a review's chosen option).
    bool keep_first = false;
};

struct OptionValue {
    double mean = 0, ci95 = 0;           // pesos: the payoff (voyage) or equity (game)
    double diff = 0, diff_ci95 = 0;      // minus the first option's, paired
    double win = 0, win_ci95 = 0;        // game: the probability of winning (ties shared)
    double margin = 0, margin_ci95 = 0;  // game: final wealth minus the best other's
    int rollouts = 0;
    bool exact = false;
};

struct Analysis {
    int decider = 0;
    std::string kind;
    AnalysisConfig config;
    int rollouts = 0;    // the most any option had
    bool exact = false;  // every value exact
    std::string stop;    // why it stopped: "exact", "rollouts", "target", "max_rollouts", "time",
                         // "forced", "cancelled"
    double seconds = 0;
    double best_gap_ci95 = 0;  // the best two's paired diff_ci95 (0 with one option)
    std::vector<DecisionOption> options;
    std::vector<OptionValue> values;
    int best = 0;
    // Rolled out (not exact): the best option's gain over option 0 with the winner's curse
    // taken out (split_gain below); exact, the gain is values[best].diff.
    double best_gain = 0, best_gain_ci95 = 0;
    int screened_out = 0;  // harbour master options left out by the screen
    // Auction: the office's worth to the decider, the highest ceiling whose value is at
    // least pass's (0: no ceiling is; -1: not an auction of ceilings).
    int worth = -1;
};

// Called between batches with the rollouts so far and the best two's diff_ci95; returning
// false stops the analysis (cancelled).
using AnalysisProgress = std::function<bool(int rollouts, double gap_ci95)>;

// Throws std::invalid_argument naming the argument: s must be at a player's decision.
Analysis analyse_decision(const GameState& s, const AnalysisConfig& config,
                          const AnalysisProgress& progress = {});

// The analysis of the given options of the decision due in s (decision_options, or some
// of them, or in another order: option 0 is the one the diffs are taken from).
Analysis analyse_options(const GameState& s, std::vector<DecisionOption> options,
                         const AnalysisConfig& config, const AnalysisProgress& progress = {});

// The best option's gain over option 0 from rollouts values[k][i] (option k's rollout i,
// under the same key for every k; a prefix where racing dropped k), the winner's curse
// taken out: {mean, 95% half-width}.
std::pair<double, double> split_gain(const std::vector<std::vector<double>>& values);

// Whether a player may still place in this voyage (not declined, an accomplice in hand).
bool anyone_can_place(const Board& b);
// Once no placement remains in the voyage, its expectation is exact (parts 2 and 3).
bool no_placement_remains(const Board& b);
// Every player's expected payoff (wealth) of the rest of the voyage in progress, every
// decision taken with the shares the state holds (in a rollout of a view: its deal of the
// hidden ones): only the decider's entry filled, or with `everyone` every player's.
std::vector<double> expected_payoffs(const GameState& g, int decider, bool everyone);

// The expert bot: the auction and the harbour master's choices by rollouts to the end of
// the voyage (its own view only: the others' face-down shares sampled), the shares counted
// at their expected final worth, every other decision by the continuation policy.
// - auction: once per auction, the office's worth = (value of becoming harbour master now
//   for nothing and taking the harbour master's combination that the screen ranks first)
//   - (value of passing), `office_rollouts` paired rollouts; it bids one more while that
//   bid, with the interest of the loans it forces, costs less than `office_share` of the
//   worth;
// - harbour master: the share, goods and start spaces as one option, the `master_screen`
//   best by the exact no-placement value, each rolled out `master_rollouts` times;
// - placement: part 4's search (max^n) over the next turns of the round; before the last
//   round, its `placement_options` best each valued anew by `placement_rollouts` paired
//   rollouts that play the later rounds out (today's prices).
// Every field tells the expert's memory apart (config_key in analysis.cpp reads each,
// by a structured binding that stops compiling when a field is added).
struct ExpertConfig {
    BotKind policy = BotKind::kGreedyWealth;
    int office_rollouts = 48;
    // The share of the office's estimated worth it bids up to, by the number of players
    // (3, 4, 5). The office is worth much the same to every bidder, so the one who wins it
    // is the one who rates it highest: on average one who rates it too high (the winner's
    // curse), the more so the more bidders. Bidding the whole estimate paid for the office
    // all it was worth; docs/analysis.md has the shares measured (5 players: 4 players').
    std::array<double, kMaxPlayers - kMinPlayers + 1> office_share{0.8, 0.6, 0.6};
    int master_rollouts = 24;
    int master_screen = 12;
    // The rollouts' shares at their expected worth at the game's end (final_worth): the
    // office buys a share, which is worth far more than its price early in a game.
    bool final_worth = true;
    // Placement: part 4's search over this many turns of the round (0: the policy), by the
    // roll that comes next (1, 2, 3); before roll 3 the whole round.
    std::array<std::size_t, 3> placement_turns{2, 3, 99};
    // Before the last round the search's horizon is the end of the round, as if nobody
    // placed after it: its best options are rolled out to the end of the voyage (1: none).
    int placement_options = 4;
    int placement_rollouts = 32;
    // Every rollout (the office's worth, the harbour master's choices, placements before
    // the last round) ends at the next voyage boundary with the learned value, and values
    // equity there (manila/value.hpp), instead of the voyage's end with the shares at their
    // expected final worth: the sage bot.
    bool learned_value = false;
};
// The sage's configuration: the expert's, with learned_value.
ExpertConfig sage_config();
int expert_action(const GameState& s, Rng& rng, const ExpertConfig& config = {});

// The rollout bot, built to test the others against a player unlike them: every decision
// (bids, the harbour master's, placements, pilots, boarding, plunder) by flat Monte Carlo,
// a fixed number of paired rollouts per option to the end of the voyage with greedy (income)
// continuing, from its own view, relative to the others. No exact answers, no search.
int rollout_action(const GameState& s, Rng& rng);

}  // namespace manila

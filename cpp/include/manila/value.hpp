// The learned value of a game position (docs/value.md): every player's expected final
// wealth, equity and chance of winning.
//
// At a voyage boundary (an auction about to start) a small network predicts them from what
// the board holds: cash, shares, loans, prices, supply, the voyages played. From any later
// moment of a voyage in which no placement remains, the value is exact up to that boundary:
// the expectation over the voyage's remaining dice (and the decisions the policy takes in
// between) of the boundary value of each outcome. Equity is a player's expected final wealth
// minus the mean of the others': zero-sum, and it does not saturate as the chance of
// winning does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "manila/bots.hpp"
#include "manila/game.hpp"

namespace manila {

// What the network reads of each player (value_features documents every column).
inline constexpr int kValueFeatures = 30;

// A multilayer perceptron with ReLU hidden layers, shared by every seat: from a seat's
// features it gives (the seat's final wealth minus its wealth now, in tens of pesos; the
// seat's win score). The chances of winning are the softmax of the seats' scores.
struct ValueModel {
    std::string info;                // JSON: version, training policy, games, accuracy
    std::vector<float> mean, scale;  // features standardised: (x - mean) / scale
    // Layer k maps sizes[k] inputs to sizes[k + 1] outputs: weights row-major, out x in.
    std::vector<int> sizes;
    std::vector<std::vector<float>> weights, biases;
    // Throws std::invalid_argument naming what does not fit.
    void check() const;
};

// The model shipped with the package (cpp/src/value_model.inc, written by the training).
const ValueModel& shipped_value_model();

// An auction about to start: nobody has bid or passed yet.
bool at_boundary(const Board& b);

// Player p's features on board b (kValueFeatures values).
void value_features(const Board& b, int p, float* out);

struct PositionValue {
    std::vector<double> wealth, equity, win;  // per player
};

// Every player's equity from their expected final wealth.
std::vector<double> equities(const std::vector<double>& wealth);

// Player p's wealth on board b: cash, shares at today's prices, less 15 a loan.
double wealth_of(const Board& b, int p);

// The model's value from n players' features (n x kValueFeatures) and wealth now.
PositionValue predict_value(const ValueModel& m, const float* features, const double* wealth,
                            int n);

// The model's value of board b (read as a boundary, whatever its phase).
PositionValue boundary_value(const Board& b, const ValueModel& m);

// The value of a finished game: the final wealth, the win shared among the tied.
PositionValue final_value(const GameState& g);

// Whether value_to_boundary is exact from g: the game is over, at a boundary, or in a voyage
// in which no placement remains.
bool value_is_exact(const GameState& g);

// The exact expectation of the next boundary's value (or of the final value) over every die
// still to roll in this voyage, the decisions in between taken by `policy`. Throws
// std::invalid_argument unless value_is_exact(g). Dice outcomes that end alike (every boat
// in the same place, or for the last roll: in Manila, on 13 or short of it) are valued once.
PositionValue value_to_boundary(const GameState& g, const ValueModel& m,
                                BotKind policy = BotKind::kGreedyWealth);

// Whether g is exact and no die before the voyage's last is left to roll: where play-outs
// stop and take value_to_boundary (an exact walk over earlier rolls too can be far longer).
bool exact_from_here(const GameState& g);

// The value of any position: exact (value_to_boundary) where it can be, else the mean of
// `rollouts` play-outs of `policy` up to the moment it can be, each then taken exactly.
// Throws std::invalid_argument naming the field for a bad config.
struct ValueConfig {
    BotKind policy = BotKind::kGreedyWealth;
    int rollouts = 200;
    std::uint64_t seed = 0;
    int threads = 0;  // 0: all hardware threads (the answer does not depend on it)
    // From this player's view (-1: the state as it is): the others' face-down shares are
    // averaged over every deal the view allows where the value is exact, and dealt anew in
    // every rollout elsewhere.
    int viewer = -1;
};
struct ValueAnswer {
    PositionValue value;
    std::vector<double> wealth_ci95, equity_ci95, win_ci95;  // 0 where exact
    bool exact = false;  // exact up to the model's boundary value
    int rollouts = 0;
};
ValueAnswer position_value(const GameState& g, const ValueModel& m, const ValueConfig& config);

// The policy the value is learned from and checked against: at every voyage boundary (and
// where a play-out starts) each seat's bot is drawn anew, independently, from `bots` with
// these relative weights. The value knows no seat's bot, so a seat's future must not depend
// on who played it so far: with seats fixed for a game, a leader is more often a strong bot
// who goes on playing strongly, and the value learns that as the position's worth.
struct SeatMix {
    std::vector<BotKind> bots;
    std::vector<double> weights;
    // Throws std::invalid_argument naming what does not fit.
    void check() const;
};

// The final wealth of `n` play-outs of g to the end of the game under `mix` (chance, the
// seats' generators and the draws keyed by (seed, i)): the reference the learned value's
// bias is measured against. n x players values, row-major.
std::vector<int> play_outs(const GameState& g, const SeatMix& mix, int n, std::uint64_t seed,
                           int threads);

// Training data: games first..first+n-1 under `mix` (game i has seed derive_seed(seed, i)),
// every boundary of each with every player's features, wealth then, final wealth and share
// of the win. Rows are boundaries; per-player arrays hold kMaxPlayers entries a row (the
// unused ones 0).
struct ValueSamples {
    int players = 0;
    std::vector<float> features;                   // rows x kMaxPlayers x kValueFeatures
    std::vector<float> wealth, final_wealth, win;  // rows x kMaxPlayers
    std::vector<std::int32_t> game, voyage;        // rows
    std::size_t rows() const { return game.size(); }
};
ValueSamples value_samples(int players, const Rules& rules, std::uint64_t seed, std::int64_t first,
                           int n, const SeatMix& mix, int threads);

// The states at every boundary of games first..first+n-1 under `mix`: the very games
// value_samples learns from (game i has seed derive_seed(seed, i)), one list a game.
std::vector<std::vector<GameState>> value_boundaries(int players, const Rules& rules,
                                                     std::uint64_t seed, std::int64_t first, int n,
                                                     const SeatMix& mix, int threads);

// e^x with the same bits in every build (the C libraries' exp differ in the last bit, and
// the page shows the server's numbers): the chances of winning, a review's accuracy.
double same_exp(double x);

}  // namespace manila

// Enumerating voyage states: the legal starts, the positions the dice reach from them, and
// whole families of states for exhaustive sweeps.
//
// Probabilities are exact: a count of dice sequences over 6^(3 * rolls made), each of the
// three boats rolling one die per roll (a boat already in Manila counts all six faces alike,
// as in the evaluator).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "manila/voyage.hpp"

namespace manila {

using BoatArray = std::array<int, kNumBoats>;  // one number per boat, boats in good order

// The harbour master's choice: three goods (canonical order) and their start spaces.
struct Start {
    BoatArray goods{};
    BoatArray spaces{};
};

// The four ways to choose three goods of four, in canonical (lexicographic) order.
std::vector<BoatArray> good_triples();

// Every legal start: good triples in canonical order, then spaces in lexicographic order.
// 4 triples x 25 space triples = 100 starts.
std::vector<Start> legal_starts();

// Throws std::invalid_argument, naming `field`, unless `start` is a legal start.
void check_start(const Start& start, const char* field = "start");

// 6^(3 * (next_roll - 1)): the denominator of the probability of a position before next_roll.
std::int64_t reach_denominator(int next_roll);

// Dice sequences of `rolls` rolls that take one boat from `space` to each position
// (index 0..13, kArrived). They sum to 6^rolls.
std::array<std::int64_t, kNumPositions> boat_counts(int space, int rolls);

// A position triple and the number of dice sequences (over reach_denominator) that lead to it.
struct Reached {
    BoatArray positions{};
    std::int64_t count = 0;
};

// Every position triple the boats of `start` can stand on before roll `next_roll` (1..3), in
// lexicographic order, with positive counts summing to reach_denominator(next_roll).
std::vector<Reached> reachable(const Start& start, int next_roll);

// A family of states: which goods, which roll, which positions.
struct FamilySpec {
    int next_roll = 1;
    std::vector<BoatArray> goods;  // good triples to include; empty: all four
    bool reachable = true;         // only positions some start reaches (else all 15^3)
    std::vector<Start> starts;     // reachable only: the starts; empty: every legal
                                   // start of the chosen good triples
    BoatArray fixed{-1, -1, -1};   // per boat, a position held fixed, or -1
};

// The rows of a family, stored flat so that numpy can view them as they are. Rows are
// ordered by good triple (canonical), then by positions (lexicographic, 14 = arrived); each
// (goods, positions) appears once.
struct Family {
    int next_roll = 1;
    int n = 0;
    std::vector<std::int8_t> goods;      // [n][3]
    std::vector<std::int8_t> positions;  // [n][3]
    // Reachable families only: the starts, and every (start, row) pair with the number of
    // dice sequences (over reach_denominator(next_roll)) that lead from the start to the row.
    int num_starts = 0;
    std::vector<std::int8_t> start_goods;   // [num_starts][3]
    std::vector<std::int8_t> start_spaces;  // [num_starts][3]
    std::vector<std::int32_t> path_start;   // [num_paths]
    std::vector<std::int32_t> path_row;     // [num_paths]
    std::vector<std::int64_t> path_count;   // [num_paths]
};

// Every state of the spec's shape; throws std::invalid_argument naming the bad field.
Family enumerate_family(const FamilySpec& spec);

// What a family keeps fixed besides goods and positions: the crews of the boats (by boat,
// in good order, front seat first), the occupied spots, the owners, the rules, and what
// values wealth (objective, prices, shares and budgets, with Voyage's meaning and defaults).
struct Pattern {
    std::array<std::vector<int>, kNumBoats> crews;
    std::array<int, kNumSpots> spots{kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner,
                                     kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner};
    int num_owners = 0;
    Rules rules{};
    Objective objective = Objective::kIncome;
    std::array<int, kNumGoods> price{};
    std::array<std::array<std::uint8_t, kNumGoods>, kMaxOwners> shares{};
    std::array<int, kMaxOwners> budget = Voyage{}.budget;

    // A shape: crew sizes per boat and 0, 1 or 2 pirates, each accomplice its own owner
    // (crews first, boat by boat and front seat first, then pirate_1, pirate_2).
    static Pattern shape(const BoatArray& crew_sizes, int pirates);
};

// The validated voyages of n rows (goods and positions [n][3], as in Family).
std::vector<Voyage> family_voyages(const Pattern& pattern, int next_roll, const std::int8_t* goods,
                                   const std::int8_t* positions, int n);

}  // namespace manila

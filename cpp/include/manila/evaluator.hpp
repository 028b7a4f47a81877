// Exact expected voyage incomes, boat outcomes and spot values.
//
// Every number is an integer numerator over a power of six: with r rolls left
// each of the 3 boats contributes one die per roll (a boat already in Manila
// counts all six faces alike), so the denominator is 6^(3r) and decisions are
// compared exactly.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "manila/voyage.hpp"

namespace manila {

enum BoatOutcome : int { kOutcomePort, kOutcomeShipyard, kOutcomePlundered, kNumOutcomes };

// 6^(3 * rolls left): the denominator of every value of a voyage about to make next_roll.
std::int64_t denominator(int next_roll);

// Results for n voyages, stored row by row so that they can be handed to numpy as they are.
struct Table {
    int n = 0;
    int owner_stride = 0;  // columns of `incomes`: the largest num_owners of the batch
    std::vector<std::int64_t> denominator;  // [n]
    std::vector<std::int64_t> incomes;      // [n][owner_stride], numerators, 0 past num_owners
    std::vector<std::int64_t> payoffs;      // [n][owner_stride]: incomes plus share gains (wealth)
    std::vector<std::int64_t> boats;        // [n][kNumBoats][kNumOutcomes], numerators
    std::vector<std::uint8_t> legal;        // [n][kNumTableSpots]
    std::vector<std::int32_t> cost;         // [n][kNumTableSpots], what is paid (0 if not legal)
    std::vector<std::int64_t> net;          // [n][kNumTableSpots], expected_net numerators

    void resize(int rows, int stride);
};

// More accomplices than one owner could ever place: as a limit, it limits nothing.
inline constexpr int kAnyAccomplices = kNumTableSpots + kMaxSeats * kNumBoats;

// Who looks at the spot table, and how many accomplices they may have in all.
struct PointOfView {
    int owner = kNoOwner;  // kNoOwner: a fresh player who holds nothing
    int max_accomplices = kAccomplices;
};

// A spot the point-of-view owner may take now, and what it costs them (-10: insurance).
struct LegalSpot {
    int id;    // spot-table id
    int cost;  // a blind passenger pays their whole budget
};

// Spots in canonical order, within the owner's accomplices and budget (rule 12 included).
std::vector<LegalSpot> legal_spots(const Voyage& v, const PointOfView& pov);

// Expected payoff of one owner (numerator over denominator(v.next_roll)): the voyage
// income, plus the share gains under the wealth objective.
std::int64_t expected_payoff(const Voyage& v, int owner);

// Incomes, boat table and spot table of one voyage. threads: 0 picks by the work to do.
Table analyse(const Voyage& v, const PointOfView& pov, int threads = 0);

// The same for many voyages, spread over threads (0: all hardware threads).
Table analyse_batch(const std::vector<Voyage>& voyages, const std::vector<PointOfView>& povs,
                    int threads = 0);

}  // namespace manila

// The fixed facts of a Manila voyage: goods, seats, spots and payouts.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace manila {

inline constexpr int kNumGoods = 4;  // ginseng, nutmeg, silk, jade (canonical order)
inline constexpr int kNumBoats = 3;  // goods that sail each voyage
inline constexpr int kNumRollsPerVoyage = 3;
inline constexpr int kDieFaces = 6;
inline constexpr int kMaxSeats = 4;
inline constexpr int kThirteen = 13;  // the pirates' space
inline constexpr int kArrived = 14;   // position code for a boat in Manila
inline constexpr int kNumPositions = 15;
inline constexpr int kNoOwner = -1;

struct GoodInfo {
    const char* name;
    int seats;
    std::array<int, kMaxSeats> seat_cost;
    int value;  // divisible by every crew size 1..seats
};

inline constexpr std::array<GoodInfo, kNumGoods> kGoods{{
    {"ginseng", 3, {1, 2, 3, 0}, 18},
    {"nutmeg", 3, {2, 3, 4, 0}, 24},
    {"silk", 3, {3, 4, 5, 0}, 30},
    {"jade", 4, {3, 4, 5, 5}, 36},
}};

// Non-cargo spots. Their order is the canonical output order after the goods.
enum Spot : int {
    kPortA,
    kPortB,
    kPortC,
    kShipyardA,
    kShipyardB,
    kShipyardC,
    kPirate1,
    kPirate2,
    kPilotSmall,
    kPilotLarge,
    kInsurance,
    kNumSpots
};

inline constexpr std::array<const char*, kNumSpots> kSpotNames{
    "port_a",   "port_b",   "port_c",      "shipyard_a",  "shipyard_b", "shipyard_c",
    "pirate_1", "pirate_2", "pilot_small", "pilot_large", "insurance"};

// What the player pays to take a spot; insurance pays the player instead.
inline constexpr std::array<int, kNumSpots> kSpotCost{4, 3, 2, 4, 3, 2, 5, 5, 2, 5, -10};

// Port and shipyard slots A, B, C pay to their occupant when at least 1, 2, 3 boats end there.
inline constexpr std::array<int, kNumBoats> kSlotPayout{6, 8, 15};
// What the insurer pays in total for 0..3 boats in the shipyard: the shipyard slots' payouts.
inline constexpr std::array<int, kNumBoats + 1> kInsuranceClaim = [] {
    std::array<int, kNumBoats + 1> claim{};
    for (std::size_t k = 1; k < claim.size(); ++k) claim[k] = claim[k - 1] + kSlotPayout[k - 1];
    return claim;
}();

// The black market: every good's price moves along this track, one step per arrival in
// Manila; a good at the last step ends the game before another voyage can start.
inline constexpr int kPriceSteps = 5;
inline constexpr std::array<int, kPriceSteps> kPriceTrack{0, 5, 10, 20, 30};
inline constexpr int kSharesPerGood = 5;

// Step of a price on the track, or -1 if the price is not on it.
inline constexpr int price_step(int price) {
    for (int s = 0; s < kPriceSteps; ++s)
        if (kPriceTrack[static_cast<std::size_t>(s)] == price) return s;
    return -1;
}

// What one share gains when its good's boat reaches Manila at this price (0 at the top).
inline constexpr int price_rise(int price) {
    const int s = price_step(price);
    return s < 0 || s + 1 >= kPriceSteps ? 0 : kPriceTrack[static_cast<std::size_t>(s + 1)] - price;
}

// The harbour master's start spaces: each boat on 0..5, the three summing to exactly 9.
inline constexpr int kMaxStartSpace = 5;
inline constexpr int kStartSum = 9;
inline constexpr int kNumStarts = 25;  // start triples (one space per boat) in 0..5 summing to 9

// Every start triple, in lexicographic order.
inline constexpr std::array<std::array<int, kNumBoats>, kNumStarts> kStartSpaces = [] {
    std::array<std::array<int, kNumBoats>, kNumStarts> t{};
    int n = 0;
    for (int a = 0; a <= kMaxStartSpace; ++a)
        for (int b = 0; b <= kMaxStartSpace; ++b) {
            const int c = kStartSum - a - b;
            if (c >= 0 && c <= kMaxStartSpace) t[static_cast<std::size_t>(n++)] = {a, b, c};
        }
    return n == kNumStarts ? t : throw "kNumStarts must count the start triples";
}();

// The dice: k dice fall in 6^k equally likely ways. Every probability of the engine is a
// count of such ways over a power of six.
inline constexpr std::int64_t power_of_six(int k) {
    std::int64_t d = 1;
    for (int i = 0; i < k; ++i) d *= kDieFaces;
    return d;
}

// Players, and the accomplices each has: 3, or 4 in a three-player game.
inline constexpr int kMinPlayers = 3;
inline constexpr int kMaxPlayers = 5;
inline constexpr int kAccomplices = 3;  // the limit when the player count is not known
inline constexpr int accomplices_per_player(int players) {
    return players == kMinPlayers ? kAccomplices + 1 : kAccomplices;
}

// A pilot's move: a shift for each sailing boat (in good order).
using PilotMove = std::array<int, kNumBoats>;

// The large pilot's shifts of one boat (the small pilot has the first two), and of two boats.
inline constexpr std::array<int, 4> kPilotSingles{1, -1, 2, -2};
inline constexpr std::array<std::array<int, 2>, 4> kPilotPairs{
    {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};

// Where a die or a pilot's shift of `d` spaces takes a boat on `position` (past 13 is
// Manila), or nothing when it cannot: a boat in Manila stays there, none goes below space 0.
inline constexpr std::optional<int> moved_position(int position, int d) {
    if (position == kArrived || position + d < 0) return std::nullopt;
    return position + d > kThirteen ? kArrived : position + d;
}

// Every move of the small (large = false) or large pilot in the canonical order of the
// rules, "no move" first: each boat in good order by +1, -1 (the large pilot also +2, -2),
// then for the large pilot each pair of boats (+1,+1), (+1,-1), (-1,+1), (-1,-1). Whether a
// move is possible (boats in Manila stay, none goes below 0) depends on the positions.
template <class Visit>
void for_each_pilot_move(bool large, Visit visit) {
    visit(PilotMove{0, 0, 0});
    for (int i = 0; i < kNumBoats; ++i)
        for (int k = 0; k < (large ? 4 : 2); ++k) {
            PilotMove m{0, 0, 0};
            m[static_cast<std::size_t>(i)] = kPilotSingles[static_cast<std::size_t>(k)];
            visit(m);
        }
    if (!large) return;
    for (int i = 0; i < kNumBoats; ++i)
        for (int j = i + 1; j < kNumBoats; ++j)
            for (const auto& d : kPilotPairs) {
                PilotMove m{0, 0, 0};
                m[static_cast<std::size_t>(i)] = d[0];
                m[static_cast<std::size_t>(j)] = d[1];
                visit(m);
            }
}

// Spot-table ids: the four cargo goods first, then the non-cargo spots.
inline constexpr int kNumTableSpots = kNumGoods + kNumSpots;
inline constexpr int table_id(Spot s) { return kNumGoods + static_cast<int>(s); }

}  // namespace manila

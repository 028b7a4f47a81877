// The fixed facts of a Manila voyage: goods, seats, spots and payouts.
#pragma once

#include <array>
#include <cstdint>

namespace manila {

inline constexpr int kNumGoods = 4;    // ginseng, nutmeg, silk, jade (canonical order)
inline constexpr int kNumBoats = 3;    // goods that sail each voyage
inline constexpr int kNumRollsPerVoyage = 3;
inline constexpr int kMaxSeats = 4;
inline constexpr int kThirteen = 13;   // the pirates' space
inline constexpr int kArrived = 14;    // position code for a boat in Manila
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
    kPortA, kPortB, kPortC,
    kShipyardA, kShipyardB, kShipyardC,
    kPirate1, kPirate2,
    kPilotSmall, kPilotLarge,
    kInsurance,
    kNumSpots
};

inline constexpr std::array<const char*, kNumSpots> kSpotNames{
    "port_a", "port_b", "port_c", "shipyard_a", "shipyard_b", "shipyard_c",
    "pirate_1", "pirate_2", "pilot_small", "pilot_large", "insurance"};

// What the player pays to take a spot; insurance pays the player instead.
inline constexpr std::array<int, kNumSpots> kSpotCost{4, 3, 2, 4, 3, 2, 5, 5, 2, 5, -10};

// Port and shipyard slots A, B, C pay to their occupant when at least 1, 2, 3 boats end there.
inline constexpr std::array<int, 3> kSlotPayout{6, 8, 15};
// What the insurer pays in total for 0..3 boats in the shipyard (sum of the slot payouts).
inline constexpr std::array<int, 4> kInsuranceClaim{0, 6, 14, 29};

// Spot-table ids: the four cargo goods first, then the non-cargo spots.
inline constexpr int kNumTableSpots = kNumGoods + kNumSpots;
inline constexpr int table_id(Spot s) { return kNumGoods + static_cast<int>(s); }

}  // namespace manila

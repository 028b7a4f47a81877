// A voyage in progress: what the evaluator needs to know, with owners as small integers.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "manila/rules.hpp"

namespace manila {

struct Rules {
    bool thirteen_to_port = true;  // thirteen_after_last_roll == "port"
    bool pirate_variant = false;   // boarding pirates may displace crew
};

struct Boat {
    int good = 0;
    int position = 0;  // 0..13, or kArrived
    int crew_size = 0;
    std::array<int, kMaxSeats> crew{kNoOwner, kNoOwner, kNoOwner, kNoOwner};  // front seat first

    int seats() const { return kGoods[good].seats; }
    bool full() const { return crew_size >= seats(); }
    bool operator==(const Boat& o) const {
        return good == o.good && position == o.position && crew_size == o.crew_size &&
               crew == o.crew;
    }
};

// The maximum allowed number of owners; a game has 3 to 5 players and every
// accomplice could in principle belong to someone else.
inline constexpr int kMaxOwners = 64;

// A budget entry that limits nothing: the owner can pay for any spot.
inline constexpr int kUnlimited = std::numeric_limits<int>::max();

// What a player maximises: the voyage income alone, or the income plus the rise in value
// of the shares they hold of the goods that reach Manila.
enum class Objective : std::uint8_t { kIncome, kWealth };

// Throws std::invalid_argument unless next_roll is a roll of the voyage (1, 2 or 3).
void check_next_roll(int next_roll);

// Owners are 0..num_owners-1. Boats are in canonical good order.
struct Voyage {
    int next_roll = 1;  // 1..3
    std::array<Boat, kNumBoats> boats{};
    std::array<int, kNumSpots> spots{kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner,
                                     kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner};
    int num_owners = 0;
    Rules rules{};
    Objective objective = Objective::kIncome;
    std::array<int, kNumGoods> price{};  // on kPriceTrack, below its last step
    std::array<std::array<std::uint8_t, kNumGoods>, kMaxOwners> shares{};  // [owner][good]
    std::array<int, kMaxOwners> budget = unlimited_budgets();  // most each owner can pay now

    // What `owner` gains beyond the voyage income when boat `boat` ends in Manila.
    int manila_bonus(int owner, int boat) const {
        if (objective != Objective::kWealth) return 0;
        const int good = boats[static_cast<std::size_t>(boat)].good;
        return shares[static_cast<std::size_t>(owner)][static_cast<std::size_t>(good)] *
               price_rise(price[static_cast<std::size_t>(good)]);
    }

    // Throws std::invalid_argument naming the offending field. Every entry point calls it:
    // the evaluator indexes arrays with these numbers, and Release builds have no asserts.
    void validate() const;

    // Accomplices (seats and spots) held by one owner.
    int accomplices(int owner) const;

  private:
    static std::array<int, kMaxOwners> unlimited_budgets() {
        std::array<int, kMaxOwners> b{};
        b.fill(kUnlimited);
        return b;
    }
};

}  // namespace manila

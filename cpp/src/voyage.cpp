#include "manila/voyage.hpp"

#include <stdexcept>
#include <string>

#include "checks.hpp"
#include "manila/game.hpp"

namespace manila {
namespace {

// "0, 5, 10 or 20 (a good at 30 has ended the game)", from the price track.
std::string voyage_prices() {
    std::string text;
    for (int s = 0; s + 1 < kPriceSteps; ++s)
        text += (s == 0                ? ""
                 : s + 2 < kPriceSteps ? ", "
                                       : " or ") +
                std::to_string(kPriceTrack[s]);
    return text + " (a good at " + std::to_string(kPriceTrack[kPriceSteps - 1]) +
           " has ended the game)";
}

std::string boat_field(const Boat& b, int index) {
    if (b.good >= 0 && b.good < kNumGoods) return std::string("boats.") + kGoods[b.good].name;
    return "boats[" + std::to_string(index) + "]";
}

}  // namespace

void check_next_roll(int next_roll) {
    if (next_roll < 1 || next_roll > kNumRollsPerVoyage)
        reject("next_roll", "must be 1, 2 or 3, got " + std::to_string(next_roll));
}

void Voyage::validate() const {
    // Field names are built only on failure: validation runs on every evaluation.
    check_next_roll(next_roll);
    // The engine holds hypothetical boards (a sweep's families) with more owners than a game
    // has players; the readers of real boards refuse more than kMaxPlayers.
    if (num_owners < 0 || num_owners > kMaxOwners)
        reject("num_owners",
               "must be 0.." + std::to_string(kMaxOwners) + ", got " + std::to_string(num_owners));
    for (int i = 0; i < kNumBoats; ++i) {
        const Boat& b = boats[i];
        if (b.good < 0 || b.good >= kNumGoods)
            reject(boat_field(b, i) + ".good", "unknown good id " + std::to_string(b.good));
        if (i > 0 && b.good <= boats[i - 1].good)
            reject("boats", "three different goods are needed, in canonical order");
        if (b.position < 0 || b.position > kArrived)
            reject(boat_field(b, i) + ".position", "must be 0.." + std::to_string(kThirteen) +
                                                       " or arrived (" + std::to_string(kArrived) +
                                                       "), got " + std::to_string(b.position));
        if (b.crew_size < 0 || b.crew_size > b.seats())
            reject(boat_field(b, i) + ".crew", "a " + std::string(kGoods[b.good].name) +
                                                   " boat has " + std::to_string(b.seats()) +
                                                   " seats, not " + std::to_string(b.crew_size));
        for (int s = 0; s < kMaxSeats; ++s) {
            const bool seated = s < b.crew_size;
            const int o = b.crew[s];
            if (seated ? (o < 0 || o >= num_owners) : o != kNoOwner)
                reject(boat_field(b, i) + ".crew[" + std::to_string(s) + "]",
                       seated ? "owner id " + std::to_string(o) + " is not in 0.." +
                                    std::to_string(num_owners - 1)
                              : std::string("a seat past the crew size must be empty"));
        }
    }
    for (int s = 0; s < kNumSpots; ++s)
        if (spots[s] != kNoOwner && (spots[s] < 0 || spots[s] >= num_owners))
            reject(std::string("spots.") + kSpotNames[s], "owner id " + std::to_string(spots[s]) +
                                                              " is not in 0.." +
                                                              std::to_string(num_owners - 1));
    if (spots[kPirate2] != kNoOwner && spots[kPirate1] == kNoOwner)
        reject("spots.pirate_2", "pirate_2 may only be occupied once pirate_1 is");
    if (objective != Objective::kIncome && objective != Objective::kWealth)
        reject("objective", "must be income or wealth");
    for (int g = 0; g < kNumGoods; ++g) {
        const std::string good = kGoods[static_cast<std::size_t>(g)].name;
        const int p = price[static_cast<std::size_t>(g)];
        if (price_step(p) < 0 || price_step(p) == kPriceSteps - 1)
            reject("prices." + good, "must be " + voyage_prices() + ", got " + std::to_string(p));
        int total = 0;
        for (int o = 0; o < kMaxOwners; ++o) {
            const int n = shares[static_cast<std::size_t>(o)][static_cast<std::size_t>(g)];
            if (n != 0 && o >= num_owners)
                reject("shares", "owner id " + std::to_string(o) + " is not in 0.." +
                                     std::to_string(num_owners - 1));
            total += n;
        }
        if (total > kSharesPerGood)
            reject("shares." + good, "there are " + std::to_string(kSharesPerGood) + " shares of " +
                                         good + " in all, not " + std::to_string(total));
    }
    for (int o = 0; o < kMaxOwners; ++o) {
        const int b = budget[static_cast<std::size_t>(o)];
        if (b < 0 || (b > kMaxBudget && b != kUnlimited))
            reject("budget", "owner id " + std::to_string(o) + ": a budget must be 0.." +
                                 std::to_string(kMaxBudget) + ", got " + std::to_string(b));
    }
}

int Voyage::accomplices(int owner) const {
    int count = 0;
    for (const Boat& b : boats)
        for (int s = 0; s < b.crew_size; ++s) count += b.crew[s] == owner;
    for (int o : spots) count += o == owner;
    return count;
}

}  // namespace manila

// Placement of accomplices: the order of turns, what a spot costs and blind passengers.

#include "manila/game.hpp"

#include <algorithm>
#include <limits>

#include "game_internal.hpp"

namespace manila {

// ---------------------------------------------------------------------------------------
// Placement rounds

void GameState::begin_placement() {
    b_.phase = Phase::kPlacement;
    b_.rounds_left = (b_.next_roll == 1 && b_.num_players == 3) ? 2 : 1;
    b_.turn = 0;
    advance_placement();
}

void GameState::advance_placement() {
    const int n = b_.num_players;
    while (b_.rounds_left > 0) {
        for (; b_.turn < n; ++b_.turn) {
            const int p = (b_.harbour_master + b_.turn) % n;
            if (!((b_.declined >> p) & 1) && b_.accomplices(p) < b_.max_accomplices) {
                b_.current = p;
                return;
            }
        }
        --b_.rounds_left;
        b_.turn = 0;
    }
    if (b_.next_roll == kNumRollsPerVoyage) {
        begin_pilots();
        return;
    }
    bool sailing = false;
    for (const Boat& boat : b_.boats) sailing |= boat.position != kArrived;
    if (!sailing) {  // every boat is in Manila: nothing to roll
        after_roll();
        return;
    }
    b_.phase = Phase::kRoll;
    b_.current = kChancePlayer;
}

// ---------------------------------------------------------------------------------------
// What a spot costs, and blind passengers

int GameState::cheapest_paid_spot() const {
    int cheapest = std::numeric_limits<int>::max();
    for (const Boat& boat : b_.boats)
        if (!boat.full()) cheapest = std::min(cheapest, seat_cost(boat));
    for (int s = 0; s < kNumSpots; ++s) {
        if (s == kInsurance || b_.spots[static_cast<std::size_t>(s)] != kNoOwner) continue;
        if (s == kPirate2 && b_.spots[kPirate1] == kNoOwner) continue;
        cheapest = std::min(cheapest, kSpotCost[static_cast<std::size_t>(s)]);
    }
    return cheapest;
}

std::optional<PlacementTerms> GameState::placement_terms(int p, int id) const {
    if (id < 0 || id >= kNumTableSpots || p < 0 || p >= b_.num_players) return std::nullopt;
    if (b_.accomplices(p) >= b_.max_accomplices) return std::nullopt;
    const int capacity = b_.players[static_cast<std::size_t>(p)].capacity();
    int cost = 0;
    if (id < kNumGoods) {
        const int i = boat_of(id);
        if (i < 0 || b_.boats[static_cast<std::size_t>(i)].full()) return std::nullopt;
        cost = seat_cost(b_.boats[static_cast<std::size_t>(i)]);
    } else {
        const int s = id - kNumGoods;
        if (b_.spots[static_cast<std::size_t>(s)] != kNoOwner) return std::nullopt;
        if (s == kPirate2 && b_.spots[kPirate1] == kNoOwner) return std::nullopt;
        cost = kSpotCost[static_cast<std::size_t>(s)];
        if (s == kInsurance) {
            // Rule 12: a blind passenger may take any free spot but insurance.
            const int cheapest = cheapest_paid_spot();
            if (cheapest != std::numeric_limits<int>::max() && capacity < cheapest)
                return std::nullopt;
            return PlacementTerms{cost, false};
        }
    }
    if (capacity >= cost) return PlacementTerms{cost, false};
    // Rule 12: a blind passenger cannot pay even the cheapest free spot.
    if (capacity < cheapest_paid_spot()) return PlacementTerms{cost, true};
    return std::nullopt;
}

}  // namespace manila

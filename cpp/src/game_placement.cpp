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
    if (b_.next_roll == 3) {
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

bool GameState::placement_terms(int p, int id, int& cost, bool& blind) const {
    blind = false;
    cost = 0;
    if (id < 0 || id >= kNumTableSpots || p < 0 || p >= b_.num_players) return false;
    if (b_.accomplices(p) >= b_.max_accomplices) return false;
    if (id < kNumGoods) {
        const int i = boat_of(id);
        if (i < 0 || b_.boats[static_cast<std::size_t>(i)].full()) return false;
        cost = seat_cost(b_.boats[static_cast<std::size_t>(i)]);
    } else {
        const int s = id - kNumGoods;
        if (b_.spots[static_cast<std::size_t>(s)] != kNoOwner) return false;
        if (s == kPirate2 && b_.spots[kPirate1] == kNoOwner) return false;
        cost = kSpotCost[static_cast<std::size_t>(s)];
    }
    const int capacity = b_.players[static_cast<std::size_t>(p)].capacity();
    // Rule 12: insurance pays rather than costs, but a blind passenger may not take it.
    if (id == table_id(kInsurance)) return !is_blind_passenger(p);
    if (capacity >= cost) return true;
    blind = is_blind_passenger(p);
    return blind;
}

bool GameState::is_blind_passenger(int p) const {
    // Rule 12: cannot pay even the cheapest free spot, mortgaging all it can. (Some paid
    // spot is always free: the accomplices of 5 players cannot fill every seat and spot.)
    return b_.players[static_cast<std::size_t>(p)].capacity() < cheapest_paid_spot();
}

}  // namespace manila

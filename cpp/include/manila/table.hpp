// A table: one player's view of a game at a decision (what state.observation(p) shows, or
// what a player reads off a real table), turned into a playable GameState.
//
// The view hides the others' face-down shares. What is neither visible nor in the supply
// lies face down with the others: table_state deals that multiset at random into the
// face-down slots each player is seen to hold (a uniform shuffle, as the real deal was),
// so every state it builds agrees with everything the view shows.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "manila/game.hpp"

namespace manila {

struct TablePlayer {
    int cash = kStartCash;
    std::array<int, kNumGoods> shares{};  // visible: all of the observer's, the others' bought ones
    int hidden = 0;                       // face-down shares the observer cannot see
    int mortgaged = 0;
    bool declined = false;  // declined in this voyage's placement
};

struct TableView {
    int num_players = 4;
    Rules rules{};
    int observer = 0;
    Phase phase = Phase::kAuction;  // a player's decision (not the deal, a roll or the end)
    int current = 0;
    int voyage = 1;
    int harbour_master = -1;              // -1: none yet (first auction)
    std::array<int, kNumGoods> prices{};  // on the price track, below its top
    std::array<int, kNumGoods> supply{};
    std::vector<TablePlayer> players;
    // Of the observer's shares, those dealt face down (others' views hide them); -1 for a
    // good: unknown, taken as dealt as far as the deal allows.
    std::array<int, kNumGoods> observer_dealt{-1, -1, -1, -1};
    // Auction.
    int high_bid = 0, high_bidder = -1;
    std::vector<int> bidding;  // players still in the auction
    // The voyage (from place_boats on: the sailing goods; from placement on: the boats).
    int stays_home = -1;
    std::vector<Boat> boats;               // the sailing goods in good order
    std::array<int, kNumSpots> spots{};    // owners, kNoOwner free (set by the constructor)
    int next_roll = 1;                     // 1..3
    int boarding_decider = 0;              // boarding: 0 the captain, 1 the other pirate
    int guard_boat = -1, guard_seat = -1;  // boarding: the seat the captain took
    int rounds_left = 0;                   // placement: 0 derives it from the table

    TableView() { spots.fill(kNoOwner); }
};

// A table's boat (its good, position and crew, front seat first). Throws
// std::invalid_argument naming the field when the good or the crew does not fit.
Boat table_boat(int good, int position, const std::vector<int>& crew);

// The board a table shows, the others' face-down shares dealt with `rng`. Throws
// std::invalid_argument naming the field for a table no game can reach.
Board table_board(const TableView& t, Rng& rng);
GameState table_state(const TableView& t, std::uint64_t seed);

// Deals the face-down shares of every player but `viewer` anew, at random, keeping how many
// of each good lie face down in all and how many each player holds (what viewer sees).
void resample_hidden(Board& b, int viewer, Rng& rng);

// One deal of the face-down shares of every player but the viewer that agrees with all the
// viewer sees, and how many of the equally likely shuffles give it.
struct HiddenDeal {
    Board board;
    std::uint64_t weight = 0;
};
// Every such deal (distinct boards), weights summing to the number of shuffles. A shuffle is
// one order of the face-down shares the viewer cannot see, dealt in seat order as
// resample_hidden deals them; orders that differ only by swapping two shares of one good are
// one shuffle (m shares, c_g of good g: m! / prod(c_g!) shuffles).
std::vector<HiddenDeal> hidden_deals(const Board& b, int viewer);

}  // namespace manila

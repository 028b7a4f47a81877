// Set-up, payments and loans, the start of each voyage and the harbour master's auction.

#include "manila/game.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "game_internal.hpp"

namespace manila {

// ---------------------------------------------------------------------------------------
// Set-up and the flow from phase to phase

void check_players(int players) {
    if (players < kMinPlayers || players > kMaxPlayers)
        invalid("players: Manila is for " + std::to_string(kMinPlayers) + " to " +
                std::to_string(kMaxPlayers) + " players, got " + std::to_string(players));
}

GameState::GameState(int players, Rules rules, std::uint64_t seed)
    : rng_(derive_seed(seed, 0)), seed_(seed) {
    check_players(players);
    b_.num_players = players;
    b_.rules = rules;
    b_.max_accomplices = accomplices_per_player(players);
    for (int p = 0; p < kMaxPlayers; ++p)
        b_.players[static_cast<std::size_t>(p)].cash = p < players ? kStartCash : 0;
    b_.supply.fill(kSharesPerGood - kDealtPerGood);
    b_.pile.fill(kDealtPerGood);
    b_.spots.fill(kNoOwner);
    b_.phase = Phase::kDeal;
    b_.current = kChancePlayer;
    history_.reserve(512);
}

int GameState::boat_of(int good) const {
    if (b_.phase < Phase::kPlaceBoats || b_.phase == Phase::kGameOver) return -1;
    for (int i = 0; i < kNumBoats; ++i)
        if (b_.boats[static_cast<std::size_t>(i)].good == good) return i;
    return -1;
}

void GameState::mortgage(int p) {
    PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
    ++ps.mortgaged;
    ps.cash += kLoanAmount;
    b_.bank -= kLoanAmount;
}

void GameState::pay(int p, int amount) {
    PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
    while (ps.cash < amount && ps.unmortgaged() > 0) mortgage(p);  // rule 11: must mortgage
    if (ps.cash < amount) throw std::logic_error("pay: a payment the player cannot make");
    ps.cash -= amount;
    b_.bank += amount;
}

void GameState::begin_voyage() {
    ++b_.voyage;
    for (Boat& boat : b_.boats) boat = Boat{};
    b_.spots.fill(kNoOwner);
    b_.stays_home = -1;
    b_.next_roll = 1;
    b_.rounds_left = 0;
    b_.turn = 0;
    b_.declined = 0;
    b_.port.fill(-1);
    b_.shipyard.fill(-1);
    b_.in_port = b_.in_shipyard = 0;
    b_.boarders = {kNoOwner, kNoOwner};
    b_.on_ship = 0;
    b_.decider = 0;
    b_.guard_boat = b_.guard_seat = -1;
    b_.small_done = b_.large_done = false;
    b_.plunder = 0;
    // Rule 1: opened by player 0 in the first voyage, then by the previous harbour master.
    b_.phase = Phase::kAuction;
    b_.high_bid = 0;
    b_.high_bidder = -1;
    b_.in_auction = (1 << b_.num_players) - 1;
    b_.current = b_.harbour_master < 0 ? 0 : b_.harbour_master;
}

void GameState::end_auction(int winner) {
    if (winner >= 0) {
        pay(winner, b_.high_bid);
        b_.harbour_master = winner;
    } else if (b_.harbour_master < 0) {
        b_.harbour_master = 0;  // nobody bid in the first voyage: player 0, for free
    }
    b_.phase = Phase::kBuyShare;
    b_.current = b_.harbour_master;
}

}  // namespace manila

// Results and views of a game: wealth, the open voyage, text renderings and invariant checks.

#include "manila/game.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "game_internal.hpp"
#include "manila/observation.hpp"

namespace manila {

// ---------------------------------------------------------------------------------------
// Results and views

int GameState::wealth(int p) const {
    if (p < 0 || p >= b_.num_players)
        invalid("player: must be 0.." + std::to_string(b_.num_players - 1) + ", got " +
                std::to_string(p));
    const PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
    int w = ps.cash - kRepayAmount * ps.mortgaged;
    for (int g = 0; g < kNumGoods; ++g) w += ps.shares[static_cast<std::size_t>(g)] * b_.price(g);
    return w;
}

std::vector<int> GameState::returns() const {
    std::vector<int> out;
    for (int p = 0; p < b_.num_players; ++p) out.push_back(wealth(p));
    return out;
}

int GameState::voyages_completed() const {
    return is_terminal() ? b_.voyage : std::max(0, b_.voyage - 1);
}

bool GameState::voyage(Voyage& v) const {
    if (b_.phase < Phase::kPlacement || b_.phase > Phase::kLargePilot || b_.next_roll > 3)
        return false;
    v = Voyage{};
    v.next_roll = b_.next_roll;
    v.boats = b_.boats;
    v.spots = b_.spots;
    if (b_.small_done) v.spots[kPilotSmall] = kNoOwner;
    if (b_.large_done) v.spots[kPilotLarge] = kNoOwner;
    v.num_owners = b_.num_players;
    v.rules = b_.rules;
    for (int g = 0; g < kNumGoods; ++g) v.price[static_cast<std::size_t>(g)] = b_.price(g);
    for (int p = 0; p < b_.num_players; ++p) {
        const PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
        for (int g = 0; g < kNumGoods; ++g)
            v.shares[static_cast<std::size_t>(p)][static_cast<std::size_t>(g)] =
                static_cast<std::uint8_t>(ps.shares[static_cast<std::size_t>(g)]);
        v.budget[static_cast<std::size_t>(p)] = std::max(0, ps.capacity());
    }
    return true;
}

std::string GameState::action_to_string(int a) const {
    const std::string name = action_name(a);
    const bool boats_known = b_.phase >= Phase::kPlaceBoats && b_.phase != Phase::kGameOver;
    if (a >= action::kStart && a < action::kPlace && boats_known) {
        const auto t = kStartSpaces[static_cast<std::size_t>(a - action::kStart)];
        std::string out = "start";
        for (int i = 0; i < kNumBoats; ++i)
            out += std::string(i ? ", " : " ") +
                   good_name(b_.boats[static_cast<std::size_t>(i)].good) + " " +
                   std::to_string(t[static_cast<std::size_t>(i)]);
        return out;
    }
    if (a >= action::kRoll && a < action::kNumActions && b_.phase == Phase::kRoll) {
        const auto d = roll_dice(a - action::kRoll);
        std::string out = "roll";
        bool first = true;
        for (int i = 0; i < kNumBoats; ++i) {
            const Boat& boat = b_.boats[static_cast<std::size_t>(i)];
            if (boat.position == kArrived) continue;
            out += std::string(first ? " " : ", ") + good_name(boat.good) + " " +
                   std::to_string(d[static_cast<std::size_t>(i)]);
            first = false;
        }
        return out;
    }
    return name;
}

std::string GameState::to_string() const { return observation_string(*this, 0, PrivateInfo::kAll); }

// The table as text; a player's face-down shares (and so their wealth) only where the
// viewer sees them.
std::string observation_string(const GameState& state, int viewer, PrivateInfo info) {
    const Board& b = state.board();
    const int n = b.num_players;
    if (viewer < 0 || viewer >= n)
        invalid("player: must be 0.." + std::to_string(n - 1) + ", got " + std::to_string(viewer));
    std::ostringstream o;
    if (info != PrivateInfo::kAll) o << "view of " << player_name(viewer) << "\n";
    o << "voyage " << b.voyage << ", " << phase_name(b.phase);
    if (b.phase == Phase::kPlacement || b.phase == Phase::kRoll)
        o << " before roll " << b.next_roll;
    if (b.harbour_master >= 0) o << ", harbour master " << player_name(b.harbour_master);
    if (state.is_terminal())
        o << ", game over";
    else if (state.is_chance_node())
        o << ", chance to move";
    else
        o << ", " << player_name(b.current) << " to move";
    o << "\nprices:";
    for (int g = 0; g < kNumGoods; ++g) o << " " << good_name(g) << " " << b.price(g);
    o << "; supply:";
    for (int g = 0; g < kNumGoods; ++g)
        o << " " << good_name(g) << " " << b.supply[static_cast<std::size_t>(g)];
    o << "; bank " << b.bank << "\n";
    if (b.phase == Phase::kAuction)
        o << "auction: high bid " << b.high_bid
          << (b.high_bidder >= 0 ? " by " + player_name(b.high_bidder) : std::string()) << "\n";
    for (int p = 0; p < n; ++p) {
        const PlayerState& ps = b.players[static_cast<std::size_t>(p)];
        const auto shares = known_shares(b, viewer, p, info);
        const int hidden = hidden_shares(b, viewer, p, info);
        o << player_name(p) << ": cash " << ps.cash << ", shares";
        bool any = false;
        for (int g = 0; g < kNumGoods; ++g)
            if (shares[static_cast<std::size_t>(g)]) {
                o << " " << good_name(g) << " " << shares[static_cast<std::size_t>(g)];
                any = true;
            }
        if (hidden) o << (any ? " + " : " ") << hidden << " face down";
        if (!any && !hidden) o << " none";
        if (ps.mortgaged) o << " (" << ps.mortgaged << " mortgaged)";
        if (!hidden) o << ", wealth " << state.wealth(p);
        if (b.phase >= Phase::kPlacement && b.phase != Phase::kGameOver)
            o << ", accomplices " << b.max_accomplices - b.accomplices(p) << "/"
              << b.max_accomplices << " free" << (((b.declined >> p) & 1) ? " (declined)" : "");
        o << "\n";
    }
    if (b.phase >= Phase::kPlacement && b.phase != Phase::kGameOver) {
        for (const Boat& boat : b.boats) {
            o << good_name(boat.good) << " boat ";
            if (boat.position == kArrived)
                o << "in Manila";
            else
                o << "on " << boat.position;
            o << ", crew [";
            for (int s = 0; s < boat.seats(); ++s)
                o << (s ? " " : "")
                  << (s < boat.crew_size ? player_name(boat.crew[static_cast<std::size_t>(s)])
                                         : "-");
            o << "]\n";
        }
        o << "spots:";
        bool any = false;
        for (int s = 0; s < kNumSpots; ++s)
            if (b.spots[static_cast<std::size_t>(s)] != kNoOwner) {
                o << " " << kSpotNames[static_cast<std::size_t>(s)] << "="
                  << player_name(b.spots[static_cast<std::size_t>(s)]);
                any = true;
            }
        if (!any) o << " none";
        o << "\n";
    }
    return o.str();
}

std::string GameState::check_invariants() const {
    std::ostringstream o;
    const int n = b_.num_players;
    int money = b_.bank;
    for (int p = 0; p < n; ++p) {
        const PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
        money += ps.cash;
        if (ps.cash < 0) o << player_name(p) << " has negative cash " << ps.cash << "; ";
        if (ps.mortgaged < 0 || ps.unmortgaged() < 0)
            o << player_name(p) << " has " << ps.mortgaged << " mortgaged shares; ";
        const int acc = b_.accomplices(p);
        if (acc > b_.max_accomplices) o << player_name(p) << " has " << acc << " accomplices out; ";
    }
    if (money != kStartCash * n) o << "money not conserved: cash + bank = " << money << "; ";
    for (int g = 0; g < kNumGoods; ++g) {
        int total = b_.supply[static_cast<std::size_t>(g)] + b_.pile[static_cast<std::size_t>(g)];
        for (int p = 0; p < n; ++p)
            total += b_.players[static_cast<std::size_t>(p)].shares[static_cast<std::size_t>(g)];
        if (total != kSharesPerGood) o << good_name(g) << ": " << total << " shares in all; ";
        const int step = b_.price_step[static_cast<std::size_t>(g)];
        if (step < 0 || step >= kPriceSteps) o << good_name(g) << ": price off the track; ";
        if (!is_terminal() && step == kPriceSteps - 1)
            o << good_name(g) << " at 30 but the game goes on; ";
    }
    if (b_.phase != Phase::kDeal && b_.dealt != kSharesDealt * n) o << "the deal is incomplete; ";
    Voyage v;
    if (voyage(v)) {
        try {
            v.validate();
        } catch (const std::invalid_argument& e) {
            o << "voyage: " << e.what() << "; ";
        }
        int arrived = 0;
        for (const Boat& boat : b_.boats) arrived += boat.position == kArrived;
        if (arrived != b_.in_port) o << "port slots do not match the boats in Manila; ";
    }
    if (!is_terminal() && !is_chance_node() && (b_.current < 0 || b_.current >= n))
        o << "no valid player to move; ";
    return o.str();
}

}  // namespace manila

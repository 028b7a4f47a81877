// The action space in words: Rng, start triples, phase and action names, and why an action is
// illegal.

#include "manila/game.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "game_internal.hpp"

namespace manila {

// ---------------------------------------------------------------------------------------
// Small helpers

std::uint64_t Rng::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int Rng::below(int n) {
    if (n <= 0) invalid("Rng.below: n must be positive, got " + std::to_string(n));
    return static_cast<int>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) {
    Rng r(seed ^ (index * 0xD1B54A32D192ED03ULL));
    r.next();
    return r.next() ^ index;
}

std::array<int, kNumBoats> start_triple(int t) {
    if (t < 0 || t >= kNumStarts)
        invalid("start triple index must be 0.." + std::to_string(kNumStarts - 1) + ", got " +
                std::to_string(t));
    return kStartSpaces[static_cast<std::size_t>(t)];
}

const char* phase_name(Phase p) {
    switch (p) {
        case Phase::kDeal:
            return "deal";
        case Phase::kAuction:
            return "auction";
        case Phase::kBuyShare:
            return "buy_share";
        case Phase::kChooseGoods:
            return "choose_goods";
        case Phase::kPlaceBoats:
            return "place_boats";
        case Phase::kPlacement:
            return "placement";
        case Phase::kRoll:
            return "roll";
        case Phase::kBoarding:
            return "boarding";
        case Phase::kSmallPilot:
            return "small_pilot";
        case Phase::kLargePilot:
            return "large_pilot";
        case Phase::kPlunder:
            return "plunder";
        case Phase::kGameOver:
            return "game_over";
    }
    return "?";
}

Phase phase_of(const std::string& name) {
    for (int p = 0; p < kNumPhases; ++p)
        if (name == phase_name(static_cast<Phase>(p))) return static_cast<Phase>(p);
    invalid("phase: no phase is called \"" + name + "\"");
}

std::string action_name(int a) {
    using namespace action;
    if (a == kPass) return "pass";
    if (a >= 1 && a <= kMaxBid) return "bid " + std::to_string(a);
    if (a == kMortgage) return "mortgage";
    if (a == kRepay) return "repay";
    if (a >= kBuy && a < kBuy + kNumGoods) return std::string("buy ") + good_name(a - kBuy);
    if (a == kBuyNothing) return "buy nothing";
    if (a >= kLeaveHome && a < kLeaveHome + kNumGoods)
        return std::string("leave ") + good_name(a - kLeaveHome) + " home";
    if (a >= kStart && a < kStart + kNumStarts) {
        const auto t = kStartSpaces[static_cast<std::size_t>(a - kStart)];
        return "start " + std::to_string(t[0]) + "-" + std::to_string(t[1]) + "-" +
               std::to_string(t[2]);
    }
    if (a >= kPlace && a < kPlace + kNumTableSpots) {
        const int id = a - kPlace;
        return std::string("place ") + (id < kNumGoods
                                            ? good_name(id)
                                            : kSpotNames[static_cast<std::size_t>(id - kNumGoods)]);
    }
    if (a == kDecline) return "decline";
    if (a == kStay) return "stay";
    if (a >= kBoard && a < kBoard + kNumGoods) return std::string("board ") + good_name(a - kBoard);
    if (a >= kDisplace && a < kSmallNone) {
        const int k = a - kDisplace;
        return std::string("board ") + good_name(k / kMaxSeats) + ", displacing seat " +
               std::to_string(k % kMaxSeats + 1);
    }
    if (a == kSmallNone) return "small pilot: none";
    if (a >= kSmall && a < kLargeNone) {
        const int k = a - kSmall;
        return std::string("small pilot: ") + good_name(k / 2) + (k % 2 ? " -1" : " +1");
    }
    if (a == kLargeNone) return "large pilot: none";
    if (a >= kLargeOne && a < kLargeTwo) {
        const int k = a - kLargeOne;
        return std::string("large pilot: ") + good_name(k / 4) + " " +
               signed_str(kPilotSingles[static_cast<std::size_t>(k % 4)]);
    }
    if (a >= kLargeTwo && a < kPlunder) {
        const int k = a - kLargeTwo;
        const auto pair = kPairs[static_cast<std::size_t>(k / 4)];
        const auto d = kPilotPairs[static_cast<std::size_t>(k % 4)];
        return std::string("large pilot: ") + good_name(pair[0]) + " " + signed_str(d[0]) + ", " +
               good_name(pair[1]) + " " + signed_str(d[1]);
    }
    if (a >= kPlunder && a < kDeal) {
        const int mask = a - kPlunder;
        if (mask == 0) return "plunder: all to Manila";
        std::string out = "plunder: ";
        bool first = true;
        for (int g = 0; g < kNumGoods; ++g)
            if (mask & plunder_bit(g)) {
                out += (first ? "" : ", ") + std::string(good_name(g));
                first = false;
            }
        return out + " to the shipyard";
    }
    if (a >= kDeal && a < kRoll) return std::string("deal ") + good_name(a - kDeal);
    if (a >= kRoll && a < kNumActions) {
        const auto d = roll_dice(a - kRoll);
        return "roll " + std::to_string(d[0]) + "-" + std::to_string(d[1]) + "-" +
               std::to_string(d[2]);
    }
    invalid("action " + std::to_string(a) + " is not in the action space 0.." +
            std::to_string(kNumActions - 1));
}

int PlayerState::unmortgaged() const {
    int n = 0;
    for (int s : shares) n += s;
    return n - mortgaged;
}

int Board::accomplices(int p) const {
    if (phase < Phase::kPlacement || phase == Phase::kGameOver) return 0;
    int n = 0;
    for (const Boat& boat : boats)
        for (int s = 0; s < boat.crew_size; ++s) n += boat.crew[static_cast<std::size_t>(s)] == p;
    for (int o : spots) n += o == p;
    return n;
}

int Board::pirates_on_ship() const {
    return (spots[kPirate1] != kNoOwner) + (spots[kPirate2] != kNoOwner);
}

// ---------------------------------------------------------------------------------------
// Why an action is illegal

std::string GameState::illegal_reason(int a) const {
    using namespace action;
    if (a < 0 || a >= kNumActions)
        return "action " + std::to_string(a) + " is not in the action space 0.." +
               std::to_string(kNumActions - 1);
    if (is_legal(a)) return "";
    const std::string name = action_name(a);
    const std::string head = name + ": ";
    if (is_terminal()) return head + "the game is over (rule 13: end)";
    const bool chance_action = a >= kDeal;
    if (is_chance_node()) {
        const std::string what =
            b_.phase == Phase::kDeal ? "a share to deal" : "a roll of the dice";
        if (!chance_action)
            return head + "the next step is chance (" + what + "), not a player's move";
        if (b_.phase == Phase::kDeal && a >= kRoll)
            return head + "the shares are being dealt, nothing is rolled yet";
        if (b_.phase == Phase::kDeal)
            return head + "no " + good_name(a - kDeal) +
                   " share is left among the face-down shares (set-up)";
        if (a < kRoll) return head + "the shares have been dealt already (set-up)";
        return head +
               "a boat in Manila rolls no die (rule 5): its die must read 1 in the roll action";
    }
    const std::string who = player_name(b_.current);
    if (chance_action)
        return head + "dice and the deal are chance outcomes; it is " + who + "'s move";
    const PlayerState& ps = b_.players[static_cast<std::size_t>(b_.current)];
    if (a == kMortgage) return head + who + " has no unmortgaged share (rule 11: loans)";
    if (a == kRepay) {
        if (ps.mortgaged == 0) return head + who + " has no mortgaged share (rule 11: loans)";
        return head + "lifting a loan costs 15 and " + who + " has " + std::to_string(ps.cash) +
               " (rule 11: loans)";
    }
    auto wrong_phase = [&](const char* expected) {
        return head + "not a move of the " + phase_name(b_.phase) + " phase; " + who + " must " +
               expected;
    };
    switch (b_.phase) {
        case Phase::kAuction: {
            if (a > kMaxBid) return wrong_phase("bid or pass (rule 1: auction)");
            const int cap = ps.capacity();
            if (a <= b_.high_bid)
                return head + "a bid must be higher than the current bid of " +
                       std::to_string(b_.high_bid) + " (rule 1: auction)";
            return head + "a bid may not exceed cash plus 12 per unmortgaged share, " +
                   std::to_string(cap) + " for " + who + " (rule 1: auction)";
        }
        case Phase::kBuyShare: {
            if (a < kBuy || a > kBuyNothing)
                return wrong_phase("buy a share or buy nothing (rule 2a)");
            const int g = a - kBuy;
            if (b_.supply[static_cast<std::size_t>(g)] == 0)
                return head + "no " + std::string(good_name(g)) +
                       " share is left in the supply (rule 2a)";
            return head + "a " + good_name(g) + " share costs " +
                   std::to_string(std::max(kMinSharePrice, b_.price(g))) + ", more than " + who +
                   " can pay even by mortgaging (" + std::to_string(ps.capacity()) + ") (rule 2a)";
        }
        case Phase::kChooseGoods:
            return wrong_phase("choose the good that stays home (rule 2b)");
        case Phase::kPlaceBoats:
            return wrong_phase("choose start spaces 0..5 summing to 9 (rule 2c)");
        case Phase::kPlacement: {
            if (a < kPlace || a > kDecline)
                return wrong_phase("place an accomplice or decline (rule 3)");
            const int id = a - kPlace;
            if (id < kNumGoods) {
                const int i = boat_of(id);
                if (i < 0) return head + good_name(id) + " stays home this voyage (rule 2b)";
                return head + "the " + good_name(id) + " boat is full (rule 4: spots)";
            }
            const int s = id - kNumGoods;
            if (b_.spots[static_cast<std::size_t>(s)] != kNoOwner)
                return head + "the spot is taken by " +
                       player_name(b_.spots[static_cast<std::size_t>(s)]) + " (rule 4: spots)";
            if (s == kPirate2)
                return head +
                       "pirate_2 may only be taken once pirate_1 is occupied (rule 4: spots)";
            if (s == kInsurance)
                return head + who + " cannot pay even the cheapest free spot (" +
                       std::to_string(cheapest_paid_spot()) +
                       "), and a blind passenger may not take insurance (rule 12)";
            const int cost = kSpotCost[static_cast<std::size_t>(s)];
            return head + "it costs " + std::to_string(cost) + " and " + who + " can pay " +
                   std::to_string(ps.capacity()) +
                   " even by mortgaging, yet can pay the cheapest free spot (" +
                   std::to_string(cheapest_paid_spot()) +
                   "), so is no blind passenger (rules 11, 12)";
        }
        case Phase::kBoarding: {
            if (a < kStay || a >= kSmallNone)
                return wrong_phase("board a boat on 13 or stay (rule 6: pirates)");
            const bool displace = a >= kDisplace;
            const int good = displace ? (a - kDisplace) / kMaxSeats : a - kBoard;
            const int i = boat_of(good);
            if (i < 0) return head + good_name(good) + " is not sailing this voyage";
            const Boat& boat = b_.boats[static_cast<std::size_t>(i)];
            if (boat.position != kThirteen)
                return head +
                       "only a boat that ended roll 2 on space 13 can be boarded (rule 6: pirates)";
            if (!displace)
                return head +
                       "the boat has no free seat (rule 6: pirates; the pirate_variant option lets "
                       "a pirate displace crew)";
            const int seat = (a - kDisplace) % kMaxSeats;
            if (!b_.rules.pirate_variant)
                return head +
                       "displacing crew needs the rule option pirate_variant (rule 6: pirates)";
            if (!boat.full())
                return head + "the boat has a free seat: board it instead (rule 6: pirates)";
            if (seat >= boat.crew_size) return head + "that seat is empty";
            if (b_.decider == 1 && i == b_.guard_boat && seat == b_.guard_seat)
                return head +
                       "a pirate may not displace the captain who just boarded (rule 6: variant)";
            return head +
                   "a boat on 13 still has a free seat, which must be filled first (rule 6: "
                   "variant)";
        }
        case Phase::kSmallPilot:
        case Phase::kLargePilot: {
            const bool small = b_.phase == Phase::kSmallPilot;
            const bool mine =
                small ? (a >= kSmallNone && a < kLargeNone) : (a >= kLargeNone && a < kPlunder);
            if (!mine)
                return wrong_phase(small ? "move with the small pilot or not (rule 7: pilots)"
                                         : "move with the large pilot or not (rule 7: pilots)");
            std::vector<std::pair<int, int>> moves;  // (good, delta)
            if (small) {
                const int k = a - kSmall;
                moves.push_back({k / 2, k % 2 ? -1 : 1});
            } else if (a < kLargeTwo) {
                const int k = a - kLargeOne;
                moves.push_back({k / 4, kPilotSingles[static_cast<std::size_t>(k % 4)]});
            } else {
                const int k = a - kLargeTwo;
                const auto pair = kPairs[static_cast<std::size_t>(k / 4)];
                const auto d = kPilotPairs[static_cast<std::size_t>(k % 4)];
                moves.push_back({pair[0], d[0]});
                moves.push_back({pair[1], d[1]});
            }
            for (auto [good, d] : moves) {
                const int i = boat_of(good);
                if (i < 0) return head + good_name(good) + " is not sailing this voyage";
                const int pos = b_.boats[static_cast<std::size_t>(i)].position;
                if (pos == kArrived)
                    return head + "the " + good_name(good) +
                           " boat is in Manila and cannot be moved (rule 7: pilots)";
                if (pos + d < 0) return head + "no boat goes below space 0 (rule 7: pilots)";
            }
            return head + "not a legal pilot move (rule 7: pilots)";
        }
        case Phase::kPlunder:
            if (a < kPlunder || a >= kDeal)
                return wrong_phase("send each plundered boat to Manila or the shipyard (rule 6)");
            return head +
                   "only boats plundered this voyage (on 13 after roll 3) can be sent to the "
                   "shipyard (rule 6)";
        default:
            break;
    }
    return head + "not legal now";
}

}  // namespace manila

#include "manila/game.hpp"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "manila/evaluator.hpp"
#include "manila/parallel.hpp"

namespace manila {
namespace {

constexpr std::array<std::array<int, kNumBoats>, kNumStarts> kStarts = [] {
    std::array<std::array<int, kNumBoats>, kNumStarts> t{};
    int n = 0;
    for (int a = 0; a <= kMaxStart; ++a)
        for (int b = 0; b <= kMaxStart; ++b) {
            const int c = kStartSum - a - b;
            if (c >= 0 && c <= kMaxStart) t[static_cast<std::size_t>(n++)] = {a, b, c};
        }
    return t;
}();

constexpr std::array<std::array<int, 2>, action::kNumPairs> kPairs{
    {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}};
constexpr std::array<int, 4> kLargeOneDelta{1, -1, 2, -2};
constexpr std::array<std::array<int, 2>, 4> kLargeTwoDelta{{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};

const char* good_name(int g) { return kGoods[static_cast<std::size_t>(g)].name; }
std::string player_name(int p) { return "p" + std::to_string(p); }
std::string signed_str(int d) { return (d > 0 ? "+" : "") + std::to_string(d); }

int plunder_bit(int good) { return 1 << (kNumGoods - 1 - good); }

// The dice of a roll action, one per sailing boat in good order.
std::array<int, kNumBoats> roll_dice(int idx) { return {idx / 36 + 1, (idx / 6) % 6 + 1, idx % 6 + 1}; }

int seat_cost(const Boat& b) { return kGoods[static_cast<std::size_t>(b.good)].seat_cost[static_cast<std::size_t>(b.crew_size)]; }

[[noreturn]] void invalid(const std::string& what) { throw std::invalid_argument(what); }

}  // namespace

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
        invalid("start triple index must be 0.." + std::to_string(kNumStarts - 1) + ", got " + std::to_string(t));
    return kStarts[static_cast<std::size_t>(t)];
}

const char* phase_name(Phase p) {
    switch (p) {
        case Phase::kDeal: return "deal";
        case Phase::kAuction: return "auction";
        case Phase::kBuyShare: return "buy_share";
        case Phase::kChooseGoods: return "choose_goods";
        case Phase::kPlaceBoats: return "place_boats";
        case Phase::kPlacement: return "placement";
        case Phase::kRoll: return "roll";
        case Phase::kBoarding: return "boarding";
        case Phase::kSmallPilot: return "small_pilot";
        case Phase::kLargePilot: return "large_pilot";
        case Phase::kPlunder: return "plunder";
        case Phase::kGameOver: return "game_over";
    }
    return "?";
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
        const auto t = kStarts[static_cast<std::size_t>(a - kStart)];
        return "start " + std::to_string(t[0]) + "-" + std::to_string(t[1]) + "-" + std::to_string(t[2]);
    }
    if (a >= kPlace && a < kPlace + kNumTableSpots) {
        const int id = a - kPlace;
        return std::string("place ") + (id < kNumGoods ? good_name(id) : kSpotNames[static_cast<std::size_t>(id - kNumGoods)]);
    }
    if (a == kDecline) return "decline";
    if (a == kStay) return "stay";
    if (a >= kBoard && a < kBoard + kNumGoods) return std::string("board ") + good_name(a - kBoard);
    if (a >= kDisplace && a < kSmallNone) {
        const int k = a - kDisplace;
        return std::string("board ") + good_name(k / kMaxSeats) + ", displacing seat " + std::to_string(k % kMaxSeats + 1);
    }
    if (a == kSmallNone) return "small pilot: none";
    if (a >= kSmall && a < kLargeNone) {
        const int k = a - kSmall;
        return std::string("small pilot: ") + good_name(k / 2) + (k % 2 ? " -1" : " +1");
    }
    if (a == kLargeNone) return "large pilot: none";
    if (a >= kLargeOne && a < kLargeTwo) {
        const int k = a - kLargeOne;
        return std::string("large pilot: ") + good_name(k / 4) + " " + signed_str(kLargeOneDelta[static_cast<std::size_t>(k % 4)]);
    }
    if (a >= kLargeTwo && a < kPlunder) {
        const int k = a - kLargeTwo;
        const auto pair = kPairs[static_cast<std::size_t>(k / 4)];
        const auto d = kLargeTwoDelta[static_cast<std::size_t>(k % 4)];
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
        return "roll " + std::to_string(d[0]) + "-" + std::to_string(d[1]) + "-" + std::to_string(d[2]);
    }
    invalid("action " + std::to_string(a) + " is not in the action space 0.." + std::to_string(kNumActions - 1));
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
// Set-up and the flow from phase to phase

GameState::GameState(int players, Rules rules, std::uint64_t seed)
    : rng_(derive_seed(seed, 0)), seed_(seed) {
    if (players < kMinPlayers || players > kMaxPlayers)
        invalid("players: Manila is for 3 to 5 players, got " + std::to_string(players));
    b_.num_players = players;
    b_.rules = rules;
    b_.max_accomplices = players == 3 ? 4 : 3;
    for (int p = 0; p < kMaxPlayers; ++p) b_.players[static_cast<std::size_t>(p)].cash = p < players ? kStartCash : 0;
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

void GameState::after_roll() {
    const int roll = b_.next_roll++;
    if (roll == 1) {
        begin_placement();
        return;
    }
    if (roll == 2) {
        bool on13 = false;
        for (const Boat& boat : b_.boats) on13 |= boat.position == kThirteen;
        if (on13 && b_.pirates_on_ship() > 0)
            begin_boarding();
        else
            begin_placement();
        return;
    }
    finish_voyage();
}

void GameState::begin_boarding() {
    b_.boarders = {b_.spots[kPirate1], b_.spots[kPirate2]};
    b_.on_ship = (b_.boarders[0] != kNoOwner ? 1 : 0) | (b_.boarders[1] != kNoOwner ? 2 : 0);
    b_.decider = 0;
    b_.guard_boat = b_.guard_seat = -1;
    b_.phase = Phase::kBoarding;
    advance_boarding();
}

// Options besides staying for pirate `decider`, in action order.
bool GameState::boarding_options(int decider, std::vector<int>* out) const {
    bool free_on_13 = false;
    for (const Boat& boat : b_.boats) free_on_13 |= boat.position == kThirteen && !boat.full();
    bool any = false;
    for (int i = 0; i < kNumBoats; ++i) {
        const Boat& boat = b_.boats[static_cast<std::size_t>(i)];
        if (boat.position != kThirteen) continue;
        if (!boat.full()) {
            any = true;
            if (out) out->push_back(action::kBoard + boat.good);
        } else if (b_.rules.pirate_variant && !free_on_13) {
            for (int seat = 0; seat < boat.crew_size; ++seat) {
                if (decider == 1 && i == b_.guard_boat && seat == b_.guard_seat) continue;
                any = true;
                if (out) out->push_back(action::kDisplace + boat.good * kMaxSeats + seat);
            }
        }
    }
    return any;
}

void GameState::advance_boarding() {
    for (; b_.decider < 2; ++b_.decider) {
        if (((b_.on_ship >> b_.decider) & 1) && boarding_options(b_.decider, nullptr)) {
            b_.current = b_.boarders[static_cast<std::size_t>(b_.decider)];
            return;
        }
    }
    begin_placement();
}

void GameState::begin_pilots() {
    bool movable = false;
    for (const Boat& boat : b_.boats) movable |= boat.position != kArrived;
    if (b_.spots[kPilotSmall] != kNoOwner && movable && !b_.small_done) {
        b_.phase = Phase::kSmallPilot;
        b_.current = b_.spots[kPilotSmall];
        return;
    }
    b_.small_done = true;
    begin_large_pilot();
}

void GameState::begin_large_pilot() {
    bool movable = false;
    for (const Boat& boat : b_.boats) movable |= boat.position != kArrived;
    if (b_.spots[kPilotLarge] != kNoOwner && movable) {
        b_.phase = Phase::kLargePilot;
        b_.current = b_.spots[kPilotLarge];
        return;
    }
    b_.large_done = true;
    if (!movable) {
        after_roll();
        return;
    }
    b_.phase = Phase::kRoll;
    b_.current = kChancePlayer;
}

void GameState::move_boat(int i, int delta) {
    Boat& boat = b_.boats[static_cast<std::size_t>(i)];
    const int to = boat.position + delta;
    if (to < 0 || boat.position == kArrived) throw std::logic_error("move_boat: an impossible move");
    if (to > kThirteen) {
        boat.position = kArrived;
        b_.port[static_cast<std::size_t>(b_.in_port++)] = boat.good;
    } else {
        boat.position = to;
    }
}

void GameState::finish_voyage() {
    b_.plunder = 0;
    if (b_.pirates_on_ship() > 0)
        for (int i = 0; i < kNumBoats; ++i)
            if (b_.boats[static_cast<std::size_t>(i)].position == kThirteen) b_.plunder |= 1 << i;
    if (b_.plunder) {
        b_.phase = Phase::kPlunder;
        b_.current = b_.spots[kPirate1];  // the captain
        return;
    }
    settle();
}

void GameState::settle() {
    // Boats not yet in Manila: plundered ones went where the captain said (already done),
    // a boat on 13 with no pirate follows the rule option, the rest go to the shipyard.
    for (int i = 0; i < kNumBoats; ++i) {
        Boat& boat = b_.boats[static_cast<std::size_t>(i)];
        if (boat.position == kArrived || ((b_.plunder >> i) & 1)) continue;
        if (boat.position == kThirteen && b_.rules.thirteen_to_port) {
            boat.position = kArrived;
            b_.port[static_cast<std::size_t>(b_.in_port++)] = boat.good;
        } else {
            b_.shipyard[static_cast<std::size_t>(b_.in_shipyard++)] = boat.good;
        }
    }
    Settlement st;
    auto receive = [&](int p, int amount) {
        if (p == kNoOwner || amount == 0) return;
        b_.players[static_cast<std::size_t>(p)].cash += amount;
        b_.bank -= amount;
        st.income[static_cast<std::size_t>(p)] += amount;
    };
    const int pirates = b_.pirates_on_ship();
    for (int i = 0; i < kNumBoats; ++i) {
        const Boat& boat = b_.boats[static_cast<std::size_t>(i)];
        const int value = kGoods[static_cast<std::size_t>(boat.good)].value;
        if ((b_.plunder >> i) & 1) {
            ++st.plundered;
            st.plundered_goods |= 1 << boat.good;
            receive(b_.spots[kPirate1], value / pirates);
            receive(b_.spots[kPirate2], value / pirates);
        } else if (boat.position == kArrived && boat.crew_size > 0) {
            for (int s = 0; s < boat.crew_size; ++s) receive(boat.crew[static_cast<std::size_t>(s)], value / boat.crew_size);
        }
    }
    st.in_manila = b_.in_port;
    st.in_shipyard = b_.in_shipyard;
    st.port = b_.port;
    st.shipyard = b_.shipyard;
    for (int k = 0; k < 3; ++k) {
        if (b_.in_port > k) receive(b_.spots[static_cast<std::size_t>(kPortA + k)], kSlotPayout[static_cast<std::size_t>(k)]);
        // Paid by the bank here; the insurer reimburses the bank below.
        if (b_.in_shipyard > k) receive(b_.spots[static_cast<std::size_t>(kShipyardA + k)], kSlotPayout[static_cast<std::size_t>(k)]);
    }
    const int insurer = b_.spots[kInsurance];
    st.insurer = insurer;
    if (insurer != kNoOwner) {
        // Rule 9: the insurer has collected their profits; now they mortgage as needed, pay
        // what they can, and the bank covers the rest.
        PlayerState& ps = b_.players[static_cast<std::size_t>(insurer)];
        st.insurance_due = kInsuranceClaim[static_cast<std::size_t>(b_.in_shipyard)];
        while (ps.cash < st.insurance_due && ps.unmortgaged() > 0) {
            mortgage(insurer);
            ++st.mortgages[static_cast<std::size_t>(insurer)];
        }
        st.insurance_paid = std::min(ps.cash, st.insurance_due);
        ps.cash -= st.insurance_paid;
        b_.bank += st.insurance_paid;
        st.income[static_cast<std::size_t>(insurer)] -= st.insurance_paid;
    }
    b_.last = st;
    // Rule 10: the price of every good that reached Manila rises one step.
    bool end = false;
    for (const Boat& boat : b_.boats) {
        int& step = b_.price_step[static_cast<std::size_t>(boat.good)];
        if (boat.position == kArrived) step = std::min(step + 1, kPriceSteps - 1);
        end |= step == kPriceSteps - 1;
    }
    b_.next_roll = 4;
    if (end) {
        b_.phase = Phase::kGameOver;
        b_.current = kTerminalPlayer;
        return;
    }
    begin_voyage();
}

// ---------------------------------------------------------------------------------------
// Legal actions

bool GameState::loans_open() const { return b_.current >= 0 && b_.phase != Phase::kGameOver; }

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
        if (s == kInsurance) return true;
    }
    const int capacity = b_.players[static_cast<std::size_t>(p)].capacity();
    if (capacity >= cost) return true;
    // Rule 12: a blind passenger cannot pay even the cheapest free spot.
    blind = capacity < cheapest_paid_spot();
    return blind;
}

void GameState::legal_main(std::vector<int>& out) const {
    using namespace action;
    const int p = b_.current;
    switch (b_.phase) {
        case Phase::kDeal:
            for (int g = 0; g < kNumGoods; ++g)
                if (b_.pile[static_cast<std::size_t>(g)] > 0) out.push_back(kDeal + g);
            return;
        case Phase::kRoll: {
            std::array<int, kNumBoats> faces{};
            for (int i = 0; i < kNumBoats; ++i) faces[static_cast<std::size_t>(i)] = b_.boats[static_cast<std::size_t>(i)].position == kArrived ? 1 : 6;
            for (int d0 = 0; d0 < faces[0]; ++d0)
                for (int d1 = 0; d1 < faces[1]; ++d1)
                    for (int d2 = 0; d2 < faces[2]; ++d2) out.push_back(kRoll + d0 * 36 + d1 * 6 + d2);
            return;
        }
        case Phase::kAuction: {
            out.push_back(kPass);
            const int cap = std::min(kMaxBid, b_.players[static_cast<std::size_t>(p)].capacity());
            for (int bid = b_.high_bid + 1; bid <= cap; ++bid) out.push_back(bid);
            return;
        }
        case Phase::kBuyShare: {
            const PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
            for (int g = 0; g < kNumGoods; ++g)
                if (b_.supply[static_cast<std::size_t>(g)] > 0 && ps.capacity() >= std::max(kMinSharePrice, b_.price(g)))
                    out.push_back(kBuy + g);
            out.push_back(kBuyNothing);
            return;
        }
        case Phase::kChooseGoods:
            for (int g = 0; g < kNumGoods; ++g) out.push_back(kLeaveHome + g);
            return;
        case Phase::kPlaceBoats:
            for (int t = 0; t < kNumStarts; ++t) out.push_back(kStart + t);
            return;
        case Phase::kPlacement: {
            int cost;
            bool blind;
            for (int id = 0; id < kNumTableSpots; ++id)
                if (placement_terms(p, id, cost, blind)) out.push_back(kPlace + id);
            out.push_back(kDecline);
            return;
        }
        case Phase::kBoarding:
            out.push_back(kStay);
            boarding_options(b_.decider, &out);
            return;
        case Phase::kSmallPilot:
            out.push_back(kSmallNone);
            for (int g = 0; g < kNumGoods; ++g) {
                const int i = boat_of(g);
                if (i < 0 || b_.boats[static_cast<std::size_t>(i)].position == kArrived) continue;
                out.push_back(kSmall + g * 2);
                if (b_.boats[static_cast<std::size_t>(i)].position >= 1) out.push_back(kSmall + g * 2 + 1);
            }
            return;
        case Phase::kLargePilot: {
            out.push_back(kLargeNone);
            auto movable = [&](int g, int d) {
                const int i = boat_of(g);
                if (i < 0) return false;
                const int pos = b_.boats[static_cast<std::size_t>(i)].position;
                return pos != kArrived && pos + d >= 0;
            };
            for (int g = 0; g < kNumGoods; ++g)
                for (int k = 0; k < 4; ++k)
                    if (movable(g, kLargeOneDelta[static_cast<std::size_t>(k)])) out.push_back(kLargeOne + g * 4 + k);
            for (int pr = 0; pr < kNumPairs; ++pr)
                for (int k = 0; k < 4; ++k) {
                    const auto pair = kPairs[static_cast<std::size_t>(pr)];
                    const auto d = kLargeTwoDelta[static_cast<std::size_t>(k)];
                    if (movable(pair[0], d[0]) && movable(pair[1], d[1])) out.push_back(kLargeTwo + pr * 4 + k);
                }
            return;
        }
        case Phase::kPlunder: {
            int allowed = 0;
            for (int i = 0; i < kNumBoats; ++i)
                if ((b_.plunder >> i) & 1) allowed |= plunder_bit(b_.boats[static_cast<std::size_t>(i)].good);
            for (int mask = 0; mask < (1 << kNumGoods); ++mask)
                if ((mask & ~allowed) == 0) out.push_back(kPlunder + mask);
            return;
        }
        case Phase::kGameOver:
            return;
    }
}

void GameState::legal_actions(std::vector<int>& out) const {
    out.clear();
    const bool loans = loans_open();
    const PlayerState* ps = loans ? &b_.players[static_cast<std::size_t>(b_.current)] : nullptr;
    auto add_loans = [&] {
        if (!loans) return;
        if (ps->unmortgaged() > 0) out.push_back(action::kMortgage);
        if (ps->mortgaged > 0 && ps->cash >= kRepayAmount) out.push_back(action::kRepay);
    };
    // Keep the list sorted: bids (and pass) come before the loan actions, all else after.
    if (b_.phase == Phase::kAuction) {
        legal_main(out);
        add_loans();
    } else {
        add_loans();
        legal_main(out);
    }
}

std::vector<int> GameState::legal_actions() const {
    std::vector<int> out;
    legal_actions(out);
    return out;
}

bool GameState::is_legal(int a) const {
    std::vector<int> legal;
    legal_actions(legal);
    return std::binary_search(legal.begin(), legal.end(), a);
}

// ---------------------------------------------------------------------------------------
// Applying actions

void GameState::apply_action(int a) {
    if (!is_legal(a)) invalid(illegal_reason(a));
    apply_legal(a);
}

void GameState::apply_legal(int a) {
    using namespace action;
    history_.push_back(a);
    const int p = b_.current;
    if (a == kMortgage) {
        mortgage(p);
        return;
    }
    if (a == kRepay) {
        PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
        --ps.mortgaged;
        ps.cash -= kRepayAmount;
        b_.bank += kRepayAmount;
        return;
    }
    switch (b_.phase) {
        case Phase::kDeal: {
            const int g = a - kDeal;
            --b_.pile[static_cast<std::size_t>(g)];
            ++b_.players[static_cast<std::size_t>(b_.dealt / kSharesDealt)].shares[static_cast<std::size_t>(g)];
            if (++b_.dealt == kSharesDealt * b_.num_players) {
                for (int h = 0; h < kNumGoods; ++h) {
                    b_.supply[static_cast<std::size_t>(h)] += b_.pile[static_cast<std::size_t>(h)];
                    b_.pile[static_cast<std::size_t>(h)] = 0;
                }
                begin_voyage();
            }
            return;
        }
        case Phase::kAuction: {
            if (a == kPass) {
                b_.in_auction &= ~(1 << p);
            } else {
                b_.high_bid = a;
                b_.high_bidder = p;
            }
            if (b_.in_auction == 0) {
                end_auction(-1);  // nobody bid
                return;
            }
            int next = p;
            for (int k = 1; k <= b_.num_players; ++k) {
                next = (p + k) % b_.num_players;
                if ((b_.in_auction >> next) & 1) break;
            }
            if (next == b_.high_bidder)
                end_auction(next);  // everyone else has passed
            else
                b_.current = next;
            return;
        }
        case Phase::kBuyShare:
            if (a != kBuyNothing) {
                const int g = a - kBuy;
                pay(p, std::max(kMinSharePrice, b_.price(g)));
                --b_.supply[static_cast<std::size_t>(g)];
                ++b_.players[static_cast<std::size_t>(p)].shares[static_cast<std::size_t>(g)];
            }
            b_.phase = Phase::kChooseGoods;
            return;
        case Phase::kChooseGoods: {
            b_.stays_home = a - kLeaveHome;
            int i = 0;
            for (int g = 0; g < kNumGoods; ++g)
                if (g != b_.stays_home) {
                    b_.boats[static_cast<std::size_t>(i)] = Boat{};
                    b_.boats[static_cast<std::size_t>(i++)].good = g;
                }
            b_.phase = Phase::kPlaceBoats;
            return;
        }
        case Phase::kPlaceBoats: {
            const auto t = kStarts[static_cast<std::size_t>(a - kStart)];
            for (int i = 0; i < kNumBoats; ++i) b_.boats[static_cast<std::size_t>(i)].position = t[static_cast<std::size_t>(i)];
            b_.next_roll = 1;
            begin_placement();
            return;
        }
        case Phase::kPlacement: {
            if (a == kDecline) {
                b_.declined |= 1 << p;
            } else {
                const int id = a - kPlace;
                int cost;
                bool blind;
                placement_terms(p, id, cost, blind);
                if (id < kNumGoods) {
                    Boat& boat = b_.boats[static_cast<std::size_t>(boat_of(id))];
                    boat.crew[static_cast<std::size_t>(boat.crew_size++)] = p;
                } else {
                    b_.spots[static_cast<std::size_t>(id - kNumGoods)] = p;
                }
                PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
                if (id == table_id(kInsurance)) {
                    ps.cash -= kSpotCost[kInsurance];  // the premium: 10 from the bank
                    b_.bank += kSpotCost[kInsurance];
                } else if (blind) {
                    b_.bank += ps.cash;  // rule 12: all the cash they have
                    ps.cash = 0;
                } else {
                    pay(p, cost);
                }
            }
            ++b_.turn;
            advance_placement();
            return;
        }
        case Phase::kRoll: {
            const auto dice = roll_dice(a - kRoll);
            for (int i = 0; i < kNumBoats; ++i)
                if (b_.boats[static_cast<std::size_t>(i)].position != kArrived) move_boat(i, dice[static_cast<std::size_t>(i)]);
            after_roll();
            return;
        }
        case Phase::kBoarding: {
            if (a != kStay) {
                int good, seat;
                if (a < kDisplace) {
                    good = a - kBoard;
                    Boat& boat = b_.boats[static_cast<std::size_t>(boat_of(good))];
                    seat = boat.crew_size++;
                    boat.crew[static_cast<std::size_t>(seat)] = p;
                } else {
                    good = (a - kDisplace) / kMaxSeats;
                    seat = (a - kDisplace) % kMaxSeats;
                    // Variant: the displaced crew member goes home, without a refund.
                    b_.boats[static_cast<std::size_t>(boat_of(good))].crew[static_cast<std::size_t>(seat)] = p;
                }
                if (b_.decider == 0) {
                    b_.guard_boat = boat_of(good);
                    b_.guard_seat = seat;
                }
                // The pirate leaves the ship; one left behind becomes (or stays) captain.
                b_.on_ship &= ~(1 << b_.decider);
                std::array<int, 2> left{kNoOwner, kNoOwner};
                int n = 0;
                for (int k = 0; k < 2; ++k)
                    if ((b_.on_ship >> k) & 1) left[static_cast<std::size_t>(n++)] = b_.boarders[static_cast<std::size_t>(k)];
                b_.spots[kPirate1] = left[0];
                b_.spots[kPirate2] = left[1];
            }
            ++b_.decider;
            advance_boarding();
            return;
        }
        case Phase::kSmallPilot:
            if (a != kSmallNone) {
                const int k = a - kSmall;
                move_boat(boat_of(k / 2), k % 2 ? -1 : 1);
            }
            b_.small_done = true;
            begin_large_pilot();
            return;
        case Phase::kLargePilot:
            if (a >= kLargeOne && a < kLargeTwo) {
                const int k = a - kLargeOne;
                move_boat(boat_of(k / 4), kLargeOneDelta[static_cast<std::size_t>(k % 4)]);
            } else if (a >= kLargeTwo) {
                const int k = a - kLargeTwo;
                const auto pair = kPairs[static_cast<std::size_t>(k / 4)];
                const auto d = kLargeTwoDelta[static_cast<std::size_t>(k % 4)];
                move_boat(boat_of(pair[0]), d[0]);
                move_boat(boat_of(pair[1]), d[1]);
            }
            b_.large_done = true;
            b_.phase = Phase::kRoll;
            b_.current = kChancePlayer;
            {
                bool sailing = false;
                for (const Boat& boat : b_.boats) sailing |= boat.position != kArrived;
                if (!sailing) after_roll();
            }
            return;
        case Phase::kPlunder: {
            const int mask = a - kPlunder;
            for (int i = 0; i < kNumBoats; ++i) {
                Boat& boat = b_.boats[static_cast<std::size_t>(i)];
                if (!((b_.plunder >> i) & 1)) continue;
                if (mask & plunder_bit(boat.good)) {
                    b_.shipyard[static_cast<std::size_t>(b_.in_shipyard++)] = boat.good;
                } else {
                    boat.position = kArrived;  // counts as arrived: port slot and price rise
                    b_.port[static_cast<std::size_t>(b_.in_port++)] = boat.good;
                }
            }
            settle();
            return;
        }
        case Phase::kGameOver:
            break;
    }
    throw std::logic_error("apply_legal: no action applies in this state");
}

// ---------------------------------------------------------------------------------------
// Why an action is illegal

std::string GameState::illegal_reason(int a) const {
    using namespace action;
    if (a < 0 || a >= kNumActions)
        return "action " + std::to_string(a) + " is not in the action space 0.." + std::to_string(kNumActions - 1);
    if (is_legal(a)) return "";
    const std::string name = action_name(a);
    const std::string head = name + ": ";
    if (is_terminal()) return head + "the game is over (rule 13: end)";
    const bool chance_action = a >= kDeal;
    if (is_chance_node()) {
        const std::string what = b_.phase == Phase::kDeal ? "a share to deal" : "a roll of the dice";
        if (!chance_action) return head + "the next step is chance (" + what + "), not a player's move";
        if (b_.phase == Phase::kDeal && a >= kRoll) return head + "the shares are being dealt, nothing is rolled yet";
        if (b_.phase == Phase::kDeal)
            return head + "no " + good_name(a - kDeal) + " share is left among the face-down shares (set-up)";
        if (a < kRoll) return head + "the shares have been dealt already (set-up)";
        return head + "a boat in Manila rolls no die (rule 5): its die must read 1 in the roll action";
    }
    const std::string who = player_name(b_.current);
    if (chance_action) return head + "dice and the deal are chance outcomes; it is " + who + "'s move";
    const PlayerState& ps = b_.players[static_cast<std::size_t>(b_.current)];
    if (a == kMortgage) return head + who + " has no unmortgaged share (rule 11: loans)";
    if (a == kRepay) {
        if (ps.mortgaged == 0) return head + who + " has no mortgaged share (rule 11: loans)";
        return head + "lifting a loan costs 15 and " + who + " has " + std::to_string(ps.cash) + " (rule 11: loans)";
    }
    auto wrong_phase = [&](const char* expected) {
        return head + "not a move of the " + phase_name(b_.phase) + " phase; " + who + " must " + expected;
    };
    switch (b_.phase) {
        case Phase::kAuction: {
            if (a > kMaxBid) return wrong_phase("bid or pass (rule 1: auction)");
            const int cap = ps.capacity();
            if (a <= b_.high_bid)
                return head + "a bid must be higher than the current bid of " + std::to_string(b_.high_bid) + " (rule 1: auction)";
            return head + "a bid may not exceed cash plus 12 per unmortgaged share, " + std::to_string(cap) +
                   " for " + who + " (rule 1: auction)";
        }
        case Phase::kBuyShare: {
            if (a < kBuy || a > kBuyNothing) return wrong_phase("buy a share or buy nothing (rule 2a)");
            const int g = a - kBuy;
            if (b_.supply[static_cast<std::size_t>(g)] == 0)
                return head + "no " + std::string(good_name(g)) + " share is left in the supply (rule 2a)";
            return head + "a " + good_name(g) + " share costs " + std::to_string(std::max(kMinSharePrice, b_.price(g))) +
                   ", more than " + who + " can pay even by mortgaging (" + std::to_string(ps.capacity()) + ") (rule 2a)";
        }
        case Phase::kChooseGoods: return wrong_phase("choose the good that stays home (rule 2b)");
        case Phase::kPlaceBoats: return wrong_phase("choose start spaces 0..5 summing to 9 (rule 2c)");
        case Phase::kPlacement: {
            if (a < kPlace || a > kDecline) return wrong_phase("place an accomplice or decline (rule 3)");
            const int id = a - kPlace;
            if (id < kNumGoods) {
                const int i = boat_of(id);
                if (i < 0) return head + good_name(id) + " stays home this voyage (rule 2b)";
                return head + "the " + good_name(id) + " boat is full (rule 4: spots)";
            }
            const int s = id - kNumGoods;
            if (b_.spots[static_cast<std::size_t>(s)] != kNoOwner)
                return head + "the spot is taken by " + player_name(b_.spots[static_cast<std::size_t>(s)]) + " (rule 4: spots)";
            if (s == kPirate2) return head + "pirate_2 may only be taken once pirate_1 is occupied (rule 4: spots)";
            int cost;
            bool blind;
            placement_terms(b_.current, id, cost, blind);
            return head + "it costs " + std::to_string(cost) + " and " + who + " can pay " + std::to_string(ps.capacity()) +
                   " even by mortgaging, yet can pay the cheapest free spot (" + std::to_string(cheapest_paid_spot()) +
                   "), so is no blind passenger (rules 11, 12)";
        }
        case Phase::kBoarding: {
            if (a < kStay || a >= kSmallNone) return wrong_phase("board a boat on 13 or stay (rule 6: pirates)");
            const bool displace = a >= kDisplace;
            const int good = displace ? (a - kDisplace) / kMaxSeats : a - kBoard;
            const int i = boat_of(good);
            if (i < 0) return head + good_name(good) + " is not sailing this voyage";
            const Boat& boat = b_.boats[static_cast<std::size_t>(i)];
            if (boat.position != kThirteen)
                return head + "only a boat that ended roll 2 on space 13 can be boarded (rule 6: pirates)";
            if (!displace)
                return head + "the boat has no free seat (rule 6: pirates; the pirate_variant option lets a pirate displace crew)";
            const int seat = (a - kDisplace) % kMaxSeats;
            if (!b_.rules.pirate_variant)
                return head + "displacing crew needs the rule option pirate_variant (rule 6: pirates)";
            if (!boat.full()) return head + "the boat has a free seat: board it instead (rule 6: pirates)";
            if (seat >= boat.crew_size) return head + "that seat is empty";
            if (b_.decider == 1 && i == b_.guard_boat && seat == b_.guard_seat)
                return head + "a pirate may not displace the captain who just boarded (rule 6: variant)";
            return head + "a boat on 13 still has a free seat, which must be filled first (rule 6: variant)";
        }
        case Phase::kSmallPilot:
        case Phase::kLargePilot: {
            const bool small = b_.phase == Phase::kSmallPilot;
            const bool mine = small ? (a >= kSmallNone && a < kLargeNone) : (a >= kLargeNone && a < kPlunder);
            if (!mine) return wrong_phase(small ? "move with the small pilot or not (rule 7: pilots)"
                                                : "move with the large pilot or not (rule 7: pilots)");
            std::vector<std::pair<int, int>> moves;  // (good, delta)
            if (small) {
                const int k = a - kSmall;
                moves.push_back({k / 2, k % 2 ? -1 : 1});
            } else if (a < kLargeTwo) {
                const int k = a - kLargeOne;
                moves.push_back({k / 4, kLargeOneDelta[static_cast<std::size_t>(k % 4)]});
            } else {
                const int k = a - kLargeTwo;
                const auto pair = kPairs[static_cast<std::size_t>(k / 4)];
                const auto d = kLargeTwoDelta[static_cast<std::size_t>(k % 4)];
                moves.push_back({pair[0], d[0]});
                moves.push_back({pair[1], d[1]});
            }
            for (auto [good, d] : moves) {
                const int i = boat_of(good);
                if (i < 0) return head + good_name(good) + " is not sailing this voyage";
                const int pos = b_.boats[static_cast<std::size_t>(i)].position;
                if (pos == kArrived) return head + "the " + good_name(good) + " boat is in Manila and cannot be moved (rule 7: pilots)";
                if (pos + d < 0) return head + "no boat goes below space 0 (rule 7: pilots)";
            }
            return head + "not a legal pilot move (rule 7: pilots)";
        }
        case Phase::kPlunder:
            if (a < kPlunder || a >= kDeal) return wrong_phase("send each plundered boat to Manila or the shipyard (rule 6)");
            return head + "only boats plundered this voyage (on 13 after roll 3) can be sent to the shipyard (rule 6)";
        default:
            break;
    }
    return head + "not legal now";
}

// ---------------------------------------------------------------------------------------
// Chance

std::vector<std::pair<int, int>> GameState::chance_weights(int& den) const {
    std::vector<std::pair<int, int>> out;
    den = 0;
    if (!is_chance_node()) return out;
    if (b_.phase == Phase::kDeal) {
        for (int g = 0; g < kNumGoods; ++g) {
            const int n = b_.pile[static_cast<std::size_t>(g)];
            if (n > 0) out.push_back({action::kDeal + g, n});
            den += n;
        }
        return out;
    }
    std::vector<int> rolls;
    legal_main(rolls);
    for (int a : rolls) out.push_back({a, 1});
    den = static_cast<int>(rolls.size());
    return out;
}

std::vector<std::pair<int, double>> GameState::chance_outcomes() const {
    int den;
    std::vector<std::pair<int, double>> out;
    for (auto [a, w] : chance_weights(den)) out.push_back({a, static_cast<double>(w) / den});
    return out;
}

int GameState::sample_chance(Rng& rng) const {
    if (!is_chance_node()) invalid("sample_chance: not a chance node (it is " + player_name(b_.current) + "'s move)");
    if (b_.phase == Phase::kDeal) {
        int total = 0;
        for (int n : b_.pile) total += n;
        int r = rng.below(total);
        for (int g = 0; g < kNumGoods; ++g) {
            r -= b_.pile[static_cast<std::size_t>(g)];
            if (r < 0) return action::kDeal + g;
        }
    }
    int idx = 0;
    for (int i = 0; i < kNumBoats; ++i) {
        const int d = b_.boats[static_cast<std::size_t>(i)].position == kArrived ? 0 : rng.below(6);
        idx = idx * 6 + d;
    }
    return action::kRoll + idx;
}

int GameState::sample_chance() { return sample_chance(rng_); }

// ---------------------------------------------------------------------------------------
// Results and views

int GameState::wealth(int p) const {
    if (p < 0 || p >= b_.num_players)
        invalid("player: must be 0.." + std::to_string(b_.num_players - 1) + ", got " + std::to_string(p));
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

int GameState::voyages_completed() const { return is_terminal() ? b_.voyage : std::max(0, b_.voyage - 1); }

bool GameState::voyage(Voyage& v) const {
    if (b_.phase < Phase::kPlacement || b_.phase > Phase::kLargePilot || b_.next_roll > 3) return false;
    v = Voyage{};
    v.next_roll = b_.next_roll;
    v.boats = b_.boats;
    v.spots = b_.spots;
    if (b_.small_done) v.spots[kPilotSmall] = kNoOwner;
    if (b_.large_done) v.spots[kPilotLarge] = kNoOwner;
    v.num_owners = b_.num_players;
    v.rules = b_.rules;
    return true;
}

std::string GameState::action_to_string(int a) const {
    const std::string name = action_name(a);
    const bool boats_known = b_.phase >= Phase::kPlaceBoats && b_.phase != Phase::kGameOver;
    if (a >= action::kStart && a < action::kPlace && boats_known) {
        const auto t = kStarts[static_cast<std::size_t>(a - action::kStart)];
        std::string out = "start";
        for (int i = 0; i < kNumBoats; ++i)
            out += std::string(i ? ", " : " ") + good_name(b_.boats[static_cast<std::size_t>(i)].good) + " " + std::to_string(t[static_cast<std::size_t>(i)]);
        return out;
    }
    if (a >= action::kRoll && a < action::kNumActions && b_.phase == Phase::kRoll) {
        const auto d = roll_dice(a - action::kRoll);
        std::string out = "roll";
        bool first = true;
        for (int i = 0; i < kNumBoats; ++i) {
            const Boat& boat = b_.boats[static_cast<std::size_t>(i)];
            if (boat.position == kArrived) continue;
            out += std::string(first ? " " : ", ") + good_name(boat.good) + " " + std::to_string(d[static_cast<std::size_t>(i)]);
            first = false;
        }
        return out;
    }
    return name;
}

std::string GameState::to_string() const {
    std::ostringstream o;
    const int n = b_.num_players;
    o << "voyage " << b_.voyage << ", " << phase_name(b_.phase);
    if (b_.phase == Phase::kPlacement || b_.phase == Phase::kRoll) o << " before roll " << b_.next_roll;
    if (b_.harbour_master >= 0) o << ", harbour master " << player_name(b_.harbour_master);
    if (is_terminal())
        o << ", game over";
    else if (is_chance_node())
        o << ", chance to move";
    else
        o << ", " << player_name(b_.current) << " to move";
    o << "\nprices:";
    for (int g = 0; g < kNumGoods; ++g) o << " " << good_name(g) << " " << b_.price(g);
    o << "; supply:";
    for (int g = 0; g < kNumGoods; ++g) o << " " << good_name(g) << " " << b_.supply[static_cast<std::size_t>(g)];
    o << "; bank " << b_.bank << "\n";
    if (b_.phase == Phase::kAuction)
        o << "auction: high bid " << b_.high_bid
          << (b_.high_bidder >= 0 ? " by " + player_name(b_.high_bidder) : std::string()) << "\n";
    for (int p = 0; p < n; ++p) {
        const PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
        o << player_name(p) << ": cash " << ps.cash << ", shares";
        bool any = false;
        for (int g = 0; g < kNumGoods; ++g)
            if (ps.shares[static_cast<std::size_t>(g)]) {
                o << " " << good_name(g) << " " << ps.shares[static_cast<std::size_t>(g)];
                any = true;
            }
        if (!any) o << " none";
        if (ps.mortgaged) o << " (" << ps.mortgaged << " mortgaged)";
        o << ", wealth " << wealth(p);
        if (b_.phase >= Phase::kPlacement && b_.phase != Phase::kGameOver)
            o << ", accomplices " << b_.max_accomplices - b_.accomplices(p) << "/" << b_.max_accomplices << " free"
              << (((b_.declined >> p) & 1) ? " (declined)" : "");
        o << "\n";
    }
    if (b_.phase >= Phase::kPlacement && b_.phase != Phase::kGameOver) {
        for (const Boat& boat : b_.boats) {
            o << good_name(boat.good) << " boat ";
            if (boat.position == kArrived)
                o << "in Manila";
            else
                o << "on " << boat.position;
            o << ", crew [";
            for (int s = 0; s < boat.seats(); ++s)
                o << (s ? " " : "") << (s < boat.crew_size ? player_name(boat.crew[static_cast<std::size_t>(s)]) : "-");
            o << "]\n";
        }
        o << "spots:";
        bool any = false;
        for (int s = 0; s < kNumSpots; ++s)
            if (b_.spots[static_cast<std::size_t>(s)] != kNoOwner) {
                o << " " << kSpotNames[static_cast<std::size_t>(s)] << "=" << player_name(b_.spots[static_cast<std::size_t>(s)]);
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
        if (ps.mortgaged < 0 || ps.unmortgaged() < 0) o << player_name(p) << " has " << ps.mortgaged << " mortgaged shares; ";
        const int acc = b_.accomplices(p);
        if (acc > b_.max_accomplices) o << player_name(p) << " has " << acc << " accomplices out; ";
    }
    if (money != kStartCash * n) o << "money not conserved: cash + bank = " << money << "; ";
    for (int g = 0; g < kNumGoods; ++g) {
        int total = b_.supply[static_cast<std::size_t>(g)] + b_.pile[static_cast<std::size_t>(g)];
        for (int p = 0; p < n; ++p) total += b_.players[static_cast<std::size_t>(p)].shares[static_cast<std::size_t>(g)];
        if (total != kSharesPerGood) o << good_name(g) << ": " << total << " shares in all; ";
        const int step = b_.price_step[static_cast<std::size_t>(g)];
        if (step < 0 || step >= kPriceSteps) o << good_name(g) << ": price off the track; ";
        if (!is_terminal() && step == kPriceSteps - 1) o << good_name(g) << " at 30 but the game goes on; ";
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
    if (!is_terminal() && !is_chance_node() && (b_.current < 0 || b_.current >= n)) o << "no valid player to move; ";
    return o.str();
}

// ---------------------------------------------------------------------------------------
// Bots

int random_action(const GameState& s, Rng& rng) {
    std::vector<int> legal;
    s.legal_actions(legal);
    if (legal.empty()) invalid("random_action: no legal action (the game is over)");
    return legal[static_cast<std::size_t>(rng.below(static_cast<int>(legal.size())))];
}

namespace {

int total_shares(const PlayerState& ps) {
    int n = 0;
    for (int x : ps.shares) n += x;
    return n;
}

// Expected voyage income (numerator over the common denominator) of `who` once the
// state's pending boarding decisions are taken the evaluator's way.
std::int64_t income_after(GameState s, int who);

int best_boarding(const GameState& s) {
    const Board& b = s.board();
    const int me = b.current;
    // Canonical order: stay, boats in good order; a full boat (variant) rearmost seat first.
    std::vector<int> legal;
    s.legal_actions(legal);
    std::vector<int> options{action::kStay};
    for (int g = 0; g < kNumGoods; ++g) {
        if (std::binary_search(legal.begin(), legal.end(), action::kBoard + g)) options.push_back(action::kBoard + g);
        for (int seat = kMaxSeats - 1; seat >= 0; --seat)
            if (std::binary_search(legal.begin(), legal.end(), action::kDisplace + g * kMaxSeats + seat))
                options.push_back(action::kDisplace + g * kMaxSeats + seat);
    }
    int best = options[0];
    std::int64_t best_value = std::numeric_limits<std::int64_t>::min();
    for (int a : options) {
        GameState c = s;
        c.apply_legal(a);
        const std::int64_t v = income_after(std::move(c), me);
        if (v > best_value) best_value = v, best = a;
    }
    return best;
}

std::int64_t income_after(GameState s, int who) {
    while (s.board().phase == Phase::kBoarding) s.apply_legal(best_boarding(s));
    Voyage v;
    if (!s.voyage(v)) throw std::logic_error("greedy: no voyage to evaluate");
    return expected_income(v, who);
}

// Voyage income of the settlement just made, as the evaluator counts it (the insurer
// owes the full claim even when the bank covers part of it).
std::int64_t settled_income(const Board& b, int who) {
    const Settlement& st = b.last;
    std::int64_t value = st.income[static_cast<std::size_t>(who)];
    if (st.insurer == who) value -= st.insurance_due - st.insurance_paid;
    return value;
}

int best_pilot(const GameState& s) {
    const int me = s.board().current;
    std::vector<int> legal;
    s.legal_actions(legal);
    int best = -1;
    std::int64_t best_value = std::numeric_limits<std::int64_t>::min();
    for (int a : legal) {  // action order is the canonical order of MANILA.md part 2
        if (a == action::kMortgage || a == action::kRepay) continue;
        GameState c = s;
        c.apply_legal(a);
        Voyage v;
        // A move that brings the last boats to Manila settles the voyage at once.
        const std::int64_t value = c.voyage(v) ? expected_income(v, me)
                                               : settled_income(c.board(), me) * denominator(3);
        if (value > best_value) best_value = value, best = a;
    }
    return best;
}

int best_plunder(const GameState& s) {
    const int me = s.board().current;
    std::vector<int> legal;
    s.legal_actions(legal);
    int best = -1;
    std::int64_t best_value = std::numeric_limits<std::int64_t>::min();
    for (int a : legal) {  // masks in canonical order: Manila before shipyard, boats in good order
        if (a < action::kPlunder || a >= action::kDeal) continue;
        GameState c = s;
        c.apply_legal(a);
        const std::int64_t value = settled_income(c.board(), me);
        if (value > best_value) best_value = value, best = a;
    }
    return best;
}

int best_placement(const GameState& s) {
    const Board& b = s.board();
    const int me = b.current;
    Voyage v;
    if (!s.voyage(v)) throw std::logic_error("greedy: placement without a voyage");
    const Table t = analyse(v, {me, b.max_accomplices}, 1);
    const std::int64_t den = t.denominator[0];
    const PlayerState& ps = b.players[static_cast<std::size_t>(me)];
    int best = action::kDecline;
    std::int64_t best_net = 0;
    for (int id = 0; id < kNumTableSpots; ++id) {
        int cost;
        bool blind;
        if (!s.placement_terms(me, id, cost, blind) || !t.legal[static_cast<std::size_t>(id)]) continue;
        std::int64_t net = t.net[static_cast<std::size_t>(id)];
        if (blind) {
            net += static_cast<std::int64_t>(cost - ps.cash) * den;  // pays all its cash instead
        } else if (id != table_id(kInsurance) && cost > ps.cash) {
            const int loans = (cost - ps.cash + kLoanAmount - 1) / kLoanAmount;
            net -= static_cast<std::int64_t>(loans * (kRepayAmount - kLoanAmount)) * den;  // interest
        }
        if (net > best_net) best_net = net, best = action::kPlace + id;
    }
    return best;
}

}  // namespace

// The greedy bot's rules:
// - auction: bids one more than the current bid while that is at most
//   min(cash, 6 + 3 * shares held), else passes;
// - share: as harbour master buys a share of the highest-priced good in the supply
//   (ties: the good it holds most of, then good order) if that leaves it 10 in cash;
// - goods: leaves home the good it holds fewest shares of (ties: the cheapest, then the
//   last in good order);
// - start spaces: 5, 4, 0 to the sailing goods ordered by its shares, then price, then
//   good order;
// - placement: the spot of highest expected_net for itself (manila's evaluator), minus 3
//   per forced loan, or the blind-passenger saving; declines when none is positive;
// - boarding, pilots, plunder: the option of highest expected voyage income for itself,
//   the others deciding the same way (the evaluator's rule; ties to the first option);
// - never takes or lifts a loan of its own accord.
int greedy_action(const GameState& s) {
    using namespace action;
    const Board& b = s.board();
    if (s.is_terminal() || s.is_chance_node()) invalid("greedy_action: no player to move");
    const int me = b.current;
    const PlayerState& ps = b.players[static_cast<std::size_t>(me)];
    switch (b.phase) {
        case Phase::kAuction: {
            const int limit = std::min(ps.cash, 6 + 3 * total_shares(ps));
            const int bid = b.high_bid + 1;
            return bid <= limit && bid <= kMaxBid ? bid : kPass;
        }
        case Phase::kBuyShare: {
            int best = -1;
            for (int g = 0; g < kNumGoods; ++g) {
                if (b.supply[static_cast<std::size_t>(g)] == 0) continue;
                if (best < 0 || b.price(g) > b.price(best) ||
                    (b.price(g) == b.price(best) && ps.shares[static_cast<std::size_t>(g)] > ps.shares[static_cast<std::size_t>(best)]))
                    best = g;
            }
            if (best >= 0 && std::max(kMinSharePrice, b.price(best)) <= ps.cash - 10) return kBuy + best;
            return kBuyNothing;
        }
        case Phase::kChooseGoods: {
            int home = 0;
            for (int g = 1; g < kNumGoods; ++g) {
                const int sg = ps.shares[static_cast<std::size_t>(g)], sh = ps.shares[static_cast<std::size_t>(home)];
                if (sg < sh || (sg == sh && b.price(g) <= b.price(home))) home = g;
            }
            return kLeaveHome + home;
        }
        case Phase::kPlaceBoats: {
            std::array<int, kNumBoats> order{0, 1, 2};
            auto key = [&](int i) {
                const int g = b.boats[static_cast<std::size_t>(i)].good;
                return std::make_pair(ps.shares[static_cast<std::size_t>(g)], b.price(g));
            };
            std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return key(x) > key(y); });
            std::array<int, kNumBoats> start{};
            start[static_cast<std::size_t>(order[0])] = 5;
            start[static_cast<std::size_t>(order[1])] = 4;
            start[static_cast<std::size_t>(order[2])] = 0;
            for (int t = 0; t < kNumStarts; ++t)
                if (kStarts[static_cast<std::size_t>(t)] == start) return kStart + t;
            throw std::logic_error("greedy: no start triple");
        }
        case Phase::kPlacement: return best_placement(s);
        case Phase::kBoarding: return best_boarding(s);
        case Phase::kSmallPilot:
        case Phase::kLargePilot: return best_pilot(s);
        case Phase::kPlunder: return best_plunder(s);
        default: break;
    }
    throw std::logic_error("greedy_action: no rule for this phase");
}

// ---------------------------------------------------------------------------------------
// Play-outs

GameResult play_game(int players, const Rules& rules, std::uint64_t seed, const std::vector<BotKind>& bots,
                     bool record, bool check) {
    if (static_cast<int>(bots.size()) != players)
        invalid("bots: one bot per seat is needed, " + std::to_string(players) + " in all, got " + std::to_string(bots.size()));
    GameState s(players, rules, seed);
    std::vector<Rng> rngs;
    for (int p = 0; p < players; ++p) rngs.emplace_back(derive_seed(seed, static_cast<std::uint64_t>(p) + 1));
    std::vector<int> legal;
    legal.reserve(256);
    constexpr std::size_t kMaxActions = 1000000;  // a guard against an endless game
    while (!s.is_terminal()) {
        int a;
        if (s.is_chance_node()) {
            a = s.sample_chance();
        } else {
            const int p = s.current_player();
            if (bots[static_cast<std::size_t>(p)] == BotKind::kGreedy) {
                a = greedy_action(s);
            } else {
                s.legal_actions(legal);
                a = legal[static_cast<std::size_t>(rngs[static_cast<std::size_t>(p)].below(static_cast<int>(legal.size())))];
            }
        }
        if (check) {
            s.apply_action(a);
            const std::string broken = s.check_invariants();
            if (!broken.empty())
                throw std::logic_error("game seed " + std::to_string(seed) + ", after action " +
                                       std::to_string(s.history().size()) + " (" + action_name(a) + "): " + broken);
        } else {
            s.apply_legal(a);
        }
        if (s.history().size() > kMaxActions) throw std::runtime_error("play_game: the game does not end");
    }
    GameResult r;
    r.seed = seed;
    r.wealth = s.returns();
    r.voyages = s.voyages_completed();
    r.actions = static_cast<int>(s.history().size());
    if (record) r.history = s.history();
    return r;
}

std::vector<GameResult> play_games(int players, const Rules& rules, std::uint64_t seed, std::int64_t first, int n,
                                   const std::vector<BotKind>& bots, int threads, bool record, bool check) {
    if (n < 0) invalid("games: must be at least 0, got " + std::to_string(n));
    if (first < 0) invalid("first: must be at least 0, got " + std::to_string(first));
    if (players < kMinPlayers || players > kMaxPlayers)
        invalid("players: Manila is for 3 to 5 players, got " + std::to_string(players));
    if (static_cast<int>(bots.size()) != players)
        invalid("bots: one bot per seat is needed, " + std::to_string(players) + " in all, got " + std::to_string(bots.size()));
    if (threads < 0) invalid("threads: must be at least 0, got " + std::to_string(threads));
    std::vector<GameResult> out(static_cast<std::size_t>(n));
    if (threads == 0) threads = hardware_threads();
    parallel_for(n, threads, [&](int i) {
        out[static_cast<std::size_t>(i)] = play_game(
            players, rules, derive_seed(seed, static_cast<std::uint64_t>(first + i)), bots, record, check);
    });
    return out;
}

}  // namespace manila

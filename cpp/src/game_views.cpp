// Results and views of a game: wealth, the open voyage, text renderings and invariant checks.

#include "manila/game.hpp"

#include <algorithm>
#include <optional>
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

std::optional<Voyage> GameState::voyage() const {
    if (b_.phase < Phase::kPlacement || b_.phase > Phase::kLargePilot ||
        b_.next_roll > kNumRollsPerVoyage)
        return std::nullopt;
    Voyage v;
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
    return v;
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

std::vector<std::string> GameState::check_invariants() const {
    std::vector<std::string> broken;
    auto say = [&broken](const std::string& what) { broken.push_back(what); };
    const int n = b_.num_players;
    int money = b_.bank;
    for (int p = 0; p < n; ++p) {
        const PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
        const std::string who = player_name(p);
        money += ps.cash;
        if (ps.cash < 0) say(who + " has negative cash " + std::to_string(ps.cash));
        if (ps.mortgaged < 0 || ps.unmortgaged() < 0)
            say(who + " has " + std::to_string(ps.mortgaged) + " mortgaged shares");
        const int acc = b_.accomplices(p);
        if (acc > b_.max_accomplices) say(who + " has " + std::to_string(acc) + " accomplices out");
    }
    if (money != kStartCash * n) say("money not conserved: cash + bank = " + std::to_string(money));
    for (int g = 0; g < kNumGoods; ++g) {
        const std::string good = good_name(g);
        int total = b_.supply[static_cast<std::size_t>(g)] + b_.pile[static_cast<std::size_t>(g)];
        for (int p = 0; p < n; ++p)
            total += b_.players[static_cast<std::size_t>(p)].shares[static_cast<std::size_t>(g)];
        if (total != kSharesPerGood) say(good + ": " + std::to_string(total) + " shares in all");
        const int step = b_.price_step[static_cast<std::size_t>(g)];
        if (step < 0 || step >= kPriceSteps) say(good + ": price off the track");
        if (!is_terminal() && step == kPriceSteps - 1)
            say(good + " at " + std::to_string(kPriceTrack[kPriceSteps - 1]) +
                " but the game goes on");
    }
    if (b_.phase != Phase::kDeal && b_.dealt != kSharesDealt * n) say("the deal is incomplete");
    if (const std::optional<Voyage> v = voyage()) {
        try {
            v->validate();
        } catch (const std::invalid_argument& e) {
            say(std::string("voyage: ") + e.what());
        }
        int arrived = 0;
        for (const Boat& boat : b_.boats) arrived += boat.position == kArrived;
        if (arrived != b_.in_port) say("port slots do not match the boats in Manila");
    }
    if (!is_terminal() && !is_chance_node() && (b_.current < 0 || b_.current >= n))
        say("no valid player to move");
    return broken;
}

// ---------------------------------------------------------------------------------------
// The table as JSON

namespace {

Json owner_or_null(int o) { return o == kNoOwner ? Json() : Json(o); }

Json good_list(const std::array<int, kNumBoats>& goods, int n) {
    Json out = Json::array();
    for (int k = 0; k < n; ++k) out.push(good_name(goods[static_cast<std::size_t>(k)]));
    return out;
}

}  // namespace

PrivateInfo private_info_named(const std::string& name) {
    if (name == "none") return PrivateInfo::kNone;
    if (name == "single") return PrivateInfo::kSingle;
    if (name == "all") return PrivateInfo::kAll;
    invalid("private_info: must be \"none\", \"single\" or \"all\", got \"" + name + "\"");
}

Json board_json(const GameState& s, int viewer, PrivateInfo info) {
    const Board& b = s.board();
    Json d = Json::object();
    d.set("phase", phase_name(b.phase));
    d.set("current_player", b.current);
    d.set("voyage", b.voyage);
    d.set("harbour_master", owner_or_null(b.harbour_master));
    d.set("bank", b.bank);
    Json prices = Json::object(), supply = Json::object();
    for (int g = 0; g < kNumGoods; ++g) {
        prices.set(good_name(g), b.price(g));
        supply.set(good_name(g), b.supply[static_cast<std::size_t>(g)]);
    }
    d.set("prices", std::move(prices));
    d.set("supply", std::move(supply));
    Json players = Json::array();
    for (int p = 0; p < b.num_players; ++p) {
        const PlayerState& ps = b.players[static_cast<std::size_t>(p)];
        const auto known = known_shares(b, viewer, p, info);
        const int hidden = hidden_shares(b, viewer, p, info);
        Json pd = Json::object(), shares = Json::object();
        for (int g = 0; g < kNumGoods; ++g)
            shares.set(good_name(g), known[static_cast<std::size_t>(g)]);
        pd.set("cash", ps.cash);
        pd.set("shares", std::move(shares));
        if (info != PrivateInfo::kAll) pd.set("hidden_shares", hidden);
        pd.set("mortgaged", ps.mortgaged);
        pd.set("accomplices", b.accomplices(p));
        pd.set("declined", static_cast<bool>((b.declined >> p) & 1));
        pd.set("wealth", hidden ? Json() : Json(s.wealth(p)));
        players.push(std::move(pd));
    }
    d.set("players", std::move(players));
    if (b.phase == Phase::kAuction) {
        Json a = Json::object(), bidding = Json::array();
        a.set("high_bid", b.high_bid);
        a.set("high_bidder", owner_or_null(b.high_bidder));
        for (int p = 0; p < b.num_players; ++p)
            if ((b.in_auction >> p) & 1) bidding.push(p);
        a.set("bidding", std::move(bidding));
        d.set("auction", std::move(a));
    }
    d.set("stays_home", b.stays_home >= 0 ? Json(good_name(b.stays_home)) : Json());
    Json boats = Json::object(), spots = Json::object();
    const bool afloat = b.phase >= Phase::kPlacement && b.phase != Phase::kGameOver;
    if (afloat) {
        for (const Boat& boat : b.boats) {
            Json bd = Json::object(), crew = Json::array();
            bd.set("position", boat.position == kArrived ? Json("arrived") : Json(boat.position));
            for (int k = 0; k < boat.crew_size; ++k)
                crew.push(boat.crew[static_cast<std::size_t>(k)]);
            bd.set("crew", std::move(crew));
            boats.set(good_name(boat.good), std::move(bd));
        }
        for (int k = 0; k < kNumSpots; ++k)
            if (b.spots[static_cast<std::size_t>(k)] != kNoOwner)
                spots.set(kSpotNames[static_cast<std::size_t>(k)],
                          b.spots[static_cast<std::size_t>(k)]);
    }
    d.set("boats", std::move(boats));
    d.set("spots", std::move(spots));
    if (b.phase == Phase::kBoarding) {
        // Who decides (0: the captain, 1: the other pirate) and the seat the captain took,
        // which the other pirate may not displace.
        Json boarding = Json::object();
        boarding.set("decider", b.decider);
        Json guard;
        if (b.guard_boat >= 0) guard = Json::array().push(b.guard_boat).push(b.guard_seat);
        boarding.set("guard", std::move(guard));
        d.set("boarding", std::move(boarding));
    }
    d.set("next_roll", afloat ? Json(std::min(b.next_roll, 4)) : Json());
    d.set("port", good_list(b.port, b.in_port));
    d.set("shipyard", good_list(b.shipyard, b.in_shipyard));
    const Settlement& st = b.last;
    Json last = Json::object(), plundered = Json::array();
    last.set("income", Json::array_of(
                           std::vector<int>(st.income.begin(), st.income.begin() + b.num_players)));
    last.set("forced_mortgages", Json::array_of(std::vector<int>(
                                     st.mortgages.begin(), st.mortgages.begin() + b.num_players)));
    last.set("insurer", owner_or_null(st.insurer));
    last.set("insurance_due", st.insurance_due);
    last.set("insurance_paid", st.insurance_paid);
    last.set("port", good_list(st.port, st.in_manila));
    last.set("shipyard", good_list(st.shipyard, st.in_shipyard));
    for (int g = 0; g < kNumGoods; ++g)
        if ((st.plundered_goods >> g) & 1) plundered.push(good_name(g));
    last.set("plundered", std::move(plundered));
    d.set("last_settlement", std::move(last));
    return d;
}

Json observation_json(const GameState& s, int viewer, PrivateInfo info) {
    check_viewer(s, viewer);
    Json d = board_json(s, viewer, info);
    d.set("observer", viewer);
    Json history = Json::array();
    for (std::size_t k = 0; k < s.history().size(); ++k)
        history.push(action_visible(s, viewer, k, info) ? Json(s.history()[k]) : Json());
    d.set("history", std::move(history));
    return d;
}

}  // namespace manila

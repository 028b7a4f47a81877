// The solver bot: every decision valued in wealth, from the seat's own view (voyage_of).
//
// - Placements: the placement-round solver (advise_placement) over the players still to
//   move this round, as far as it is fast: with roll 3 next the whole round, with roll 2
//   next the next three turns, with roll 1 next the next two (later players are left out
//   of the search, as if they declined).
// - Pilots and boarding: the advice's best option. Plunder: greedy-wealth's choice.
// - Harbour master: goods and start spaces that maximise its expected share gains minus the
//   mean expected gain of the others, whose face-down shares are taken to follow the pool
//   they were dealt from (what is neither visible nor in the supply, shared out in
//   proportion); the arrival odds of a boat from each start space come from the evaluator.
//   It buys the share whose expected rise this voyage beats its premium over the price.
// - Auction: bids while the bid stays below what the office is worth to it: the best
//   start's relative gain over an average start's, plus what placing first is worth (on
//   the empty board of that start, the best spot's value over the value of the spot left
//   to the last player of a round); cash only, never loans.
//
// The harbour master's and the auction's values are doubles computed in a fixed order
// (this file is built without floating-point contraction), so that ties break the same
// way on every machine. Deterministic: the bot draws no random numbers.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "game_internal.hpp"
#include "manila/advice.hpp"
#include "manila/bots.hpp"
#include "manila/evaluator.hpp"
#include "manila/observation.hpp"

namespace manila {
namespace {

// How many turns of the round the placement search covers, by the roll that comes next.
int search_turns(int next_roll) {
    if (next_roll == 1) return 2;
    if (next_roll == 2) return 3;
    return kMaxPlayers;  // the whole round
}

// The sailing goods the harbour master may choose: every three of the four, in good order.
inline constexpr int kNumSailings = 4;
inline constexpr std::array<std::array<int, kNumBoats>, kNumSailings> kSailings{
    {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}};
static_assert(kNumGoods == 4 && kNumBoats == 3, "kSailings lists the goods three at a time");

// An empty board of the first roll with `goods` on `spaces` (the rules' defaults).
Voyage empty_board(const std::array<int, kNumBoats>& goods,
                   const std::array<int, kNumBoats>& spaces) {
    Voyage v;
    v.next_roll = 1;
    for (int i = 0; i < kNumBoats; ++i) {
        v.boats[static_cast<std::size_t>(i)].good = goods[static_cast<std::size_t>(i)];
        v.boats[static_cast<std::size_t>(i)].position = spaces[static_cast<std::size_t>(i)];
    }
    return v;
}

// P(a boat from start space 0..5 ends in Manila) on an empty board, three rolls to go, from
// the evaluator (computed once).
const std::array<double, kMaxStartSpace + 1>& arrival_odds() {
    static const std::array<double, kMaxStartSpace + 1> odds = [] {
        std::array<double, kMaxStartSpace + 1> out{};
        const std::array<std::array<int, kNumBoats>, 3> boards{{{0, 4, 5}, {1, 3, 5}, {2, 2, 5}}};
        for (const auto& spaces : boards) {
            const Table t = analyse(empty_board(kSailings[0], spaces), PointOfView{}, 1);
            for (int i = 0; i < kNumBoats; ++i)
                out[static_cast<std::size_t>(spaces[static_cast<std::size_t>(i)])] =
                    static_cast<double>(
                        t.boats[static_cast<std::size_t>(i * kNumOutcomes + kOutcomePort)]) /
                    static_cast<double>(t.denominator[0]);
        }
        return out;
    }();
    return odds;
}

// The expected_net of every legal spot for a fresh player on the empty board of a sailing
// and a start triple, highest first (each computed once, on first use).
const std::vector<double>& empty_board_nets(int sailing, int triple) {
    static std::array<std::once_flag, kNumSailings * kNumStarts> once;
    static std::array<std::vector<double>, kNumSailings * kNumStarts> nets;
    const auto k = static_cast<std::size_t>(sailing * kNumStarts + triple);
    std::call_once(once[k], [&] {
        const Table t = analyse(empty_board(kSailings[static_cast<std::size_t>(sailing)],
                                            kStartSpaces[static_cast<std::size_t>(triple)]),
                                PointOfView{}, 1);
        std::vector<double> out;
        for (int id = 0; id < kNumTableSpots; ++id)
            if (t.legal[static_cast<std::size_t>(id)])
                out.push_back(static_cast<double>(t.net[static_cast<std::size_t>(id)]) /
                              static_cast<double>(t.denominator[0]));
        std::stable_sort(out.begin(), out.end(), std::greater<>());
        nets[k] = std::move(out);
    });
    return nets[k];
}

using Held = std::array<std::array<double, kNumGoods>, kMaxPlayers>;

// Every player's shares as `me` reckons them: its own, and for the others the visible ones
// plus their hidden count shared out like the unseen pool.
Held expected_shares(const Board& b, int me) {
    const int n = b.num_players;
    std::array<std::array<int, kNumGoods>, kMaxPlayers> known{};
    std::array<int, kNumGoods> unseen{};
    for (int p = 0; p < n; ++p)
        known[static_cast<std::size_t>(p)] = known_shares(b, me, p, PrivateInfo::kSingle);
    int pool = 0;
    for (int g = 0; g < kNumGoods; ++g) {
        int u = kSharesPerGood - b.supply[static_cast<std::size_t>(g)];
        for (int p = 0; p < n; ++p)
            u -= known[static_cast<std::size_t>(p)][static_cast<std::size_t>(g)];
        unseen[static_cast<std::size_t>(g)] = u;
        pool += u;
    }
    Held held{};
    for (int p = 0; p < n; ++p) {
        const int hidden = hidden_shares(b, me, p, PrivateInfo::kSingle);
        for (int g = 0; g < kNumGoods; ++g) {
            double& h = held[static_cast<std::size_t>(p)][static_cast<std::size_t>(g)];
            h = static_cast<double>(
                known[static_cast<std::size_t>(p)][static_cast<std::size_t>(g)]);
            if (p != me && pool)
                h += static_cast<double>(hidden * unseen[static_cast<std::size_t>(g)]) /
                     static_cast<double>(pool);
        }
    }
    return held;
}

// My expected share gain minus the others' mean, for these goods at these start spaces.
double relative_gain(const Board& b, const Held& held, int me, int sailing, int triple) {
    const auto& odds = arrival_odds();
    const auto& goods = kSailings[static_cast<std::size_t>(sailing)];
    const auto& spaces = kStartSpaces[static_cast<std::size_t>(triple)];
    double mine = 0, others = 0;
    for (int p = 0; p < b.num_players; ++p) {
        double gain = 0;
        for (int i = 0; i < kNumBoats; ++i) {
            const int g = goods[static_cast<std::size_t>(i)];
            gain += held[static_cast<std::size_t>(p)][static_cast<std::size_t>(g)] *
                    static_cast<double>(price_rise(b.price(g))) *
                    odds[static_cast<std::size_t>(spaces[static_cast<std::size_t>(i)])];
        }
        if (p == me)
            mine = gain;
        else
            others += gain;
    }
    return mine - others / static_cast<double>(b.num_players - 1);
}

struct Option {
    double gain;
    int sailing;
    int triple;
};

// Every choice of goods and start spaces, goods first, in order.
std::vector<Option> options(const Board& b, int me) {
    const Held held = expected_shares(b, me);
    std::vector<Option> out;
    out.reserve(kNumSailings * kNumStarts);
    for (int g = 0; g < kNumSailings; ++g)
        for (int t = 0; t < kNumStarts; ++t)
            out.push_back({relative_gain(b, held, me, g, t), g, t});
    return out;
}

// The first option of the highest gain.
const Option& best_option(const std::vector<Option>& opts) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < opts.size(); ++k)
        if (opts[k].gain > opts[best].gain) best = k;
    return opts[best];
}

int solver_bid(const GameState& s) {
    const Board& b = s.board();
    const int me = b.current;
    const std::vector<Option> opts = options(b, me);
    const Option& best = best_option(opts);
    double sum = 0;
    for (const Option& o : opts) sum += o.gain;
    const std::vector<double>& nets = empty_board_nets(best.sailing, best.triple);
    const std::size_t last = std::min(static_cast<std::size_t>(b.num_players), nets.size()) - 1;
    const double first_mover = nets[0] - nets[last];
    const double worth = best.gain - sum / static_cast<double>(opts.size()) + first_mover;
    const int bid = b.high_bid + 1;
    const int cash = b.players[static_cast<std::size_t>(me)].cash;
    return bid <= worth && bid <= cash && bid <= action::kMaxBid ? bid : action::kPass;
}

int solver_buy(const GameState& s) {
    const Board& b = s.board();
    const int cash = b.players[static_cast<std::size_t>(b.current)].cash;
    const double odds = arrival_odds()[kMaxStartSpace];
    int best = -1;
    double best_value = 1.0;  // a share must be worth at least a peso more than it costs
    for (int g = 0; g < kNumGoods; ++g) {
        const int price = b.price(g);
        const int cost = std::max(kMinSharePrice, price);
        if (b.supply[static_cast<std::size_t>(g)] == 0 || cash < cost) continue;
        const double value =
            static_cast<double>(price - cost) + odds * static_cast<double>(price_rise(price));
        if (value > best_value) best = g, best_value = value;
    }
    return best >= 0 ? action::kBuy + best : action::kBuyNothing;
}

int solver_goods(const GameState& s) {
    const std::vector<Option> opts = options(s.board(), s.board().current);
    const Option& best = best_option(opts);
    const auto& sailing = kSailings[static_cast<std::size_t>(best.sailing)];
    for (int g = 0; g < kNumGoods; ++g)
        if (std::find(sailing.begin(), sailing.end(), g) == sailing.end())
            return action::kLeaveHome + g;
    throw std::logic_error("solver: every good sails");
}

// The start spaces are chosen over every sailing, not only the goods that sail: the bot
// decided from its observation, which shows no boats before they are placed. The start
// triple is what counts.
int solver_starts(const GameState& s) {
    return action::kStart + best_option(options(s.board(), s.board().current)).triple;
}

int solver_placement(const GameState& s) {
    const Board& b = s.board();
    const int me = b.current, n = b.num_players;
    const std::optional<Voyage> v = voyage_of(s, me, Objective::kWealth);
    if (!v) throw std::logic_error("solver: placement without a voyage");
    // The rest of the round in turn order from the harbour master: me first, then those
    // who have not declined and still hold an accomplice.
    std::vector<int> movers{me};
    int k = 0;
    while ((b.harbour_master + k) % n != me) ++k;
    for (++k; k < n; ++k) {
        const int p = (b.harbour_master + k) % n;
        if (!((b.declined >> p) & 1) && b.max_accomplices - b.accomplices(p) > 0)
            movers.push_back(p);
    }
    movers.resize(std::min(movers.size(), static_cast<std::size_t>(search_turns(v->next_roll))));
    const PlacementAdvice a = advise_placement(*v, movers, 1);
    return placement_action(a.options[static_cast<std::size_t>(a.best)].id);
}

// The legal action of this name.
int action_named(const GameState& s, const std::string& name) {
    for (int a : s.legal_actions())
        if (action_name(a) == name) return a;
    throw std::logic_error("solver: no legal action '" + name + "'");
}

// The game's name of a pilot option of the advice: "jade+1 silk-2" is "jade +1, silk -2".
std::string pilot_action_name(bool large, const std::string& option) {
    std::string out = large ? "large pilot: " : "small pilot: ";
    if (option == "none") return out + "none";
    std::size_t from = 0;
    while (from < option.size()) {
        std::size_t to = option.find(' ', from);
        if (to == std::string::npos) to = option.size();
        const std::string move = option.substr(from, to - from);
        const std::size_t sign = move.find_first_of("+-");
        if (from) out += ", ";
        out += move.substr(0, sign) + " " + move.substr(sign);
        from = to + 1;
    }
    return out;
}

int solver_pilot(const GameState& s, bool large) {
    const std::optional<Voyage> v = voyage_of(s, s.board().current, Objective::kWealth);
    if (!v) throw std::logic_error("solver: a pilot's move without a voyage");
    const DecisionAdvice a = advise_pilot(*v, large);
    return action_named(s, pilot_action_name(large, a.names[static_cast<std::size_t>(a.best)]));
}

int solver_boarding(const GameState& s) {
    const Board& b = s.board();
    const std::optional<Voyage> v = voyage_of(s, b.current, Objective::kWealth);
    if (!v) throw std::logic_error("solver: boarding without a voyage");
    // The captain decides first; once the captain boarded, the other pirate holds pirate_1
    // and must respect the seat the captain took.
    const bool second = v->spots[kPirate1] != b.current;
    const DecisionAdvice a = advise_boarding(*v, second, b.guard_boat, b.guard_seat);
    std::string name = a.names[static_cast<std::size_t>(a.best)];
    const std::string displace = " displace ";
    const std::size_t at = name.find(displace);
    if (at != std::string::npos)
        name = name.substr(0, at) + ", displacing seat " + name.substr(at + displace.size());
    return action_named(s, name);
}

}  // namespace

int solver_action(const GameState& s) {
    if (s.is_terminal() || s.is_chance_node()) invalid("solver_action: no player to move");
    switch (s.board().phase) {
        case Phase::kPlacement:
            return solver_placement(s);
        case Phase::kSmallPilot:
            return solver_pilot(s, false);
        case Phase::kLargePilot:
            return solver_pilot(s, true);
        case Phase::kBoarding:
            return solver_boarding(s);
        case Phase::kAuction:
            return solver_bid(s);
        case Phase::kBuyShare:
            return solver_buy(s);
        case Phase::kChooseGoods:
            return solver_goods(s);
        case Phase::kPlaceBoats:
            return solver_starts(s);
        default:
            return greedy_action(s, Objective::kWealth);  // plunder
    }
}

int greedy_office_action(const GameState& s) {
    if (s.is_terminal() || s.is_chance_node()) invalid("greedy_office_action: no player to move");
    switch (s.board().phase) {
        case Phase::kAuction:
        case Phase::kBuyShare:
        case Phase::kChooseGoods:
        case Phase::kPlaceBoats:
            return solver_action(s);
        default:
            return greedy_action(s, Objective::kWealth);
    }
}

}  // namespace manila

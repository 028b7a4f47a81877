// The random and greedy bots, and the play-out loop that runs whole games with them.

#include "manila/bots.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "game_internal.hpp"
#include "manila/analysis.hpp"
#include "manila/cancel.hpp"
#include "manila/enumerate.hpp"
#include "manila/evaluator.hpp"
#include "parallel.hpp"

namespace manila {

// ---------------------------------------------------------------------------------------
// Bots

int random_action(const GameState& s, Rng& rng) {
    // One buffer per thread: play-outs ask at every move, and an allocation each time would
    // cost more than the rest of the move.
    thread_local std::vector<int> legal;
    s.legal_actions(legal);
    if (legal.empty()) invalid("random_action: no legal action (the game is over)");
    return legal[static_cast<std::size_t>(rng.below(static_cast<int>(legal.size())))];
}

std::optional<Voyage> game_detail::voyage_of(const GameState& s, int viewer, Objective objective) {
    std::optional<Voyage> v = s.voyage();
    if (!v) return v;
    v->objective = objective;
    const Board& b = s.board();
    for (int p = 0; p < b.num_players; ++p) {
        if (p == viewer) continue;
        const PlayerState& ps = b.players[static_cast<std::size_t>(p)];
        for (int g = 0; g < kNumGoods; ++g)
            v->shares[static_cast<std::size_t>(p)][static_cast<std::size_t>(g)] =
                static_cast<std::uint8_t>(ps.shares[static_cast<std::size_t>(g)] -
                                          ps.dealt[static_cast<std::size_t>(g)]);
    }
    return v;
}

namespace {

int total_shares(const PlayerState& ps) {
    int n = 0;
    for (int x : ps.shares) n += x;
    return n;
}

// What `who` has once the voyage just settled, in the objective's terms, times the
// common denominator: the settled voyage income, or the change of wealth (income plus
// the share gains of the price rise) from `before`.
std::int64_t settled_value(const GameState& before, const GameState& after, int who,
                           Objective objective);

// Expected payoff (numerator over the common denominator) of `who` once the state's
// pending boarding decisions are taken the evaluator's way.
std::int64_t payoff_after(GameState s, int who, Objective objective);

int best_boarding(const GameState& s, Objective objective) {
    const Board& b = s.board();
    const int me = b.current;
    // Canonical order: stay, boats in good order; a full boat (variant) rearmost seat first.
    std::vector<int> legal;
    s.legal_actions(legal);
    std::vector<int> options{action::kStay};
    for (int g = 0; g < kNumGoods; ++g) {
        if (std::binary_search(legal.begin(), legal.end(), action::kBoard + g))
            options.push_back(action::kBoard + g);
        for (int seat = kMaxSeats - 1; seat >= 0; --seat)
            if (std::binary_search(legal.begin(), legal.end(),
                                   action::kDisplace + g * kMaxSeats + seat))
                options.push_back(action::kDisplace + g * kMaxSeats + seat);
    }
    int best = options[0];
    std::int64_t best_value = std::numeric_limits<std::int64_t>::min();
    for (int a : options) {
        GameState c = s;
        c.apply_legal(a);
        const std::int64_t v = payoff_after(std::move(c), me, objective);
        if (v > best_value) best_value = v, best = a;
    }
    return best;
}

std::int64_t payoff_after(GameState s, int who, Objective objective) {
    while (s.board().phase == Phase::kBoarding) s.apply_legal(best_boarding(s, objective));
    const std::optional<Voyage> v = voyage_of(s, who, objective);
    if (!v) throw std::logic_error("greedy: no voyage to evaluate");
    return expected_payoff(*v, who);
}

// Voyage income of the settlement just made, as the evaluator counts it (the insurer
// owes the full claim even when the bank covers part of it).
std::int64_t settled_income(const Board& b, int who) {
    const Settlement& st = b.last;
    std::int64_t value = st.income[static_cast<std::size_t>(who)];
    if (st.insurer == who) value -= st.insurance_due - st.insurance_paid;
    return value;
}

std::int64_t settled_value(const GameState& before, const GameState& after, int who,
                           Objective objective) {
    if (objective == Objective::kWealth) return after.wealth(who) - before.wealth(who);
    return settled_income(after.board(), who);
}

int best_pilot(const GameState& s, Objective objective) {
    const int me = s.board().current;
    std::vector<int> legal;
    s.legal_actions(legal);
    int best = -1;
    std::int64_t best_value = std::numeric_limits<std::int64_t>::min();
    for (int a : legal) {  // action order is the canonical order of docs/numbers.md
        if (a == action::kMortgage || a == action::kRepay) continue;
        GameState c = s;
        c.apply_legal(a);
        const std::optional<Voyage> v = voyage_of(c, me, objective);
        // A move that brings the last boats to Manila settles the voyage at once.
        const std::int64_t value =
            v ? expected_payoff(*v, me)
              : settled_value(s, c, me, objective) * denominator(kNumRollsPerVoyage);
        if (value > best_value) best_value = value, best = a;
    }
    return best;
}

int best_plunder(const GameState& s, Objective objective) {
    const int me = s.board().current;
    std::vector<int> legal;
    s.legal_actions(legal);
    int best = -1;
    std::int64_t best_value = std::numeric_limits<std::int64_t>::min();
    for (int a : legal) {  // masks in canonical order: Manila before shipyard, boats in good order
        if (a < action::kPlunder || a >= action::kDeal) continue;
        GameState c = s;
        c.apply_legal(a);
        const std::int64_t value = settled_value(s, c, me, objective);
        if (value > best_value) best_value = value, best = a;
    }
    return best;
}

// What the harbour master's office is worth in share gains, in pesos (rounded down): it
// puts the two goods whose arrival gains it most on spaces 5 and 4 rather than on an
// average start space, raising the odds that they reach Manila in the voyage's 3 rolls.
int office_share_gain(const GameState& s, const PlayerState& ps) {
    const Board& b = s.board();
    std::array<std::int64_t, kMaxStartSpace + 1> arrive{};  // out of 6^3, by start space
    std::int64_t mean = 0;
    for (int space = 0; space <= kMaxStartSpace; ++space) {
        const auto counts = boat_counts(space, kNumRollsPerVoyage);
        arrive[static_cast<std::size_t>(space)] =
            counts[kArrived] + (b.rules.thirteen_to_port ? counts[kThirteen] : 0);
        mean += arrive[static_cast<std::size_t>(space)];
    }
    std::array<std::int64_t, kNumGoods> gain{};
    for (int g = 0; g < kNumGoods; ++g)
        gain[static_cast<std::size_t>(g)] =
            ps.shares[static_cast<std::size_t>(g)] * price_rise(b.price(g));
    std::sort(gain.begin(), gain.end(), std::greater<>());
    // Odds over 6^3, mean over the spaces.
    const std::int64_t den = power_of_six(kNumRollsPerVoyage) * (kMaxStartSpace + 1);
    const std::int64_t total = gain[0] * ((kMaxStartSpace + 1) * arrive[kMaxStartSpace] - mean) +
                               gain[1] * ((kMaxStartSpace + 1) * arrive[kMaxStartSpace - 1] - mean);
    return static_cast<int>(std::max<std::int64_t>(0, total / den));
}

int best_placement(const GameState& s, Objective objective) {
    const Board& b = s.board();
    const int me = b.current;
    const std::optional<Voyage> v = voyage_of(s, me, objective);
    if (!v) throw std::logic_error("greedy: placement without a voyage");
    const Table t = analyse(*v, {me, b.max_accomplices}, 1);
    const std::int64_t den = t.denominator[0];
    const PlayerState& ps = b.players[static_cast<std::size_t>(me)];
    int best = action::kDecline;
    std::int64_t best_net = 0;
    for (int id = 0; id < kNumTableSpots; ++id) {
        const std::optional<PlacementTerms> terms = s.placement_terms(me, id);
        if (!terms || !t.legal[static_cast<std::size_t>(id)]) continue;
        const auto [cost, blind] = *terms;
        // The voyage carries the budgets, so the table already charges a blind passenger
        // all their cash.
        std::int64_t net = t.net[static_cast<std::size_t>(id)];
        if (!blind && id != table_id(kInsurance) && cost > ps.cash) {
            const int loans = (cost - ps.cash + kLoanAmount - 1) / kLoanAmount;
            net -=
                static_cast<std::int64_t>(loans * (kRepayAmount - kLoanAmount)) * den;  // interest
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
// Under the wealth objective ("greedy-wealth") placement, boarding, pilots and plunder
// value the share gains of the goods that reach Manila too, and the auction limit adds
// what the office is worth in share gains (office_share_gain); the rest is the same.
int greedy_action(const GameState& s, Objective objective) {
    using namespace action;
    const Board& b = s.board();
    if (s.is_terminal() || s.is_chance_node()) invalid("greedy_action: no player to move");
    const int me = b.current;
    const PlayerState& ps = b.players[static_cast<std::size_t>(me)];
    switch (b.phase) {
        case Phase::kAuction: {
            const int worth = 6 + 3 * total_shares(ps) +
                              (objective == Objective::kWealth ? office_share_gain(s, ps) : 0);
            const int limit = std::min(ps.cash, worth);
            const int bid = b.high_bid + 1;
            return bid <= limit && bid <= kMaxBid ? bid : kPass;
        }
        case Phase::kBuyShare: {
            int best = -1;
            for (int g = 0; g < kNumGoods; ++g) {
                if (b.supply[static_cast<std::size_t>(g)] == 0) continue;
                if (best < 0 || b.price(g) > b.price(best) ||
                    (b.price(g) == b.price(best) && ps.shares[static_cast<std::size_t>(g)] >
                                                        ps.shares[static_cast<std::size_t>(best)]))
                    best = g;
            }
            if (best >= 0 && std::max(kMinSharePrice, b.price(best)) <= ps.cash - 10)
                return kBuy + best;
            return kBuyNothing;
        }
        case Phase::kChooseGoods: {
            int home = 0;
            for (int g = 1; g < kNumGoods; ++g) {
                const int sg = ps.shares[static_cast<std::size_t>(g)],
                          sh = ps.shares[static_cast<std::size_t>(home)];
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
            std::stable_sort(order.begin(), order.end(),
                             [&](int x, int y) { return key(x) > key(y); });
            std::array<int, kNumBoats> start{};
            start[static_cast<std::size_t>(order[0])] = 5;
            start[static_cast<std::size_t>(order[1])] = 4;
            start[static_cast<std::size_t>(order[2])] = 0;
            for (int t = 0; t < kNumStarts; ++t)
                if (kStartSpaces[static_cast<std::size_t>(t)] == start) return kStart + t;
            throw std::logic_error("greedy: no start triple");
        }
        case Phase::kPlacement:
            return best_placement(s, objective);
        case Phase::kBoarding:
            return best_boarding(s, objective);
        case Phase::kSmallPilot:
        case Phase::kLargePilot:
            return best_pilot(s, objective);
        case Phase::kPlunder:
            return best_plunder(s, objective);
        default:
            break;
    }
    throw std::logic_error("greedy_action: no rule for this phase");
}

const std::vector<std::string>& bot_names() {
    static const std::vector<std::string> names{"random", "greedy",       "greedy-wealth",
                                                "solver", "expert",       "rollout",
                                                "sage",   "greedy-office"};
    return names;
}

const std::string& bot_name(BotKind kind) {
    const auto k = static_cast<std::size_t>(kind);
    if (k >= bot_names().size()) invalid("bot_name: unknown bot kind " + std::to_string(k));
    return bot_names()[k];
}

BotKind bot_kind_of(const std::string& name) {
    const std::vector<std::string>& names = bot_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
        std::string known;
        for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
        invalid("bots: unknown bot '" + name + "'; the built-in bots are " + known);
    }
    return static_cast<BotKind>(it - names.begin());
}

std::vector<BotKind> bot_kinds_of(const std::vector<std::string>& names) {
    std::vector<BotKind> out;
    for (const std::string& n : names) out.push_back(bot_kind_of(n));
    return out;
}

// Every decision of a rollout, a simulation or a ladder comes here: the place to check the
// cancel token (manila/cancel.hpp), once per decision.
int bot_action(BotKind kind, const GameState& s, Rng& rng) {
    check_cancelled();
    switch (kind) {
        case BotKind::kRandom:
            return random_action(s, rng);
        case BotKind::kGreedy:
            return greedy_action(s, Objective::kIncome);
        case BotKind::kGreedyWealth:
            return greedy_action(s, Objective::kWealth);
        case BotKind::kSolver:
            return solver_action(s);
        case BotKind::kExpert:
            return expert_action(s, rng);
        case BotKind::kRollout:
            return rollout_action(s, rng);
        case BotKind::kSage:
            return expert_action(s, rng, sage_config());
        case BotKind::kGreedyOffice:
            return greedy_office_action(s);
    }
    invalid("bot_action: unknown bot kind " + std::to_string(static_cast<int>(kind)));
}

bool bot_draws(BotKind kind) {
    return kind == BotKind::kRandom || kind == BotKind::kExpert || kind == BotKind::kRollout ||
           kind == BotKind::kSage;
}

// ---------------------------------------------------------------------------------------
// Play-outs

GameResult play_game(int players, const Rules& rules, std::uint64_t seed,
                     const std::vector<BotKind>& bots, bool record, bool check) {
    if (static_cast<int>(bots.size()) != players)
        invalid("bots: one bot per seat is needed, " + std::to_string(players) + " in all, got " +
                std::to_string(bots.size()));
    GameState s(players, rules, seed);
    std::vector<Rng> rngs;
    for (int p = 0; p < players; ++p)
        rngs.emplace_back(derive_seed(seed, static_cast<std::uint64_t>(p) + 1));
    while (!s.is_terminal()) {
        int a;
        if (s.is_chance_node()) {
            a = s.sample_chance();
        } else {
            const auto p = static_cast<std::size_t>(s.current_player());
            a = bot_action(bots[p], s, rngs[p]);
        }
        if (check) {
            s.apply_action(a);
            const std::vector<std::string> broken = s.check_invariants();
            if (!broken.empty()) {
                std::string all;
                for (const std::string& b : broken) all += (all.empty() ? "" : "; ") + b;
                throw std::logic_error("game seed " + std::to_string(seed) + ", after action " +
                                       std::to_string(s.history().size()) + " (" + action_name(a) +
                                       "): " + all);
            }
        } else {
            s.apply_legal(a);
        }
        if (s.history().size() > static_cast<std::size_t>(kMaxGameActions))
            throw std::runtime_error("play_game: the game does not end");
    }
    GameResult r;
    r.seed = seed;
    r.wealth = s.returns();
    r.voyages = s.voyages_completed();
    r.actions = static_cast<int>(s.history().size());
    if (record) r.history = s.history();
    return r;
}

std::vector<GameResult> play_games(int players, const Rules& rules, std::uint64_t seed,
                                   std::int64_t first, int n, const std::vector<BotKind>& bots,
                                   int threads, bool record, bool check) {
    if (n < 0) invalid("games: must be at least 0, got " + std::to_string(n));
    if (first < 0) invalid("first: must be at least 0, got " + std::to_string(first));
    check_players(players);
    if (static_cast<int>(bots.size()) != players)
        invalid("bots: one bot per seat is needed, " + std::to_string(players) + " in all, got " +
                std::to_string(bots.size()));
    if (threads < 0) invalid("threads: must be at least 0, got " + std::to_string(threads));
    std::vector<GameResult> out(static_cast<std::size_t>(n));
    if (threads == 0) threads = hardware_threads();
    parallel_for(n, threads, [&](int i) {
        out[static_cast<std::size_t>(i)] =
            play_game(players, rules, derive_seed(seed, static_cast<std::uint64_t>(first + i)),
                      bots, record, check);
    });
    return out;
}

}  // namespace manila

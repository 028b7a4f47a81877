// Analysis of a decision by rollouts with common random numbers, exact where it can be.

#include "manila/analysis.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "evaluator_internal.hpp"
#include "game_internal.hpp"
#include "manila/advice.hpp"
#include "manila/evaluator.hpp"
#include "manila/share_worth.hpp"
#include "manila/table.hpp"
#include "parallel.hpp"
#include "rollout.hpp"

namespace manila {

const char* horizon_name(Horizon h) { return h == Horizon::kVoyage ? "voyage" : "game"; }

namespace {
bool continues(BotKind k) { return !bot_draws(k); }
}  // namespace

std::vector<std::string> continuation_policies() {
    std::vector<std::string> out;
    for (const std::string& name : bot_names())
        if (continues(bot_kind_of(name))) out.push_back(name);
    return out;
}

BotKind policy_of(const std::string& name) {
    for (const std::string& p : continuation_policies())
        if (p == name) return bot_kind_of(p);
    std::string all;
    for (const std::string& p : continuation_policies()) all += (all.empty() ? "" : ", ") + p;
    invalid("policy: must be one of " + all + ", got \"" + name + "\"");
}

const char* value_source_name(ValueSource v) {
    return v == ValueSource::kLearned ? "learned" : "rollout";
}

ValueSource value_source_of(const std::string& name) {
    for (ValueSource v : {ValueSource::kLearned, ValueSource::kRollout})
        if (name == value_source_name(v)) return v;
    invalid("value: must be \"learned\" or \"rollout\", got \"" + name + "\"");
}

Horizon horizon_of(const std::string& name) {
    for (Horizon h : {Horizon::kVoyage, Horizon::kGame})
        if (name == horizon_name(h)) return h;
    invalid("horizon: must be \"voyage\" or \"game\", got \"" + name + "\"");
}

const char* decision_kind(const GameState& s) {
    if (s.is_terminal()) invalid("state: the game is over, no decision is due");
    if (s.is_chance_node()) invalid("state: chance moves next (a deal or a roll), not a player");
    switch (s.board().phase) {
        case Phase::kAuction:
            return "auction";
        case Phase::kBuyShare:
        case Phase::kChooseGoods:
        case Phase::kPlaceBoats:
            return "harbour_master";
        case Phase::kPlacement:
            return "placement";
        case Phase::kBoarding:
            return "boarding";
        case Phase::kSmallPilot:
            return "pilot_small";
        case Phase::kLargePilot:
            return "pilot_large";
        case Phase::kPlunder:
            return "plunder";
        default:
            break;
    }
    invalid(std::string("state: no decision in phase ") + phase_name(s.board().phase));
}

namespace {

// Racing: an option this many paired standard errors behind the best stops rolling.
constexpr double kRacingZ = 3.0;
// The default stop target, in pesos of payoff (voyage) or of equity (game).
constexpr double kTarget = 1.0;
// The first batch: at most this many rollouts in all, and at least this many per option.
constexpr int kFirstBatchWork = 4096;
constexpr int kMinFirstBatch = 8;

std::vector<int> decision_actions(const GameState& s) {
    std::vector<int> out;
    for (int a : s.legal_actions())
        if (a != action::kMortgage && a != action::kRepay) out.push_back(a);
    return out;
}

std::string spot_name(int id) {
    return id < kNumGoods ? good_name(id) : kSpotNames[static_cast<std::size_t>(id - kNumGoods)];
}

// The start spaces of start action a, named per sailing good ("ginseng 5, nutmeg 4, jade 0").
std::string starts_name(const GameState& s, int a) {
    const std::string full = s.action_to_string(a);  // "start ginseng 5, ..."
    return full.substr(std::string("start ").size());
}

// Part 4's names of the pilots' moves ("none", "jade+1", "ginseng+1 jade-1").
std::string pilot_option_name(int a) {
    using namespace action;
    auto one = [](int g, int d) {
        return std::string(good_name(g)) + (d > 0 ? "+" : "-") + std::to_string(std::abs(d));
    };
    if (a == kSmallNone || a == kLargeNone) return "none";
    if (a >= kSmall && a < kLargeNone) return one((a - kSmall) / 2, (a - kSmall) % 2 ? -1 : 1);
    if (a >= kLargeOne && a < kLargeTwo)
        return one((a - kLargeOne) / 4,
                   kPilotSingles[static_cast<std::size_t>((a - kLargeOne) % 4)]);
    const int k = a - kLargeTwo;
    const auto pair = kPairs[static_cast<std::size_t>(k / 4)];
    const auto d = kPilotPairs[static_cast<std::size_t>(k % 4)];
    return one(pair[0], d[0]) + " " + one(pair[1], d[1]);
}

void harbour_options(const GameState& s, const std::string& prefix, std::vector<int> actions,
                     std::vector<DecisionOption>& out) {
    const Phase phase = s.board().phase;
    for (int a : decision_actions(s)) {
        GameState next = s;
        next.apply_legal(a);
        std::vector<int> acts = actions;
        acts.push_back(a);
        if (phase == Phase::kBuyShare) {
            harbour_options(next, action_name(a) + "; ", acts, out);
        } else if (phase == Phase::kChooseGoods) {
            harbour_options(next, prefix, acts, out);
        } else {
            out.push_back({prefix + starts_name(s, a), acts});
        }
    }
}

}  // namespace

int ceiling_action(const GameState& s, int ceiling) {
    const int bid = s.board().high_bid + 1;
    return bid <= ceiling && s.is_legal(bid) ? bid : action::kPass;
}

double t95(int df) {
    if (df < 1) invalid("df: must be at least 1, got " + std::to_string(df));
    // Closed forms for 1 and 2 degrees of freedom, else the Cornish-Fisher expansion around
    // the normal quantile (within 0.004 from 3 on, closer beyond).
    constexpr double p = 0.975;
    if (df == 1) return std::tan(std::acos(-1.0) * (p - 0.5));
    if (df == 2) return (2 * p - 1) / std::sqrt(2 * p * (1 - p));
    constexpr double z = 1.959963984540054;  // the standard normal quantile of 0.975
    const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
    const double terms[] = {
        (z3 + z) / 4,
        (5 * z5 + 16 * z3 + 3 * z) / 96,
        (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384,
        (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160,
    };
    double t = z, power = 1;
    for (const double term : terms) t += term / (power *= df);
    return t;
}

std::vector<DecisionOption> decision_options(const GameState& s, int max_bids, bool ceilings) {
    if (max_bids < 0) invalid("max_bids: must be at least 0, got " + std::to_string(max_bids));
    decision_kind(s);  // checks that a player is to move
    const Board& b = s.board();
    const std::vector<int> acts = decision_actions(s);
    std::vector<DecisionOption> out;
    switch (b.phase) {
        case Phase::kAuction: {
            out.push_back({"pass", {action::kPass}});
            std::vector<int> bids(acts.begin() + 1, acts.end());
            const int n = static_cast<int>(bids.size());
            if (max_bids > 0 && n > max_bids) {
                std::vector<int> kept;
                for (int k = 0; k < max_bids; ++k) {
                    const int idx =
                        max_bids == 1
                            ? 0
                            : static_cast<int>(std::lround(static_cast<double>(k) * (n - 1) /
                                                           static_cast<double>(max_bids - 1)));
                    kept.push_back(bids[static_cast<std::size_t>(idx)]);
                }
                kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
                bids = kept;
            }
            for (int a : bids) {
                if (ceilings)
                    out.push_back({"up to " + std::to_string(a), {bids.front()}, a});
                else
                    out.push_back({action_name(a), {a}});
            }
            break;
        }
        case Phase::kBuyShare:
        case Phase::kChooseGoods:
        case Phase::kPlaceBoats:
            harbour_options(s, "", {}, out);
            break;
        case Phase::kPlacement:
            out.push_back({"decline", {action::kDecline}});
            for (int a : acts)
                if (a != action::kDecline) out.push_back({spot_name(a - action::kPlace), {a}});
            break;
        case Phase::kBoarding: {
            out.push_back({"stay", {action::kStay}});
            // Part 4's order: boats in good order, a full boat (variant) rearmost seat first.
            for (int g = 0; g < kNumGoods; ++g) {
                if (std::binary_search(acts.begin(), acts.end(), action::kBoard + g))
                    out.push_back({std::string("board ") + good_name(g), {action::kBoard + g}});
                for (int seat = kMaxSeats - 1; seat >= 0; --seat) {
                    const int a = action::kDisplace + g * kMaxSeats + seat;
                    if (std::binary_search(acts.begin(), acts.end(), a))
                        out.push_back({std::string("board ") + good_name(g) + " displace " +
                                           std::to_string(seat + 1),
                                       {a}});
                }
            }
            break;
        }
        case Phase::kSmallPilot:
        case Phase::kLargePilot:
            for (int a : acts) out.push_back({pilot_option_name(a), {a}});
            break;
        case Phase::kPlunder:
            for (int a : acts)
                out.push_back({action_name(a).substr(std::string("plunder: ").size()), {a}});
            break;
        default:
            break;
    }
    return out;
}

bool anyone_can_place(const Board& b) {
    for (int p = 0; p < b.num_players; ++p)
        if (!((b.declined >> p) & 1) && b.accomplices(p) < b.max_accomplices) return true;
    return false;
}

bool no_placement_remains(const Board& b) {
    const bool phase =
        b.phase == Phase::kRoll || b.phase == Phase::kSmallPilot || b.phase == Phase::kLargePilot;
    return phase && b.next_roll <= kNumRollsPerVoyage &&
           (b.next_roll == kNumRollsPerVoyage || !anyone_can_place(b));
}

namespace {

// The decider's expected payoff (wealth) of the voyage in progress, every decision taken
// with the shares this state holds (the truth, or the rollout's deal of the hidden ones).
double voyage_expectation(const GameState& g, int decider) {
    std::optional<Voyage> v = g.voyage();
    if (!v) throw std::logic_error("analysis: no voyage to evaluate");
    v->objective = Objective::kWealth;
    return static_cast<double>(expected_payoff(*v, decider)) /
           static_cast<double>(denominator(v->next_roll));
}

}  // namespace

// With `everyone`: as this rollout's state holds them (a sample, when the shares are
// sampled).
std::vector<double> expected_payoffs(const GameState& g, int decider, bool everyone) {
    std::vector<double> out(static_cast<std::size_t>(g.num_players()), 0.0);
    if (!everyone) {
        out[static_cast<std::size_t>(decider)] = voyage_expectation(g, decider);
        return out;
    }
    std::optional<Voyage> v = g.voyage();
    if (!v) throw std::logic_error("analysis: no voyage to evaluate");
    v->objective = Objective::kWealth;
    const std::vector<std::int64_t> all = payoffs_of(*v, next_generation());
    const auto den = static_cast<double>(denominator(v->next_roll));
    for (std::size_t p = 0; p < out.size(); ++p) out[p] = static_cast<double>(all[p]) / den;
    return out;
}

namespace {

struct Outcome {
    double value = 0;   // pesos: the payoff (voyage) or equity (game)
    double win = 0;     // game: the share of the win
    double margin = 0;  // game: final wealth minus the best other's
};

// The decider's equity, win and margin from every player's (expected) final wealth.
Outcome game_outcome(const PositionValue& v, int decider) {
    const auto d = static_cast<std::size_t>(decider);
    double best_other = -std::numeric_limits<double>::infinity();
    for (std::size_t p = 0; p < v.wealth.size(); ++p)
        if (p != d) best_other = std::max(best_other, v.wealth[p]);
    return {v.equity[d], v.win[d], v.wealth[d] - best_other};
}

// Under the analysis seed itself (rollouts use derive_seed(seed, i) for i from 0).
constexpr std::uint64_t kScreenKey = 0x5C4EE7ULL << 32;

Outcome play_out(GameState g, const DecisionOption& option, int decider, const AnalysisConfig& c,
                 std::uint64_t key) {
    const int root_voyage = g.board().voyage;
    const int n = g.num_players();
    const std::vector<int> w0 = g.returns();
    // Voyage horizon: the decider's change of wealth, or (relative) that minus the mean of
    // the others' changes.
    auto voyage_value = [&](const std::vector<double>& expected) {
        const std::vector<int> w = g.returns();
        auto delta = [&](int p) {
            const auto q = static_cast<std::size_t>(p);
            return w[q] - w0[q] + (expected.empty() ? 0.0 : expected[q]) +
                   (c.final_worth ? share_premium(g.board(), p) : 0.0);
        };
        double value = delta(decider);
        if (c.relative) {
            double others = 0;
            for (int p = 0; p < n; ++p)
                if (p != decider) others += delta(p);
            value -= others / (n - 1);
        }
        return Outcome{value, 0, 0};
    };
    for (int a : option.actions) g.apply_legal(a);
    RolloutLuck luck(key, g.num_players());
    std::size_t moves = 0;
    while (!g.is_terminal()) {
        const Board& b = g.board();
        if (option.ceiling >= 0 && b.phase == Phase::kAuction && b.voyage == root_voyage &&
            b.current == decider) {
            g.apply_legal(ceiling_action(g, option.ceiling));
            continue;
        }
        if (c.horizon == Horizon::kVoyage) {
            if (b.voyage != root_voyage) break;
            if (c.exact_shortcut && !c.final_worth && no_placement_remains(b))
                return voyage_value(expected_payoffs(g, decider, c.relative));
        } else if (c.value == ValueSource::kLearned && exact_from_here(g)) {
            return game_outcome(
                value_to_boundary(g, c.model ? *c.model : shipped_value_model(), c.policy),
                decider);
        }
        const int a = luck.next(g, c.policy);
        g.apply_legal(a);
        if (++moves > static_cast<std::size_t>(kMaxGameActions))
            throw std::runtime_error("analysis: a rollout does not end");
    }
    if (c.horizon == Horizon::kVoyage) return voyage_value({});
    return game_outcome(final_value(g), decider);
}

// Part 4's values of the options, numerators over one denominator, for the shares the state
// holds (everyone's); nothing where part 4 has no exact answer.
struct ExactNumerators {
    std::vector<std::int64_t> num;
    std::int64_t den = 1;
};

std::optional<ExactNumerators> exact_numerators(const GameState& s, int d,
                                                const std::vector<DecisionOption>& options,
                                                int threads) {
    const Board& b = s.board();
    // Numerators over one denominator, so that differences are as exact as part 4's.
    std::vector<std::int64_t> num;
    std::int64_t den = 1;
    // Every decider knows their own shares: part 4 from the state's true ones.
    const auto true_voyage = [&] {
        Voyage v = s.voyage().value();
        v.objective = Objective::kWealth;
        return v;
    };
    auto by_name = [&](const std::vector<std::string>& names,
                       const std::vector<std::vector<std::int64_t>>& payoffs,
                       std::int64_t denominator) -> bool {
        den = denominator;
        for (const DecisionOption& o : options) {
            const auto it = std::find(names.begin(), names.end(), o.name);
            if (it == names.end()) return false;
            num.push_back(
                payoffs[static_cast<std::size_t>(it - names.begin())][static_cast<std::size_t>(d)]);
        }
        return true;
    };
    bool ok = false;
    switch (b.phase) {
        case Phase::kPlunder:
            // Settled at once: the value is the change of wealth.
            for (const DecisionOption& o : options) {
                GameState c = s;
                for (int a : o.actions) c.apply_legal(a);
                num.push_back(c.wealth(d) - s.wealth(d));
            }
            ok = true;
            break;
        case Phase::kSmallPilot:
        case Phase::kLargePilot: {
            const Voyage v = true_voyage();
            const DecisionAdvice a = advise_pilot(v, b.phase == Phase::kLargePilot);
            ok = by_name(a.names, a.payoffs, a.denominator);
            break;
        }
        case Phase::kBoarding: {
            if (anyone_can_place(b)) return std::nullopt;  // a placement round follows
            const Voyage v = true_voyage();
            DecisionAdvice a;
            if (b.decider == 0)
                a = advise_boarding(v, false);
            else if (b.on_ship & 1)
                a = advise_boarding(v, true);
            else
                a = advise_boarding(v, false, b.guard_boat, b.guard_seat);
            ok = by_name(a.names, a.payoffs, a.denominator);
            break;
        }
        case Phase::kPlacement: {
            if (b.next_roll != kNumRollsPerVoyage) return std::nullopt;
            const Voyage v = true_voyage();
            std::vector<int> movers;
            for (int k = b.turn; k < b.num_players; ++k) {
                const int p = (b.harbour_master + k) % b.num_players;
                if (!((b.declined >> p) & 1) && b.accomplices(p) < b.max_accomplices)
                    movers.push_back(p);
            }
            if (movers.empty() || movers.front() != d) return std::nullopt;
            const PlacementAdvice a = advise_placement(v, movers, threads);
            // The decider's payoff after declining and the others' best replies.
            std::int64_t declined = 0;
            if (movers.size() == 1) {
                declined = expected_payoff(v, d);
            } else {
                const std::vector<int> rest(movers.begin() + 1, movers.end());
                declined = advise_placement(v, rest, threads).payoffs[static_cast<std::size_t>(d)];
            }
            for (const DecisionOption& o : options) {
                const int id = placement_spot(o.actions.front());
                std::size_t k = 0;
                while (k < a.options.size() && a.options[k].id != id) ++k;
                if (k == a.options.size()) return std::nullopt;
                num.push_back(declined + a.net[k]);
                den = a.denominator;
            }
            ok = true;
            break;
        }
        default:
            break;
    }
    if (!ok) return std::nullopt;
    return ExactNumerators{std::move(num), den};
}

// Exact values as the analysis reports them: doubles from the exact fractions at the end.
std::vector<OptionValue> exact_option_values(const ExactNumerators& e) {
    std::vector<OptionValue> out(e.num.size());
    for (std::size_t k = 0; k < e.num.size(); ++k) {
        out[k].mean = static_cast<double>(e.num[k]) / static_cast<double>(e.den);
        out[k].diff = static_cast<double>(e.num[k] - e.num[0]) / static_cast<double>(e.den);
        out[k].exact = true;
    }
    return out;
}

// Part 4's exact values where they exist (horizon voyage); nothing where they do not. From
// the decider's view (`hidden`), the expectation over every deal of the shares the decider
// cannot see, each part 4's for that deal, weighted by its shuffles.
std::optional<std::vector<OptionValue>> exact_values(const GameState& s, int d,
                                                     const std::vector<DecisionOption>& options,
                                                     bool hidden, int threads) {
    if (!hidden) {
        const std::optional<ExactNumerators> e = exact_numerators(s, d, options, threads);
        if (!e) return std::nullopt;
        return exact_option_values(*e);
    }
    const std::vector<HiddenDeal> deals = hidden_deals(s.board(), d);
    std::vector<std::optional<ExactNumerators>> each(deals.size());
    parallel_for(static_cast<int>(deals.size()), threads, [&](int k) {
        const auto i = static_cast<std::size_t>(k);
        each[i] = exact_numerators(GameState::from_board(deals[i].board, s.seed()), d, options, 1);
    });
    ExactNumerators sum;
    sum.num.assign(options.size(), 0);
    std::int64_t shuffles = 0, largest = 0;
    for (std::size_t i = 0; i < deals.size(); ++i) {
        if (!each[i]) return std::nullopt;
        if (each[i]->den != each[0]->den)
            throw std::logic_error("analysis: part 4's denominators differ between deals");
        shuffles += static_cast<std::int64_t>(deals[i].weight);
        for (std::int64_t x : each[i]->num) largest = std::max(largest, x < 0 ? -x : x);
    }
    // Each sum below is at most shuffles * largest in size (the weights sum to shuffles), and
    // the diffs take one from another.
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    if (largest > kMax / 2 / shuffles || each[0]->den > kMax / shuffles)
        throw std::overflow_error("analysis: the deals' weighted values overflow 64 bits");
    for (std::size_t i = 0; i < deals.size(); ++i)
        for (std::size_t k = 0; k < options.size(); ++k)
            sum.num[k] += static_cast<std::int64_t>(deals[i].weight) * each[i]->num[k];
    sum.den = each[0]->den * shuffles;
    return exact_option_values(sum);
}

void check_config(const AnalysisConfig& c) {
    if (c.rollouts < 0 || (c.rollouts > 0 && c.rollouts < kMinRollouts))
        invalid("rollouts: must be 0 (the stop rule) or at least " + std::to_string(kMinRollouts) +
                ", got " + std::to_string(c.rollouts));
    if (c.max_rollouts < kMinRollouts)
        invalid("max_rollouts: must be at least " + std::to_string(kMinRollouts) + ", got " +
                std::to_string(c.max_rollouts));
    if (!(c.time_limit >= 0)) invalid("time_limit: must be at least 0 seconds");
    if (!(c.target >= 0)) invalid("target: must be at least 0");
    if (c.batch < 2) invalid("batch: must be at least 2, got " + std::to_string(c.batch));
    if (c.threads < 0) invalid("threads: must be at least 0, got " + std::to_string(c.threads));
    if (c.horizon != Horizon::kVoyage && c.horizon != Horizon::kGame)
        invalid("horizon: must be voyage or game");
    if (c.value != ValueSource::kLearned && c.value != ValueSource::kRollout)
        invalid("value: must be learned or rollout");
    if (!continues(c.policy)) invalid("policy: random and expert cannot continue a rollout");
}

// The harbour master's options by their exact voyage value with no placement at all (the
// share's cost and the share gains of the start spaces, the one part of the value that
// needs no rollout), highest first, ties in option order. Always at today's prices, even
// for final_worth: with the premium of the share bought in the screen too, the expert won
// 0.185 of 400 games against three solvers instead of 0.264.
std::vector<std::size_t> screen_order(const GameState& s,
                                      const std::vector<DecisionOption>& options,
                                      const AnalysisConfig& c) {
    const int d = s.current_player();
    std::vector<std::pair<double, std::size_t>> proxy;
    // The screen values the others' shares too (relative): from one sampled deal when
    // the decider may not see them.
    GameState root = s;
    if (c.sample_hidden) {
        Board board = s.board();
        Rng r(derive_seed(c.seed, kScreenKey));
        resample_hidden(board, d, r);
        root = GameState::from_board(board, s.seed());
    }
    for (std::size_t k = 0; k < options.size(); ++k) {
        GameState g = root;
        for (int a : options[k].actions) g.apply_legal(a);
        const std::vector<double> e = expected_payoffs(g, d, c.relative);
        auto delta = [&](int p) {
            return g.wealth(p) - root.wealth(p) + e[static_cast<std::size_t>(p)];
        };
        double value = delta(d);
        if (c.relative) {
            double others = 0;
            for (int p = 0; p < s.num_players(); ++p)
                if (p != d) others += delta(p);
            value -= others / (s.num_players() - 1);
        }
        proxy.push_back({value, k});
    }
    std::stable_sort(proxy.begin(), proxy.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    std::vector<std::size_t> out;
    for (const auto& [value, k] : proxy) out.push_back(k);
    return out;
}

}  // namespace

// The best option's gain over option 0 free of the winner's curse: the best of many noisy
// means is biased upwards (with a harbour master's dozens of options, by pesos), so the best
// is picked on the even rollouts and its paired gain measured on the odd ones, and the other
// way round, the two averaged (each option's rollouts are a prefix of the same keys, so the
// halves are paired across options).
std::pair<double, double> split_gain(const std::vector<std::vector<double>>& values) {
    if (values.empty()) invalid("values: at least one option (the chosen) is needed");
    if (values[0].size() < 4) {
        // A half of one rollout has no spread to measure (its interval would read 0): the
        // best by every rollout against the chosen, paired, biased up but honest in width.
        std::size_t pick = 0;
        double top = -std::numeric_limits<double>::infinity();
        const std::size_t n = values[0].size();
        for (std::size_t k = 0; k < values.size(); ++k) {
            if (values[k].size() < n) continue;  // an option raced out early
            const double m = mean_of(values[k], n);
            if (m > top) top = m, pick = k;
        }
        const Moments m = moments(values[pick], n, &values[0]);
        return {m.mean, m.ci95};
    }
    double mean = 0, variance = 0;
    for (std::size_t half = 0; half < 2; ++half) {
        std::size_t pick = 0;
        double top = -std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < values.size(); ++k) {
            double sum = 0;
            std::size_t n = 0;
            for (std::size_t i = half; i < values[k].size(); i += 2) sum += values[k][i], ++n;
            if (n > 0 && sum / static_cast<double>(n) > top)
                top = sum / static_cast<double>(n), pick = k;
        }
        std::vector<double> gains;
        const std::size_t n = std::min(values[pick].size(), values[0].size());
        for (std::size_t i = 1 - half; i < n; i += 2)
            gains.push_back(values[pick][i] - values[0][i]);
        const Moments m = moments(gains, gains.size());
        mean += m.mean / 2;
        variance += m.ci95 * m.ci95 / 4;
    }
    return {mean, std::sqrt(variance)};
}

// The analysis of the given options of the decision due in s (the config checked).
Analysis analyse_options(const GameState& s, std::vector<DecisionOption> options,
                         const AnalysisConfig& config, const AnalysisProgress& progress) {
    check_config(config);
    const auto started = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    Analysis out;
    out.config = config;
    if (out.config.target == 0) out.config.target = kTarget;
    const AnalysisConfig& c = out.config;
    out.kind = decision_kind(s);
    out.decider = s.current_player();
    out.options = std::move(options);
    const int d = out.decider;
    if (c.screen < 0) invalid("screen: must be at least 0, got " + std::to_string(c.screen));
    if (c.screen > 0 && out.kind == std::string("harbour_master") &&
        out.options.size() > static_cast<std::size_t>(c.screen)) {
        const std::vector<std::size_t> order = screen_order(s, out.options, c);
        // The kept ones stay in option order.
        std::vector<std::size_t> keep;
        if (c.keep_first) keep.push_back(0);
        for (std::size_t k = 0;
             k < order.size() && keep.size() < static_cast<std::size_t>(c.screen); ++k)
            if (!c.keep_first || order[k] != 0) keep.push_back(order[k]);
        std::sort(keep.begin(), keep.end());
        std::vector<DecisionOption> kept;
        for (std::size_t k : keep) kept.push_back(out.options[k]);
        out.screened_out = static_cast<int>(out.options.size() - kept.size());
        out.options = std::move(kept);
    }
    const std::size_t K = out.options.size();
    const int threads = c.threads == 0 ? hardware_threads() : c.threads;

    if (c.horizon == Horizon::kVoyage && c.exact_answers && !c.final_worth) {
        if (auto exact = exact_values(s, d, out.options, c.sample_hidden, threads)) {
            out.values = std::move(*exact);
            out.exact = true;
            out.stop = "exact";
        }
    }
    if (!out.exact) {
        std::vector<std::vector<double>> values(K), wins(K), margins(K);
        std::vector<char> active(K, 1);
        int done = 0;
        const int fixed = c.rollouts;
        out.stop = fixed ? "rollouts" : "max_rollouts";
        auto paired = [&](int x, int y) {
            const auto& vx = values[static_cast<std::size_t>(x)];
            const auto& vy = values[static_cast<std::size_t>(y)];
            return moments(vx, std::min(vx.size(), vy.size()), &vy);
        };
        // The best option by mean, and the best other that is not the same as it in every
        // rollout (a bid the others outbid anyway plays out as the bid below it): ranking
        // equals tells nothing. Only options still racing count: one dropped is already
        // told apart from the best, and its few rollouts would hold the gap wide forever.
        auto best_two = [&](int& best, int& second) {
            std::vector<double> means(K, -std::numeric_limits<double>::infinity());
            for (std::size_t k = 0; k < K; ++k)
                if (active[k]) means[k] = mean_of(values[k], values[k].size());
            best = static_cast<int>(std::max_element(means.begin(), means.end()) - means.begin());
            second = -1;
            for (std::size_t k = 0; k < K; ++k) {
                if (static_cast<int>(k) == best || !active[k]) continue;
                if (second >= 0 && means[k] <= means[static_cast<std::size_t>(second)]) continue;
                const auto& vk = values[k];
                const auto& vb = values[static_cast<std::size_t>(best)];
                const std::size_t n = std::min(vk.size(), vb.size());
                if (std::equal(vk.begin(), vk.begin() + static_cast<std::ptrdiff_t>(n), vb.begin()))
                    continue;
                second = static_cast<int>(k);
            }
        };
        while (true) {
            const int goal = fixed ? fixed : c.max_rollouts;
            // With many options (the harbour master's hundreds) the first batch is smaller,
            // so that racing can drop the clearly worse ones early.
            const int first =
                std::max(kMinFirstBatch, std::min(c.batch, kFirstBatchWork / static_cast<int>(K)));
            const int n = std::min(done == 0 && !fixed ? first : c.batch, goal - done);
            if (n <= 0) break;
            // The base state of each rollout of the batch (the hidden shares dealt anew).
            std::vector<GameState> bases;
            bases.reserve(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                if (!c.sample_hidden) {
                    bases.push_back(s);
                    continue;
                }
                Board board = s.board();
                Rng r(derive_seed(derive_seed(c.seed, static_cast<std::uint64_t>(done + i)),
                                  kHiddenKey));
                resample_hidden(board, d, r);
                bases.push_back(GameState::from_board(board, s.seed()));
            }
            std::vector<int> live;
            for (std::size_t k = 0; k < K; ++k)
                if (active[k]) {
                    live.push_back(static_cast<int>(k));
                    values[k].resize(static_cast<std::size_t>(done + n));
                    wins[k].resize(static_cast<std::size_t>(done + n));
                    margins[k].resize(static_cast<std::size_t>(done + n));
                }
            const int work = static_cast<int>(live.size()) * n;
            parallel_for(work, threads, [&](int w) {
                const auto k = static_cast<std::size_t>(live[static_cast<std::size_t>(w / n)]);
                const int i = w % n;
                const std::uint64_t key = derive_seed(c.seed, static_cast<std::uint64_t>(done + i));
                const Outcome o =
                    play_out(bases[static_cast<std::size_t>(i)], out.options[k], d, c, key);
                values[k][static_cast<std::size_t>(done + i)] = o.value;
                wins[k][static_cast<std::size_t>(done + i)] = o.win;
                margins[k][static_cast<std::size_t>(done + i)] = o.margin;
            });
            done += n;
            int best = 0, second = -1;
            best_two(best, second);
            out.best_gap_ci95 = second < 0 ? 0.0 : paired(best, second).ci95;
            if (progress && !progress(done, out.best_gap_ci95)) {
                out.stop = "cancelled";
                break;
            }
            if (fixed) continue;
            if (K == 1) {
                out.stop = "forced";
                break;
            }
            if (out.best_gap_ci95 <= c.target) {
                out.stop = "target";
                break;
            }
            if (c.time_limit > 0 && elapsed() >= c.time_limit) {
                out.stop = "time";
                break;
            }
            if (c.racing && done >= 2 * kMinFirstBatch)
                for (std::size_t k = 1; k < K; ++k) {
                    if (!active[k] || static_cast<int>(k) == best) continue;
                    const auto p = paired(static_cast<int>(k), best);
                    if (p.mean + kRacingZ * p.se < 0) active[k] = 0;
                }
        }
        // The office's worth: the highest ceiling at least as good as passing, paired (a
        // ceiling the others outbid at once plays out exactly as passing does).
        const auto pass = std::find_if(out.options.begin(), out.options.end(),
                                       [](const DecisionOption& o) { return o.name == "pass"; });
        if (pass != out.options.end()) {
            const int p = static_cast<int>(pass - out.options.begin());
            for (std::size_t k = 0; k < K; ++k)
                if (out.options[k].ceiling >= 0) {
                    out.worth = std::max(out.worth, 0);
                    if (paired(static_cast<int>(k), p).mean >= 0)
                        out.worth = std::max(out.worth, out.options[k].ceiling);
                }
        }
        std::tie(out.best_gain, out.best_gain_ci95) = split_gain(values);
        out.values.resize(K);
        for (std::size_t k = 0; k < K; ++k) {
            OptionValue& v = out.values[k];
            const std::size_t n = values[k].size();
            const Moments m = moments(values[k], n, nullptr);
            const Moments df = moments(values[k], std::min(n, values[0].size()), &values[0]);
            v.mean = m.mean;
            v.ci95 = m.ci95;
            v.diff = df.mean;
            v.diff_ci95 = df.ci95;
            if (c.horizon == Horizon::kGame) {
                const Moments w = moments(wins[k], n, nullptr);
                const Moments mg = moments(margins[k], n, nullptr);
                v.win = w.mean;
                v.win_ci95 = w.ci95;
                v.margin = mg.mean;
                v.margin_ci95 = mg.ci95;
            }
            v.rollouts = static_cast<int>(n);
            out.rollouts = std::max(out.rollouts, v.rollouts);
        }
    }
    out.best = 0;
    for (std::size_t k = 1; k < K; ++k)
        if (out.values[k].mean > out.values[static_cast<std::size_t>(out.best)].mean)
            out.best = static_cast<int>(k);
    out.seconds = elapsed();
    return out;
}

Analysis analyse_decision(const GameState& s, const AnalysisConfig& config,
                          const AnalysisProgress& progress) {
    return analyse_options(s, decision_options(s, config.max_bids), config, progress);
}

// ---------------------------------------------------------------------------------------
// The expert bot

namespace {

// One decision's worth of memory per thread: the limit of its bids in the auction in
// progress, and the harbour master's chosen option (its actions from the phase it was
// chosen in). Each is keyed by what it was computed from (the view's key below and the
// seat's generator) and by the bot's configuration, so two experts on one thread, even of
// two games, and an expert and a sage asked with generators in the same state, read only
// what they would have computed themselves.
struct ExpertMemory {
    std::uint64_t auction_key = 0, auction_config = 0;
    int office_limit = 0;
    std::uint64_t master_key = 0, master_config = 0;
    Phase master_phase = Phase::kBuyShare;
    std::vector<int> master_plan;
};
thread_local ExpertMemory memory;

// Every field of the configuration, hashed. It is kept apart from the voyage's key, which
// also seeds the rollouts: mixing it in would change every expert's and sage's play. The
// structured binding names every field: a field added to ExpertConfig and not hashed here
// does not compile.
std::uint64_t config_key(const ExpertConfig& e) {
    const auto& [policy, office_rollouts, office_share, master_rollouts, master_screen, final_worth,
                 placement_turns, placement_options, placement_rollouts, learned_value] = e;
    std::uint64_t k = derive_seed(0x5a6e, static_cast<std::uint64_t>(policy));
    auto add = [&](std::uint64_t v) { k = derive_seed(k, v); };
    auto add_real = [&](double v) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        add(bits);
    };
    add(static_cast<std::uint64_t>(office_rollouts));
    for (double x : office_share) add_real(x);
    add(static_cast<std::uint64_t>(master_rollouts));
    add(static_cast<std::uint64_t>(master_screen));
    add(final_worth);
    for (std::size_t t : placement_turns) add(t);
    add(static_cast<std::uint64_t>(placement_options));
    add(static_cast<std::uint64_t>(placement_rollouts));
    add(learned_value);
    return k;
}

// The voyage's identity for one player, salted with the seat's generator, which the expert
// reads but never advances (so that a decision taken from memory leaves the seat as a
// decision computed afresh would): cash and prices do not change during the auction and
// the harbour master's choices, and the voyage number tells voyages apart.
std::uint64_t voyage_key(const GameState& s, const Rng& rng, int tag) {
    const Board& b = s.board();
    std::uint64_t k = derive_seed(rng.state(), static_cast<std::uint64_t>(b.voyage * 8 + tag));
    for (int p = 0; p < b.num_players; ++p)
        k = derive_seed(k, static_cast<std::uint64_t>(b.players[static_cast<std::size_t>(p)].cash));
    for (int g = 0; g < kNumGoods; ++g)
        k = derive_seed(k, static_cast<std::uint64_t>(b.price_step[static_cast<std::size_t>(g)]));
    return k;
}

AnalysisConfig expert_rollouts(const ExpertConfig& e, int rollouts, std::uint64_t seed) {
    AnalysisConfig c;
    c.horizon = e.learned_value ? Horizon::kGame : Horizon::kVoyage;
    c.policy = e.policy;
    c.seed = seed;
    c.rollouts = rollouts;
    c.threads = 1;           // the ladder plays games on every thread already
    c.sample_hidden = true;  // a bot sees only its own view
    c.relative = true;       // a game is won against the others
    c.racing = false;
    c.final_worth = e.final_worth && !e.learned_value;
    return c;
}

}  // namespace

ExpertConfig sage_config() {
    ExpertConfig e;
    e.learned_value = true;
    // The learned value rates winning the office over passing lower than the expert's
    // rollouts to the voyage's end do, so the sage bids beyond its estimate; docs/value.md
    // has the shares measured (5 players: 4 players').
    e.office_share = {1.6, 1.2, 1.2};
    return e;
}

namespace {

// What the player to move bids up to for the office, in pesos: its `office_share` of what
// winning it is worth, which is becoming harbour master now for nothing (everyone else
// passes at once) against passing, to the end of the voyage, the same dice for both. The
// office is worth what its holder makes of it, so the rollouts take the screen's first
// combination (a cheap stand-in for the expert's own choice): the continuation policy's
// crude choices would undervalue it.
int office_limit(const GameState& s, const ExpertConfig& e, std::uint64_t seed) {
    const Board& b = s.board();
    const int me = b.current;
    const int bid = b.high_bid + 1;
    std::vector<DecisionOption> options{{"pass", {action::kPass}}};
    if (bid <= std::min(action::kMaxBid, b.players[static_cast<std::size_t>(me)].capacity())) {
        DecisionOption win{"win", {bid}};
        GameState g = s;
        g.apply_legal(bid);
        while (g.board().phase == Phase::kAuction) {
            win.actions.push_back(action::kPass);
            g.apply_legal(action::kPass);
        }
        if (g.board().phase == Phase::kBuyShare) {
            const AnalysisConfig plan = expert_rollouts(e, 0, seed);
            const std::vector<DecisionOption> master = decision_options(g, 0);
            const std::vector<int>& best = master[screen_order(g, master, plan).front()].actions;
            win.actions.insert(win.actions.end(), best.begin(), best.end());
        }
        options.push_back(win);
    }
    if (options.size() == 1) return 0;
    const Analysis a = analyse_options(s, options, expert_rollouts(e, e.office_rollouts, seed), {});
    // The win's value has the bid paid: the office itself is worth that much more.
    const double share = e.office_share[static_cast<std::size_t>(s.num_players() - kMinPlayers)];
    return static_cast<int>(std::floor(share * (a.values[1].mean - a.values[0].mean + bid)));
}

// What bidding `bid` costs: the bid and the interest on the loans it forces.
int bid_cost(const PlayerState& ps, int bid) {
    if (bid <= ps.cash) return bid;
    const int loans = (bid - ps.cash + kLoanAmount - 1) / kLoanAmount;
    return bid + loans * (kRepayAmount - kLoanAmount);
}

// A placement before the last round: the round search's `placement_options` best options,
// each valued anew by paired rollouts that play the later rounds out. The search's horizon
// is the end of this round, as if nobody placed after it: a first accomplice's worth
// depends on who joins the boat or takes the ports later. The search's best is option 0,
// so that the rollouts keep it unless another does better.
int placement_by_rollouts(const GameState& s, const PlacementAdvice& a, const ExpertConfig& e,
                          const Rng& rng) {
    std::vector<std::size_t> order(a.options.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    // Ties keep the search's order (decline, then the canonical spot order), as its best does.
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return a.net[x] > a.net[y]; });
    std::vector<DecisionOption> options;
    for (std::size_t k : order) {
        if (static_cast<int>(options.size()) == e.placement_options) break;
        const int act = placement_action(a.options[k].id);
        if (s.is_legal(act)) options.push_back({action_name(act), {act}});
    }
    if (options.empty()) throw std::logic_error("expert: no legal placement among the search's");
    if (options.size() == 1) return options.front().actions.front();
    // Keyed by the view, the seat's generator, and the round and the accomplices left, which
    // tell this decision from the voyage's others.
    const Board& b = s.board();
    const std::uint64_t key =
        derive_seed(voyage_key(s, rng, 0),
                    static_cast<std::uint64_t>(b.next_roll * 8 + b.accomplices(b.current)));
    AnalysisConfig c = expert_rollouts(e, e.placement_rollouts, key);
    // Today's prices, and so the exact shortcut: with the final worth it won 0.417 of 600
    // games against two solvers, at today's prices 0.432.
    c.final_worth = false;
    const Analysis r = analyse_options(s, options, c, {});
    return options[static_cast<std::size_t>(r.best)].actions.front();
}

}  // namespace

int expert_action(const GameState& s, Rng& rng, const ExpertConfig& e) {
    if (s.is_terminal() || s.is_chance_node()) invalid("expert_action: no player to move");
    const Board& b = s.board();
    const int me = b.current;
    switch (b.phase) {
        case Phase::kAuction: {
            const std::uint64_t key = voyage_key(s, rng, 1 + me), config = config_key(e);
            if (memory.auction_key != key || memory.auction_config != config) {
                memory.auction_key = key;
                memory.auction_config = config;
                memory.office_limit = office_limit(s, e, key);
            }
            const int bid = b.high_bid + 1;
            const PlayerState& ps = b.players[static_cast<std::size_t>(me)];
            if (bid <= std::min(action::kMaxBid, ps.capacity()) &&
                bid_cost(ps, bid) < memory.office_limit)
                return bid;
            return action::kPass;
        }
        case Phase::kBuyShare:
        case Phase::kChooseGoods:
        case Phase::kPlaceBoats: {
            // The plan's actions are the harbour master's phases in order from the one it was
            // chosen in (buying a share, the goods, the start spaces).
            const std::uint64_t key = voyage_key(s, rng, 7), config = config_key(e);
            const auto step = static_cast<std::size_t>(static_cast<int>(b.phase) -
                                                       static_cast<int>(memory.master_phase));
            if (memory.master_key != key || memory.master_config != config ||
                step >= memory.master_plan.size() || !s.is_legal(memory.master_plan[step])) {
                AnalysisConfig c = expert_rollouts(e, e.master_rollouts, key);
                c.screen = e.master_screen;
                const Analysis a = analyse_decision(s, c);
                memory.master_key = key;
                memory.master_config = config;
                memory.master_phase = b.phase;
                memory.master_plan = a.options[static_cast<std::size_t>(a.best)].actions;
                return memory.master_plan.front();
            }
            return memory.master_plan[step];
        }
        case Phase::kPlacement: {
            // Part 4's round search over the next turns of this round (all of them before
            // roll 3), from its own view: later players are left out, as if they declined.
            const std::size_t turns =
                e.placement_turns[static_cast<std::size_t>(std::min(b.next_roll, 3) - 1)];
            if (turns == 0) return bot_action(e.policy, s, rng);
            std::vector<int> movers;
            for (int k = b.turn; k < b.num_players && movers.size() < turns; ++k) {
                const int p = (b.harbour_master + k) % b.num_players;
                if (!((b.declined >> p) & 1) && b.accomplices(p) < b.max_accomplices)
                    movers.push_back(p);
            }
            const Voyage v = voyage_of(s, me, Objective::kWealth).value();
            const PlacementAdvice a = advise_placement(v, movers, 1);
            if (b.next_roll < kNumRollsPerVoyage && e.placement_options > 1)
                return placement_by_rollouts(s, a, e, rng);
            const int act = placement_action(a.options[static_cast<std::size_t>(a.best)].id);
            return s.is_legal(act) ? act : bot_action(e.policy, s, rng);
        }
        default:
            return bot_action(e.policy, s, rng);
    }
}

int rollout_action(const GameState& s, Rng& rng) {
    if (s.is_terminal() || s.is_chance_node()) invalid("rollout_action: no player to move");
    constexpr int kBids = 6;               // pass and six bids from the lowest to the highest
    constexpr int kRolloutsPerOption = 8;  // few: it has to be fast enough for a ladder
    constexpr int kMasterScreen = 8;       // harbour master: the screen's best combinations
    // Single bids, as it always bid (it is kept as it was built: an opponent to test against).
    const std::vector<DecisionOption> options = decision_options(s, kBids, false);
    if (options.size() == 1) return options.front().actions.front();
    AnalysisConfig c;
    c.horizon = Horizon::kVoyage;
    c.policy = BotKind::kGreedy;
    c.seed = rng.next();
    c.rollouts = kRolloutsPerOption;
    c.threads = 1;
    c.exact_answers = false;
    c.sample_hidden = true;
    c.relative = true;
    c.racing = false;
    c.screen = kMasterScreen;
    const Analysis a = analyse_options(s, options, c, {});
    return a.options[static_cast<std::size_t>(a.best)].actions.front();
}

}  // namespace manila

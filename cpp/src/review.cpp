// Review of a recorded game: the analysis of every decision, the luck of every chance event.

#include "manila/review.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "game_internal.hpp"
#include "manila/bots.hpp"
#include "parallel.hpp"
#include "rollout.hpp"

namespace manila {

namespace {

constexpr std::uint64_t kLuckKey = 0x6c75636b;  // the luck rollouts' seeds apart

bool is_loan(int a) { return a == action::kMortgage || a == action::kRepay; }

bool harbour_phase(Phase p) {
    return p == Phase::kBuyShare || p == Phase::kChooseGoods || p == Phase::kPlaceBoats;
}

// The actions from history[i] on that make the decision due at state s (loans skipped):
// one, or the harbour master's share, goods and start spaces; `last` the index of the
// last of them.
std::vector<int> chosen_actions(const GameState& s, const std::vector<int>& history, std::size_t i,
                                std::size_t& last) {
    std::vector<int> out;
    GameState g = s;
    const bool harbour = harbour_phase(g.board().phase);
    for (std::size_t k = i; k < history.size(); ++k) {
        const int a = history[k];
        if (!g.is_legal(a)) break;  // reported by the replay
        g.apply_legal(a);
        last = k;
        if (is_loan(a)) continue;
        out.push_back(a);
        if (!harbour || !harbour_phase(g.board().phase)) break;
    }
    return out;
}

std::string history_error(std::size_t i, const GameState& s, int a) {
    std::string name = a >= 0 && a < action::kNumActions ? " (" + action_name(a) + ")" : "";
    std::string reason = s.illegal_reason(a);
    return "history[" + std::to_string(i) + "]: action " + std::to_string(a) + name +
           " is illegal: " + (reason.empty() ? "no such action" : reason);
}

// The luck of chance action a at state s for every player.
ChanceLuck event_luck(const GameState& s, int a, std::size_t index, const ReviewConfig& config) {
    const AnalysisConfig& c = config.analysis;
    const Board& b = s.board();
    ChanceLuck out;
    out.index = static_cast<int>(index);
    out.voyage = std::max(1, b.voyage);
    out.action = a;
    out.kind = b.phase == Phase::kDeal ? "deal" : "roll";
    const auto n = static_cast<std::size_t>(s.num_players());
    GameState after = s;
    after.apply_legal(a);
    // A policy that draws nothing from its generator (bot_draws): one rollout without chance
    // is all.
    const bool deterministic = !bot_draws(c.policy);
    const std::uint64_t base = derive_seed(c.seed, kLuckKey);
    // The first rollout tells whether any chance is left: if not, both sides are exact.
    bool sampled_before = false, sampled_after = false;
    const std::vector<double> b0 =
        rollout_values(s, c, out.voyage, derive_seed(base, 0), sampled_before);
    const std::vector<double> a0 =
        rollout_values(after, c, out.voyage, derive_seed(base, 0), sampled_after);
    if (!sampled_before && !sampled_after && deterministic) {
        // The rollout from s took the exact expectation at once (no chance drawn either).
        out.exact = true;
        out.before = b0;
        out.after = a0;
        out.luck.resize(n);
        out.luck_ci95.assign(n, 0.0);
        for (std::size_t p = 0; p < n; ++p) out.luck[p] = a0[p] - b0[p];
        return out;
    }
    const int rollouts = config.luck_rollouts;
    std::vector<std::vector<double>> before(n, std::vector<double>(rollouts)),
        diff(n, std::vector<double>(rollouts)), aft(n, std::vector<double>(rollouts));
    const int threads = c.threads == 0 ? hardware_threads() : c.threads;
    parallel_for(rollouts, threads, [&](int i) {
        const std::uint64_t key = derive_seed(base, static_cast<std::uint64_t>(i));
        bool sb = false, sa = false;
        const std::vector<double> vb = i == 0 ? b0 : rollout_values(s, c, out.voyage, key, sb);
        const std::vector<double> va = i == 0 || (!sampled_after && deterministic)
                                           ? a0
                                           : rollout_values(after, c, out.voyage, key, sa);
        for (std::size_t p = 0; p < n; ++p) {
            const auto k = static_cast<std::size_t>(i);
            before[p][k] = vb[p];
            aft[p][k] = va[p];
            diff[p][k] = va[p] - vb[p];
        }
    });
    for (std::size_t p = 0; p < n; ++p) {
        const Moments m = moments(diff[p], diff[p].size());
        out.luck.push_back(m.mean);
        out.luck_ci95.push_back(m.ci95);
        out.before.push_back(mean_of(before[p], before[p].size()));
        out.after.push_back(mean_of(aft[p], aft[p].size()));
    }
    return out;
}

// A player's highest bid in the auction in progress at s, from history[i] on (0: none).
int highest_bid(const GameState& s, const std::vector<int>& history, std::size_t i) {
    GameState g = s;
    const int player = s.current_player();
    int highest = 0;
    for (std::size_t k = i; k < history.size() && g.board().phase == Phase::kAuction; ++k) {
        const int a = history[k];
        if (!g.is_legal(a)) break;  // reported by the replay
        if (g.current_player() == player && a >= 1 && a <= action::kMaxBid)
            highest = std::max(highest, a);
        g.apply_legal(a);
    }
    return highest;
}

// The option the chosen actions make: an auction's by name (the lowest ceiling the
// player's bids in it are consistent with), any other by its actions.
bool is_chosen(const DecisionOption& o, const std::vector<int>& chosen, int ceiling) {
    if (ceiling >= 0) return o.name == (ceiling == 0 ? "pass" : "up to " + std::to_string(ceiling));
    return o.actions == chosen;
}

ReviewedDecision review_decision(const GameState& s, const std::vector<int>& chosen, int ceiling,
                                 std::size_t index, const ReviewConfig& config) {
    ReviewedDecision out;
    out.index = static_cast<int>(index);
    out.player = s.current_player();
    out.voyage = s.board().voyage;
    out.kind = decision_kind(s);
    std::vector<DecisionOption> all = decision_options(s, 0);
    const auto hit = std::find_if(all.begin(), all.end(), [&](const DecisionOption& o) {
        return is_chosen(o, chosen, ceiling);
    });
    if (hit == all.end())
        throw std::invalid_argument("history[" + std::to_string(index) +
                                    "]: the actions from here make no option of the " + out.kind +
                                    " decision");
    out.chosen = hit->name;
    out.analysis.decider = out.player;
    out.analysis.kind = out.kind;
    out.analysis.config = config.analysis;
    if (all.size() == 1) {
        out.forced = true;
        out.analysis.stop = "forced";
        out.analysis.exact = true;
        return out;
    }
    // The chosen option first (diffs are then from it, paired), then the others; with
    // max_bids only some of the bids, the chosen one always among them.
    std::vector<DecisionOption> options{*hit};
    for (DecisionOption& o : decision_options(s, config.analysis.max_bids))
        if (!is_chosen(o, chosen, ceiling)) options.push_back(std::move(o));
    AnalysisConfig c = config.analysis;
    c.keep_first = true;
    out.analysis = analyse_options(s, std::move(options), c);
    return out;
}

}  // namespace

std::vector<double> rollout_values(GameState g, const AnalysisConfig& c, int voyage,
                                   std::uint64_t key, bool& sampled) {
    const Horizon horizon = c.horizon;
    const BotKind policy = c.policy;
    sampled = false;
    const auto n = static_cast<std::size_t>(g.num_players());
    RolloutLuck luck(key, g.num_players());
    std::vector<double> expected(n, 0.0);
    std::size_t moves = 0;
    while (!g.is_terminal()) {
        const Board& b = g.board();
        if (horizon == Horizon::kVoyage) {
            if (b.voyage > voyage) break;
            if (no_placement_remains(b)) {
                expected = expected_payoffs(g, 0, true);
                break;
            }
        } else if (c.value == ValueSource::kLearned && exact_from_here(g)) {
            return value_to_boundary(g, c.model ? *c.model : shipped_value_model(), policy).equity;
        }
        sampled |= g.is_chance_node();
        const int a = luck.next(g, policy);
        g.apply_legal(a);
        if (++moves > static_cast<std::size_t>(kMaxGameActions))
            throw std::runtime_error("review: a rollout does not end");
    }
    const std::vector<int> w = g.returns();
    std::vector<double> out(n);
    if (horizon == Horizon::kVoyage) {
        for (std::size_t p = 0; p < n; ++p) out[p] = w[p] + expected[p];
        return out;
    }
    return final_value(g).equity;
}

Review review_game(const GameState& initial, const std::vector<int>& history,
                   const ReviewConfig& config, const ReviewProgress& progress) {
    if (config.luck_rollouts < 0 ||
        (config.luck_rollouts > 0 && config.luck_rollouts < kMinRollouts))
        throw std::invalid_argument("luck_rollouts: must be 0 (no luck) or at least " +
                                    std::to_string(kMinRollouts) + ", got " +
                                    std::to_string(config.luck_rollouts));
    const auto started = std::chrono::steady_clock::now();
    Review out;
    // First pass: check the record and find its items (decisions and chance events).
    struct Item {
        std::size_t index;
        std::vector<int> chosen;  // empty for a chance event
        int ceiling = -1;         // an auction: the player's highest bid in it (0: passed)
    };
    std::vector<Item> items;
    {
        GameState g = initial;
        // One auction, one decision per player: their first move in it (bit p: p's done).
        int auction_voyage = -1, auction_seen = 0;
        std::size_t busy_until = 0;  // the harbour master's actions after the first
        for (std::size_t i = 0; i < history.size(); ++i) {
            const int a = history[i];
            if (g.is_terminal())
                throw std::invalid_argument("history[" + std::to_string(i) + "]: action " +
                                            std::to_string(a) + " after the end of the game");
            if (a < 0 || a >= action::kNumActions || !g.is_legal(a))
                throw std::invalid_argument(history_error(i, g, a));
            if (g.is_chance_node()) {
                if (config.luck_rollouts > 0) items.push_back({i, {}, -1});
            } else if (config.decisions && !is_loan(a) && g.board().phase == Phase::kAuction) {
                const Board& b = g.board();
                if (b.voyage != auction_voyage) auction_voyage = b.voyage, auction_seen = 0;
                if (!((auction_seen >> b.current) & 1)) {
                    auction_seen |= 1 << b.current;
                    items.push_back({i, {a}, highest_bid(g, history, i)});
                }
            } else if (config.decisions && !is_loan(a) && i >= busy_until) {
                std::size_t last = i;
                items.push_back({i, chosen_actions(g, history, i, last), -1});
                busy_until = last + 1;
            }
            g.apply_legal(a);
        }
    }
    const int total = static_cast<int>(items.size());
    out.items = total;
    GameState g = initial;
    int last_voyage = g.board().voyage;
    std::size_t next = 0;
    for (std::size_t i = 0; i < history.size(); ++i) {
        if (next < items.size() && items[next].index == i) {
            const Item& item = items[next++];
            if (item.chosen.empty())
                out.events.push_back(event_luck(g, history[i], i, config));
            else
                out.decisions.push_back(review_decision(g, item.chosen, item.ceiling, i, config));
            if (progress && !progress(static_cast<int>(next), total)) break;
        }
        g.apply_legal(history[i]);
        if (g.board().voyage != last_voyage || g.is_terminal()) {
            if (last_voyage >= 1) out.voyage_wealth.push_back(g.returns());
            last_voyage = g.board().voyage;
        }
    }
    out.wealth = g.returns();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

ReviewBudget review_budget(Horizon horizon, bool quick) {
    if (horizon == Horizon::kVoyage)
        return quick ? ReviewBudget{24, 2.0, 0.3, 24} : ReviewBudget{64, 1.0, 0.5, 64};
    return quick ? ReviewBudget{32, 2.0, 0.5, 16} : ReviewBudget{128, 1.0, 2.0, 64};
}

const char* loss_class(double loss, double ci95) {
    if (loss <= ci95) return kLossClasses[0];
    std::size_t k = 0;
    for (const double t : kLossThresholds) k += loss >= t;
    return kLossClasses[k];
}

const char* band_of(double mean_loss) {
    for (const ReviewBand& b : kReviewBands)
        if (mean_loss < b.below) return b.name;
    return kReviewBands[std::size(kReviewBands) - 1].name;  // NaN: not below any bound
}

}  // namespace manila

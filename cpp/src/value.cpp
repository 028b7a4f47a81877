// The learned value of a position: the network at voyage boundaries, exact expectations
// over the last dice of a voyage up to them.

#include "manila/value.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "game_internal.hpp"
#include "manila/analysis.hpp"
#include "manila/share_worth.hpp"
#include "manila/table.hpp"
#include "parallel.hpp"
#include "rollout.hpp"

namespace manila {

namespace {
// kValueModelInfo, kValueModelSizes, kValueModelMean, kValueModelScale, and every layer's
// weights then biases in kValueModelWeights, kValueModelBiases.
#include "value_model.inc"

}  // namespace

// e^x for the chances of winning, the same bits in every build: the C libraries' exp differ
// in the last bit (glibc's and the page's WebAssembly libc's), and the page shows the
// server's numbers. x = k ln 2 + r with |r| <= ln 2 / 2 (ln 2 in two parts, so that r is
// exact), e^r by its Taylor series to r^13 (the rest is below 1e-17), then times 2^k,
// exact. Only + - * / and ldexp, and no fused multiply-add (none of the targets has one
// by default), so the result is the same wherever IEEE doubles are. Below -700 the answer
// is 0: a chance under 1e-304 next to the best's.
double same_exp(double x) {
    if (x < -700) return 0;
    const double k = std::floor(x * 1.4426950408889634 + 0.5);
    const double r = (x - k * 0.693147180369123816490) - k * 1.90821492927058770002e-10;
    double sum = 1;
    for (int n = 13; n >= 1; --n) sum = 1 + sum * r / n;
    return std::ldexp(sum, static_cast<int>(k));
}

void ValueModel::check() const {
    if (sizes.size() < 2) invalid("model: at least one layer is needed");
    if (sizes.front() != kValueFeatures)
        invalid("model: the first layer must read " + std::to_string(kValueFeatures) +
                " features, got " + std::to_string(sizes.front()));
    if (sizes.back() != 2) invalid("model: the last layer must give 2 outputs");
    if (mean.size() != static_cast<std::size_t>(kValueFeatures) || scale.size() != mean.size())
        invalid("model: mean and scale need one entry per feature");
    for (float s : scale)
        if (!(s > 0) || !std::isfinite(s)) invalid("model: every scale must be positive");
    if (weights.size() != sizes.size() - 1 || biases.size() != weights.size())
        invalid("model: one weight matrix and one bias vector per layer are needed");
    for (std::size_t k = 0; k + 1 < sizes.size(); ++k) {
        if (sizes[k] < 1 || sizes[k + 1] < 1)
            invalid("model: every layer needs a size of 1 or more");
        const auto in = static_cast<std::size_t>(sizes[k]),
                   out = static_cast<std::size_t>(sizes[k + 1]);
        if (weights[k].size() != in * out)
            invalid("model: layer " + std::to_string(k) + " needs " + std::to_string(in * out) +
                    " weights, got " + std::to_string(weights[k].size()));
        if (biases[k].size() != out)
            invalid("model: layer " + std::to_string(k) + " needs " + std::to_string(out) +
                    " biases, got " + std::to_string(biases[k].size()));
        for (float w : weights[k])
            if (!std::isfinite(w)) invalid("model: every weight must be finite");
        for (float w : biases[k])
            if (!std::isfinite(w)) invalid("model: every bias must be finite");
    }
}

const ValueModel& shipped_value_model() {
    static const ValueModel model = [] {
        ValueModel m;
        m.info = kValueModelInfo;
        m.sizes.assign(std::begin(kValueModelSizes), std::end(kValueModelSizes));
        m.mean.assign(std::begin(kValueModelMean), std::end(kValueModelMean));
        m.scale.assign(std::begin(kValueModelScale), std::end(kValueModelScale));
        const float* w = kValueModelWeights;
        const float* bias = kValueModelBiases;
        for (std::size_t k = 0; k + 1 < m.sizes.size(); ++k) {
            const auto in = static_cast<std::size_t>(m.sizes[k]);
            const auto out = static_cast<std::size_t>(m.sizes[k + 1]);
            m.weights.emplace_back(w, w + in * out);
            m.biases.emplace_back(bias, bias + out);
            w += in * out;
            bias += out;
        }
        m.check();
        return m;
    }();
    return model;
}

double wealth_of(const Board& b, int p) {
    const PlayerState& ps = b.players[static_cast<std::size_t>(p)];
    double w = ps.cash - kRepayAmount * ps.mortgaged;
    for (int g = 0; g < kNumGoods; ++g) w += ps.shares[static_cast<std::size_t>(g)] * b.price(g);
    return w;
}

bool at_boundary(const Board& b) {
    return b.phase == Phase::kAuction && b.high_bid == 0 && b.high_bidder < 0 &&
           b.in_auction == (1 << b.num_players) - 1;
}

// The columns, by player p (money in tens of pesos):
//  0-2   the number of players is 3, 4, 5 (one-hot)
//  3     voyages played
//  4-7   each good's price; 8 the highest price
//  9-12  each good's shares in the supply
//  13    p's cash; 14 p's loans; 15-18 p's shares of each good
//  19    p's wealth; 20 p's shares' expected premium at the game's end (share_worth.hpp)
//  21    p's wealth minus the mean of the others'; 22 minus the best other's
//  23    p's cash minus the most any other holds
//  24    p's premium minus the mean of the others'
//  25-29 p's place in the auction's order (one-hot: 0 opens it)
void value_features(const Board& b, int p, float* out) {
    const int n = b.num_players;
    std::fill(out, out + kValueFeatures, 0.0f);
    auto f = [&](int k, double v) { out[k] = static_cast<float>(v); };
    f(n - kMinPlayers, 1);
    f(3, b.voyage - 1);
    int top = 0;
    for (int g = 0; g < kNumGoods; ++g) {
        f(4 + g, b.price(g) / 10.0);
        top = std::max(top, b.price(g));
        f(9 + g, b.supply[static_cast<std::size_t>(g)]);
    }
    f(8, top / 10.0);
    std::array<double, kMaxPlayers> wealth{}, premium{};
    for (int q = 0; q < n; ++q) {
        wealth[static_cast<std::size_t>(q)] = wealth_of(b, q);
        premium[static_cast<std::size_t>(q)] = share_premium(b, q);
    }
    const PlayerState& me = b.players[static_cast<std::size_t>(p)];
    f(13, me.cash / 10.0);
    f(14, me.mortgaged);
    for (int g = 0; g < kNumGoods; ++g) f(15 + g, me.shares[static_cast<std::size_t>(g)]);
    double others = 0, best = -std::numeric_limits<double>::infinity(), others_premium = 0;
    int richest = std::numeric_limits<int>::min();
    for (int q = 0; q < n; ++q) {
        if (q == p) continue;
        others += wealth[static_cast<std::size_t>(q)];
        best = std::max(best, wealth[static_cast<std::size_t>(q)]);
        others_premium += premium[static_cast<std::size_t>(q)];
        richest = std::max(richest, b.players[static_cast<std::size_t>(q)].cash);
    }
    const double mine = wealth[static_cast<std::size_t>(p)];
    f(19, mine / 10.0);
    f(20, premium[static_cast<std::size_t>(p)] / 10.0);
    f(21, (mine - others / (n - 1)) / 10.0);
    f(22, (mine - best) / 10.0);
    f(23, (me.cash - richest) / 10.0);
    f(24, (premium[static_cast<std::size_t>(p)] - others_premium / (n - 1)) / 10.0);
    // Before the first auction ends, player 0 opens it (rule 1).
    const int opener = b.phase == Phase::kAuction ? (b.harbour_master < 0 ? 0 : b.harbour_master)
                                                  : std::max(0, b.harbour_master);
    f(25 + (p - opener + n) % n, 1);
}

std::vector<double> equities(const std::vector<double>& wealth) {
    const auto n = wealth.size();
    double total = 0;
    for (double w : wealth) total += w;
    std::vector<double> out(n);
    for (std::size_t p = 0; p < n; ++p)
        out[p] = wealth[p] - (total - wealth[p]) / static_cast<double>(n - 1);
    return out;
}

PositionValue predict_value(const ValueModel& m, const float* features, const double* wealth,
                            int n) {
    PositionValue out;
    out.wealth.resize(static_cast<std::size_t>(n));
    out.win.resize(static_cast<std::size_t>(n));
    std::size_t widest = 0;
    for (int s : m.sizes) widest = std::max(widest, static_cast<std::size_t>(s));
    std::vector<float> x(widest), y(widest);
    std::array<double, kMaxPlayers> score{};
    for (int p = 0; p < n; ++p) {
        const float* f = features + static_cast<std::ptrdiff_t>(p) * kValueFeatures;
        for (std::size_t k = 0; k < static_cast<std::size_t>(kValueFeatures); ++k)
            x[k] = (f[k] - m.mean[k]) / m.scale[k];
        for (std::size_t layer = 0; layer + 1 < m.sizes.size(); ++layer) {
            const auto in = static_cast<std::size_t>(m.sizes[layer]);
            const auto outs = static_cast<std::size_t>(m.sizes[layer + 1]);
            const float* w = m.weights[layer].data();
            const bool last = layer + 2 == m.sizes.size();
            for (std::size_t o = 0; o < outs; ++o) {
                float sum = m.biases[layer][o];
                for (std::size_t i = 0; i < in; ++i) sum += w[o * in + i] * x[i];
                y[o] = last ? sum : std::max(0.0f, sum);
            }
            std::swap(x, y);
        }
        out.wealth[static_cast<std::size_t>(p)] = wealth[p] + 10.0 * static_cast<double>(x[0]);
        score[static_cast<std::size_t>(p)] = static_cast<double>(x[1]);
    }
    const double top = *std::max_element(score.begin(), score.begin() + n);
    double sum = 0;
    for (int p = 0; p < n; ++p) sum += same_exp(score[static_cast<std::size_t>(p)] - top);
    for (int p = 0; p < n; ++p)
        out.win[static_cast<std::size_t>(p)] =
            same_exp(score[static_cast<std::size_t>(p)] - top) / sum;
    out.equity = equities(out.wealth);
    return out;
}

PositionValue boundary_value(const Board& b, const ValueModel& m) {
    const int n = b.num_players;
    std::array<float, kMaxPlayers * kValueFeatures> features{};
    std::array<double, kMaxPlayers> wealth{};
    for (int p = 0; p < n; ++p) {
        value_features(b, p, features.data() + p * kValueFeatures);
        wealth[static_cast<std::size_t>(p)] = wealth_of(b, p);
    }
    return predict_value(m, features.data(), wealth.data(), n);
}

PositionValue final_value(const GameState& g) {
    const std::vector<int> w = g.returns();
    PositionValue out;
    for (std::size_t p = 0; p < w.size(); ++p) {
        out.wealth.push_back(w[p]);
        out.win.push_back(win_share(w, static_cast<int>(p)));
    }
    out.equity = equities(out.wealth);
    return out;
}

bool value_is_exact(const GameState& g) {
    if (g.is_terminal()) return true;
    const Board& b = g.board();
    // Boarding follows roll 2 and the plunder roll 3: after the last placement, unless a
    // round still follows the boarding.
    return at_boundary(b) || no_placement_remains(b) || b.phase == Phase::kPlunder ||
           (b.phase == Phase::kBoarding && !anyone_can_place(b));
}

bool exact_from_here(const GameState& g) {
    return value_is_exact(g) &&
           (g.is_terminal() || at_boundary(g.board()) || g.board().next_roll >= kNumRollsPerVoyage);
}

namespace {

void add_scaled(PositionValue& into, const PositionValue& v, double weight) {
    if (into.wealth.empty()) {
        into.wealth.assign(v.wealth.size(), 0.0);
        into.equity.assign(v.wealth.size(), 0.0);
        into.win.assign(v.wealth.size(), 0.0);
    }
    for (std::size_t p = 0; p < v.wealth.size(); ++p) {
        into.wealth[p] += weight * v.wealth[p];
        into.equity[p] += weight * v.equity[p];
        into.win[p] += weight * v.win[p];
    }
}

// Where a boat ends after a die: its space (14: Manila); after the last roll only whether it
// is in Manila, on 13 or short of it matters to what follows.
int landing(const Boat& boat, int die, bool last) {
    if (boat.position == kArrived) return -1;
    const int to = std::min(boat.position + die, kArrived);
    if (!last) return to;
    return to == kArrived ? 2 : to == kThirteen ? 1 : 0;
}

// Whether any player but `viewer` holds a share dealt face down.
bool hides_shares(const Board& b, int viewer) {
    for (int p = 0; p < b.num_players; ++p)
        for (int g = 0; g < kNumGoods; ++g)
            if (p != viewer &&
                b.players[static_cast<std::size_t>(p)].dealt[static_cast<std::size_t>(g)] > 0)
                return true;
    return false;
}

class Walk {
  public:
    Walk(const ValueModel& m, BotKind policy) : m_(m), policy_(policy) {}

    PositionValue value(const GameState& g) {
        if (g.is_terminal()) return final_value(g);
        const Board& b = g.board();
        if (at_boundary(b)) return boundary_value(b, m_);
        if (!g.is_chance_node()) {
            GameState next = g;
            next.apply_legal(bot_action(policy_, g, rng_));
            return value(next);
        }
        if (b.phase != Phase::kRoll) throw std::logic_error("value: a deal inside a voyage");
        // Group the dice by where they leave the boats; a roll's node is reached again
        // along other paths only before the last roll, so only those are remembered.
        const bool last = b.next_roll == kNumRollsPerVoyage;
        std::string key;
        if (!last) {
            key = node_key(b);
            const auto it = memo_.find(key);
            if (it != memo_.end()) return it->second;
        }
        const ChanceWeights cw = g.chance_weights();
        std::map<std::array<int, kNumBoats>, std::pair<int, int>> groups;  // -> (action, weight)
        for (const auto& [a, w] : cw.outcomes) {
            const std::array<int, kNumBoats> dice = roll_dice(a - action::kRoll);
            std::array<int, kNumBoats> to{};
            for (int i = 0; i < kNumBoats; ++i)
                to[static_cast<std::size_t>(i)] = landing(b.boats[static_cast<std::size_t>(i)],
                                                          dice[static_cast<std::size_t>(i)], last);
            auto [it, fresh] = groups.try_emplace(to, a, 0);
            it->second.second += w;
        }
        PositionValue out;
        for (const auto& [to, aw] : groups) {
            GameState next = g;
            next.apply_legal(aw.first);
            add_scaled(out, value(next), static_cast<double>(aw.second) / cw.den);
        }
        if (!last) memo_.emplace(std::move(key), out);
        return out;
    }

  private:
    // What can differ between two roll nodes of one walk: the boats and the spots (boarding
    // moves pirates into crews).
    static std::string node_key(const Board& b) {
        std::string k;
        k.push_back(static_cast<char>(b.next_roll));
        for (const Boat& boat : b.boats) {
            k.push_back(static_cast<char>(boat.position));
            for (int c : boat.crew) k.push_back(static_cast<char>(c));
        }
        for (int s : b.spots) k.push_back(static_cast<char>(s));
        return k;
    }

    const ValueModel& m_;
    BotKind policy_;
    Rng rng_{0};  // the policies that continue a walk draw nothing
    std::map<std::string, PositionValue> memo_;
};

}  // namespace

PositionValue value_to_boundary(const GameState& g, const ValueModel& m, BotKind policy) {
    if (!value_is_exact(g))
        invalid("state: placements remain in this voyage, so its value is not exact from here");
    if (bot_draws(policy)) invalid("policy: random and expert cannot continue a value");
    Walk walk(m, policy);
    return walk.value(g);
}

ValueAnswer position_value(const GameState& g, const ValueModel& m, const ValueConfig& c) {
    if (c.rollouts < kMinRollouts)
        invalid("rollouts: must be at least " + std::to_string(kMinRollouts) + ", got " +
                std::to_string(c.rollouts));
    if (c.threads < 0) invalid("threads: must be at least 0, got " + std::to_string(c.threads));
    if (bot_draws(c.policy)) invalid("policy: random and expert cannot continue a value");
    if (c.viewer < -1 || c.viewer >= g.num_players())
        invalid("viewer: must be a player 0.." + std::to_string(g.num_players() - 1) + " or -1");
    ValueAnswer out;
    const auto n = static_cast<std::size_t>(g.num_players());
    out.wealth_ci95.assign(n, 0.0);
    out.equity_ci95.assign(n, 0.0);
    out.win_ci95.assign(n, 0.0);
    const bool hidden = c.viewer >= 0 && hides_shares(g.board(), c.viewer);
    if (value_is_exact(g) && !hidden) {
        out.value = value_to_boundary(g, m, c.policy);
        out.exact = true;
        return out;
    }
    if (value_is_exact(g)) {
        // Every deal of the hidden shares the view allows, weighted by its chance.
        const std::vector<HiddenDeal> deals = hidden_deals(g.board(), c.viewer);
        std::vector<PositionValue> each(deals.size());
        parallel_for(static_cast<int>(deals.size()),
                     c.threads == 0 ? hardware_threads() : c.threads, [&](int k) {
                         const auto i = static_cast<std::size_t>(k);
                         each[i] = value_to_boundary(
                             GameState::from_board(deals[i].board, g.seed()), m, c.policy);
                     });
        std::uint64_t total = 0;
        for (const HiddenDeal& d : deals) total += d.weight;
        for (std::size_t k = 0; k < deals.size(); ++k)
            add_scaled(out.value, each[k],
                       static_cast<double>(deals[k].weight) / static_cast<double>(total));
        out.exact = true;
        return out;
    }
    std::vector<PositionValue> runs(static_cast<std::size_t>(c.rollouts));
    const int threads = c.threads == 0 ? hardware_threads() : c.threads;
    parallel_for(c.rollouts, threads, [&](int i) {
        const std::uint64_t key = derive_seed(c.seed, static_cast<std::uint64_t>(i));
        GameState s = g;
        if (hidden) {
            Board board = g.board();
            Rng r(derive_seed(key, kHiddenKey));
            resample_hidden(board, c.viewer, r);
            s = GameState::from_board(board, g.seed());
        }
        RolloutLuck luck(key, s.num_players());
        while (!exact_from_here(s)) s.apply_legal(luck.next(s, c.policy));
        runs[static_cast<std::size_t>(i)] = value_to_boundary(s, m, c.policy);
    });
    out.rollouts = c.rollouts;
    auto column = [&](auto field, std::size_t p) {
        std::vector<double> xs;
        for (const PositionValue& r : runs) xs.push_back((r.*field)[p]);
        return moments(xs, xs.size());
    };
    out.value.wealth.resize(n);
    out.value.equity.resize(n);
    out.value.win.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
        const Moments w = column(&PositionValue::wealth, p), e = column(&PositionValue::equity, p),
                      v = column(&PositionValue::win, p);
        out.value.wealth[p] = w.mean, out.wealth_ci95[p] = w.ci95;
        out.value.equity[p] = e.mean, out.equity_ci95[p] = e.ci95;
        out.value.win[p] = v.mean, out.win_ci95[p] = v.ci95;
    }
    return out;
}

void SeatMix::check() const {
    if (bots.empty()) invalid("bots: at least one bot is needed");
    if (weights.size() != bots.size())
        invalid("weights: one weight a bot is needed, " + std::to_string(bots.size()) +
                " in all, got " + std::to_string(weights.size()));
    double total = 0;
    for (double w : weights) {
        if (!(w >= 0) || !std::isfinite(w))
            invalid("weights: must be finite and at least 0, got " + std::to_string(w));
        total += w;
    }
    if (!(total > 0)) invalid("weights: at least one must be above 0");
}

namespace {

BotKind draw_bot(const SeatMix& mix, Rng& rng) {
    double total = 0;
    for (double w : mix.weights) total += w;
    // 53 random bits: uniform in [0, total).
    double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53 * total;
    for (std::size_t k = 0; k + 1 < mix.bots.size(); ++k) {
        if (u < mix.weights[k]) return mix.bots[k];
        u -= mix.weights[k];
    }
    return mix.bots.back();
}

// Plays s to the end under `mix`, every seat's bot drawn where the play starts and anew at
// every boundary; at_each_boundary(s) is called at every boundary reached after the start.
// Chance comes from `chance` (nullptr: the game's own generator).
template <class OnBoundary>
void play_mixed(GameState& s, const SeatMix& mix, std::uint64_t key, Rng* chance,
                OnBoundary at_each_boundary) {
    const auto players = static_cast<std::size_t>(s.num_players());
    std::vector<Rng> seats;
    for (std::size_t p = 0; p < players; ++p) seats.emplace_back(derive_seed(key, p + 1));
    Rng draws(derive_seed(key, kMaxPlayers + 1));
    std::vector<BotKind> bots(players);
    auto draw_all = [&] {
        for (BotKind& b : bots) b = draw_bot(mix, draws);
    };
    draw_all();
    std::size_t moves = 0;
    while (!s.is_terminal()) {
        const bool before = at_boundary(s.board());
        int a;
        if (s.is_chance_node()) {
            a = chance == nullptr ? s.sample_chance() : s.sample_chance(*chance);
        } else {
            const auto p = static_cast<std::size_t>(s.current_player());
            a = bot_action(bots[p], s, seats[p]);
        }
        s.apply_legal(a);
        if (++moves > static_cast<std::size_t>(kMaxGameActions))
            throw std::runtime_error("a play-out does not end");
        if (!before && at_boundary(s.board())) {
            draw_all();
            at_each_boundary(s);
        }
    }
}

void check_run(int n, int threads) {
    if (n < 1) invalid("n: must be at least 1, got " + std::to_string(n));
    if (threads < 0) invalid("threads: must be at least 0, got " + std::to_string(threads));
}

// Training game `game` of a run: played to its end, at_each_boundary called as it goes.
template <class OnBoundary>
GameState training_game(int players, const Rules& rules, std::uint64_t seed, std::int64_t game,
                        const SeatMix& mix, OnBoundary at_each_boundary) {
    const std::uint64_t key = derive_seed(seed, static_cast<std::uint64_t>(game));
    GameState s(players, rules, key);
    play_mixed(s, mix, key, nullptr, at_each_boundary);
    return s;
}

}  // namespace

std::vector<int> play_outs(const GameState& g, const SeatMix& mix, int n, std::uint64_t seed,
                           int threads) {
    mix.check();
    check_run(n, threads);
    const int players = g.num_players();
    std::vector<int> out(static_cast<std::size_t>(n * players));
    parallel_for(n, threads == 0 ? hardware_threads() : threads, [&](int i) {
        GameState s = g;
        const std::uint64_t key = derive_seed(seed, static_cast<std::uint64_t>(i));
        Rng chance(derive_seed(key, 0));
        play_mixed(s, mix, key, &chance, [](const GameState&) {});
        for (int p = 0; p < players; ++p)
            out[static_cast<std::size_t>(i * players + p)] = s.wealth(p);
    });
    return out;
}

ValueSamples value_samples(int players, const Rules& rules, std::uint64_t seed, std::int64_t first,
                           int n, const SeatMix& mix, int threads) {
    mix.check();
    check_run(n, threads);
    std::vector<ValueSamples> games(static_cast<std::size_t>(n));
    parallel_for(n, threads == 0 ? hardware_threads() : threads, [&](int k) {
        const std::int64_t game = first + k;
        ValueSamples& out = games[static_cast<std::size_t>(k)];
        std::vector<float> row(static_cast<std::size_t>(kValueFeatures));
        const GameState s =
            training_game(players, rules, seed, game, mix, [&](const GameState& at) {
                const Board& b = at.board();
                for (int p = 0; p < kMaxPlayers; ++p) {
                    if (p < players)
                        value_features(b, p, row.data());
                    else
                        std::fill(row.begin(), row.end(), 0.0f);
                    out.features.insert(out.features.end(), row.begin(), row.end());
                    out.wealth.push_back(p < players ? static_cast<float>(at.wealth(p)) : 0.0f);
                }
                out.game.push_back(static_cast<std::int32_t>(game));
                out.voyage.push_back(b.voyage);
            });
        // What happened, known at the end: every row of the game gets it.
        const std::vector<int> final = s.returns();
        for (std::size_t r = 0; r < out.rows(); ++r)
            for (int p = 0; p < kMaxPlayers; ++p) {
                const bool seat = p < players;
                out.final_wealth.push_back(
                    seat ? static_cast<float>(final[static_cast<std::size_t>(p)]) : 0.0f);
                out.win.push_back(seat ? static_cast<float>(win_share(final, p)) : 0.0f);
            }
    });
    ValueSamples all;
    all.players = players;
    for (ValueSamples& g : games) {
        auto append = [](auto& to, auto& from) { to.insert(to.end(), from.begin(), from.end()); };
        append(all.features, g.features), append(all.wealth, g.wealth);
        append(all.final_wealth, g.final_wealth), append(all.win, g.win);
        append(all.game, g.game), append(all.voyage, g.voyage);
    }
    return all;
}

std::vector<std::vector<GameState>> value_boundaries(int players, const Rules& rules,
                                                     std::uint64_t seed, std::int64_t first, int n,
                                                     const SeatMix& mix, int threads) {
    mix.check();
    check_run(n, threads);
    std::vector<std::vector<GameState>> out(static_cast<std::size_t>(n));
    parallel_for(n, threads == 0 ? hardware_threads() : threads, [&](int k) {
        auto& states = out[static_cast<std::size_t>(k)];
        training_game(players, rules, seed, first + k, mix,
                      [&](const GameState& at) { states.push_back(at); });
    });
    return out;
}

}  // namespace manila

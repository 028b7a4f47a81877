// What the rollouts of the analysis and of the review share: their luck (common random
// numbers), the win share, and the mean with its 95% interval.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/game.hpp"

namespace manila {

// Under a rollout's key: the deal of the hidden shares a rollout from a player's view draws
// (RolloutLuck's seats and dice take the keys after it).
inline constexpr std::uint64_t kHiddenKey = 1;

// The luck of rollout `key`: each seat's policy draws from the generator of (key, seat), and
// every chance event from the generator of (key, voyage, roll or deal), so that rollout
// `key` of every option sees the same dice and deals, whatever the moves before them.
class RolloutLuck {
  public:
    RolloutLuck(std::uint64_t key, int players) : key_(key) {
        for (int p = 0; p < players; ++p)
            seats_.emplace_back(derive_seed(key, kSeatKey + static_cast<std::uint64_t>(p)));
    }

    // The next move at g (not terminal): a chance outcome, or the policy's move.
    int next(const GameState& g, BotKind policy) {
        const Board& b = g.board();
        if (!g.is_chance_node())
            return bot_action(policy, g, seats_[static_cast<std::size_t>(b.current)]);
        const auto sub =
            static_cast<std::uint64_t>(b.phase == Phase::kDeal ? 8 + b.dealt : b.next_roll);
        Rng r(
            derive_seed(derive_seed(key_, kChanceKey + static_cast<std::uint64_t>(b.voyage)), sub));
        return g.sample_chance(r);
    }

  private:
    // Under a rollout's key: kHiddenKey the hidden shares, 2.. the seats, then the dice.
    static constexpr std::uint64_t kSeatKey = 2;
    static constexpr std::uint64_t kChanceKey = 16;
    std::uint64_t key_;
    std::vector<Rng> seats_;
};

// Player p's share of the win at final wealth w: 1 / the number tied at the top, or 0.
inline double win_share(const std::vector<int>& w, int p) {
    const int top = *std::max_element(w.begin(), w.end());
    if (w[static_cast<std::size_t>(p)] != top) return 0.0;
    return 1.0 / static_cast<double>(std::count(w.begin(), w.end(), top));
}

struct Moments {
    double mean = 0, se = 0, ci95 = 0;  // ci95: Student's, t95(n - 1) standard errors
};

// The mean of xs[0..n), summed in order as moments sums it (0 for none).
inline double mean_of(const std::vector<double>& xs, std::size_t n) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += xs[i];
    return n ? sum / static_cast<double>(n) : 0.0;
}

// Mean and 95% half-width of xs[0..n) (or of xs - ys, paired).
inline Moments moments(const std::vector<double>& xs, std::size_t n,
                       const std::vector<double>* ys = nullptr) {
    Moments m;
    if (n == 0) return m;
    auto at = [&](std::size_t i) { return xs[i] - (ys ? (*ys)[i] : 0.0); };
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += at(i);
    const double dn = static_cast<double>(n);
    m.mean = sum / dn;
    if (n > 1) {
        // Two passes: equal values give a variance of exactly 0.
        double sq = 0;
        for (std::size_t i = 0; i < n; ++i) sq += (at(i) - m.mean) * (at(i) - m.mean);
        m.se = std::sqrt(sq / (dn - 1) / dn);
        m.ci95 = t95(static_cast<int>(n) - 1) * m.se;
    }
    return m;
}

}  // namespace manila

// What a share is expected to be worth when the game ends, as a premium over its price
// today: learned from self-play (benchmarks/share_worth.py prints how it was fitted).
//
// A voyage's value in wealth counts a share at today's price, but a share keeps rising
// until some good reaches the top of the track, and at the start of a game a share at 0
// ends it worth about 15. The expert's rollouts add this premium at the end of the voyage
// so that the office, which buys a share, and the share itself are worth what they are
// worth to a game.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include "manila/game.hpp"

namespace manila {
inline namespace share_worth_detail {

// Premium in pesos by the good's price step (row) and the highest price step of any good
// (column), at the start of a voyage; a step above the highest cannot occur. Fitted on
// 18,622 voyage starts of 4,200 self-play games of solver and greedy seats, 3 to 5
// players (the mean final price minus today's; each cell's standard error is below 0.2).
inline constexpr std::array<std::array<double, kPriceSteps - 1>, kPriceSteps - 1> kSharePremium{{
    {15.28, 6.37, 3.08, 1.20},
    {0.00, 18.62, 8.86, 2.98},
    {0.00, 0.00, 16.39, 7.44},
    {0.00, 0.00, 0.00, 8.33},
}};

// Player p's shares' premium on this board (0 once the game has ended: the prices are final).
inline double share_premium(const Board& b, int p) {
    const int top = *std::max_element(b.price_step.begin(), b.price_step.end());
    if (top >= kPriceSteps - 1) return 0;
    double out = 0;
    for (int g = 0; g < kNumGoods; ++g)
        out += b.players[static_cast<std::size_t>(p)].shares[static_cast<std::size_t>(g)] *
               kSharePremium[static_cast<std::size_t>(b.price_step[static_cast<std::size_t>(g)])]
                            [static_cast<std::size_t>(top)];
    return out;
}

}  // namespace share_worth_detail
}  // namespace manila

// The wealth objective's arguments as plain lists, checked and stored
// into a Voyage or an enumeration Pattern: both hold the same four fields, and both the
// Voyage constructor and analyse_rows take the same arguments.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "manila/voyage.hpp"

namespace manila {

// `target` has objective, price, shares and budget as manila::Voyage has them. Only the
// shapes are checked here; the values are checked by Voyage::validate, which every entry
// point runs on each voyage it builds.
template <class Target>
void set_wealth(Target& target, bool wealth, const std::vector<int>& prices,
                const std::vector<std::vector<int>>& shares, const std::vector<int>& budgets) {
    using namespace manila;
    target.objective = wealth ? Objective::kWealth : Objective::kIncome;
    if (!prices.empty()) {
        if (prices.size() != kNumGoods)
            throw std::invalid_argument("prices: one price per good is needed, " +
                                        std::to_string(kNumGoods) + " in all");
        std::copy(prices.begin(), prices.end(), target.price.begin());
    }
    if (shares.size() > static_cast<std::size_t>(kMaxOwners) ||
        budgets.size() > static_cast<std::size_t>(kMaxOwners))
        throw std::invalid_argument("shares, budgets: at most one entry per owner");
    for (std::size_t o = 0; o < shares.size(); ++o) {
        if (shares[o].size() != kNumGoods)
            throw std::invalid_argument("shares[" + std::to_string(o) +
                                        "]: one count per good is needed");
        for (int g = 0; g < kNumGoods; ++g) {
            const int n = shares[o][static_cast<std::size_t>(g)];
            // Range-checked before the narrowing cast, which would wrap 256 to 0.
            if (n < 0 || n > kSharesPerGood)
                throw std::invalid_argument("shares[" + std::to_string(o) +
                                            "]: counts must be 0.." +
                                            std::to_string(kSharesPerGood));
            target.shares[o][static_cast<std::size_t>(g)] = static_cast<std::uint8_t>(n);
        }
    }
    // A negative budget entry means "no limit", so that Python can pass a plain list.
    for (std::size_t o = 0; o < budgets.size(); ++o)
        target.budget[o] = budgets[o] < 0 ? kUnlimited : budgets[o];
}

}  // namespace manila

// A Voyage from plain lists (goods, positions, crews as owner ids, ...), the form the
// bindings and the page's entry both pass.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "manila/voyage.hpp"
#include "manila/wealth_args.hpp"

namespace manila {

// Only the shapes are checked here; Voyage::validate checks the values and names the field.
inline manila::Voyage make_voyage(
    int next_roll, const std::vector<int>& goods, const std::vector<int>& positions,
    const std::vector<std::vector<int>>& crews, const std::vector<int>& spots, int num_owners,
    bool thirteen_to_port, bool pirate_variant, bool wealth, const std::vector<int>& prices,
    const std::vector<std::vector<int>>& shares, const std::vector<int>& budgets) {
    using namespace manila;
    if (goods.size() != kNumBoats || positions.size() != kNumBoats || crews.size() != kNumBoats)
        throw std::invalid_argument("boats: exactly three goods, positions and crews are needed");
    if (spots.size() != kNumSpots)
        throw std::invalid_argument("spots: one owner (or -1) per spot is needed, " +
                                    std::to_string(kNumSpots) + " in all");
    Voyage v;
    v.next_roll = next_roll;
    for (int i = 0; i < kNumBoats; ++i) {
        Boat& b = v.boats[i];
        b.good = goods[i];
        b.position = positions[i];
        if (crews[i].size() > kMaxSeats)
            throw std::invalid_argument("boats[" + std::to_string(i) + "].crew: at most " +
                                        std::to_string(kMaxSeats) + " seats");
        b.crew_size = static_cast<int>(crews[i].size());
        for (std::size_t s = 0; s < crews[i].size(); ++s) b.crew[s] = crews[i][s];
    }
    for (int s = 0; s < kNumSpots; ++s) v.spots[s] = spots[s];
    v.num_owners = num_owners;
    v.rules = {thirteen_to_port, pirate_variant};
    set_wealth(v, wealth, prices, shares, budgets);
    v.validate();
    return v;
}

}  // namespace manila

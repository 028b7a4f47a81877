// Private to the game sources: the tables and small helpers the game_*.cpp files share.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

#include "checks.hpp"
#include "manila/advice.hpp"
#include "manila/game.hpp"

namespace manila {
inline namespace game_detail {

inline constexpr std::array<std::array<int, 2>, action::kNumPairs> kPairs{
    {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}};

inline const char* good_name(int g) { return kGoods[static_cast<std::size_t>(g)].name; }
inline std::string player_name(int p) { return "p" + std::to_string(p); }
inline std::string signed_str(int d) { return (d > 0 ? "+" : "") + std::to_string(d); }

inline int plunder_bit(int good) { return 1 << (kNumGoods - 1 - good); }

// The dice of a roll action, one per sailing boat in good order.
inline std::array<int, kNumBoats> roll_dice(int idx) {
    return {idx / (kDieFaces * kDieFaces) + 1, (idx / kDieFaces) % kDieFaces + 1,
            idx % kDieFaces + 1};
}

inline int seat_cost(const Boat& b) {
    return kGoods[static_cast<std::size_t>(b.good)]
        .seat_cost[static_cast<std::size_t>(b.crew_size)];
}

// The voyage in progress as `viewer` sees it, valued by `objective`: the others'
// face-down shares are hidden, so it counts only the shares they were seen to buy. Every
// bot that values a voyage starts from it.
std::optional<Voyage> voyage_of(const GameState& s, int viewer, Objective objective);

// A placement of the advice (a table spot id, or kDeclineSpot) as a game action, and back.
inline int placement_action(int spot) {
    return spot == kDeclineSpot ? action::kDecline : action::kPlace + spot;
}
inline int placement_spot(int act) {
    return act == action::kDecline ? kDeclineSpot : act - action::kPlace;
}

}  // namespace game_detail

}  // namespace manila

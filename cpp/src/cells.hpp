// Private to the engine sources: a triple of boat positions (0..13, kArrived) packed into one
// index, as the evaluator's and the enumerator's tables are laid out.
#pragma once

#include <array>

#include "manila/rules.hpp"

namespace manila {
inline namespace cells_detail {

using Triple = std::array<int, kNumBoats>;  // one position per boat, boats in good order

inline constexpr int kCells = kNumPositions * kNumPositions * kNumPositions;

inline int cell_of(const Triple& p) { return (p[0] * kNumPositions + p[1]) * kNumPositions + p[2]; }

inline Triple triple_of(int cell) {
    return {cell / (kNumPositions * kNumPositions), (cell / kNumPositions) % kNumPositions,
            cell % kNumPositions};
}

}  // namespace cells_detail
}  // namespace manila

// The evaluator's building blocks for the rest of the engine (the advice solver): they
// take voyages already validated, so that a search calling them thousands of times does
// not check the same voyage again and again.
#pragma once

#include <cstdint>
#include <vector>

#include "manila/evaluator.hpp"

namespace manila {

// Evaluations of one generation share the pilots' choices wherever the pilots' payoffs are
// the same (a placement search shares one generation; a new one starts afresh).
std::uint64_t next_generation();

// Every owner's expected payoff (numerators over denominator(v.next_roll)).
std::vector<std::int64_t> payoffs_of(const Voyage& v, std::uint64_t generation);

// The evaluation behind one spot table.
struct SpotValues {
    int num_owners = 0;
    std::vector<std::int64_t> all;   // every owner's payoff, then the outcome channels
    std::vector<LegalSpot> spots;    // the legal spots, canonical order
    std::vector<std::int64_t> gain;  // per spot: the point of view's payoff with it minus without
    std::vector<std::uint8_t> passive;  // per spot: changes nobody's decisions
    const std::int64_t* outcomes() const { return all.data() + num_owners; }
};
// threads: splits the spots that need a game tree of their own (0: decide by the work).
SpotValues spot_values(const Voyage& v, const PointOfView& pov, int threads,
                       std::uint64_t generation);

// The voyage with `owner`'s accomplice on spot-table id `id` (a free spot or seat).
Voyage with_accomplice(const Voyage& v, int id, int owner);

}  // namespace manila

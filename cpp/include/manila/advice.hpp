// Advice: the best choice at every decision of a voyage, knowing that everyone after the
// decider answers with their own best choice (max^n, subgame perfect).
//
// A placement round is searched turn by turn to its end; each end of round is valued by
// the exact voyage evaluation (no further placements). Pilot and boarding decisions are
// the evaluator's own, with every option's value exposed. All values are numerators over
// denominator(v.next_roll).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "manila/evaluator.hpp"
#include "manila/voyage.hpp"

namespace manila {

// The placement option "decline" (spot-table ids are 0 and up).
inline constexpr int kDeclineSpot = -1;

// One turn of a line of play: who chose, and what (a spot-table id or kDeclineSpot).
struct Turn {
    int owner = kNoOwner;
    int spot = kDeclineSpot;
};

struct PlacementAdvice {
    std::int64_t denominator = 1;
    std::vector<LegalSpot> options;     // decline (cost 0) first, then the legal spots
    std::vector<std::int64_t> net;      // per option, the part-4 expected_net
    int best = 0;                       // index into options
    std::vector<Turn> line;             // the best option, then every later turn as chosen
    std::vector<std::int64_t> payoffs;  // every owner's expected payoff after the line
    std::int64_t positions = 0;         // ends of round valued (for benchmarks)
};

// `movers`: the owners still to choose in this round, in turn order, the first being the
// one to move now; each has an accomplice in hand and chooses once: a spot legal for them
// (budget included) or decline. Ties go to decline, then the canonical spot order.
// threads: for the options of the first mover (0: all hardware threads).
PlacementAdvice advise_placement(const Voyage& v, const std::vector<int>& movers, int threads = 0);

// A pilot's or pirate's decision: every option in canonical order, with everyone's payoffs
// after it and the later decisions.
struct DecisionAdvice {
    std::int64_t denominator = 1;
    int decider = kNoOwner;
    std::vector<std::string> names;                  // "none", "jade+1", "stay", "board silk", ...
    std::vector<std::vector<std::int64_t>> payoffs;  // per option, every owner's
    int best = 0;                                    // first option of the decider's highest payoff
    // The best option, then the later deciders' choices (the large pilot after the small
    // one, the other pirate after the captain): (owner, option name).
    std::vector<std::pair<int, std::string>> line;
};

// The small (large = false) or the large pilot's move, before roll 3 (next_roll 3). The
// small pilot moves first: for the large pilot's advice the small one must have acted (its
// spot free).
DecisionAdvice advise_pilot(const Voyage& v, bool large);

// Boarding right after roll 2 (next_roll 3, a boat on 13): the captain (pirate_1) decides,
// then the other pirate. `second` asks for pirate_2's decision once the captain has stayed.
// After the captain boarded, the remaining pirate holds pirate_1 and decides with
// `guard_boat`/`guard_seat` naming the seat the captain took (safe from displacement), or -1.
DecisionAdvice advise_boarding(const Voyage& v, bool second, int guard_boat = -1,
                               int guard_seat = -1);

}  // namespace manila

#include "manila/advice.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "evaluator_internal.hpp"
#include "manila/cancel.hpp"
#include "parallel.hpp"

namespace manila {
namespace {

// The movers' hands are checked by the caller: the search places with kAnyAccomplices.

// Max^n over the rest of a placement round. Each player moves once per round, in a fixed
// order, so every sequence of choices ends on a board of its own: there are no
// transpositions to share, and the work goes into making each end of round cheap.
class PlacementSearch {
  public:
    struct Result {
        std::vector<std::int64_t> payoffs;  // every owner's, at the end of the voyage
        std::vector<Turn> line;             // the turns from this one on, last turn first
    };

    // generation: one for the whole search (the pilots' choices are shared across its boards).
    PlacementSearch(const std::vector<int>& movers, std::int64_t den, std::uint64_t generation)
        : movers_(movers), den_(den), generation_(generation) {}

    // Every turn checks the cancel token: a turn's work is one evaluation or one spot table.
    Result solve(const Voyage& v, std::size_t depth) {
        check_cancelled();
        if (depth == movers_.size()) {
            ++positions;
            return {payoffs_of(v, generation_), {}};
        }
        const int m = movers_[depth];
        if (depth + 1 == movers_.size()) return last_turn(v, m);
        Result best = solve(v, depth + 1);  // decline comes first and wins ties
        int best_spot = kDeclineSpot;
        std::int64_t best_value = best.payoffs[static_cast<std::size_t>(m)];
        for (const auto [id, cost] : legal_spots(v, {m, kAnyAccomplices})) {
            Result r = solve(with_accomplice(v, id, m), depth + 1);
            const std::int64_t value = r.payoffs[static_cast<std::size_t>(m)] - cost * den_;
            if (value > best_value) best_value = value, best = std::move(r), best_spot = id;
        }
        best.line.push_back({m, best_spot});
        return best;
    }

    // The last mover of the round needs one spot table: most spots change nobody's
    // decisions, and their values come from the outcome odds without a game tree.
    Result last_turn(const Voyage& v, int m) {
        const SpotValues sv = spot_values(v, {m, kAnyAccomplices}, 1, generation_);
        ++positions;
        const std::int64_t without = sv.all[static_cast<std::size_t>(m)];
        std::int64_t best_value = without;
        int best = -1;
        for (std::size_t k = 0; k < sv.spots.size(); ++k) {
            const std::int64_t value = without + sv.gain[k] - sv.spots[k].cost * den_;
            if (value > best_value) best_value = value, best = static_cast<int>(k);
        }
        Result out;
        if (best < 0) {
            out.payoffs.assign(sv.all.begin(), sv.all.begin() + sv.num_owners);
            out.line.push_back({m, kDeclineSpot});
            return out;
        }
        const auto k = static_cast<std::size_t>(best);
        const int id = sv.spots[k].id;
        if (sv.passive[k] && id >= kNumGoods) {
            // A port, shipyard or insurance that changes no decision pays nobody else.
            out.payoffs.assign(sv.all.begin(), sv.all.begin() + sv.num_owners);
            out.payoffs[static_cast<std::size_t>(m)] += sv.gain[k];
        } else {
            ++positions;
            out.payoffs = payoffs_of(with_accomplice(v, id, m), generation_);
        }
        out.line.push_back({m, id});
        return out;
    }

    std::int64_t positions = 0;

  private:
    const std::vector<int>& movers_;
    std::int64_t den_;
    std::uint64_t generation_;
};

void check_owner(const Voyage& v, int owner, const std::string& field) {
    if (owner < 0 || owner >= v.num_owners)
        throw std::invalid_argument(field + ": owner id " + std::to_string(owner) +
                                    " is not in 0.." + std::to_string(v.num_owners - 1));
}

// The voyage after a pilot's move, or nothing if the move is not possible there.
std::optional<Voyage> piloted(const Voyage& v, const PilotMove& m) {
    Voyage after = v;
    for (int i = 0; i < kNumBoats; ++i) {
        const int d = m[static_cast<std::size_t>(i)];
        if (d == 0) continue;
        Boat& b = after.boats[static_cast<std::size_t>(i)];
        const std::optional<int> to = moved_position(b.position, d);
        if (!to) return std::nullopt;
        b.position = *to;
    }
    return after;
}

std::string pilot_name(const Voyage& v, const PilotMove& m) {
    std::string out;
    for (int i = 0; i < kNumBoats; ++i) {
        const int d = m[static_cast<std::size_t>(i)];
        if (d == 0) continue;
        if (!out.empty()) out += ' ';
        out +=
            std::string(
                kGoods[static_cast<std::size_t>(v.boats[static_cast<std::size_t>(i)].good)].name) +
            (d > 0 ? "+" : "-") + std::to_string(std::abs(d));
    }
    return out.empty() ? "none" : out;
}

int first_best(const DecisionAdvice& a) {
    int best = 0;
    const auto d = static_cast<std::size_t>(a.decider);
    for (std::size_t k = 1; k < a.payoffs.size(); ++k)
        if (a.payoffs[k][d] > a.payoffs[static_cast<std::size_t>(best)][d])
            best = static_cast<int>(k);
    return best;
}

// Every option of a decision, each followed by the best reply of the next decider, if any.
template <class Next>
void add_option(DecisionAdvice& a, std::string name, const Voyage& after, Next next_decision) {
    a.names.push_back(std::move(name));
    if (const auto next = next_decision(after)) {
        const DecisionAdvice& r = *next;
        a.payoffs.push_back(r.payoffs[static_cast<std::size_t>(r.best)]);
        a.line.push_back(r.line.front());  // kept per option for now; trimmed to the best below
    } else {
        a.payoffs.push_back(payoffs_of(after, next_generation()));
        a.line.push_back({kNoOwner, ""});
    }
}

void finish(DecisionAdvice& a) {
    a.best = first_best(a);
    const auto reply = a.line[static_cast<std::size_t>(a.best)];
    a.line = {{a.decider, a.names[static_cast<std::size_t>(a.best)]}};
    if (reply.first != kNoOwner) a.line.push_back(reply);
}

DecisionAdvice pilot_decision(const Voyage& v, bool large) {
    const Spot slot = large ? kPilotLarge : kPilotSmall;
    DecisionAdvice a;
    a.denominator = denominator(v.next_roll);
    a.decider = v.spots[slot];
    Voyage base = v;
    base.spots[slot] = kNoOwner;  // the pilot acts once
    const bool large_after = !large && v.spots[kPilotLarge] != kNoOwner;
    for_each_pilot_move(large, [&](const PilotMove& m) {
        const std::optional<Voyage> after = piloted(base, m);
        if (!after) return;
        add_option(a, pilot_name(v, m), *after,
                   [&](const Voyage& w) -> std::optional<DecisionAdvice> {
                       if (!large_after) return std::nullopt;
                       return pilot_decision(w, true);
                   });
    });
    finish(a);
    return a;
}

// The pirate in `slot` (0: pirate_1, the captain; 1: pirate_2) decides; `last`: nobody after.
DecisionAdvice boarding_decision(const Voyage& v, int slot, int guard_boat, int guard_seat,
                                 bool last) {
    DecisionAdvice a;
    a.denominator = denominator(v.next_roll);
    a.decider = v.spots[kPirate1 + slot];
    auto leave_ship = [slot](Voyage& w) {
        if (slot == 0) {
            w.spots[kPirate1] = w.spots[kPirate2];  // the other pirate becomes captain
            w.spots[kPirate2] = kNoOwner;
        } else {
            w.spots[kPirate2] = kNoOwner;
        }
    };
    // After the captain stays, pirate_2 decides; after the captain boards, the remaining
    // pirate (now on pirate_1) does, and may not displace the captain's new seat.
    auto next = [&](int next_slot, int boat, int seat) {
        return [=](const Voyage& w) -> std::optional<DecisionAdvice> {
            if (last || w.spots[kPirate1 + next_slot] == kNoOwner) return std::nullopt;
            return boarding_decision(w, next_slot, boat, seat, true);
        };
    };
    add_option(a, "stay", v, next(1, -1, -1));
    bool free_seat_on_13 = false;
    for (const Boat& b : v.boats) free_seat_on_13 |= b.position == kThirteen && !b.full();
    for (int i = 0; i < kNumBoats; ++i) {
        const Boat& b = v.boats[static_cast<std::size_t>(i)];
        if (b.position != kThirteen) continue;
        const std::string good = kGoods[static_cast<std::size_t>(b.good)].name;
        if (!b.full()) {
            Voyage w = v;
            Boat& wb = w.boats[static_cast<std::size_t>(i)];
            const int seat = wb.crew_size++;
            wb.crew[static_cast<std::size_t>(seat)] = a.decider;
            leave_ship(w);
            add_option(a, "board " + good, w, next(0, i, seat));
        } else if (v.rules.pirate_variant && !free_seat_on_13) {
            for (int seat = b.crew_size - 1; seat >= 0; --seat) {  // rearmost first
                if (i == guard_boat && seat == guard_seat) continue;
                Voyage w = v;
                w.boats[static_cast<std::size_t>(i)].crew[static_cast<std::size_t>(seat)] =
                    a.decider;
                leave_ship(w);
                add_option(a, "board " + good + " displace " + std::to_string(seat + 1), w,
                           next(0, i, seat));
            }
        }
    }
    finish(a);
    return a;
}

}  // namespace

PlacementAdvice advise_placement(const Voyage& v, const std::vector<int>& movers, int threads) {
    v.validate();
    if (movers.empty()) throw std::invalid_argument("movers: nobody is left to move in this round");
    for (std::size_t i = 0; i < movers.size(); ++i) {
        check_owner(v, movers[i], "movers[" + std::to_string(i) + "]");
        if (std::find(movers.begin(), movers.begin() + static_cast<std::ptrdiff_t>(i), movers[i]) !=
            movers.begin() + static_cast<std::ptrdiff_t>(i))
            throw std::invalid_argument("movers[" + std::to_string(i) +
                                        "]: a player moves once per round");
    }
    PlacementAdvice out;
    out.denominator = denominator(v.next_roll);
    const std::uint64_t generation = next_generation();  // one for the whole search
    const int m = movers.front();
    out.options.push_back({kDeclineSpot, 0});
    for (const LegalSpot& s : legal_spots(v, {m, kAnyAccomplices})) out.options.push_back(s);
    const std::size_t n = out.options.size();

    std::vector<PlacementSearch::Result> results(n);
    std::vector<std::int64_t> positions(n, 0);
    if (movers.size() == 1) {
        // The plain spot table, with decline as the option worth nothing more.
        const SpotValues sv = spot_values(v, {m, kAnyAccomplices}, threads, generation);
        results[0] = {std::vector<std::int64_t>(sv.all.begin(), sv.all.begin() + sv.num_owners),
                      {}};
        for (std::size_t k = 1; k < n; ++k) {
            results[k].payoffs = results[0].payoffs;
            results[k].payoffs[static_cast<std::size_t>(m)] += sv.gain[k - 1];
        }
        positions[0] = 1;
    } else {
        parallel_for(static_cast<int>(n), threads <= 0 ? hardware_threads() : threads, [&](int k) {
            PlacementSearch search(movers, out.denominator, generation);
            const LegalSpot& o = out.options[static_cast<std::size_t>(k)];
            results[static_cast<std::size_t>(k)] =
                search.solve(o.id == kDeclineSpot ? v : with_accomplice(v, o.id, m), 1);
            positions[static_cast<std::size_t>(k)] = search.positions;
        });
    }
    const auto mine = static_cast<std::size_t>(m);
    const std::int64_t declined = results[0].payoffs[mine];
    std::int64_t best_value = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const std::int64_t net =
            results[k].payoffs[mine] - out.options[k].cost * out.denominator - declined;
        out.net.push_back(net);
        if (net > best_value) best_value = net, out.best = static_cast<int>(k);
        out.positions += positions[k];
    }
    const auto best = static_cast<std::size_t>(out.best);
    if (movers.size() == 1) {
        // Only the mover's own payoff moved with a spot that changes no decision.
        const int id = out.options[best].id;
        out.payoffs = id == kDeclineSpot ? results[0].payoffs
                                         : payoffs_of(with_accomplice(v, id, m), generation);
    } else {
        out.payoffs = results[best].payoffs;
    }
    out.line.push_back({m, out.options[best].id});
    const auto& rest = results[best].line;
    out.line.insert(out.line.end(), rest.rbegin(), rest.rend());
    return out;
}

DecisionAdvice advise_pilot(const Voyage& v, bool large) {
    v.validate();
    if (v.next_roll != kNumRollsPerVoyage)
        throw std::invalid_argument(
            "moment: the pilots act after the last placement round, before roll 3, "
            "not before roll " +
            std::to_string(v.next_roll));
    const Spot slot = large ? kPilotLarge : kPilotSmall;
    if (v.spots[slot] == kNoOwner)
        throw std::invalid_argument(std::string("spots.") + kSpotNames[slot] +
                                    ": nobody holds this pilot");
    if (large && v.spots[kPilotSmall] != kNoOwner)
        throw std::invalid_argument(
            "spots.pilot_small: the small pilot moves first; free its spot once it has acted");
    return pilot_decision(v, large);
}

DecisionAdvice advise_boarding(const Voyage& v, bool second, int guard_boat, int guard_seat) {
    v.validate();
    if (v.next_roll != kNumRollsPerVoyage)
        throw std::invalid_argument(
            "moment: boarding happens right after roll 2 (next_roll 3), not before roll " +
            std::to_string(v.next_roll));
    bool on_13 = false;
    for (const Boat& b : v.boats) on_13 |= b.position == kThirteen;
    if (!on_13) throw std::invalid_argument("boats: boarding needs a boat on 13");
    const int slot = second ? 1 : 0;
    if (v.spots[kPirate1 + slot] == kNoOwner)
        throw std::invalid_argument(std::string("spots.") + kSpotNames[kPirate1 + slot] +
                                    ": no pirate there");
    if (guard_boat < -1 || guard_boat >= kNumBoats || guard_seat < -1 || guard_seat >= kMaxSeats ||
        (guard_boat < 0) != (guard_seat < 0))
        throw std::invalid_argument("guard: a boat index 0..2 and a seat 0..3, or both -1");
    if (second && guard_boat >= 0)
        throw std::invalid_argument(
            "guard: only the pirate left after the captain boarded has a seat to respect");
    const bool last = second || guard_boat >= 0 || v.spots[kPirate2] == kNoOwner;
    return boarding_decision(v, slot, guard_boat, guard_seat, last);
}

}  // namespace manila

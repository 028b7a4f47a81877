#include "manila/enumerate.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cells.hpp"
#include "checks.hpp"

namespace manila {
namespace {

std::string triple_text(const BoatArray& t) {
    return "(" + std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " + std::to_string(t[2]) +
           ")";
}

void check_goods(const BoatArray& goods, const std::string& field) {
    for (int i = 0; i < kNumBoats; ++i) {
        if (goods[i] < 0 || goods[i] >= kNumGoods)
            reject(field, "unknown good id " + std::to_string(goods[i]) + " (goods are 0.." +
                              std::to_string(kNumGoods - 1) + ")");
        if (i > 0 && goods[i] <= goods[i - 1])
            reject(field, "three different goods are needed, in canonical order, got " +
                              triple_text(goods));
    }
}

bool matches(const BoatArray& positions, const BoatArray& fixed) {
    for (int i = 0; i < kNumBoats; ++i)
        if (fixed[i] >= 0 && positions[i] != fixed[i]) return false;
    return true;
}

void push_triple(std::vector<std::int8_t>& out, const BoatArray& t) {
    for (int x : t) out.push_back(static_cast<std::int8_t>(x));
}

}  // namespace

std::vector<BoatArray> good_triples() {
    std::vector<BoatArray> out;
    for (int a = 0; a < kNumGoods; ++a)
        for (int b = a + 1; b < kNumGoods; ++b)
            for (int c = b + 1; c < kNumGoods; ++c) out.push_back({a, b, c});
    return out;
}

std::vector<Start> legal_starts() {
    std::vector<Start> out;
    for (const BoatArray& goods : good_triples())
        for (const BoatArray& spaces : kStartSpaces) out.push_back({goods, spaces});
    return out;
}

void check_start(const Start& start, const char* field) {
    const std::string name(field);
    check_goods(start.goods, name + ".goods");
    int sum = 0;
    for (int i = 0; i < kNumBoats; ++i) {
        const int s = start.spaces[i];
        if (s < 0 || s > kMaxStartSpace)
            reject(name + ".spaces[" + std::to_string(i) + "]", "a boat starts on space 0.." +
                                                                    std::to_string(kMaxStartSpace) +
                                                                    ", got " + std::to_string(s));
        sum += s;
    }
    if (sum != kStartSum)
        reject(name + ".spaces", "the start spaces must sum to " + std::to_string(kStartSum) +
                                     ", got " + std::to_string(sum));
}

std::int64_t reach_denominator(int next_roll) {
    check_next_roll(next_roll);
    return power_of_six(kNumBoats * (next_roll - 1));
}

namespace {

// Where a boat from `space` ends after `rolls` rolls, counted over the 6^rolls dice.
std::array<std::int64_t, kNumPositions> count_boat(int space, int rolls) {
    std::array<std::int64_t, kNumPositions> w{};
    w[static_cast<std::size_t>(space)] = 1;
    for (int r = 0; r < rolls; ++r) {
        std::array<std::int64_t, kNumPositions> next{};
        for (int q = 0; q < kNumPositions; ++q) {
            const std::int64_t here = w[static_cast<std::size_t>(q)];
            if (here == 0) continue;
            if (q == kArrived) {
                next[kArrived] += kDieFaces * here;  // a boat in Manila stays whatever it rolls
                continue;
            }
            for (int d = 1; d <= kDieFaces; ++d)
                next[static_cast<std::size_t>(std::min(q + d, kArrived))] += here;
        }
        w = next;
    }
    return w;
}

}  // namespace

std::array<std::int64_t, kNumPositions> boat_counts(int space, int rolls) {
    if (space < 0 || space > kArrived)
        reject("space", "must be 0..13 or arrived (14), got " + std::to_string(space));
    if (rolls < 0 || rolls > kNumRollsPerVoyage)
        reject("rolls", "must be 0.." + std::to_string(kNumRollsPerVoyage) + ", got " +
                            std::to_string(rolls));
    // Every evaluation and every greedy auction asks: counted once, for every start and roll.
    using Counts = std::array<std::int64_t, kNumPositions>;
    static const auto table = [] {
        std::array<std::array<Counts, kNumRollsPerVoyage + 1>, kArrived + 1> t{};
        for (int q = 0; q <= kArrived; ++q)
            for (int r = 0; r <= kNumRollsPerVoyage; ++r)
                t[static_cast<std::size_t>(q)][static_cast<std::size_t>(r)] = count_boat(q, r);
        return t;
    }();
    return table[static_cast<std::size_t>(space)][static_cast<std::size_t>(rolls)];
}

std::vector<Reached> reachable(const Start& start, int next_roll) {
    check_start(start);
    check_next_roll(next_roll);
    std::array<std::array<std::int64_t, kNumPositions>, kNumBoats> counts;
    for (int i = 0; i < kNumBoats; ++i) counts[i] = boat_counts(start.spaces[i], next_roll - 1);
    // The dice of the three boats are independent: the count of a triple is the product.
    std::vector<Reached> out;
    for (int a = 0; a < kNumPositions; ++a) {
        if (counts[0][a] == 0) continue;
        for (int b = 0; b < kNumPositions; ++b) {
            if (counts[1][b] == 0) continue;
            for (int c = 0; c < kNumPositions; ++c)
                if (counts[2][c] != 0)
                    out.push_back({{a, b, c}, counts[0][a] * counts[1][b] * counts[2][c]});
        }
    }
    return out;
}

Family enumerate_family(const FamilySpec& spec) {
    check_next_roll(spec.next_roll);
    for (int i = 0; i < kNumBoats; ++i)
        if (spec.fixed[i] < -1 || spec.fixed[i] > kArrived)
            reject("fixed[" + std::to_string(i) + "]",
                   "must be a position 0..13, arrived (14) or -1 (free), got " +
                       std::to_string(spec.fixed[i]));
    for (std::size_t k = 0; k < spec.starts.size(); ++k) {
        const std::string field = "starts[" + std::to_string(k) + "]";
        check_start(spec.starts[k], field.c_str());
        for (std::size_t j = 0; j < k; ++j)
            if (spec.starts[j].goods == spec.starts[k].goods &&
                spec.starts[j].spaces == spec.starts[k].spaces)
                reject(field, "the same start is given twice");
    }
    if (!spec.reachable && !spec.starts.empty())
        reject("starts", "only a reachable family has starts");

    // The good triples, in canonical order.
    std::vector<BoatArray> triples = spec.goods;
    for (std::size_t k = 0; k < triples.size(); ++k) {
        check_goods(triples[k], "goods[" + std::to_string(k) + "]");
        for (std::size_t j = 0; j < k; ++j)
            if (triples[j] == triples[k])
                reject("goods[" + std::to_string(k) + "]", "the same goods are given twice");
    }
    if (triples.empty()) {
        if (spec.starts.empty()) {
            triples = good_triples();
        } else {
            for (const Start& s : spec.starts)
                if (std::find(triples.begin(), triples.end(), s.goods) == triples.end())
                    triples.push_back(s.goods);
        }
    } else {
        for (std::size_t k = 0; k < spec.starts.size(); ++k)
            if (std::find(triples.begin(), triples.end(), spec.starts[k].goods) == triples.end())
                reject("starts[" + std::to_string(k) + "].goods",
                       "these goods " + triple_text(spec.starts[k].goods) + " are not among goods");
    }
    std::sort(triples.begin(), triples.end());

    Family f;
    f.next_roll = spec.next_roll;
    auto add_row = [&f](const BoatArray& goods, const BoatArray& positions) {
        push_triple(f.goods, goods);
        push_triple(f.positions, positions);
        return f.n++;
    };

    if (!spec.reachable) {
        for (const BoatArray& goods : triples)
            for (int cell = 0; cell < kCells; ++cell) {
                const BoatArray p = triple_of(cell);
                if (matches(p, spec.fixed)) add_row(goods, p);
            }
        return f;
    }

    std::vector<Start> starts = spec.starts;
    if (starts.empty())
        for (const Start& s : legal_starts())
            if (std::find(triples.begin(), triples.end(), s.goods) != triples.end())
                starts.push_back(s);
    std::vector<std::vector<Reached>> reached(starts.size());
    for (std::size_t k = 0; k < starts.size(); ++k)
        reached[k] = reachable(starts[k], spec.next_roll);

    // Rows: per good triple, every cell some start reaches, in cell order.
    constexpr std::int32_t kUnreached = -1, kReachedCell = -2;
    std::vector<std::vector<std::int32_t>> row_of(triples.size());
    for (std::size_t t = 0; t < triples.size(); ++t) {
        std::vector<std::int32_t>& rows = row_of[t];
        rows.assign(kCells, kUnreached);
        for (std::size_t k = 0; k < starts.size(); ++k)
            if (starts[k].goods == triples[t])
                for (const Reached& r : reached[k])
                    if (matches(r.positions, spec.fixed))
                        rows[static_cast<std::size_t>(cell_of(r.positions))] = kReachedCell;
        for (int cell = 0; cell < kCells; ++cell)
            if (rows[static_cast<std::size_t>(cell)] == kReachedCell)
                rows[static_cast<std::size_t>(cell)] = add_row(triples[t], triple_of(cell));
    }

    f.num_starts = static_cast<int>(starts.size());
    for (std::size_t k = 0; k < starts.size(); ++k) {
        push_triple(f.start_goods, starts[k].goods);
        push_triple(f.start_spaces, starts[k].spaces);
        const std::size_t t = static_cast<std::size_t>(
            std::find(triples.begin(), triples.end(), starts[k].goods) - triples.begin());
        for (const Reached& r : reached[k]) {
            if (!matches(r.positions, spec.fixed)) continue;
            f.path_start.push_back(static_cast<std::int32_t>(k));
            f.path_row.push_back(row_of[t][static_cast<std::size_t>(cell_of(r.positions))]);
            f.path_count.push_back(r.count);
        }
    }
    return f;
}

Pattern Pattern::shape(const BoatArray& crew_sizes, int pirates) {
    Pattern p;
    for (int i = 0; i < kNumBoats; ++i) {
        if (crew_sizes[i] < 0 || crew_sizes[i] > kMaxSeats)
            reject("crew_sizes[" + std::to_string(i) + "]",
                   "must be 0.." + std::to_string(kMaxSeats) + ", got " +
                       std::to_string(crew_sizes[i]));
        for (int s = 0; s < crew_sizes[i]; ++s) p.crews[i].push_back(p.num_owners++);
    }
    if (pirates < 0 || pirates > 2)
        reject("pirates", "must be 0, 1 or 2, got " + std::to_string(pirates));
    if (pirates >= 1) p.spots[kPirate1] = p.num_owners++;
    if (pirates >= 2) p.spots[kPirate2] = p.num_owners++;
    return p;
}

std::vector<Voyage> family_voyages(const Pattern& pattern, int next_roll, const std::int8_t* goods,
                                   const std::int8_t* positions, int n) {
    if (n < 0) reject("n", "must not be negative");
    Voyage base;
    base.next_roll = next_roll;
    for (int i = 0; i < kNumBoats; ++i) {
        const std::vector<int>& crew = pattern.crews[i];
        if (crew.size() > kMaxSeats)
            reject("crews[" + std::to_string(i) + "]",
                   "a boat has at most " + std::to_string(kMaxSeats) + " seats, got " +
                       std::to_string(crew.size()));
        base.boats[i].crew_size = static_cast<int>(crew.size());
        std::copy(crew.begin(), crew.end(), base.boats[i].crew.begin());
    }
    base.spots = pattern.spots;
    base.num_owners = pattern.num_owners;
    base.rules = pattern.rules;
    base.objective = pattern.objective;
    base.price = pattern.price;
    base.shares = pattern.shares;
    base.budget = pattern.budget;

    std::vector<Voyage> out(static_cast<std::size_t>(n), base);
    for (int r = 0; r < n; ++r) {
        Voyage& v = out[static_cast<std::size_t>(r)];
        const std::size_t off = static_cast<std::size_t>(r) * kNumBoats;
        for (int i = 0; i < kNumBoats; ++i) {
            v.boats[i].good = goods[off + static_cast<std::size_t>(i)];
            v.boats[i].position = positions[off + static_cast<std::size_t>(i)];
        }
        try {
            v.validate();
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("rows[" + std::to_string(r) + "]." + e.what());
        }
    }
    return out;
}

}  // namespace manila

#include "manila/evaluator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "cells.hpp"
#include "evaluator_internal.hpp"
#include "manila/enumerate.hpp"
#include "parallel.hpp"

namespace manila {

std::uint64_t next_generation() {
    static std::atomic<std::uint64_t> counter{0};
    return ++counter;
}

namespace {

// Where a boat stands once roll 3 is over.
enum FinalClass : int { kInManila, kOnThirteen, kElsewhere, kNumClasses };
constexpr int kClassCombos = kNumClasses * kNumClasses * kNumClasses;

// Before the last roll only the odds of each final class matter, and they are the same
// for every space up to 6 and for 13 and Manila: positions fall into 8 "reach" groups.
constexpr int kReaches = 8;
constexpr int kReachCells = kReaches * kReaches * kReaches;
int reach(int p) { return p <= 6 ? 0 : (p >= kThirteen ? 7 : p - 6); }

// How many faces of the last die send a boat of each reach group to each final class: from
// space r+6 (groups 1..6) faces 8-r..6 pass 13 and face 7-r lands on it.
constexpr std::array<std::array<int, kNumClasses>, kReaches> kFinalFaces{
    {{0, 0, 6}, {0, 1, 5}, {1, 1, 4}, {2, 1, 3}, {3, 1, 2}, {4, 1, 1}, {5, 1, 0}, {6, 0, 0}}};

// One boat's last die over rows of n numbers: out[r][j] = sum over classes c of
// kFinalFaces[r][c] * x_c[j] for each reach group r. The faces of groups 1..6 step by
// (+1, 0, -1), so every row after the second is the previous one plus x_0 - x_2.
// (spread and gather write into the caller's rows, which are slices of larger work arrays
// on the stack: returning arrays would copy them in the innermost loops of the evaluator.)
void spread(const std::int64_t* __restrict x0, const std::int64_t* __restrict x1,
            const std::int64_t* __restrict x2, int n, std::int64_t* __restrict out) {
    for (int j = 0; j < n; ++j) {
        const std::int64_t step = x0[j] - x2[j];
        std::int64_t row = x1[j] + 5 * x2[j];
        out[j] = 6 * x2[j];
        out[n + j] = row;
        for (int r = 2; r < 7; ++r) out[r * n + j] = row += step;
        out[7 * n + j] = 6 * x0[j];
    }
}

// The transpose of spread: x_c[j] = sum over reach groups r of kFinalFaces[r][c] * in[r][j].
// With S the sum of groups 1..6 and A = sum (r - 1) * in[r] over them (a sum of suffix sums),
// the faces (r - 1, 1, 6 - r) give A, S and 5S - A.
void gather(const std::int64_t* __restrict in, int n, std::int64_t* __restrict x0,
            std::int64_t* __restrict x1, std::int64_t* __restrict x2) {
    for (int j = 0; j < n; ++j) {
        std::int64_t suffix = 0, a = 0;
        for (int r = 6; r >= 2; --r) {
            suffix += in[r * n + j];
            a += suffix;
        }
        const std::int64_t sum = suffix + in[n + j];
        x0[j] = a + 6 * in[7 * n + j];
        x1[j] = sum;
        x2[j] = 6 * in[j] + 5 * sum - a;
    }
}

// The positions one boat can reach in `rolls` dice, each with its number of face sequences.
struct RollDistribution {
    std::array<std::pair<int, std::int64_t>, kNumPositions> at;
    int n = 0;
    const std::pair<int, std::int64_t>* begin() const { return at.data(); }
    const std::pair<int, std::int64_t>* end() const { return at.data() + n; }
};

RollDistribution roll_distribution(int p, int rolls) {
    const auto w = boat_counts(p, rolls);
    RollDistribution out;
    for (int q = 0; q < kNumPositions; ++q)
        if (w[q] != 0) out.at[out.n++] = {q, w[q]};
    return out;
}

// Every pilot option from every cell, in canonical order, built once. Options that cannot
// change a value are left out; they could never beat an earlier option (ties go to the
// first), so the choice is the same.
struct PilotMoves {
    std::array<std::int16_t, kCells> reach_of{};  // reach cell of each cell
    // Large-pilot targets as reach cells (only their values matter), small-pilot targets
    // as cells (the large pilot moves on from there).
    std::vector<std::int16_t> large, small;
    std::array<std::int32_t, kCells + 1> large_begin{}, small_begin{};

    PilotMoves() {
        for (int cell = 0; cell < kCells; ++cell) {
            const Triple p = triple_of(cell);
            reach_of[cell] = static_cast<std::int16_t>(
                (reach(p[0]) * kReaches + reach(p[1])) * kReaches + reach(p[2]));
            // A large-pilot move that leaves a boat in its reach group changes no value: it
            // ties with no move, or with the other boat's single move, which come first.
            large_begin[cell] = static_cast<std::int32_t>(large.size());
            for_each_pilot_move(true, [&](const PilotMove& m) {
                if (m == PilotMove{0, 0, 0}) return;
                Triple q = p;
                for (int i = 0; i < kNumBoats; ++i) {
                    if (m[i] == 0) continue;
                    const std::optional<int> to = moved_position(p[i], m[i]);
                    if (!to || reach(*to) == reach(p[i])) return;
                    q[i] = *to;
                }
                large.push_back(static_cast<std::int16_t>(
                    (reach(q[0]) * kReaches + reach(q[1])) * kReaches + reach(q[2])));
            });
            // From spaces 0..4 even the large pilot cannot bring a boat past 6 afterwards,
            // so a small-pilot move within 0..4 ties with not moving.
            small_begin[cell] = static_cast<std::int32_t>(small.size());
            for_each_pilot_move(false, [&](const PilotMove& m) {
                for (int i = 0; i < kNumBoats; ++i) {
                    if (m[i] == 0) continue;
                    const std::optional<int> to = moved_position(p[i], m[i]);
                    if (!to || (p[i] <= 4 && *to <= 4)) return;
                    Triple q = p;
                    q[i] = *to;
                    small.push_back(static_cast<std::int16_t>(cell_of(q)));
                }
            });
        }
        large_begin[kCells] = static_cast<std::int32_t>(large.size());
        small_begin[kCells] = static_cast<std::int32_t>(small.size());
    }
};

const PilotMoves& pilot_moves() {
    static const PilotMoves moves;
    return moves;
}

// The part of a voyage that boarding can change: crews and the pirates still on the ship.
struct Crews {
    std::array<std::array<int, kMaxSeats>, kNumBoats> crew{};
    std::array<int, kNumBoats> size{};
    std::array<int, 2> pirate{kNoOwner, kNoOwner};  // owners of pirate_1, pirate_2
    int on_ship = 0;                                // bit k: pirate k has not boarded
    bool operator==(const Crews& o) const {
        return crew == o.crew && size == o.size && pirate == o.pirate && on_ship == o.on_ship;
    }
    int captain() const { return (on_ship & 1) ? pirate[0] : pirate[1]; }
    int pirates_on_ship() const { return (on_ship & 1) + ((on_ship >> 1) & 1); }
};

// At most this many owners decide something (two pilots, two pirates).
constexpr int kMaxDeciders = 4;

// A pilot's choice from each cell, as a reach cell. Entries are valid when their stamp
// equals the memo's tag, so a memo is reused for other tables without clearing it.
struct PilotMemo {
    std::uint32_t tag = 0;
    std::vector<std::uint32_t> stamp;
    std::vector<std::int16_t> to;

    void reuse() {
        if (stamp.empty()) {
            stamp.assign(kCells, 0);
            to.assign(kCells, 0);
        }
        if (++tag == 0) {
            std::fill(stamp.begin(), stamp.end(), 0);
            tag = 1;
        }
    }
};

// A pilot's choices depend on nothing but the tables of the pilots still to move: the
// large pilot's on the large pilot's table, the small pilot's on both. Spot values solve
// many voyages that differ in one accomplice, and a placement search many boards, most of
// which leave the pilots' payoffs, and so their choices, as they were: choices are kept by
// table contents, so that every voyage of one generation (a spot table, or a whole search)
// with the same pilots' payoffs shares them. A new generation starts the cache afresh, and
// so does a full one, before the next evaluation.
struct DecisionCache {
    static constexpr int kMaxTables = 512;  // 4 kB each
    static constexpr int kMaxMemos = 128;   // 20 kB each

    // A decider's table follows from their payoffs in the 27 combinations of final
    // classes, so those are the key.
    using Finals = std::array<std::int64_t, kClassCombos>;
    struct Table {
        // The same payoff however the voyage ends: every pilot move ties, and ties go to
        // the first option, no move. (Not so for a pirate, whose boarding changes the
        // configuration and so the table.)
        bool flat = false;
        Finals finals;
        std::array<std::int64_t, kReachCells> value;
    };
    std::vector<std::unique_ptr<Table>> tables;
    int num_tables = 0;
    std::unordered_multimap<std::uint64_t, int> by_hash;  // table ids by their finals' hash
    std::vector<std::unique_ptr<PilotMemo>> memos;
    int num_memos = 0;
    // Memos by (small pilot's table + 1, large pilot's table); small -1: the large pilot alone.
    std::unordered_map<std::uint64_t, PilotMemo*> by_pair;

    std::uint64_t generation = 0;

    // Before an evaluation (none holds an id then).
    void start(std::uint64_t g) {
        if (g == generation && num_tables < kMaxTables && num_memos < kMaxMemos) return;
        generation = g;
        num_tables = num_memos = 0;
        by_hash.clear();
        by_pair.clear();
    }

    // The id of the table of these final payoffs, built if new.
    int intern(const Finals& finals) {
        std::uint64_t hash = 0;
        for (std::int64_t x : finals)
            hash = (hash ^ static_cast<std::uint64_t>(x)) * 0x9E3779B97F4A7C15ull;
        const auto [first, last] = by_hash.equal_range(hash);
        for (auto it = first; it != last; ++it)
            if (tables[it->second]->finals == finals) return it->second;
        by_hash.emplace(hash, num_tables);
        if (num_tables == static_cast<int>(tables.size()))
            tables.push_back(std::make_unique<Table>());
        Table& t = *tables[num_tables];
        t.finals = finals;
        t.flat = std::all_of(finals.begin(), finals.end(),
                             [&](std::int64_t x) { return x == finals[0]; });
        // The last three dice summed one boat at a time (they are independent).
        constexpr int kPlane = kReaches * kReaches;
        std::array<std::int64_t, kNumClasses * kNumClasses * kReaches> p;  // [a][b][r2]
        for (int ab = 0; ab < kNumClasses * kNumClasses; ++ab)
            spread(&finals[ab * 3], &finals[ab * 3 + 1], &finals[ab * 3 + 2], 1, &p[ab * kReaches]);
        std::array<std::int64_t, kNumClasses * kPlane> p2;  // [a][r1][r2]
        for (int a = 0; a < kNumClasses; ++a)
            spread(&p[a * 3 * kReaches], &p[(a * 3 + 1) * kReaches], &p[(a * 3 + 2) * kReaches],
                   kReaches, &p2[a * kPlane]);
        spread(&p2[0], &p2[kPlane], &p2[2 * kPlane], kPlane, t.value.data());
        return num_tables++;
    }
    const std::int64_t* values(int id) const { return tables[id]->value.data(); }
    bool flat(int id) const { return tables[id]->flat; }

    PilotMemo& memo(int small, int large) {
        const std::uint64_t key =
            std::uint64_t(std::uint32_t(small + 1)) << 32 | std::uint32_t(large);
        auto [it, fresh] = by_pair.try_emplace(key, nullptr);
        if (!fresh) return *it->second;
        if (num_memos == static_cast<int>(memos.size()))
            memos.push_back(std::make_unique<PilotMemo>());
        PilotMemo* m = memos[static_cast<std::size_t>(num_memos++)].get();
        m->reuse();
        it->second = m;
        return *m;
    }
};

// How a boat ends a voyage, as far as its payout goes.
enum BoatEnd : int { kEndPort, kEndShipyard, kEndPlunderedPort, kEndPlunderedShipyard, kEnds };
// A payout is the sum of one row per boat (by how it ends) and one row for how many boats
// end in Manila (the ports, shipyards and insurance).
constexpr int kBoatRows = kNumBoats * kEnds;
constexpr int kPayoutRows = kBoatRows + kNumBoats + 1;
// The rows of one payout: one per boat, then the count row.
using PayoutRows = std::array<std::int8_t, kNumBoats + 1>;

// The rows of a payout when each boat ends as `ends` says.
PayoutRows rows_of(const Triple& ends) {
    PayoutRows r{};
    int manila = 0;
    for (int i = 0; i < kNumBoats; ++i) {
        manila += ends[i] == kEndPort || ends[i] == kEndPlunderedPort;
        r[i] = static_cast<std::int8_t>(i * kEnds + ends[i]);
    }
    r[kNumBoats] = static_cast<std::int8_t>(kBoatRows + manila);
    return r;
}

// Per combination of final classes, the rows of its payout: `plain` (by the rule for
// boats on 13) when no pirate plunders, else each of the captain's options, in canonical
// order: binary counting over the boats on 13, first boat most significant, Manila = 0.
struct ComboRows {
    std::array<std::array<PayoutRows, kClassCombos>, 2> plain;  // [thirteen_to_port][combo]
    std::array<std::array<PayoutRows, 1 << kNumBoats>, kClassCombos> plunder;
    std::array<int, kClassCombos> options{};  // how many plunder options (1: nothing on 13)

    ComboRows() {
        for (int combo = 0; combo < kClassCombos; ++combo) {
            const Triple cls{combo / 9, (combo / 3) % 3, combo % 3};
            std::array<int, kNumBoats> on13{};
            int n13 = 0;
            Triple ends{};
            for (int i = 0; i < kNumBoats; ++i) {
                ends[i] = cls[i] == kInManila ? kEndPort : kEndShipyard;
                if (cls[i] == kOnThirteen) on13[n13++] = i;
            }
            for (int to_port = 0; to_port < 2; ++to_port) {
                for (int k = 0; k < n13; ++k) ends[on13[k]] = to_port ? kEndPort : kEndShipyard;
                plain[to_port][combo] = rows_of(ends);
            }
            options[combo] = 1 << n13;
            for (int mask = 0; mask < options[combo]; ++mask) {
                for (int k = 0; k < n13; ++k)
                    ends[on13[k]] =
                        ((mask >> (n13 - 1 - k)) & 1) ? kEndPlunderedShipyard : kEndPlunderedPort;
                plunder[combo][mask] = rows_of(ends);
            }
        }
    }
};

const ComboRows& combo_rows() {
    static const ComboRows rows;
    return rows;
}

// Work tables of one crew configuration.
struct ConfigWork {
    Crews crews;
    bool settled = false, weighted = false, counted = false;
    std::vector<std::int64_t> rows;  // [kPayoutRows][K]
    // Per combination of final classes (the captain's plunder choice made), the four rows
    // its payout is the sum of.
    std::array<PayoutRows, kClassCombos> payout_rows;
    // How often each row is paid in this run: every channel's expectation is these times the
    // rows, summed once at the end (Solver::collect).
    std::array<std::int64_t, kPayoutRows> times;
    // Per decider, the id (in the DecisionCache) of their expected payoff (times 6^3) at each
    // reach cell before roll 3, or -1 before it is needed: the decisions compare only these,
    // so the other channels never need a table of their own.
    std::array<int, kMaxDeciders> table{};
    PilotMemo* large_memo = nullptr;
    PilotMemo* small_memo = nullptr;
    bool large_flat = false, small_flat = false;  // the pilot's options all tie: no move
    // The configuration after pirate k takes seat s of boat i: [k][i][s], -1 until known.
    std::array<std::int16_t, 2 * kNumBoats * kMaxSeats> boarded{};
    // How often (in dice sequences) the voyage reaches each reach cell before roll 3 in this
    // configuration; the expectation of every channel is folded from these at the end.
    std::vector<std::int64_t> weight;  // [kReachCells]

    void prepare(int K, const Crews& c) {
        if (weight.empty()) weight.assign(kReachCells, 0);
        const std::size_t need = std::size_t(kPayoutRows) * std::size_t(K);
        if (rows.size() < need) rows.resize(need);
        crews = c;
        settled = weighted = counted = false;
        table.fill(-1);
        boarded.fill(-1);
        large_memo = small_memo = nullptr;
    }
};

// Memory reused from one evaluation to the next: allocating and clearing the work tables
// would cost more than a whole last-roll evaluation.
struct Workspace {
    std::vector<std::unique_ptr<ConfigWork>> pool;
    std::vector<ConfigWork*> configs;  // the pool's first ones, in use by this evaluation
    DecisionCache cache;
};

// Workspaces are lent to the evaluating thread. A thread keeps the one it used last (its
// memo tables stay in that core's cache) and hands it back to the shared pool when it ends,
// so short-lived worker threads still find warm memory.
class WorkspaceLease {
  public:
    WorkspaceLease() : ws_(std::move(local().ws)) {
        if (ws_) return;
        const Lock lock(mutex_);
        if (free_.empty()) {
            ws_ = std::make_unique<Workspace>();
        } else {
            ws_ = std::move(free_.back());
            free_.pop_back();
        }
    }
    ~WorkspaceLease() {
        Slot& slot = local();
        if (!slot.ws) {
            slot.ws = std::move(ws_);
            return;
        }
        give_back(std::move(ws_));  // a nested lease: the thread already keeps one
    }
    WorkspaceLease(const WorkspaceLease&) = delete;
    WorkspaceLease& operator=(const WorkspaceLease&) = delete;
    Workspace& get() { return *ws_; }

  private:
    struct Slot {
        std::unique_ptr<Workspace> ws;
        ~Slot() {
            if (ws) give_back(std::move(ws));
        }
    };
    static Slot& local() {
        thread_local Slot slot;
        return slot;
    }
    static void give_back(std::unique_ptr<Workspace> ws) {
        const Lock lock(mutex_);
        free_.push_back(std::move(ws));
    }

    std::unique_ptr<Workspace> ws_;
    static inline Mutex mutex_;
    static inline std::vector<std::unique_ptr<Workspace>> free_;
};

// The spots whose holders decide something later in the voyage (pilots move boats,
// pirates board and plunder).
constexpr std::array<Spot, 4> kDecisionSpots{kPilotSmall, kPilotLarge, kPirate1, kPirate2};

// Outcome channels: per boat port/shipyard/plundered, then how many boats end in Manila
// (0..3), then per boat whether it ends in Manila (plundered and sent there included).
constexpr int kManilaCountChannel = kNumBoats * kNumOutcomes;
constexpr int kArrivalChannel = kManilaCountChannel + kNumBoats + 1;
constexpr int kOutcomeChannels = kArrivalChannel + kNumBoats;

// Expectimax over the rest of a voyage. Values are vectors of K channels: the payoffs of
// the tracked owners, then (optionally) the outcome channels. Decisions compare only the
// decider's channel, so the tree is searched on per-decider tables of single numbers and
// the K channels are summed once, from how often each position is reached.
// Its helpers write K channels through a pointer on purpose: the rows live in the reused
// Workspace (see WorkspaceLease), and a vector returned per call would allocate in the
// evaluator's hottest loops.
class Solver {
  public:
    // generation: the decision cache's (see DecisionCache).
    Solver(const Voyage& v, std::vector<int> tracked, bool boat_channels,
           std::uint64_t generation = next_generation())
        : v_(v),
          moves_(pilot_moves()),
          combo_rows_(combo_rows()),
          ws_(lease_.get()),
          cache_(ws_.cache),
          tracked_(std::move(tracked)),
          configs_(ws_.configs) {
        configs_.clear();
        chan_.fill(-1);
        // Every decision maker must be tracked: their choices depend on their own income.
        for (Spot s : kDecisionSpots)
            if (v.spots[s] != kNoOwner) track(v.spots[s]);
        for (std::size_t i = 0; i < tracked_.size(); ++i) chan_[tracked_[i]] = static_cast<int>(i);
        K_ = static_cast<int>(tracked_.size());
        boat_base_ = boat_channels ? K_ : -1;
        if (boat_channels) K_ += kOutcomeChannels;
        small_ = decider(v.spots[kPilotSmall]);
        large_ = decider(v.spots[kPilotLarge]);
        pirate_ = {decider(v.spots[kPirate1]), decider(v.spots[kPirate2])};
        for (std::size_t k = 0; k < tracked_.size(); ++k)
            for (int i = 0; i < kNumBoats; ++i)
                if (const int b = v.manila_bonus(tracked_[k], i))
                    bonus_[num_bonus_++] = {static_cast<int>(k), i, b};
        cache_.start(generation);
    }

    int channel(int owner) const { return owner == kNoOwner ? -1 : chan_[owner]; }

    std::vector<std::int64_t> run() {
        Crews base;
        for (int i = 0; i < kNumBoats; ++i) {
            base.crew[i] = v_.boats[i].crew;
            base.size[i] = v_.boats[i].crew_size;
        }
        base.pirate = {v_.spots[kPirate1], v_.spots[kPirate2]};
        base.on_ship = (base.pirate[0] != kNoOwner ? 1 : 0) | (base.pirate[1] != kNoOwner ? 2 : 0);
        add_config(base);

        const Triple start{v_.boats[0].position, v_.boats[1].position, v_.boats[2].position};
        std::vector<std::int64_t> result(static_cast<std::size_t>(K_), 0);
        if (v_.next_roll == kNumRollsPerVoyage) {
            add_value(0, after_pilots(0, cell_of(start)));
            collect(result.data());
            return result;
        }
        // Nothing is decided between the rolls before roll 2 ends, so each boat's dice can be
        // summed on their own and only the positions after roll 2 need the game tree.
        std::array<RollDistribution, kNumBoats> dist;
        for (int i = 0; i < kNumBoats; ++i)
            dist[i] = roll_distribution(start[i], kNumRollsPerVoyage - v_.next_roll);
        if (small_ < 0 && large_ < 0) {
            independent_boats(dist);
        } else {
            for (auto [q0, w0] : dist[0])
                for (auto [q1, w1] : dist[1])
                    for (auto [q2, w2] : dist[2]) {
                        auto [config, rc] = after_boarding({q0, q1, q2});
                        weights(config)[rc] += w0 * w1 * w2;
                    }
            fold_weights();
        }
        collect(result.data());
        return result;
    }

  private:
    // Without pilots nothing is decided before roll 3 except boarding, so away from the
    // boarding positions the three boats' dice are independent all the way: the sum over
    // all positions factors into one sum per boat, corrected where pirates board.
    void independent_boats(const std::array<RollDistribution, kNumBoats>& dist) {
        std::array<std::array<std::int64_t, kNumClasses>, kNumBoats> odds{};
        for (int i = 0; i < kNumBoats; ++i)
            for (auto [p, w] : dist[i]) {
                const auto& f = kFinalFaces[reach(p)];
                for (int c = 0; c < kNumClasses; ++c) odds[i][c] += w * f[c];
            }
        for (int combo = 0; combo < kClassCombos; ++combo)
            count(0, combo, odds[0][combo / 9] * odds[1][(combo / 3) % 3] * odds[2][combo % 3]);
        if (configs_[0]->crews.on_ship == 0) return;
        // Boarding depends on which boats are on 13 and, through the values, on the reach
        // groups: positions alike in both are decided once.
        struct Boarding {
            int key, cell;
            std::int64_t weight;
        };  // key: reach cell * 8 + mask
        std::array<Boarding, kCells> boarding;
        int n = 0;
        for (auto [q0, w0] : dist[0])
            for (auto [q1, w1] : dist[1])
                for (auto [q2, w2] : dist[2]) {
                    const int mask =
                        (q0 == kThirteen) | (q1 == kThirteen) << 1 | (q2 == kThirteen) << 2;
                    if (mask == 0) continue;
                    const int cell = cell_of({q0, q1, q2});
                    boarding[n++] = {moves_.reach_of[cell] * 8 + mask, cell, w0 * w1 * w2};
                }
        std::sort(boarding.begin(), boarding.begin() + n,
                  [](const Boarding& a, const Boarding& b) { return a.key < b.key; });
        for (int i = 0; i < n;) {
            const int key = boarding[i].key, cell = boarding[i].cell;
            std::int64_t weight = 0;
            for (; i < n && boarding[i].key == key; ++i) weight += boarding[i].weight;
            const auto [config, to] = board(0, 0, cell, triple_of(cell), -1, -1);
            weights(config)[to] += weight;
            weights(0)[moves_.reach_of[cell]] -= weight;
        }
        fold_weights();
    }

    void track(int owner) {
        if (std::find(tracked_.begin(), tracked_.end(), owner) == tracked_.end())
            tracked_.push_back(owner);
    }

    // The table index of a decision maker's channel (the same owner may hold several spots).
    int decider(int owner) {
        if (owner == kNoOwner) return -1;
        const int ch = channel(owner);
        for (int d = 0; d < num_deciders_; ++d)
            if (decider_channel_[d] == ch) return d;
        decider_channel_[num_deciders_] = ch;
        return num_deciders_++;
    }

    int add_config(const Crews& c) {
        for (std::size_t i = 0; i < configs_.size(); ++i)
            if (configs_[i]->crews == c) return static_cast<int>(i);
        if (configs_.size() == ws_.pool.size()) ws_.pool.push_back(std::make_unique<ConfigWork>());
        ConfigWork* w = ws_.pool[configs_.size()].get();
        w->prepare(K_, c);
        configs_.push_back(w);
        return static_cast<int>(configs_.size()) - 1;
    }

    // A payout is a sum of rows (see kPayoutRows), built once per configuration: a
    // combination of final classes, or one of the captain's plunder options in it, is then
    // four rows, and a channel's payout there four numbers, without a branch per seat.
    std::int64_t* row(ConfigWork& w, int r) const { return &w.rows[std::size_t(r) * K_]; }

    void pay(std::int64_t* out, int owner, std::int64_t amount) const {
        const int ch = channel(owner);
        if (ch >= 0) out[ch] += amount;
    }

    void build_rows(ConfigWork& w) const {
        const Crews& c = w.crews;
        std::fill(w.rows.begin(), w.rows.begin() + std::ptrdiff_t(kPayoutRows) * K_, 0);
        const int pirates = c.pirates_on_ship();
        for (int i = 0; i < kNumBoats; ++i) {
            const int value = kGoods[v_.boats[i].good].value;
            std::int64_t* port = row(w, i * kEnds + kEndPort);
            std::int64_t* plundered_port = row(w, i * kEnds + kEndPlunderedPort);
            std::int64_t* plundered_yard = row(w, i * kEnds + kEndPlunderedShipyard);
            for (int s = 0; s < c.size[i]; ++s) pay(port, c.crew[i][s], value / c.size[i]);
            for (int k = 0; k < 2; ++k)
                if ((c.on_ship >> k) & 1) {
                    pay(plundered_port, c.pirate[k], value / pirates);
                    pay(plundered_yard, c.pirate[k], value / pirates);
                }
            // Shares pay when the boat reaches Manila, plundered or not.
            for (int b = 0; b < num_bonus_; ++b)
                if (bonus_[b].boat == i) {
                    port[bonus_[b].channel] += bonus_[b].amount;
                    plundered_port[bonus_[b].channel] += bonus_[b].amount;
                }
            if (boat_base_ >= 0) {
                const int outcome = boat_base_ + i * kNumOutcomes;
                port[outcome + kOutcomePort] += 1;
                row(w, i * kEnds + kEndShipyard)[outcome + kOutcomeShipyard] += 1;
                plundered_port[outcome + kOutcomePlundered] += 1;
                plundered_yard[outcome + kOutcomePlundered] += 1;
                port[boat_base_ + kArrivalChannel + i] += 1;
                plundered_port[boat_base_ + kArrivalChannel + i] += 1;
            }
        }
        for (int manila = 0; manila <= kNumBoats; ++manila) {
            std::int64_t* out = row(w, kBoatRows + manila);
            const int shipyard = kNumBoats - manila;
            if (boat_base_ >= 0) out[boat_base_ + kManilaCountChannel + manila] += 1;
            for (int k = 0; k < kNumBoats; ++k) {
                if (manila > k) pay(out, v_.spots[kPortA + k], kSlotPayout[k]);
                if (shipyard > k) pay(out, v_.spots[kShipyardA + k], kSlotPayout[k]);
            }
            pay(out, v_.spots[kInsurance], -kInsuranceClaim[shipyard]);
        }
    }

    std::int64_t channel_payout(const ConfigWork& w, const PayoutRows& r, int ch) const {
        std::int64_t sum = 0;
        for (std::int8_t x : r) sum += w.rows[std::size_t(x) * K_ + ch];
        return sum;
    }

    // The rows of every combination of final classes in a configuration, with the captain's
    // plunder choice made.
    ConfigWork& settled(int config) {
        ConfigWork& w = *configs_[config];
        if (w.settled) return w;
        w.settled = true;
        build_rows(w);
        for (int combo = 0; combo < kClassCombos; ++combo) w.payout_rows[combo] = settle(w, combo);
        return w;
    }

    PayoutRows settle(const ConfigWork& w, int combo) const {
        const ComboRows& t = combo_rows_;
        const int options = t.options[combo];
        if (options == 1 || w.crews.on_ship == 0) return t.plain[v_.rules.thirteen_to_port][combo];
        const int captain = channel(w.crews.captain());
        int best = 0;
        std::int64_t best_value = channel_payout(w, t.plunder[combo][0], captain);
        for (int mask = 1; mask < options; ++mask) {
            const std::int64_t value = channel_payout(w, t.plunder[combo][mask], captain);
            if (value > best_value) best_value = value, best = mask;
        }
        return t.plunder[combo][best];
    }

    // The voyage ends in combination `combo` of configuration `config` in m more of the
    // dice sequences counted.
    void count(int config, int combo, std::int64_t m) {
        if (m == 0) return;
        ConfigWork& w = settled(config);
        if (!w.counted) {
            w.counted = true;
            w.times.fill(0);
        }
        for (std::int8_t r : w.payout_rows[combo]) w.times[r] += m;
    }

    // result += every channel's payoff over the sequences counted.
    void collect(std::int64_t* __restrict result) const {
        for (const ConfigWork* w : configs_) {
            if (!w->counted) continue;
            for (int r = 0; r < kPayoutRows; ++r) {
                const std::int64_t m = w->times[r];
                if (m == 0) continue;
                const std::int64_t* __restrict vec = &w->rows[std::size_t(r) * K_];
                for (int k = 0; k < K_; ++k) result[k] += m * vec[k];
            }
        }
    }

    // Decider d's expected payoff (times 6^3) at every reach cell before roll 3 in a
    // configuration.
    const std::int64_t* table(int config, int d) { return cache_.values(table_id(config, d)); }

    int table_id(int config, int d) {
        ConfigWork& w = *configs_[config];
        if (w.table[d] >= 0) return w.table[d];
        settled(config);
        const int ch = decider_channel_[d];
        DecisionCache::Finals finals;
        for (int combo = 0; combo < kClassCombos; ++combo)
            finals[combo] = channel_payout(w, w.payout_rows[combo], ch);
        w.table[d] = cache_.intern(finals);
        return w.table[d];
    }

    // The reach-cell weights of a configuration, zeroed on first use in this run.
    std::int64_t* weights(int config) {
        ConfigWork& w = *configs_[config];
        if (!w.weighted) {
            w.weighted = true;
            std::fill(w.weight.begin(), w.weight.end(), 0);
        }
        return w.weight.data();
    }

    // The weights of every configuration pushed through the last three dice, one boat at a
    // time, onto the 27 combinations of final classes.
    void fold_weights() {
        constexpr int kPlane = kReaches * kReaches;
        for (std::size_t config = 0; config < configs_.size(); ++config) {
            const ConfigWork& w = *configs_[config];
            if (!w.weighted) continue;
            std::array<std::int64_t, kNumClasses * kPlane> w2;  // [a][r1][r2]
            gather(w.weight.data(), kPlane, &w2[0], &w2[kPlane], &w2[2 * kPlane]);
            std::array<std::int64_t, kNumClasses * kNumClasses * kReaches> w1;  // [a][b][r2]
            for (int a = 0; a < kNumClasses; ++a)
                gather(&w2[a * kPlane], kReaches, &w1[a * 3 * kReaches],
                       &w1[(a * 3 + 1) * kReaches], &w1[(a * 3 + 2) * kReaches]);
            std::array<std::int64_t, kClassCombos> w0;  // [a][b][c]
            for (int ab = 0; ab < kNumClasses * kNumClasses; ++ab)
                gather(&w1[ab * kReaches], 1, &w0[ab * 3], &w0[ab * 3 + 1], &w0[ab * 3 + 2]);
            for (int combo = 0; combo < kClassCombos; ++combo)
                count(static_cast<int>(config), combo, w0[combo]);
        }
    }

    // Counts the last three dice from one reach cell before roll 3.
    void add_value(int config, int rc) {
        const auto& f0 = kFinalFaces[rc / (kReaches * kReaches)];
        const auto& f1 = kFinalFaces[(rc / kReaches) % kReaches];
        const auto& f2 = kFinalFaces[rc % kReaches];
        for (int combo = 0; combo < kClassCombos; ++combo) {
            count(config, combo, f0[combo / 9] * f1[(combo / 3) % 3] * f2[combo % 3]);
        }
    }

    // Reach cell the large pilot moves the boats to (options in canonical order, first best wins).
    int after_large(int config, int cell) {
        if (large_ < 0) return moves_.reach_of[cell];
        ConfigWork& w = *configs_[config];
        if (!w.large_memo) {
            const int id = table_id(config, large_);
            w.large_flat = cache_.flat(id);
            w.large_memo = &cache_.memo(-1, id);
        }
        if (w.large_flat) return moves_.reach_of[cell];
        PilotMemo& memo = *w.large_memo;
        if (memo.stamp[cell] == memo.tag) return memo.to[cell];
        const std::int64_t* t = cache_.values(w.table[large_]);
        int best = moves_.reach_of[cell];
        std::int64_t best_value = t[best];
        const std::int16_t* to = moves_.large.data();
        for (int k = moves_.large_begin[cell], end = moves_.large_begin[cell + 1]; k < end; ++k) {
            const std::int64_t v = t[to[k]];
            if (v > best_value) best_value = v, best = to[k];
        }
        memo.stamp[cell] = memo.tag;
        memo.to[cell] = static_cast<std::int16_t>(best);
        return best;
    }

    // Reach cell both pilots leave the boats at: the small pilot moves first, foreseeing the large.
    int after_pilots(int config, int cell) {
        if (small_ < 0) return after_large(config, cell);
        ConfigWork& w = *configs_[config];
        if (!w.small_memo) {
            const int id = table_id(config, small_);
            w.small_flat = cache_.flat(id);
            w.small_memo = &cache_.memo(id, large_ < 0 ? -1 : table_id(config, large_));
        }
        if (w.small_flat) return after_large(config, cell);
        PilotMemo& memo = *w.small_memo;
        if (memo.stamp[cell] == memo.tag) return memo.to[cell];
        const std::int64_t* t = cache_.values(w.table[small_]);
        int best = after_large(config, cell);
        std::int64_t best_value = t[best];
        for (int k = moves_.small_begin[cell], end = moves_.small_begin[cell + 1]; k < end; ++k) {
            const int c = after_large(config, moves_.small[k]);
            if (t[c] > best_value) best_value = t[c], best = c;
        }
        memo.stamp[cell] = memo.tag;
        memo.to[cell] = static_cast<std::int16_t>(best);
        return best;
    }

    // (config, reach cell before roll 3) reached from the positions right after roll 2.
    std::pair<int, int> after_boarding(const Triple& p) {
        const int cell = cell_of(p);
        const bool attacked = p[0] == kThirteen || p[1] == kThirteen || p[2] == kThirteen;
        if (!attacked || configs_[0]->crews.on_ship == 0) return {0, after_pilots(0, cell)};
        return board(0, 0, cell, p, -1, -1);
    }

    // Pirate `decider` (0 = pirate_1, then pirate_2) boards or stays; the rest follows.
    // (guard_boat, guard_seat): the seat a pirate took in this boarding, safe from displacement.
    std::pair<int, int> board(int config, int decider, int cell, const Triple& p, int guard_boat,
                              int guard_seat) {
        if (decider == 2) return {config, after_pilots(config, cell)};
        ConfigWork& w = *configs_[config];  // stays in place while configs_ grows
        const Crews& crews = w.crews;
        if (!((crews.on_ship >> decider) & 1))
            return board(config, decider + 1, cell, p, guard_boat, guard_seat);
        const int owner = crews.pirate[decider];
        const int d = pirate_[decider];

        std::pair<int, int> best = board(config, decider + 1, cell, p, guard_boat, guard_seat);
        std::int64_t best_value = table(best.first, d)[best.second];
        auto consider = [&](int boat, int seat) {
            std::int16_t& next = w.boarded[(decider * kNumBoats + boat) * kMaxSeats + seat];
            if (next < 0) {
                Crews c = crews;
                if (seat == c.size[boat]) ++c.size[boat];
                c.crew[boat][seat] = owner;
                c.on_ship &= ~(1 << decider);
                next = static_cast<std::int16_t>(add_config(c));
            }
            const auto r = board(next, decider + 1, cell, p, boat, seat);
            const std::int64_t v = table(r.first, d)[r.second];
            if (v > best_value) best_value = v, best = r;
        };
        bool free_seat_on_13 = false;
        for (int i = 0; i < kNumBoats; ++i)
            free_seat_on_13 |= p[i] == kThirteen && crews.size[i] < v_.boats[i].seats();
        for (int i = 0; i < kNumBoats; ++i) {
            if (p[i] != kThirteen) continue;
            if (crews.size[i] < v_.boats[i].seats()) {
                consider(i, crews.size[i]);  // the next free seat
            } else if (v_.rules.pirate_variant && !free_seat_on_13) {
                for (int seat = crews.size[i] - 1; seat >= 0; --seat)
                    if (i != guard_boat || seat != guard_seat)
                        consider(i, seat);  // displacing its holder
            }
        }
        return best;
    }

    // A share gain: `amount` to `channel` when boat `boat` ends in Manila.
    struct Bonus {
        int channel, boat, amount;
    };

    const Voyage& v_;
    const PilotMoves& moves_;
    const ComboRows& combo_rows_;
    std::array<Bonus, kMaxOwners * kNumBoats> bonus_;
    int num_bonus_ = 0;
    WorkspaceLease lease_;
    Workspace& ws_;
    DecisionCache& cache_;
    std::vector<int> tracked_;
    std::array<int, kMaxOwners> chan_;
    int K_ = 0;
    int boat_base_ = -1;
    std::array<int, kMaxDeciders> decider_channel_{};
    int num_deciders_ = 0;
    int small_ = -1, large_ = -1;  // decider index of each pilot, or -1
    std::array<int, 2> pirate_{-1, -1};
    std::vector<ConfigWork*>& configs_;  // the workspace's: its memory outlives the evaluation
};

}  // namespace

Voyage with_accomplice(const Voyage& v, int id, int owner) {
    Voyage w = v;
    if (id < kNumGoods) {
        for (Boat& b : w.boats)
            if (b.good == id) b.crew[b.crew_size++] = owner;
    } else {
        w.spots[id - kNumGoods] = owner;
    }
    return w;
}

namespace {

void check_pov(const Voyage& v, const PointOfView& pov) {
    // A fresh player is valued as one more owner, whose id must fit the owner arrays.
    if (pov.owner == kNoOwner && v.num_owners >= kMaxOwners)
        throw std::invalid_argument(
            "player: a fresh player takes an owner id of their own: at most " +
            std::to_string(kMaxOwners - 1) + " owners without a player, got " +
            std::to_string(v.num_owners));
    if (pov.owner != kNoOwner && (pov.owner < 0 || pov.owner >= v.num_owners))
        throw std::invalid_argument("player: owner id " + std::to_string(pov.owner) +
                                    " is not in 0.." + std::to_string(v.num_owners - 1));
    if (pov.max_accomplices < 0 || pov.max_accomplices > kAnyAccomplices)
        throw std::invalid_argument("max_accomplices: must be 0.." +
                                    std::to_string(kAnyAccomplices));
}

bool decides(const Voyage& v, int owner) {
    for (Spot s : kDecisionSpots)
        if (v.spots[s] == owner) return true;
    return false;
}

// An accomplice that changes nobody's decisions earns what its spot pays under the
// decisions already computed; that sum needs no new game tree. The gain when spot `id` is
// such a spot for owner `who`, else nothing. `outcomes` are the outcome channels of the
// evaluation without it.
std::optional<std::int64_t> passive_gain(const Voyage& v, int id, int who,
                                         const std::int64_t* outcomes) {
    if (decides(v, who)) return std::nullopt;  // their own choices would follow the new payoff
    const std::int64_t* manila = outcomes + kManilaCountChannel;  // P(n boats in Manila)
    std::int64_t gain = 0;
    if (id < kNumGoods) {
        // Pirates who may still board would share the cargo; a decision maker on board
        // would see their share shrink.
        const bool boarding = v.next_roll < kNumRollsPerVoyage && v.spots[kPirate1] != kNoOwner;
        if (boarding) return std::nullopt;
        for (int i = 0; i < kNumBoats; ++i) {
            const Boat& b = v.boats[i];
            if (b.good != id) continue;
            int mine = 0;
            for (int s = 0; s < b.crew_size; ++s) {
                if (decides(v, b.crew[s])) return std::nullopt;
                mine += b.crew[s] == who;
            }
            const int value = kGoods[id].value;
            const std::int64_t before =
                b.crew_size ? std::int64_t(mine) * (value / b.crew_size) : 0;
            const std::int64_t after = std::int64_t(mine + 1) * (value / (b.crew_size + 1));
            gain = (after - before) * outcomes[i * kNumOutcomes + kOutcomePort];
        }
        return gain;
    }
    const int spot = id - kNumGoods;
    const bool port = spot >= kPortA && spot <= kPortC;
    const bool yard = spot >= kShipyardA && spot <= kShipyardC;
    if (!port && !yard && spot != kInsurance) return std::nullopt;  // pilots and pirates decide
    for (int n = 0; n <= kNumBoats; ++n) {
        const int in_yard = kNumBoats - n;
        if (port && n > spot - kPortA) gain += kSlotPayout[spot - kPortA] * manila[n];
        if (yard && in_yard > spot - kShipyardA) gain += kSlotPayout[spot - kShipyardA] * manila[n];
        if (spot == kInsurance) gain -= kInsuranceClaim[in_yard] * manila[n];
    }
    return gain;
}

// One owner's payoff (a Solver tracking them alone) depends on less than the whole voyage:
// on the boats, the crews' seats as taken or free, the spots and shares of that owner and
// of the deciders (pilots and pirates, whose choices follow their own payoffs), the rules
// and the prices; not on who else holds a seat (it pays nobody tracked), nor on the others'
// ports, shipyards, insurance or shares (they pay only their holders). A placement search
// values the same owner's spot on many boards that differ only there, and the next seat's
// search values them again from its own view (the views differ only in hidden shares):
// a memo keyed by the part that matters gives each value once. The key is every input the
// Solver reads, so a hit returns exactly what the Solver would.
class PayoffMemo {
  public:
    // 3 + 3 boats x 7 + 11 spots + 5 tracked x 3 boats x 2 entries.
    using Key =
        std::array<std::int16_t, 3 + kNumBoats * (3 + kMaxSeats) + kNumSpots + 5 * kNumBoats * 2>;

    static Key key(const Voyage& v, int who) {
        bool tracked[kMaxOwners] = {};
        tracked[who] = true;
        for (Spot s : kDecisionSpots)
            if (v.spots[s] != kNoOwner) tracked[v.spots[s]] = true;
        auto id = [&](int owner) -> std::int16_t {
            if (owner == kNoOwner) return -1;
            return tracked[owner] ? static_cast<std::int16_t>(owner) : std::int16_t{-2};
        };
        Key k{};
        std::size_t n = 0;
        k[n++] = static_cast<std::int16_t>(v.next_roll);
        k[n++] = static_cast<std::int16_t>(v.rules.thirteen_to_port | v.rules.pirate_variant << 1 |
                                           static_cast<int>(v.objective) << 2);
        k[n++] = static_cast<std::int16_t>(who);
        // Free seats matter to pirates who may still board (before roll 3); otherwise a
        // crew with nobody tracked on it pays nobody tracked, whoever and however many.
        const bool boarding = v.next_roll < kNumRollsPerVoyage && v.spots[kPirate1] != kNoOwner;
        for (const Boat& b : v.boats) {
            bool anyone = boarding;
            for (int seat = 0; seat < b.crew_size; ++seat) anyone |= tracked[b.crew[seat]];
            k[n++] = static_cast<std::int16_t>(b.good);
            k[n++] = static_cast<std::int16_t>(b.position);
            k[n++] = static_cast<std::int16_t>(anyone ? b.crew_size : -3);
            for (int seat = 0; seat < kMaxSeats; ++seat)
                k[n++] = anyone && seat < b.crew_size ? id(b.crew[seat]) : std::int16_t{-1};
        }
        // The deciders' spots are held by tracked owners; any other spot pays only its holder,
        // so one held by someone untracked is keyed as free.
        for (int s = 0; s < kNumSpots; ++s) {
            const int owner = v.spots[s];
            k[n++] = owner != kNoOwner && tracked[owner] ? static_cast<std::int16_t>(owner)
                                                         : std::int16_t{-1};
        }
        // Share gains count only under the wealth objective, for the tracked owners (at
        // most the owner and four deciders), and only for the goods that sail.
        if (v.objective == Objective::kWealth) {
            int listed = 0;
            for (int o = 0; o < kMaxOwners && listed < 5; ++o) {
                if (!tracked[o]) continue;
                ++listed;
                for (const Boat& b : v.boats) {
                    const int rise = v.manila_bonus(o, static_cast<int>(&b - v.boats.data()));
                    k[n++] = static_cast<std::int16_t>(o);
                    k[n++] = static_cast<std::int16_t>(rise);
                }
            }
        }
        return k;
    }

    std::optional<std::int64_t> find(const Key& k) const {
        const auto it = map_.find(k);
        if (it == map_.end()) return std::nullopt;
        return it->second;
    }
    void insert(const Key& k, std::int64_t value) {
        if (map_.size() >= kCapacity) map_.clear();  // a bound on memory, not on correctness
        map_.emplace(k, value);
    }

    // One per thread: nothing shared, no locks.
    static PayoffMemo& local() {
        thread_local PayoffMemo memo;
        return memo;
    }

  private:
    struct Hash {
        // Eight bytes at a time: the key is hashed for every spot a search values.
        std::size_t operator()(const Key& k) const {
            constexpr std::size_t kWords = sizeof(Key) / sizeof(std::uint64_t);
            std::array<std::uint64_t, kWords + 1> words{};
            std::memcpy(words.data(), k.data(), sizeof(Key));
            std::uint64_t h = 0;
            for (std::uint64_t word : words) {
                h = (h ^ word) * 0x9E3779B97F4A7C15ull;
                h ^= h >> 29;
            }
            return static_cast<std::size_t>(h);
        }
    };
    static constexpr std::size_t kCapacity = 1 << 17;
    std::unordered_map<Key, std::int64_t, Hash> map_;
};
}  // namespace

// The entry points check the cancel token (manila/cancel.hpp) before a solver starts: one
// solver's work is milliseconds at most.
std::vector<std::int64_t> payoffs_of(const Voyage& v, std::uint64_t generation) {
    check_cancelled();
    std::vector<int> everyone(static_cast<std::size_t>(v.num_owners));
    for (int o = 0; o < v.num_owners; ++o) everyone[static_cast<std::size_t>(o)] = o;
    return Solver(v, std::move(everyone), false, generation).run();
}

SpotValues spot_values(const Voyage& v, const PointOfView& pov, int threads,
                       std::uint64_t generation) {
    check_cancelled();
    SpotValues out;
    std::vector<int> everyone(static_cast<std::size_t>(v.num_owners));
    for (int o = 0; o < v.num_owners; ++o) everyone[static_cast<std::size_t>(o)] = o;
    const auto started = std::chrono::steady_clock::now();
    out.all = Solver(v, everyone, true, generation).run();
    out.num_owners = v.num_owners;
    if (threads <= 0) {
        // Starting a thread costs tens of microseconds: worth it only when each spot's own
        // evaluation, which takes about as long as this one, is much slower than that.
        const auto took = std::chrono::steady_clock::now() - started;
        threads = took > std::chrono::microseconds(50) ? hardware_threads() : 1;
    }
    const std::int64_t* outcomes = out.outcomes();
    Voyage base = v;
    int who = pov.owner;
    std::int64_t without = 0;
    if (who == kNoOwner)
        who = base.num_owners++;  // a fresh player, whose payoff without the spot is 0
    else
        without = out.all[static_cast<std::size_t>(who)];
    out.spots = legal_spots(base, {who, pov.max_accomplices});
    out.gain.assign(out.spots.size(), 0);
    out.passive.assign(out.spots.size(), 0);
    std::vector<int> hard;  // spots that need a game tree of their own
    for (std::size_t k = 0; k < out.spots.size(); ++k) {
        const std::optional<std::int64_t> gain = passive_gain(base, out.spots[k].id, who, outcomes);
        out.passive[k] = gain.has_value();
        if (gain)
            out.gain[k] = *gain;
        else
            hard.push_back(static_cast<int>(k));
    }
    parallel_for(static_cast<int>(hard.size()), threads, [&](int h) {
        check_cancelled();
        const auto k = static_cast<std::size_t>(hard[static_cast<std::size_t>(h)]);
        const Voyage w = with_accomplice(base, out.spots[k].id, who);
        PayoffMemo& memo = PayoffMemo::local();
        const PayoffMemo::Key key = PayoffMemo::key(w, who);
        std::int64_t with;
        if (const std::optional<std::int64_t> known = memo.find(key)) {
            with = *known;
        } else {
            with = Solver(w, {who}, false, generation).run()[0];
            memo.insert(key, with);
        }
        out.gain[k] = with - without;
    });
    return out;
}

namespace {

// Fills one row of the table; `threads` splits the spot evaluations.
void fill_row(Table& t, int row, const Voyage& v, const PointOfView& pov, int threads) {
    const SpotValues sv = spot_values(v, pov, threads, next_generation());
    const std::int64_t* outcomes = sv.outcomes();
    const std::int64_t den = denominator(v.next_roll);
    t.denominator[row] = den;
    const std::size_t owners_at = std::size_t(row) * t.owner_stride;
    std::copy(sv.all.begin(), sv.all.begin() + v.num_owners, t.payoffs.begin() + owners_at);
    for (int o = 0; o < v.num_owners; ++o) {
        // The income is the payoff without the share gains.
        std::int64_t income = sv.all[static_cast<std::size_t>(o)];
        for (int i = 0; i < kNumBoats; ++i)
            income -= v.manila_bonus(o, i) * outcomes[kArrivalChannel + i];
        t.incomes[owners_at + static_cast<std::size_t>(o)] = income;
    }
    std::copy(outcomes, outcomes + kNumBoats * kNumOutcomes,
              t.boats.begin() + std::size_t(row) * kNumBoats * kNumOutcomes);
    const std::size_t off = std::size_t(row) * kNumTableSpots;
    for (std::size_t k = 0; k < sv.spots.size(); ++k) {
        const auto [id, cost] = sv.spots[k];
        t.legal[off + id] = 1;
        t.cost[off + id] = cost;
        t.net[off + id] = sv.gain[k] - cost * den;
    }
}

}  // namespace

std::int64_t denominator(int next_roll) {
    return power_of_six(kNumBoats * (kNumRollsPerVoyage + 1 - next_roll));
}

void Table::resize(int rows, int stride) {
    n = rows;
    owner_stride = stride;
    const std::size_t r = static_cast<std::size_t>(rows);
    denominator.assign(r, 1);
    incomes.assign(r * static_cast<std::size_t>(stride), 0);
    payoffs.assign(r * static_cast<std::size_t>(stride), 0);
    boats.assign(r * kNumBoats * kNumOutcomes, 0);
    legal.assign(r * kNumTableSpots, 0);
    cost.assign(r * kNumTableSpots, 0);
    net.assign(r * kNumTableSpots, 0);
}

std::vector<LegalSpot> legal_spots(const Voyage& v, const PointOfView& pov) {
    check_pov(v, pov);  // the owner id indexes the budgets
    std::vector<LegalSpot> free;
    if (pov.owner != kNoOwner && v.accomplices(pov.owner) >= pov.max_accomplices) return free;
    for (const Boat& b : v.boats)
        if (!b.full()) free.push_back({b.good, kGoods[b.good].seat_cost[b.crew_size]});
    for (int s = 0; s < kNumSpots; ++s) {
        if (v.spots[s] != kNoOwner) continue;
        if (s == kPirate2 && v.spots[kPirate1] == kNoOwner) continue;
        free.push_back({table_id(static_cast<Spot>(s)), kSpotCost[s]});
    }
    const int budget = pov.owner == kNoOwner ? kUnlimited : v.budget[pov.owner];
    const int insurance = table_id(kInsurance);
    bool any = false, affordable = false;  // among the spots that cost something
    for (const LegalSpot& s : free)
        if (s.id != insurance) any = true, affordable |= s.cost <= budget;
    std::vector<LegalSpot> out;
    for (const LegalSpot& s : free) {
        if (any && !affordable) {
            // Rule 12, the blind passenger: any free spot but insurance, for all they have.
            if (s.id != insurance) out.push_back({s.id, budget});
        } else if (s.cost <= budget) {
            out.push_back(s);
        }
    }
    return out;
}

std::int64_t expected_payoff(const Voyage& v, int owner) {
    v.validate();
    if (owner < 0 || owner >= v.num_owners)
        throw std::invalid_argument("owner: id " + std::to_string(owner) + " is not in 0.." +
                                    std::to_string(v.num_owners - 1));
    check_cancelled();
    return Solver(v, {owner}, false).run()[0];
}

Table analyse(const Voyage& v, const PointOfView& pov, int threads) {
    v.validate();
    check_pov(v, pov);
    Table t;
    t.resize(1, v.num_owners);
    fill_row(t, 0, v, pov, threads);
    return t;
}

Table analyse_batch(const std::vector<Voyage>& voyages, const std::vector<PointOfView>& povs,
                    int threads) {
    if (povs.size() != voyages.size())
        throw std::invalid_argument("povs: one point of view per voyage is needed");
    int stride = 0;
    for (std::size_t i = 0; i < voyages.size(); ++i) {
        try {
            voyages[i].validate();
            check_pov(voyages[i], povs[i]);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("states[" + std::to_string(i) + "]." + e.what());
        }
        stride = std::max(stride, voyages[i].num_owners);
    }
    Table t;
    t.resize(static_cast<int>(voyages.size()), stride);
    parallel_for(static_cast<int>(voyages.size()), threads <= 0 ? hardware_threads() : threads,
                 [&](int i) { fill_row(t, i, voyages[i], povs[i], 1); });
    return t;
}

}  // namespace manila

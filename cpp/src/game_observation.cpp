// One player's view of a game: the observation tensor, the information state string, and
// who sees which shares.

#include "manila/observation.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "game_internal.hpp"

namespace manila {

void check_viewer(const GameState& s, int viewer, const char* field) {
    if (viewer < 0 || viewer >= s.num_players())
        reject(field, "must be 0.." + std::to_string(s.num_players() - 1) + ", got " +
                          std::to_string(viewer));
}

namespace {

// The sections in order, as (name, shape). The writer below walks the same list, so the
// layout has one definition.
std::vector<std::pair<const char*, std::vector<int>>> section_shapes(int n) {
    return {
        {"observer", {n}},                     // one-hot: the observer's own seat (absolute)
        {"phase", {kNumPhases}},               // one-hot
        {"to_move", {n + 1}},                  // one-hot relative seat; last: chance or nobody
        {"voyage", {1}},                       // voyage number (0 during the deal)
        {"prices", {kNumGoods, kPriceSteps}},  // one-hot step on the price track
        {"supply", {kNumGoods}},               // face-up shares for sale
        {"cash", {n}},
        {"shares", {n, kNumGoods}},  // shares the observer can see
        {"hidden_shares", {n}},      // face-down shares the observer cannot see
        {"mortgaged", {n}},
        {"accomplices", {n}},     // in hand
        {"declined", {n}},        // declined this voyage
        {"harbour_master", {n}},  // one-hot
        {"bidding", {n}},         // still in the auction
        {"high_bidder", {n}},     // one-hot
        {"high_bid", {1}},
        {"stays_home", {kNumGoods}},                    // one-hot
        {"boat_position", {kNumGoods, kNumPositions}},  // one-hot space 0..13, last: Manila
        {"crew", {kNumGoods, kMaxSeats, n}},            // one-hot relative seat of each seat's crew
        {"spots", {kNumSpots, n}},                // one-hot relative seat of each spot's owner
        {"next_roll", {kNumRollsPerVoyage + 1}},  // one-hot: roll 1, 2, 3 next, or all rolled
        {"rounds_left", {1}},                     // placement rounds before the next roll
        {"pilots_done", {2}},                     // small, large
        {"plundered", {kNumGoods}},               // boats the captain is sending on
        {"last_income", {n}},                     // of the last settlement
    };
}

// Fills the tensor section by section, checking (when `check`) it follows observation_layout.
// The order of the writes never changes, so one checked tensor per player count proves it:
// comparing every name at every step would cost a batched environment a sixth of its time.
class Writer {
  public:
    Writer(float* out, const std::vector<TensorSection>& layout, bool check)
        : out_(out), layout_(layout), check_(check) {}
    // Starts the named section; returns a pointer to its first float.
    float* section(const char* name) {
        const TensorSection& sec = layout_.at(next_++);
        if (check_ && sec.name != name)
            throw std::logic_error(std::string("observation: section ") + name + " out of order");
        return out_ + sec.offset;
    }
    bool complete() const { return next_ == layout_.size(); }

  private:
    float* out_;
    const std::vector<TensorSection>& layout_;
    bool check_;
    std::size_t next_ = 0;
};

}  // namespace

bool sees_shares(int viewer, int p, PrivateInfo info) {
    return info == PrivateInfo::kAll || (info == PrivateInfo::kSingle && viewer == p);
}

std::array<int, kNumGoods> known_shares(const Board& b, int viewer, int p, PrivateInfo info) {
    const PlayerState& ps = b.players[static_cast<std::size_t>(p)];
    std::array<int, kNumGoods> out = ps.shares;
    if (!sees_shares(viewer, p, info))
        for (int g = 0; g < kNumGoods; ++g)
            out[static_cast<std::size_t>(g)] -= ps.dealt[static_cast<std::size_t>(g)];
    return out;
}

int hidden_shares(const Board& b, int viewer, int p, PrivateInfo info) {
    if (sees_shares(viewer, p, info)) return 0;
    int n = 0;
    for (int x : b.players[static_cast<std::size_t>(p)].dealt) n += x;
    return n;
}

bool action_visible(const GameState& s, int viewer, std::size_t k, PrivateInfo info) {
    const int a = s.history().at(k);
    const bool deal = a >= action::kDeal && a < action::kRoll;
    return !deal || sees_shares(viewer, deal_recipient(static_cast<int>(k)), info);
}

namespace {

std::vector<TensorSection> build_layout(int players) {
    std::vector<TensorSection> out;
    int offset = 0;
    for (auto& [name, shape] : section_shapes(players)) {
        int size = 1;
        for (int d : shape) size *= d;
        // Only an income can be negative: an insurer pays at most the full claim.
        const float low =
            std::string(name) == "last_income" ? -static_cast<float>(kInsuranceClaim.back()) : 0.0f;
        out.push_back({name, offset, size, shape, low});
        offset += size;
    }
    return out;
}

// Built once per player count: the batched environment writes a tensor at every step, and
// building the layout (names and shapes on the heap) would cost more than the writing.
const std::vector<TensorSection>& cached_layout(int players) {
    check_players(players);
    static const std::array<std::vector<TensorSection>, kMaxPlayers + 1> layouts = [] {
        std::array<std::vector<TensorSection>, kMaxPlayers + 1> all;
        for (int n = kMinPlayers; n <= kMaxPlayers; ++n)
            all[static_cast<std::size_t>(n)] = build_layout(n);
        return all;
    }();
    return layouts[static_cast<std::size_t>(players)];
}

}  // namespace

std::vector<TensorSection> observation_layout(int players) { return cached_layout(players); }

int observation_size(int players) {
    const auto& layout = cached_layout(players);
    return layout.back().offset + layout.back().size;
}

void observation_tensor(const GameState& s, int viewer, PrivateInfo info, float* out,
                        std::size_t size) {
    check_viewer(s, viewer);
    const Board& b = s.board();
    const int n = b.num_players;
    if (size != static_cast<std::size_t>(observation_size(n)))
        invalid("observation: a buffer of " + std::to_string(observation_size(n)) +
                " floats is needed for " + std::to_string(n) + " players, got " +
                std::to_string(size));
    std::fill(out, out + size, 0.0f);
    auto rel = [&](int p) { return (p - viewer + n) % n; };  // the observer is row 0
    auto at = [](float* base, int i) -> float& { return base[static_cast<std::size_t>(i)]; };
    auto flag = [](bool x) { return x ? 1.0f : 0.0f; };
    const bool afloat = b.phase >= Phase::kPlacement && b.phase != Phase::kGameOver;
    // Set once a tensor for n players was written in the layout's order.
    static std::array<std::atomic<bool>, kMaxPlayers + 1> checked{};
    std::atomic<bool>& done = checked[static_cast<std::size_t>(n)];
    Writer w(out, cached_layout(n), !done.load(std::memory_order_relaxed));

    at(w.section("observer"), viewer) = 1;
    at(w.section("phase"), static_cast<int>(b.phase)) = 1;
    float* to_move = w.section("to_move");
    at(to_move, b.current >= 0 ? rel(b.current) : n) = 1;
    *w.section("voyage") = static_cast<float>(b.voyage);
    float* prices = w.section("prices");
    for (int g = 0; g < kNumGoods; ++g)
        at(prices, g * kPriceSteps + b.price_step[static_cast<std::size_t>(g)]) = 1;
    float* supply = w.section("supply");
    for (int g = 0; g < kNumGoods; ++g)
        at(supply, g) = static_cast<float>(b.supply[static_cast<std::size_t>(g)]);

    float* cash = w.section("cash");
    float* shares = w.section("shares");
    float* hidden = w.section("hidden_shares");
    float* mortgaged = w.section("mortgaged");
    float* accomplices = w.section("accomplices");
    float* declined = w.section("declined");
    float* harbour_master = w.section("harbour_master");
    float* bidding = w.section("bidding");
    float* high_bidder = w.section("high_bidder");
    // Accomplices on the board, counted in one pass (Board::accomplices walks it per player).
    std::array<int, kMaxPlayers> placed{};
    if (afloat) {
        for (const Boat& boat : b.boats)
            for (int k = 0; k < boat.crew_size; ++k)
                ++placed[static_cast<std::size_t>(boat.crew[static_cast<std::size_t>(k)])];
        for (int o : b.spots)
            if (o != kNoOwner) ++placed[static_cast<std::size_t>(o)];
    }
    for (int p = 0; p < n; ++p) {
        const PlayerState& ps = b.players[static_cast<std::size_t>(p)];
        const int r = rel(p);
        at(cash, r) = static_cast<float>(ps.cash);
        const auto known = known_shares(b, viewer, p, info);
        for (int g = 0; g < kNumGoods; ++g)
            at(shares, r * kNumGoods + g) = static_cast<float>(known[static_cast<std::size_t>(g)]);
        at(hidden, r) = static_cast<float>(hidden_shares(b, viewer, p, info));
        at(mortgaged, r) = static_cast<float>(ps.mortgaged);
        at(accomplices, r) =
            static_cast<float>(b.max_accomplices - placed[static_cast<std::size_t>(p)]);
        at(declined, r) = flag(afloat && ((b.declined >> p) & 1));
        at(harbour_master, r) = flag(b.harbour_master == p);
        at(bidding, r) = flag(b.phase == Phase::kAuction && ((b.in_auction >> p) & 1));
        at(high_bidder, r) = flag(b.phase == Phase::kAuction && b.high_bidder == p);
    }
    *w.section("high_bid") = b.phase == Phase::kAuction ? static_cast<float>(b.high_bid) : 0.0f;
    float* home = w.section("stays_home");
    if (b.phase >= Phase::kPlaceBoats && b.phase != Phase::kGameOver && b.stays_home >= 0)
        at(home, b.stays_home) = 1;

    float* position = w.section("boat_position");
    float* crew = w.section("crew");
    float* spots = w.section("spots");
    if (afloat) {
        for (const Boat& boat : b.boats) {
            at(position, boat.good * kNumPositions + boat.position) = 1;
            for (int k = 0; k < boat.crew_size; ++k)
                at(crew, (boat.good * kMaxSeats + k) * n +
                             rel(boat.crew[static_cast<std::size_t>(k)])) = 1;
        }
        for (int k = 0; k < kNumSpots; ++k) {
            const int o = b.spots[static_cast<std::size_t>(k)];
            if (o != kNoOwner) at(spots, k * n + rel(o)) = 1;
        }
    }
    float* next_roll = w.section("next_roll");
    if (afloat) at(next_roll, std::min(b.next_roll, kNumRollsPerVoyage + 1) - 1) = 1;
    *w.section("rounds_left") =
        b.phase == Phase::kPlacement ? static_cast<float>(b.rounds_left) : 0.0f;
    float* pilots = w.section("pilots_done");
    if (afloat) {
        pilots[0] = flag(b.small_done);
        pilots[1] = flag(b.large_done);
    }
    float* plundered = w.section("plundered");
    if (b.phase == Phase::kPlunder)
        for (int i = 0; i < kNumBoats; ++i)
            if ((b.plunder >> i) & 1) at(plundered, b.boats[static_cast<std::size_t>(i)].good) = 1;
    float* income = w.section("last_income");
    for (int p = 0; p < n; ++p)
        at(income, rel(p)) = static_cast<float>(b.last.income[static_cast<std::size_t>(p)]);
    if (!w.complete())
        throw std::logic_error("observation: a section of the layout was not written");
    done.store(true, std::memory_order_relaxed);
}

std::vector<float> observation_tensor(const GameState& s, int viewer, PrivateInfo info) {
    check_viewer(s, viewer);
    std::vector<float> out(static_cast<std::size_t>(observation_size(s.num_players())));
    observation_tensor(s, viewer, info, out.data(), out.size());
    return out;
}

std::string information_state_string(const GameState& s, int viewer, PrivateInfo info) {
    check_viewer(s, viewer);
    std::string out = player_name(viewer) + ":";
    const auto& h = s.history();
    for (std::size_t k = 0; k < h.size(); ++k) {
        out += k ? ", " : " ";
        out += action_visible(s, viewer, k, info) ? action_name(h[k]) : "deal ?";
    }
    return out;
}

}  // namespace manila

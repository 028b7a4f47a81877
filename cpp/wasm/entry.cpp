// The engine's C ABI for WebAssembly (python/manila/server/web/engine.js is its only caller).
//
// JavaScript writes a voyage as a flat array of int32 into the input buffer (the layout is
// read_voyage's, and JS takes its sizes from manila_layout), calls an entry point, and reads
// the int64 numerators it wrote into the output buffer. The voyage is built by the same
// make_voyage the Python bindings use, so both check the same arguments with the same words.
//
// Errors: the standard library for wasm32-wasi is built without exception support, and
// there is nothing to unwind with. A throw copies the exception's message into the error
// buffer and traps; JS sees the trap, reads the message and starts a fresh instance (the
// trapped one may hold half-done work). So every std::invalid_argument of the engine
// reaches the page with its own message, and nothing is checked twice.
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "manila/advice.hpp"
#include "manila/evaluator.hpp"
#include "manila/rules.hpp"
#include "manila/voyage.hpp"
#include "manila/voyage_args.hpp"

// MANILA_NATIVE: compiled for this machine instead, into the fuzz targets (cpp/fuzz/), which
// call the entry points directly and keep the C++ exceptions.
#if defined(MANILA_NATIVE)
#define MANILA_EXPORT(name) extern "C"
#else
#define MANILA_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))
#endif

namespace {

std::vector<std::int32_t> input;
std::vector<std::int64_t> output;
char error_text[1024];

// What engine.js needs to lay out an input and read an output, so it hard-codes none.
constexpr std::int32_t kLayout[] = {
    1,  // layout version
    manila::kNumGoods,
    manila::kNumBoats,
    manila::kMaxSeats,
    manila::kNumSpots,
    manila::kNumTableSpots,
    manila::kArrived,
    manila::kNoOwner,
    manila::kDeclineSpot,
    manila::kMaxOwners,
};

// Reads input[at...]: next_roll, num_owners, thirteen_to_port, pirate_variant, wealth, then
// per boat (good, position, crew size, kMaxSeats crew ids), kNumSpots spot owners,
// kNumGoods prices, num_owners rows of kNumGoods shares, num_owners budgets (-1: no limit).
class Reader {
  public:
    explicit Reader(std::size_t at) : at_(at) {}
    std::int32_t next() {
        if (at_ >= input.size()) throw std::invalid_argument("input: the voyage is cut short");
        return input[at_++];
    }
    std::vector<int> next(int n) {
        std::vector<int> out;
        for (int i = 0; i < n; ++i) out.push_back(next());
        return out;
    }
    std::size_t at() const { return at_; }

  private:
    std::size_t at_;
};

manila::Voyage read_voyage(Reader& r) {
    using namespace manila;
    const int next_roll = r.next();
    const int num_owners = r.next();
    // The page reads real tables: no more owners than a game has players.
    if (num_owners < 0 || num_owners > kMaxPlayers)
        throw std::invalid_argument("num_owners: a game has " + std::to_string(kMinPlayers) +
                                    " to " + std::to_string(kMaxPlayers) + " players: at most " +
                                    std::to_string(kMaxPlayers) + " owners, got " +
                                    std::to_string(num_owners));
    const bool thirteen_to_port = r.next() != 0;
    const bool pirate_variant = r.next() != 0;
    const bool wealth = r.next() != 0;
    std::vector<int> goods, positions;
    std::vector<std::vector<int>> crews;
    for (int b = 0; b < kNumBoats; ++b) {
        goods.push_back(r.next());
        positions.push_back(r.next());
        const int size = r.next();
        std::vector<int> seats = r.next(kMaxSeats);
        if (size < 0 || size > kMaxSeats)
            throw std::invalid_argument("boats[" + std::to_string(b) + "].crew: at most " +
                                        std::to_string(kMaxSeats) + " seats");
        seats.resize(static_cast<std::size_t>(size));
        crews.push_back(seats);
    }
    const std::vector<int> spots = r.next(kNumSpots);
    const std::vector<int> prices = r.next(kNumGoods);
    std::vector<std::vector<int>> shares;
    for (int o = 0; o < num_owners; ++o) shares.push_back(r.next(kNumGoods));
    const std::vector<int> budgets = r.next(num_owners);
    return manila::make_voyage(next_roll, goods, positions, crews, spots, num_owners,
                               thirteen_to_port, pirate_variant, wealth, prices, shares, budgets);
}

template <class Values>
void put(const Values& values) {
    for (auto v : values) output.push_back(static_cast<std::int64_t>(v));
}

}  // namespace

#if !defined(MANILA_NATIVE)
// The engine throws only std::exception's descendants (std::invalid_argument for bad input,
// std::logic_error for a broken invariant), each with std::exception as its first base.
extern "C" void* __cxa_allocate_exception(std::size_t size) noexcept {
    static char room[256];  // the process ends at the throw: one exception at most
    return size <= sizeof room ? room : nullptr;
}

extern "C" [[noreturn]] void __cxa_throw(void* thrown, std::type_info*, void (*)(void*)) {
    const char* what = thrown ? static_cast<std::exception*>(thrown)->what() : "unknown error";
    std::strncpy(error_text, what, sizeof error_text - 1);
    error_text[sizeof error_text - 1] = '\0';
    __builtin_trap();
}

// thread_local objects with destructors register them here; the one thread of an instance
// never ends (the page drops the whole instance), so there is nothing to run.
extern "C" int __cxa_thread_atexit(void (*)(void*), void*, void*) { return 0; }
#endif

MANILA_EXPORT(manila_layout) const std::int32_t* manila_layout(std::int32_t* count) {
    *count = static_cast<std::int32_t>(sizeof kLayout / sizeof kLayout[0]);
    return kLayout;
}

// Room for n int32 of input; the pointer stays valid until the next call.
MANILA_EXPORT(manila_input) std::int32_t* manila_input(std::int32_t n) {
    input.assign(static_cast<std::size_t>(n < 0 ? 0 : n), 0);
    error_text[0] = '\0';
    return input.data();
}

MANILA_EXPORT(manila_output) const std::int64_t* manila_output() { return output.data(); }

MANILA_EXPORT(manila_error) const char* manila_error() { return error_text; }

// Input: point-of-view owner (-1: a fresh player), max accomplices, then the voyage.
// Output: denominator; per table spot legal, cost, net; per boat port, shipyard,
// plundered; per owner income; per owner payoff. Returns the count of int64 written.
MANILA_EXPORT(manila_analyse) std::int32_t manila_analyse() {
    using namespace manila;
    Reader r(0);
    PointOfView pov;
    pov.owner = r.next();
    pov.max_accomplices = r.next();
    const Voyage v = read_voyage(r);
    const Table t = analyse(v, pov, 1);
    output.clear();
    output.push_back(t.denominator[0]);
    put(t.legal);
    put(t.cost);
    put(t.net);
    put(t.boats);
    for (int o = 0; o < v.num_owners; ++o) output.push_back(t.incomes[static_cast<std::size_t>(o)]);
    for (int o = 0; o < v.num_owners; ++o) output.push_back(t.payoffs[static_cast<std::size_t>(o)]);
    return static_cast<std::int32_t>(output.size());
}

// Input: max accomplices, count of players in the round's order, that order from the one
// to move now on (later players who declined already left out), then the voyage. The
// movers are those of them with an accomplice in hand, the one to move always among them.
// Output: denominator, best, positions valued, count of options, per option (spot id or
// kDeclineSpot, cost, net), count of turns, per turn (owner, spot), per owner payoff.
MANILA_EXPORT(manila_advise_placement) std::int32_t manila_advise_placement() {
    using namespace manila;
    Reader r(0);
    const int max_accomplices = r.next();
    const std::vector<int> order = r.next(r.next());
    const Voyage v = read_voyage(r);
    std::vector<int> movers;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int o = order[i];
        if (o < 0 || o >= v.num_owners)
            throw std::invalid_argument("moment.order: owner id " + std::to_string(o) +
                                        " is not an owner of the voyage");
        if (i == 0 || v.accomplices(o) < max_accomplices) movers.push_back(o);
    }
    const PlacementAdvice a = advise_placement(v, movers, 1);
    output.clear();
    output.push_back(a.denominator);
    output.push_back(a.best);
    output.push_back(a.positions);
    output.push_back(static_cast<std::int64_t>(a.options.size()));
    for (std::size_t i = 0; i < a.options.size(); ++i) {
        output.push_back(a.options[i].id);
        output.push_back(a.options[i].cost);
        output.push_back(a.net[i]);
    }
    output.push_back(static_cast<std::int64_t>(a.line.size()));
    for (const Turn& t : a.line) {
        output.push_back(t.owner);
        output.push_back(t.spot);
    }
    put(a.payoffs);
    return static_cast<std::int32_t>(output.size());
}

// The table reader (manila/table.hpp): a TableView filled from the fuzzer's bytes, turned into
// a playable state, then a few of its legal actions played and its views rendered. Only
// std::invalid_argument (a refusal naming the field) may come out.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "manila/cancel.hpp"
#include "manila/game.hpp"
#include "manila/observation.hpp"
#include "manila/table.hpp"

namespace {

using manila::kNumGoods;

// Mostly small numbers, now and then any int.
int number(FuzzedDataProvider& in, int low, int high) {
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) return in.ConsumeIntegral<int>();
    return in.ConsumeIntegralInRange<int>(low, high);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    manila::TableView t;
    t.num_players = number(in, 2, 6);
    t.rules.thirteen_to_port = in.ConsumeBool();
    t.rules.pirate_variant = in.ConsumeBool();
    t.observer = number(in, -1, 5);
    t.phase = static_cast<manila::Phase>(number(in, 0, manila::kNumPhases));
    t.current = number(in, -1, 5);
    t.voyage = number(in, 0, 8);
    t.harbour_master = number(in, -1, 5);
    for (int g = 0; g < kNumGoods; ++g) {
        t.prices[static_cast<std::size_t>(g)] = number(in, 0, 30);
        t.supply[static_cast<std::size_t>(g)] = number(in, 0, 5);
        t.observer_dealt[static_cast<std::size_t>(g)] = number(in, -1, 2);
    }
    const int players = in.ConsumeIntegralInRange<int>(0, 6);
    for (int p = 0; p < players; ++p) {
        manila::TablePlayer tp;
        tp.cash = number(in, 0, 60);
        for (int g = 0; g < kNumGoods; ++g)
            tp.shares[static_cast<std::size_t>(g)] = number(in, 0, 3);
        tp.hidden = number(in, 0, 2);
        tp.mortgaged = number(in, 0, 3);
        tp.declined = in.ConsumeBool();
        t.players.push_back(tp);
    }
    t.high_bid = number(in, 0, 40);
    t.high_bidder = number(in, -1, 5);
    const int bidding = in.ConsumeIntegralInRange<int>(0, 6);
    for (int i = 0; i < bidding; ++i) t.bidding.push_back(number(in, -1, 5));
    t.stays_home = number(in, -1, 3);
    const int boats = in.ConsumeIntegralInRange<int>(0, 4);
    for (int i = 0; i < boats; ++i) {
        manila::Boat b;
        b.good = number(in, 0, 3);
        b.position = number(in, 0, manila::kArrived);
        b.crew_size = in.ConsumeIntegralInRange<int>(0, manila::kMaxSeats);
        for (int s = 0; s < b.crew_size; ++s)
            b.crew[static_cast<std::size_t>(s)] = number(in, -1, 5);
        t.boats.push_back(b);
    }
    for (int s = 0; s < manila::kNumSpots; ++s)
        t.spots[static_cast<std::size_t>(s)] =
            in.ConsumeBool() ? number(in, -1, 5) : manila::kNoOwner;
    t.next_roll = number(in, 0, 4);
    t.boarding_decider = number(in, 0, 1);
    t.guard_boat = number(in, -1, 2);
    t.guard_seat = number(in, -1, 3);
    t.rounds_left = number(in, 0, 3);
    const std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();

    // The bots of a long game are not what is fuzzed here.
    const manila::CancelScope scope(std::make_shared<manila::CancelToken>(0.05));
    try {
        manila::GameState s = manila::table_state(t, seed);
        for (int k = 0; k < 8 && !s.is_terminal(); ++k) {
            (void)manila::observation_json(s, s.is_chance_node() ? 0 : s.current_player()).dump();
            const std::vector<int> legal = s.legal_actions();
            if (legal.empty()) break;
            s.apply_action(legal[in.ConsumeIntegralInRange<std::size_t>(0, legal.size() - 1)]);
        }
    } catch (const std::invalid_argument&) {
    } catch (const manila::Cancelled&) {
    }
    return 0;
}

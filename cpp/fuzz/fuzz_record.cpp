// The game record reader: a game (players, rules, seed) and a history of actions from the
// fuzzer's bytes, replayed and checked the way a record is (State.deserialize replays with
// apply_action; review_game checks every action before reviewing). Only
// std::invalid_argument (a refusal naming the action) may come out.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "manila/cancel.hpp"
#include "manila/game.hpp"
#include "manila/observation.hpp"
#include "manila/review.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    const int players = in.ConsumeIntegralInRange<int>(2, 6);
    manila::Rules rules;
    rules.thirteen_to_port = in.ConsumeBool();
    rules.pirate_variant = in.ConsumeBool();
    const std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();
    const bool legal_only = in.ConsumeBool();
    const manila::CancelScope scope(std::make_shared<manila::CancelToken>(0.05));
    try {
        const manila::GameState initial(players, rules, seed);
        manila::GameState s = initial;
        std::vector<int> history;
        while (in.remaining_bytes() > 0 && !s.is_terminal()) {
            int a;
            if (legal_only) {
                const std::vector<int> legal = s.legal_actions();
                a = legal[in.ConsumeIntegralInRange<std::size_t>(0, legal.size() - 1)];
            } else {
                a = in.ConsumeIntegralInRange<int>(-2, manila::action::kNumActions + 1);
            }
            history.push_back(a);
            s.apply_action(a);  // throws std::invalid_argument for an illegal action
        }
        // The review's check of a record: every action again, and the chance events' luck
        // left out (rollouts are not what is fuzzed here).
        manila::ReviewConfig c;
        c.decisions = false;
        c.luck_rollouts = 0;
        (void)manila::review_game(initial, history, c);
        (void)manila::board_json(s).dump();
    } catch (const std::invalid_argument&) {
    } catch (const manila::Cancelled&) {
    }
    return 0;
}

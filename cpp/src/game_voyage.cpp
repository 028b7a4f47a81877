// The voyage: rolls, boarding, pilots, plunder, settlement and the end of the game, and chance.

#include "manila/game.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "game_internal.hpp"

namespace manila {

// ---------------------------------------------------------------------------------------
// Rolls, boarding, pilots, plunder and settlement

void GameState::after_roll() {
    const int roll = b_.next_roll++;
    if (roll == 1) {
        begin_placement();
        return;
    }
    if (roll == 2) {
        bool on13 = false;
        for (const Boat& boat : b_.boats) on13 |= boat.position == kThirteen;
        if (on13 && b_.pirates_on_ship() > 0)
            begin_boarding();
        else
            begin_placement();
        return;
    }
    finish_voyage();
}

void GameState::begin_boarding() {
    b_.boarders = {b_.spots[kPirate1], b_.spots[kPirate2]};
    b_.on_ship = (b_.boarders[0] != kNoOwner ? 1 : 0) | (b_.boarders[1] != kNoOwner ? 2 : 0);
    b_.decider = 0;
    b_.guard_boat = b_.guard_seat = -1;
    b_.phase = Phase::kBoarding;
    advance_boarding();
}

// Options besides staying for pirate `decider`, in action order.
std::vector<int> GameState::boarding_options(int decider) const {
    bool free_on_13 = false;
    for (const Boat& boat : b_.boats) free_on_13 |= boat.position == kThirteen && !boat.full();
    std::vector<int> out;
    for (int i = 0; i < kNumBoats; ++i) {
        const Boat& boat = b_.boats[static_cast<std::size_t>(i)];
        if (boat.position != kThirteen) continue;
        if (!boat.full()) {
            out.push_back(action::kBoard + boat.good);
        } else if (b_.rules.pirate_variant && !free_on_13) {
            for (int seat = 0; seat < boat.crew_size; ++seat) {
                if (decider == 1 && i == b_.guard_boat && seat == b_.guard_seat) continue;
                out.push_back(action::kDisplace + boat.good * kMaxSeats + seat);
            }
        }
    }
    return out;
}

void GameState::advance_boarding() {
    for (; b_.decider < 2; ++b_.decider) {
        if (((b_.on_ship >> b_.decider) & 1) && !boarding_options(b_.decider).empty()) {
            b_.current = b_.boarders[static_cast<std::size_t>(b_.decider)];
            return;
        }
    }
    begin_placement();
}

void GameState::begin_pilots() {
    bool movable = false;
    for (const Boat& boat : b_.boats) movable |= boat.position != kArrived;
    if (b_.spots[kPilotSmall] != kNoOwner && movable && !b_.small_done) {
        b_.phase = Phase::kSmallPilot;
        b_.current = b_.spots[kPilotSmall];
        return;
    }
    b_.small_done = true;
    begin_large_pilot();
}

void GameState::begin_large_pilot() {
    bool movable = false;
    for (const Boat& boat : b_.boats) movable |= boat.position != kArrived;
    if (b_.spots[kPilotLarge] != kNoOwner && movable) {
        b_.phase = Phase::kLargePilot;
        b_.current = b_.spots[kPilotLarge];
        return;
    }
    b_.large_done = true;
    if (!movable) {
        after_roll();
        return;
    }
    b_.phase = Phase::kRoll;
    b_.current = kChancePlayer;
}

void GameState::move_boat(int i, int delta) {
    Boat& boat = b_.boats[static_cast<std::size_t>(i)];
    const std::optional<int> to = moved_position(boat.position, delta);
    if (!to) throw std::logic_error("move_boat: an impossible move");
    boat.position = *to;
    if (*to == kArrived) b_.port[static_cast<std::size_t>(b_.in_port++)] = boat.good;
}

void GameState::finish_voyage() {
    b_.plunder = 0;
    if (b_.pirates_on_ship() > 0)
        for (int i = 0; i < kNumBoats; ++i)
            if (b_.boats[static_cast<std::size_t>(i)].position == kThirteen) b_.plunder |= 1 << i;
    if (b_.plunder) {
        b_.phase = Phase::kPlunder;
        b_.current = b_.spots[kPirate1];  // the captain
        return;
    }
    settle();
}

void GameState::settle() {
    // Boats not yet in Manila: plundered ones went where the captain said (already done),
    // a boat on 13 with no pirate follows the rule option, the rest go to the shipyard.
    for (int i = 0; i < kNumBoats; ++i) {
        Boat& boat = b_.boats[static_cast<std::size_t>(i)];
        if (boat.position == kArrived || ((b_.plunder >> i) & 1)) continue;
        if (boat.position == kThirteen && b_.rules.thirteen_to_port) {
            boat.position = kArrived;
            b_.port[static_cast<std::size_t>(b_.in_port++)] = boat.good;
        } else {
            b_.shipyard[static_cast<std::size_t>(b_.in_shipyard++)] = boat.good;
        }
    }
    Settlement st;
    auto receive = [&](int p, int amount) {
        if (p == kNoOwner || amount == 0) return;
        b_.players[static_cast<std::size_t>(p)].cash += amount;
        b_.bank -= amount;
        st.income[static_cast<std::size_t>(p)] += amount;
    };
    const int pirates = b_.pirates_on_ship();
    for (int i = 0; i < kNumBoats; ++i) {
        const Boat& boat = b_.boats[static_cast<std::size_t>(i)];
        const int value = kGoods[static_cast<std::size_t>(boat.good)].value;
        if ((b_.plunder >> i) & 1) {
            ++st.plundered;
            st.plundered_goods |= 1 << boat.good;
            receive(b_.spots[kPirate1], value / pirates);
            receive(b_.spots[kPirate2], value / pirates);
        } else if (boat.position == kArrived && boat.crew_size > 0) {
            for (int s = 0; s < boat.crew_size; ++s)
                receive(boat.crew[static_cast<std::size_t>(s)], value / boat.crew_size);
        }
    }
    st.in_manila = b_.in_port;
    st.in_shipyard = b_.in_shipyard;
    st.port = b_.port;
    st.shipyard = b_.shipyard;
    for (int k = 0; k < kNumBoats; ++k) {
        if (b_.in_port > k)
            receive(b_.spots[static_cast<std::size_t>(kPortA + k)],
                    kSlotPayout[static_cast<std::size_t>(k)]);
        // Paid by the bank here; the insurer reimburses the bank below.
        if (b_.in_shipyard > k)
            receive(b_.spots[static_cast<std::size_t>(kShipyardA + k)],
                    kSlotPayout[static_cast<std::size_t>(k)]);
    }
    const int insurer = b_.spots[kInsurance];
    st.insurer = insurer;
    if (insurer != kNoOwner) {
        // Rule 9: the insurer has collected their profits; now they mortgage as needed, pay
        // what they can, and the bank covers the rest.
        PlayerState& ps = b_.players[static_cast<std::size_t>(insurer)];
        st.insurance_due = kInsuranceClaim[static_cast<std::size_t>(b_.in_shipyard)];
        while (ps.cash < st.insurance_due && ps.unmortgaged() > 0) {
            mortgage(insurer);
            ++st.mortgages[static_cast<std::size_t>(insurer)];
        }
        st.insurance_paid = std::min(ps.cash, st.insurance_due);
        ps.cash -= st.insurance_paid;
        b_.bank += st.insurance_paid;
        st.income[static_cast<std::size_t>(insurer)] -= st.insurance_paid;
    }
    b_.last = st;
    // Rule 10: the price of every good that reached Manila rises one step.
    bool end = false;
    for (const Boat& boat : b_.boats) {
        int& step = b_.price_step[static_cast<std::size_t>(boat.good)];
        if (boat.position == kArrived) step = std::min(step + 1, kPriceSteps - 1);
        end |= step == kPriceSteps - 1;
    }
    b_.next_roll = kNumRollsPerVoyage + 1;  // the voyage is over
    if (end) {
        b_.phase = Phase::kGameOver;
        b_.current = kTerminalPlayer;
        return;
    }
    begin_voyage();
}

// ---------------------------------------------------------------------------------------
// Chance

ChanceWeights GameState::chance_weights() const {
    ChanceWeights out;
    if (!is_chance_node()) return out;
    if (b_.phase == Phase::kDeal) {
        for (int g = 0; g < kNumGoods; ++g) {
            const int n = b_.pile[static_cast<std::size_t>(g)];
            if (n > 0) out.outcomes.push_back({action::kDeal + g, n});
            out.den += n;
        }
        return out;
    }
    std::vector<int> rolls;
    legal_main(rolls);
    for (int a : rolls) out.outcomes.push_back({a, 1});
    out.den = static_cast<int>(rolls.size());
    return out;
}

std::vector<std::pair<int, double>> GameState::chance_outcomes() const {
    const ChanceWeights w = chance_weights();
    std::vector<std::pair<int, double>> out;
    for (auto [a, n] : w.outcomes) out.push_back({a, static_cast<double>(n) / w.den});
    return out;
}

int GameState::sample_chance(Rng& rng) const {
    if (!is_chance_node())
        invalid("sample_chance: not a chance node (it is " + player_name(b_.current) + "'s move)");
    if (b_.phase == Phase::kDeal) {
        int total = 0;
        for (int n : b_.pile) total += n;
        int r = rng.below(total);
        for (int g = 0; g < kNumGoods; ++g) {
            r -= b_.pile[static_cast<std::size_t>(g)];
            if (r < 0) return action::kDeal + g;
        }
    }
    int idx = 0;
    for (int i = 0; i < kNumBoats; ++i) {
        const bool arrived = b_.boats[static_cast<std::size_t>(i)].position == kArrived;
        idx = idx * kDieFaces + (arrived ? 0 : rng.below(kDieFaces));
    }
    return action::kRoll + idx;
}

int GameState::sample_chance() { return sample_chance(rng_); }

}  // namespace manila

// The core of the rules engine: the legal actions of each phase and applying an action.

#include "manila/game.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "game_internal.hpp"

namespace manila {

// ---------------------------------------------------------------------------------------
// Legal actions

bool GameState::loans_open() const { return b_.current >= 0 && b_.phase != Phase::kGameOver; }

void GameState::legal_main(std::vector<int>& out) const {
    using namespace action;
    const int p = b_.current;
    switch (b_.phase) {
        case Phase::kDeal:
            for (int g = 0; g < kNumGoods; ++g)
                if (b_.pile[static_cast<std::size_t>(g)] > 0) out.push_back(kDeal + g);
            return;
        case Phase::kRoll: {
            std::array<int, kNumBoats> faces{};
            for (int i = 0; i < kNumBoats; ++i)
                faces[static_cast<std::size_t>(i)] =
                    b_.boats[static_cast<std::size_t>(i)].position == kArrived ? 1 : 6;
            for (int d0 = 0; d0 < faces[0]; ++d0)
                for (int d1 = 0; d1 < faces[1]; ++d1)
                    for (int d2 = 0; d2 < faces[2]; ++d2)
                        out.push_back(kRoll + d0 * 36 + d1 * 6 + d2);
            return;
        }
        case Phase::kAuction: {
            out.push_back(kPass);
            const int cap = std::min(kMaxBid, b_.players[static_cast<std::size_t>(p)].capacity());
            for (int bid = b_.high_bid + 1; bid <= cap; ++bid) out.push_back(bid);
            return;
        }
        case Phase::kBuyShare: {
            const PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
            for (int g = 0; g < kNumGoods; ++g)
                if (b_.supply[static_cast<std::size_t>(g)] > 0 &&
                    ps.capacity() >= std::max(kMinSharePrice, b_.price(g)))
                    out.push_back(kBuy + g);
            out.push_back(kBuyNothing);
            return;
        }
        case Phase::kChooseGoods:
            for (int g = 0; g < kNumGoods; ++g) out.push_back(kLeaveHome + g);
            return;
        case Phase::kPlaceBoats:
            for (int t = 0; t < kNumStarts; ++t) out.push_back(kStart + t);
            return;
        case Phase::kPlacement: {
            for (int id = 0; id < kNumTableSpots; ++id)
                if (placement_terms(p, id)) out.push_back(kPlace + id);
            out.push_back(kDecline);
            return;
        }
        case Phase::kBoarding:
            out.push_back(kStay);
            for (int a : boarding_options(b_.decider)) out.push_back(a);
            return;
        case Phase::kSmallPilot:
            out.push_back(kSmallNone);
            for (int g = 0; g < kNumGoods; ++g) {
                const int i = boat_of(g);
                if (i < 0) continue;
                for (int k = 0; k < 2; ++k)
                    if (moved_position(b_.boats[static_cast<std::size_t>(i)].position,
                                       kPilotSingles[static_cast<std::size_t>(k)]))
                        out.push_back(kSmall + g * 2 + k);
            }
            return;
        case Phase::kLargePilot: {
            out.push_back(kLargeNone);
            auto movable = [&](int g, int d) {
                const int i = boat_of(g);
                if (i < 0) return false;
                return moved_position(b_.boats[static_cast<std::size_t>(i)].position, d)
                    .has_value();
            };
            for (int g = 0; g < kNumGoods; ++g)
                for (int k = 0; k < 4; ++k)
                    if (movable(g, kPilotSingles[static_cast<std::size_t>(k)]))
                        out.push_back(kLargeOne + g * 4 + k);
            for (int pr = 0; pr < kNumPairs; ++pr)
                for (int k = 0; k < 4; ++k) {
                    const auto pair = kPairs[static_cast<std::size_t>(pr)];
                    const auto d = kPilotPairs[static_cast<std::size_t>(k)];
                    if (movable(pair[0], d[0]) && movable(pair[1], d[1]))
                        out.push_back(kLargeTwo + pr * 4 + k);
                }
            return;
        }
        case Phase::kPlunder: {
            int allowed = 0;
            for (int i = 0; i < kNumBoats; ++i)
                if ((b_.plunder >> i) & 1)
                    allowed |= plunder_bit(b_.boats[static_cast<std::size_t>(i)].good);
            for (int mask = 0; mask < (1 << kNumGoods); ++mask)
                if ((mask & ~allowed) == 0) out.push_back(kPlunder + mask);
            return;
        }
        case Phase::kGameOver:
            return;
    }
}

void GameState::legal_actions(std::vector<int>& out) const {
    out.clear();
    const bool loans = loans_open();
    const PlayerState* ps = loans ? &b_.players[static_cast<std::size_t>(b_.current)] : nullptr;
    auto add_loans = [&] {
        if (!loans) return;
        if (ps->unmortgaged() > 0) out.push_back(action::kMortgage);
        if (ps->mortgaged > 0 && ps->cash >= kRepayAmount) out.push_back(action::kRepay);
    };
    // Keep the list sorted: bids (and pass) come before the loan actions, all else after.
    if (b_.phase == Phase::kAuction) {
        legal_main(out);
        add_loans();
    } else {
        add_loans();
        legal_main(out);
    }
}

std::vector<int> GameState::legal_actions() const {
    std::vector<int> out;
    legal_actions(out);
    return out;
}

bool GameState::is_legal(int a) const {
    std::vector<int> legal;
    legal_actions(legal);
    return std::binary_search(legal.begin(), legal.end(), a);
}

// ---------------------------------------------------------------------------------------
// Applying actions

void GameState::apply_action(int a) {
    if (!is_legal(a)) invalid(illegal_reason(a));
    apply_legal(a);
}

void GameState::apply_legal(int a) {
    using namespace action;
    history_.push_back(a);
    const int p = b_.current;
    if (a == kMortgage) {
        mortgage(p);
        return;
    }
    if (a == kRepay) {
        PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
        --ps.mortgaged;
        ps.cash -= kRepayAmount;
        b_.bank += kRepayAmount;
        return;
    }
    switch (b_.phase) {
        case Phase::kDeal: {
            const int g = a - kDeal;
            --b_.pile[static_cast<std::size_t>(g)];
            PlayerState& to = b_.players[static_cast<std::size_t>(deal_recipient(b_.dealt))];
            ++to.shares[static_cast<std::size_t>(g)];
            ++to.dealt[static_cast<std::size_t>(g)];
            if (++b_.dealt == kSharesDealt * b_.num_players) {
                for (int h = 0; h < kNumGoods; ++h) {
                    b_.supply[static_cast<std::size_t>(h)] += b_.pile[static_cast<std::size_t>(h)];
                    b_.pile[static_cast<std::size_t>(h)] = 0;
                }
                begin_voyage();
            }
            return;
        }
        case Phase::kAuction: {
            if (a == kPass) {
                b_.in_auction &= ~(1 << p);
            } else {
                b_.high_bid = a;
                b_.high_bidder = p;
            }
            if (b_.in_auction == 0) {
                end_auction(-1);  // nobody bid
                return;
            }
            int next = p;
            for (int k = 1; k <= b_.num_players; ++k) {
                next = (p + k) % b_.num_players;
                if ((b_.in_auction >> next) & 1) break;
            }
            if (next == b_.high_bidder)
                end_auction(next);  // everyone else has passed
            else
                b_.current = next;
            return;
        }
        case Phase::kBuyShare:
            if (a != kBuyNothing) {
                const int g = a - kBuy;
                pay(p, std::max(kMinSharePrice, b_.price(g)));
                --b_.supply[static_cast<std::size_t>(g)];
                ++b_.players[static_cast<std::size_t>(p)].shares[static_cast<std::size_t>(g)];
            }
            b_.phase = Phase::kChooseGoods;
            return;
        case Phase::kChooseGoods: {
            b_.stays_home = a - kLeaveHome;
            int i = 0;
            for (int g = 0; g < kNumGoods; ++g)
                if (g != b_.stays_home) {
                    b_.boats[static_cast<std::size_t>(i)] = Boat{};
                    b_.boats[static_cast<std::size_t>(i++)].good = g;
                }
            b_.phase = Phase::kPlaceBoats;
            return;
        }
        case Phase::kPlaceBoats: {
            const auto t = kStartSpaces[static_cast<std::size_t>(a - kStart)];
            for (int i = 0; i < kNumBoats; ++i)
                b_.boats[static_cast<std::size_t>(i)].position = t[static_cast<std::size_t>(i)];
            b_.next_roll = 1;
            begin_placement();
            return;
        }
        case Phase::kPlacement: {
            if (a == kDecline) {
                b_.declined |= 1 << p;
            } else {
                const int id = a - kPlace;
                const auto [cost, blind] = placement_terms(p, id).value();  // legal: it has terms
                if (id < kNumGoods) {
                    Boat& boat = b_.boats[static_cast<std::size_t>(boat_of(id))];
                    boat.crew[static_cast<std::size_t>(boat.crew_size++)] = p;
                } else {
                    b_.spots[static_cast<std::size_t>(id - kNumGoods)] = p;
                }
                PlayerState& ps = b_.players[static_cast<std::size_t>(p)];
                if (id == table_id(kInsurance)) {
                    ps.cash -= kSpotCost[kInsurance];  // the premium: 10 from the bank
                    b_.bank += kSpotCost[kInsurance];
                } else if (blind) {
                    b_.bank += ps.cash;  // rule 12: all the cash they have
                    ps.cash = 0;
                } else {
                    pay(p, cost);
                }
            }
            ++b_.turn;
            advance_placement();
            return;
        }
        case Phase::kRoll: {
            const auto dice = roll_dice(a - kRoll);
            for (int i = 0; i < kNumBoats; ++i)
                if (b_.boats[static_cast<std::size_t>(i)].position != kArrived)
                    move_boat(i, dice[static_cast<std::size_t>(i)]);
            after_roll();
            return;
        }
        case Phase::kBoarding: {
            if (a != kStay) {
                int good, seat;
                if (a < kDisplace) {
                    good = a - kBoard;
                    Boat& boat = b_.boats[static_cast<std::size_t>(boat_of(good))];
                    seat = boat.crew_size++;
                    boat.crew[static_cast<std::size_t>(seat)] = p;
                } else {
                    good = (a - kDisplace) / kMaxSeats;
                    seat = (a - kDisplace) % kMaxSeats;
                    // Variant: the displaced crew member goes home, without a refund.
                    b_.boats[static_cast<std::size_t>(boat_of(good))]
                        .crew[static_cast<std::size_t>(seat)] = p;
                }
                if (b_.decider == 0) {
                    b_.guard_boat = boat_of(good);
                    b_.guard_seat = seat;
                }
                // The pirate leaves the ship; one left behind becomes (or stays) captain.
                b_.on_ship &= ~(1 << b_.decider);
                std::array<int, 2> left{kNoOwner, kNoOwner};
                int n = 0;
                for (int k = 0; k < 2; ++k)
                    if ((b_.on_ship >> k) & 1)
                        left[static_cast<std::size_t>(n++)] =
                            b_.boarders[static_cast<std::size_t>(k)];
                b_.spots[kPirate1] = left[0];
                b_.spots[kPirate2] = left[1];
            }
            ++b_.decider;
            advance_boarding();
            return;
        }
        case Phase::kSmallPilot:
            if (a != kSmallNone) {
                const int k = a - kSmall;
                move_boat(boat_of(k / 2), k % 2 ? -1 : 1);
            }
            b_.small_done = true;
            begin_large_pilot();
            return;
        case Phase::kLargePilot:
            if (a >= kLargeOne && a < kLargeTwo) {
                const int k = a - kLargeOne;
                move_boat(boat_of(k / 4), kPilotSingles[static_cast<std::size_t>(k % 4)]);
            } else if (a >= kLargeTwo) {
                const int k = a - kLargeTwo;
                const auto pair = kPairs[static_cast<std::size_t>(k / 4)];
                const auto d = kPilotPairs[static_cast<std::size_t>(k % 4)];
                move_boat(boat_of(pair[0]), d[0]);
                move_boat(boat_of(pair[1]), d[1]);
            }
            b_.large_done = true;
            b_.phase = Phase::kRoll;
            b_.current = kChancePlayer;
            {
                bool sailing = false;
                for (const Boat& boat : b_.boats) sailing |= boat.position != kArrived;
                if (!sailing) after_roll();
            }
            return;
        case Phase::kPlunder: {
            const int mask = a - kPlunder;
            for (int i = 0; i < kNumBoats; ++i) {
                Boat& boat = b_.boats[static_cast<std::size_t>(i)];
                if (!((b_.plunder >> i) & 1)) continue;
                if (mask & plunder_bit(boat.good)) {
                    b_.shipyard[static_cast<std::size_t>(b_.in_shipyard++)] = boat.good;
                } else {
                    boat.position = kArrived;  // counts as arrived: port slot and price rise
                    b_.port[static_cast<std::size_t>(b_.in_port++)] = boat.good;
                }
            }
            settle();
            return;
        }
        case Phase::kGameOver:
            break;
    }
    throw std::logic_error("apply_legal: no action applies in this state");
}

}  // namespace manila

// A table (one player's view) turned into a playable state, the hidden shares sampled.

#include "manila/table.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "game_internal.hpp"

namespace manila {

Boat table_boat(int good, int position, const std::vector<int>& crew) {
    if (good < 0 || good >= kNumGoods) invalid("boats: not a good: " + std::to_string(good));
    const GoodInfo& info = kGoods[static_cast<std::size_t>(good)];
    if (static_cast<int>(crew.size()) > info.seats)
        invalid(std::string("boats.") + info.name + ".crew: more than the boat's " +
                std::to_string(info.seats) + " seats");
    Boat b;
    b.good = good;
    b.position = position;
    b.crew_size = static_cast<int>(crew.size());
    for (std::size_t k = 0; k < crew.size(); ++k) b.crew[k] = crew[k];
    return b;
}

GameState GameState::from_board(const Board& board, std::uint64_t seed) {
    GameState s(board.num_players, board.rules, seed);
    s.b_ = board;
    std::vector<std::string> broken = s.check_invariants();
    if (!broken.empty()) {
        std::string all;
        for (const std::string& b : broken) all += (all.empty() ? "" : "; ") + b;
        invalid("table: " + all);
    }
    return s;
}

GameState GameState::seen_by(int viewer) const {
    if (viewer < 0 || viewer >= b_.num_players)
        invalid("viewer: must be a player 0.." + std::to_string(b_.num_players - 1) + ", got " +
                std::to_string(viewer));
    GameState s(b_.num_players, b_.rules, 0);
    s.b_ = b_;
    s.history_ = history_;
    // The unseen shares (the others' face-down ones and the undealt pile) go back to one pool,
    // then each other player takes as many as they hold, in seat and good order.
    std::array<int, kNumGoods> pool = b_.pile;
    for (int p = 0; p < b_.num_players; ++p)
        if (p != viewer)
            for (int g = 0; g < kNumGoods; ++g)
                pool[static_cast<std::size_t>(g)] +=
                    b_.players[static_cast<std::size_t>(p)].dealt[static_cast<std::size_t>(g)];
    std::array<std::vector<int>, kMaxPlayers> goods;  // the deal each other player gets
    for (int p = 0; p < b_.num_players; ++p) {
        if (p == viewer) continue;
        PlayerState& ps = s.b_.players[static_cast<std::size_t>(p)];
        int count = 0;
        for (int g = 0; g < kNumGoods; ++g) {
            count += ps.dealt[static_cast<std::size_t>(g)];
            ps.shares[static_cast<std::size_t>(g)] -= ps.dealt[static_cast<std::size_t>(g)];
            ps.dealt[static_cast<std::size_t>(g)] = 0;
        }
        for (int g = 0; g < kNumGoods && count > 0; ++g)
            while (count > 0 && pool[static_cast<std::size_t>(g)] > 0) {
                --pool[static_cast<std::size_t>(g)], --count;
                ++ps.dealt[static_cast<std::size_t>(g)], ++ps.shares[static_cast<std::size_t>(g)];
                goods[static_cast<std::size_t>(p)].push_back(g);
            }
    }
    s.b_.pile = pool;
    // The history's deals to the others, rewritten to match (deal k goes to player k / 2).
    std::array<std::size_t, kMaxPlayers> next{};
    for (std::size_t k = 0; k < s.history_.size(); ++k) {
        const int a = s.history_[k];
        if (a < action::kDeal || a >= action::kRoll) continue;
        const int p = deal_recipient(static_cast<int>(k));
        if (p == viewer) continue;
        const std::size_t i = next[static_cast<std::size_t>(p)]++;
        const std::vector<int>& mine = goods[static_cast<std::size_t>(p)];
        // A deal still under way has dealt fewer than its history holds: never more.
        s.history_[k] = action::kDeal + (i < mine.size() ? mine[i] : 0);
    }
    return s;
}

namespace {

std::string at(const char* field, int p) {
    return std::string("players[") + std::to_string(p) + "]." + field;
}

bool decision_phase(Phase p) {
    return p != Phase::kDeal && p != Phase::kRoll && p != Phase::kGameOver;
}

void check_owner(int owner, int n, const std::string& field) {
    if (owner < 0 || owner >= n)
        invalid(field + ": must be a player 0.." + std::to_string(n - 1) + ", got " +
                std::to_string(owner));
}

}  // namespace

void resample_hidden(Board& b, int viewer, Rng& rng) {
    std::vector<int> pool;  // the face-down shares the viewer cannot see, as goods
    for (int p = 0; p < b.num_players; ++p) {
        if (p == viewer) continue;
        PlayerState& ps = b.players[static_cast<std::size_t>(p)];
        for (int g = 0; g < kNumGoods; ++g) {
            auto& d = ps.dealt[static_cast<std::size_t>(g)];
            for (int k = 0; k < d; ++k) pool.push_back(g);
            ps.shares[static_cast<std::size_t>(g)] -= d;
            d = 0;
        }
    }
    // In good order first, so that the deal depends on what the viewer knows (the multiset)
    // and the generator only, not on who holds what now.
    std::sort(pool.begin(), pool.end());
    // Fisher-Yates: every arrangement of the multiset is equally likely, as in the deal.
    for (int k = static_cast<int>(pool.size()) - 1; k > 0; --k)
        std::swap(pool[static_cast<std::size_t>(k)],
                  pool[static_cast<std::size_t>(rng.below(k + 1))]);
    std::size_t next = 0;
    for (int p = 0; p < b.num_players; ++p) {
        if (p == viewer) continue;
        PlayerState& ps = b.players[static_cast<std::size_t>(p)];
        for (int k = 0; k < kSharesDealt; ++k) {
            const auto g = static_cast<std::size_t>(pool[next++]);
            ++ps.shares[g];
            ++ps.dealt[g];
        }
    }
}

namespace {

// The seats that hold face-down shares the viewer cannot see, and how many each holds.
struct HiddenHand {
    int seat = 0;
    int count = 0;
};

// Each division is exact: after step i, out is C(n - k + i, i).
std::uint64_t binomial(int n, int k) {
    std::uint64_t out = 1;
    for (int i = 1; i <= k; ++i)
        out = out * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
    return out;
}

// Hand k takes `left` more shares from `pool`, of good g or later; `weight` counts the
// shuffles that give the hands so far (per hand, the orders of its shares: a multinomial,
// built one binomial per good).
void deal_hands(const std::vector<HiddenHand>& hands, std::size_t k, int g, int left, Board& b,
                std::array<int, kNumGoods>& pool, std::uint64_t weight,
                std::vector<HiddenDeal>& out) {
    if (left == 0) {
        if (++k == hands.size()) {
            out.push_back({b, weight});
            return;
        }
        deal_hands(hands, k, 0, hands[k].count, b, pool, weight, out);
        return;
    }
    if (g == kNumGoods) return;
    PlayerState& ps = b.players[static_cast<std::size_t>(hands[k].seat)];
    const auto gi = static_cast<std::size_t>(g);
    for (int c = std::min(left, pool[gi]); c >= 0; --c) {
        pool[gi] -= c;
        ps.shares[gi] += c;
        ps.dealt[gi] += c;
        deal_hands(hands, k, g + 1, left - c, b, pool, weight * binomial(left, c), out);
        pool[gi] += c;
        ps.shares[gi] -= c;
        ps.dealt[gi] -= c;
    }
}

}  // namespace

std::vector<HiddenDeal> hidden_deals(const Board& b, int viewer) {
    Board base = b;
    std::array<int, kNumGoods> pool{};
    std::vector<HiddenHand> hands;
    for (int p = 0; p < b.num_players; ++p) {
        if (p == viewer) continue;
        PlayerState& ps = base.players[static_cast<std::size_t>(p)];
        int count = 0;
        for (int g = 0; g < kNumGoods; ++g) {
            auto& d = ps.dealt[static_cast<std::size_t>(g)];
            pool[static_cast<std::size_t>(g)] += d;
            ps.shares[static_cast<std::size_t>(g)] -= d;
            count += d;
            d = 0;
        }
        if (count > 0) hands.push_back({p, count});
    }
    if (hands.empty()) return {{b, 1}};
    std::vector<HiddenDeal> out;
    deal_hands(hands, 0, 0, hands.front().count, base, pool, 1, out);
    return out;
}

Board table_board(const TableView& t, Rng& rng) {
    check_players(t.num_players);
    const int n = t.num_players;
    if (static_cast<int>(t.players.size()) != n)
        invalid("players: " + std::to_string(n) + " players are needed, got " +
                std::to_string(t.players.size()));
    check_owner(t.observer, n, "observer");
    if (!decision_phase(t.phase))
        invalid(std::string("phase: a table is at a player's decision, not \"") +
                phase_name(t.phase) + "\"");
    check_owner(t.current, n, "current_player");
    if (t.voyage < 1) invalid("voyage: must be at least 1, got " + std::to_string(t.voyage));
    Board b;
    b.num_players = n;
    b.rules = t.rules;
    b.max_accomplices = accomplices_per_player(n);
    b.phase = t.phase;
    b.current = t.current;
    b.voyage = t.voyage;
    b.dealt = kSharesDealt * n;
    b.spots.fill(kNoOwner);
    if (t.harbour_master != -1) check_owner(t.harbour_master, n, "harbour_master");
    if (t.harbour_master == -1 && (t.phase != Phase::kAuction || t.voyage != 1))
        invalid("harbour_master: only the first voyage's auction has no harbour master yet");
    b.harbour_master = t.harbour_master;
    for (int g = 0; g < kNumGoods; ++g) {
        const int step = price_step(t.prices[static_cast<std::size_t>(g)]);
        if (step < 0 || step >= kPriceSteps - 1)
            invalid(std::string("prices.") + good_name(g) +
                    ": must be 0, 5, 10 or 20 (30 ends the game), got " +
                    std::to_string(t.prices[static_cast<std::size_t>(g)]));
        b.price_step[static_cast<std::size_t>(g)] = step;
        const int sup = t.supply[static_cast<std::size_t>(g)];
        if (sup < 0 || sup > kSharesPerGood)
            invalid(std::string("supply.") + good_name(g) + ": must be 0.." +
                    std::to_string(kSharesPerGood) + ", got " + std::to_string(sup));
        b.supply[static_cast<std::size_t>(g)] = sup;
    }
    // Shares: what is neither visible nor in the supply lies face down with the others.
    std::array<int, kNumGoods> hidden{};
    int cash = 0, hidden_slots = 0;
    for (int p = 0; p < n; ++p) {
        const TablePlayer& tp = t.players[static_cast<std::size_t>(p)];
        if (tp.cash < 0 || tp.cash > kMaxCash)
            invalid(at("cash", p) + ": must be 0.." + std::to_string(kMaxCash) + ", got " +
                    std::to_string(tp.cash));
        cash += tp.cash;
        if (tp.hidden < 0 || tp.hidden > kSharesDealt)
            invalid(at("hidden_shares", p) + ": must be 0.." + std::to_string(kSharesDealt) +
                    ", got " + std::to_string(tp.hidden));
        int total = tp.hidden;
        for (int g = 0; g < kNumGoods; ++g) {
            const int held = tp.shares[static_cast<std::size_t>(g)];
            if (held < 0 || held > kSharesPerGood)
                invalid(at("shares.", p) + good_name(g) + ": must be 0.." +
                        std::to_string(kSharesPerGood) + ", got " + std::to_string(held));
            total += held;
        }
        if (p == t.observer ? tp.hidden != 0 : tp.hidden != kSharesDealt)
            invalid(at("hidden_shares", p) + ": must be " +
                    std::to_string(p == t.observer ? 0 : kSharesDealt) +
                    (p == t.observer ? " (the observer sees their own shares)"
                                     : " (every player keeps the 2 shares dealt face down)") +
                    ", got " + std::to_string(tp.hidden));
        if (p == t.observer && total < kSharesDealt)
            invalid(at("shares", p) + ": the observer holds at least the " +
                    std::to_string(kSharesDealt) + " shares dealt, got " + std::to_string(total));
        if (tp.mortgaged < 0 || tp.mortgaged > total)
            invalid(at("mortgaged", p) + ": must be 0.." + std::to_string(total) + ", got " +
                    std::to_string(tp.mortgaged));
        if (p != t.observer) hidden_slots += tp.hidden;
        PlayerState& ps = b.players[static_cast<std::size_t>(p)];
        ps.cash = tp.cash;
        ps.shares = tp.shares;
        ps.mortgaged = tp.mortgaged;
        if (tp.declined) b.declined |= 1 << p;
    }
    int hidden_total = 0;
    for (int g = 0; g < kNumGoods; ++g) {
        int seen = b.supply[static_cast<std::size_t>(g)];
        for (int p = 0; p < n; ++p)
            seen += t.players[static_cast<std::size_t>(p)].shares[static_cast<std::size_t>(g)];
        const int h = kSharesPerGood - seen;
        if (h < 0)
            invalid(std::string("shares.") + good_name(g) + ": the supply and the players hold " +
                    std::to_string(seen) + ", more than the " + std::to_string(kSharesPerGood) +
                    " shares of a good");
        if (h > kDealtPerGood)
            invalid(std::string("supply.") + good_name(g) + ": " + std::to_string(h) +
                    " shares would lie face down, but only " + std::to_string(kDealtPerGood) +
                    " of a good are dealt");
        hidden[static_cast<std::size_t>(g)] = h;
        hidden_total += h;
    }
    if (hidden_total != hidden_slots)
        invalid("supply: " + std::to_string(hidden_total) +
                " shares are neither visible nor in the supply, but the others hold " +
                std::to_string(hidden_slots) + " face down");
    // The observer's own face-down shares (only the others' views hide them).
    PlayerState& mine = b.players[static_cast<std::size_t>(t.observer)];
    int left = kSharesDealt;
    for (int g = 0; g < kNumGoods; ++g) {
        const int d = t.observer_dealt[static_cast<std::size_t>(g)];
        if (d >= 0) {
            if (d > mine.shares[static_cast<std::size_t>(g)] ||
                d + hidden[static_cast<std::size_t>(g)] > kDealtPerGood)
                invalid(std::string("dealt.") + good_name(g) + ": " + std::to_string(d) +
                        " is more than the observer holds or the deal allows");
            mine.dealt[static_cast<std::size_t>(g)] = d;
            left -= d;
        }
    }
    for (int g = 0; g < kNumGoods && left > 0; ++g) {
        if (t.observer_dealt[static_cast<std::size_t>(g)] >= 0) continue;
        const int d = std::min({left, mine.shares[static_cast<std::size_t>(g)],
                                kDealtPerGood - hidden[static_cast<std::size_t>(g)]});
        mine.dealt[static_cast<std::size_t>(g)] = d;
        left -= d;
    }
    if (left != 0)
        invalid("dealt: the observer's shares cannot include the " + std::to_string(kSharesDealt) +
                " dealt face down");
    // Put the hidden multiset with the first others, then deal it anew at random.
    {
        std::vector<int> pool;
        for (int g = 0; g < kNumGoods; ++g)
            for (int k = 0; k < hidden[static_cast<std::size_t>(g)]; ++k) pool.push_back(g);
        std::size_t next = 0;
        for (int p = 0; p < n; ++p) {
            if (p == t.observer) continue;
            for (int k = 0; k < kSharesDealt; ++k) {
                const auto g = static_cast<std::size_t>(pool[next++]);
                ++b.players[static_cast<std::size_t>(p)].shares[g];
                ++b.players[static_cast<std::size_t>(p)].dealt[g];
            }
        }
        resample_hidden(b, t.observer, rng);
    }
    b.bank = kStartCash * n - cash;

    // The phase's own fields.
    const bool hm_phase = t.phase == Phase::kBuyShare || t.phase == Phase::kChooseGoods ||
                          t.phase == Phase::kPlaceBoats;
    if (t.phase == Phase::kAuction) {
        for (int p : t.bidding) {
            check_owner(p, n, "auction.bidding");
            b.in_auction |= 1 << p;
        }
        if (!((b.in_auction >> t.current) & 1))
            invalid("auction.bidding: the player to move (" + std::to_string(t.current) +
                    ") must still be bidding");
        if (t.high_bid < 0 || t.high_bid > action::kMaxBid)
            invalid("auction.high_bid: must be 0.." + std::to_string(action::kMaxBid) + ", got " +
                    std::to_string(t.high_bid));
        if ((t.high_bidder < 0) != (t.high_bid == 0))
            invalid("auction.high_bidder: a bid above 0 has a bidder, and only then");
        if (t.high_bidder >= 0) {
            check_owner(t.high_bidder, n, "auction.high_bidder");
            if (!((b.in_auction >> t.high_bidder) & 1))
                invalid("auction.high_bidder: the high bidder must still be bidding");
            if (t.high_bidder == t.current)
                invalid("auction.high_bidder: the high bidder is not the player to move");
            // The winner pays the bid: no bidder bids more than they can pay.
            const int can_pay = b.players[static_cast<std::size_t>(t.high_bidder)].capacity();
            if (t.high_bid > can_pay)
                invalid("auction.high_bid: the high bidder (" + std::to_string(t.high_bidder) +
                        ") can pay at most " + std::to_string(can_pay) + " (cash plus " +
                        std::to_string(kLoanAmount) + " per unmortgaged share), not " +
                        std::to_string(t.high_bid));
        }
        b.high_bid = t.high_bid;
        b.high_bidder = t.high_bidder;
        return b;
    }
    if (t.current != t.harbour_master && hm_phase)
        invalid("current_player: the harbour master (" + std::to_string(t.harbour_master) +
                ") chooses the share, the goods and the start spaces");
    if (t.phase == Phase::kBuyShare || t.phase == Phase::kChooseGoods) return b;
    if (t.stays_home < 0 || t.stays_home >= kNumGoods)
        invalid("stays_home: the good that stays home is needed from place_boats on");
    b.stays_home = t.stays_home;
    {
        int i = 0;
        for (int g = 0; g < kNumGoods; ++g)
            if (g != t.stays_home) b.boats[static_cast<std::size_t>(i++)].good = g;
    }
    if (t.phase == Phase::kPlaceBoats) return b;

    if (t.boats.size() != static_cast<std::size_t>(kNumBoats))
        invalid("boats: the three sailing goods are needed, got " + std::to_string(t.boats.size()));
    for (int i = 0; i < kNumBoats; ++i) {
        const Boat& tb = t.boats[static_cast<std::size_t>(i)];
        Boat& boat = b.boats[static_cast<std::size_t>(i)];
        const std::string f = std::string("boats.") + good_name(boat.good);
        if (tb.good != boat.good)
            invalid("boats: the sailing goods are the three that do not stay home (" +
                    std::string(good_name(t.stays_home)) + ")");
        if (tb.position < 0 || tb.position > kArrived)
            invalid(f + ".position: must be 0..13 or \"arrived\"");
        if (tb.crew_size < 0 || tb.crew_size > boat.seats())
            invalid(f + ".crew: at most " + std::to_string(boat.seats()) + " seats");
        for (int k = 0; k < tb.crew_size; ++k)
            check_owner(tb.crew[static_cast<std::size_t>(k)], n, f + ".crew");
        boat = tb;
        if (boat.position == kArrived) b.port[static_cast<std::size_t>(b.in_port++)] = boat.good;
    }
    for (int k = 0; k < kNumSpots; ++k)
        if (t.spots[static_cast<std::size_t>(k)] != kNoOwner)
            check_owner(t.spots[static_cast<std::size_t>(k)], n,
                        std::string("spots.") + kSpotNames[static_cast<std::size_t>(k)]);
    b.spots = t.spots;
    // The observation writes 4 once roll 3 is over (the plunder).
    const int last_roll = t.phase == Phase::kPlunder ? kNumRollsPerVoyage + 1 : kNumRollsPerVoyage;
    if (t.next_roll < 1 || t.next_roll > last_roll)
        invalid("next_roll: must be 1, 2 or 3 (4 in the plunder), got " +
                std::to_string(t.next_roll));
    b.next_roll = t.next_roll;
    for (int p = 0; p < n; ++p)
        if (b.accomplices(p) > b.max_accomplices)
            invalid(at("accomplices", p) + ": more than the " + std::to_string(b.max_accomplices) +
                    " accomplices a player has");
    const int me = t.current;
    switch (t.phase) {
        case Phase::kPlacement: {
            if ((b.declined >> me) & 1)
                invalid("current_player: a player who declined places no more this voyage");
            if (b.accomplices(me) >= b.max_accomplices)
                invalid("current_player: the player to move has no accomplice left");
            b.turn = ((me - b.harbour_master) % n + n) % n;
            int rounds = t.rounds_left;
            const int max_rounds = (t.next_roll == 1 && n == 3) ? 2 : 1;
            if (rounds == 0) {
                // Two rounds before roll 1 with three players: in the first, nobody from the
                // player to move on has placed or declined yet.
                rounds = 1;
                if (max_rounds == 2) {
                    rounds = 2;
                    for (int k = b.turn; k < n; ++k) {
                        const int p = (b.harbour_master + k) % n;
                        if (b.accomplices(p) > 0 || ((b.declined >> p) & 1)) rounds = 1;
                    }
                }
            }
            if (rounds < 1 || rounds > max_rounds)
                invalid("rounds_left: must be 1.." + std::to_string(max_rounds) + ", got " +
                        std::to_string(rounds));
            b.rounds_left = rounds;
            break;
        }
        case Phase::kBoarding: {
            if (t.next_roll != kNumRollsPerVoyage)
                invalid("next_roll: boarding comes right after roll 2 (next_roll 3)");
            if (t.boarding_decider == 0) {
                b.boarders = {b.spots[kPirate1], b.spots[kPirate2]};
                b.on_ship =
                    (b.boarders[0] != kNoOwner ? 1 : 0) | (b.boarders[1] != kNoOwner ? 2 : 0);
            } else if (t.boarding_decider == 1) {
                if (t.guard_boat >= 0) {
                    if (t.guard_boat >= kNumBoats || t.guard_seat < 0 ||
                        t.guard_seat >= b.boats[static_cast<std::size_t>(t.guard_boat)].crew_size)
                        invalid("boarding.guard: not a seat taken on a boat");
                    b.boarders = {b.boats[static_cast<std::size_t>(t.guard_boat)]
                                      .crew[static_cast<std::size_t>(t.guard_seat)],
                                  b.spots[kPirate1]};
                    b.on_ship = 2;
                    b.guard_boat = t.guard_boat;
                    b.guard_seat = t.guard_seat;
                } else {
                    b.boarders = {b.spots[kPirate1], b.spots[kPirate2]};
                    b.on_ship = 3;
                }
            } else {
                invalid("boarding.decider: must be 0 (the captain) or 1, got " +
                        std::to_string(t.boarding_decider));
            }
            b.decider = t.boarding_decider;
            if (b.boarders[static_cast<std::size_t>(b.decider)] != me)
                invalid("current_player: the pirate who decides now must be the player to move");
            break;
        }
        case Phase::kSmallPilot:
        case Phase::kLargePilot: {
            const bool large = t.phase == Phase::kLargePilot;
            if (t.next_roll != kNumRollsPerVoyage)
                invalid("next_roll: the pilots act before roll 3 (next_roll 3)");
            if (b.spots[large ? kPilotLarge : kPilotSmall] != me)
                invalid(std::string("current_player: the ") + (large ? "large" : "small") +
                        " pilot's owner moves now");
            b.small_done = large;
            break;
        }
        case Phase::kPlunder: {
            if (t.next_roll < kNumRollsPerVoyage) invalid("next_roll: plunder follows roll 3");
            b.next_roll = kNumRollsPerVoyage + 1;
            b.small_done = b.large_done = true;
            for (int i = 0; i < kNumBoats; ++i)
                if (b.boats[static_cast<std::size_t>(i)].position == kThirteen) b.plunder |= 1 << i;
            if (b.plunder == 0) invalid("boats: a plunder needs a boat on 13");
            if (b.spots[kPirate1] != me)
                invalid("current_player: the captain (pirate_1) decides the plunder");
            break;
        }
        default:
            break;
    }
    return b;
}

GameState table_state(const TableView& t, std::uint64_t seed) {
    Rng rng(derive_seed(seed, 0x7AB1E));
    GameState s = GameState::from_board(table_board(t, rng), seed);
    if (s.legal_actions().empty()) invalid("table: the player to move has no legal action");
    return s;
}

}  // namespace manila

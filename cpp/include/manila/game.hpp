// The whole game of Manila (docs/rules.md) as an OpenSpiel-style state machine.
//
// A GameState is a plain value (fixed arrays plus the action history): copying it is a
// clone. Every move of every phase — chance included — is one integer action from a
// fixed action space (namespace action below). current_player() says who moves:
// a player 0..n-1, kChancePlayer for the share deal and the dice, kTerminalPlayer once
// the game is over. Settlement, price rise and the set-up of the next voyage need no
// decision and happen inside the action that leads to them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "manila/rules.hpp"
#include "manila/voyage.hpp"

namespace manila {

inline constexpr int kStartCash = 30;
inline constexpr int kDealtPerGood = 3;  // of each good, shuffled face down for the deal
inline constexpr int kSharesDealt = 2;   // per player
inline constexpr int kLoanAmount = 12;   // a mortgage brings 12 ...
inline constexpr int kRepayAmount = 15;  // ... and lifting it costs 15
inline constexpr int kMinSharePrice = 5;
// The most cash one player may hold in a table, and a voyage state's budget (cash plus the
// loans on every share): a bound on what callers may send, not a rule of the game. No game
// comes near it (30 pesos a player at the start; a voyage pays out at most a few hundred
// in all), and every sum of money the engine makes of it stays far from overflowing.
inline constexpr int kMaxCash = 10000;
inline constexpr int kMaxBudget = kMaxCash + kLoanAmount * kSharesPerGood * kNumGoods;
// The lowest wealth possible: every share mortgaged, every price 0, no cash.
inline constexpr int kMinWealth = -kRepayAmount * kSharesPerGood * kNumGoods;
// The lowest final wealth (OpenSpiel's min_utility): the game ends with some good at the top
// of the price track, where a mortgaged share is still worth its price minus the repayment,
// at least 0; so at worst every share of the other goods is mortgaged at price 0, no cash.
// No upper bound exists, nor one on the game's length: rolls of all ones bring no boat to
// Manila whatever the players do, so any number of voyages may pay out and raise no price.
static_assert(kPriceTrack.back() >= kRepayAmount,
              "a mortgaged share at the top price is worth >= 0");
inline constexpr int kMinFinalWealth = -kRepayAmount * kSharesPerGood * (kNumGoods - 1);

inline constexpr int kNumPhases = 12;            // the values of Phase below
inline constexpr int kMaxGameActions = 1000000;  // a guard: no real game comes near it

inline constexpr int kChancePlayer = -1;
inline constexpr int kTerminalPlayer = -4;  // OpenSpiel's kTerminalPlayerId

// The fixed action space. Every id has one meaning in every state.
namespace action {
inline constexpr int kPass = 0;                // auction: pass
inline constexpr int kMaxBid = 1000;           // action n (1..kMaxBid): bid n
inline constexpr int kMortgage = kMaxBid + 1;  // any decision: take a loan
inline constexpr int kRepay = kMortgage + 1;   // any decision: lift a loan
inline constexpr int kBuy = kRepay + 1;        // + good
inline constexpr int kBuyNothing = kBuy + kNumGoods;
inline constexpr int kLeaveHome = kBuyNothing + 1;     // + good that stays home
inline constexpr int kStart = kLeaveHome + kNumGoods;  // + start triple index
inline constexpr int kPlace = kStart + kNumStarts;     // + spot-table id
inline constexpr int kDecline = kPlace + kNumTableSpots;
inline constexpr int kStay = kDecline + 1;            // boarding: stay on the ship
inline constexpr int kBoard = kStay + 1;              // + good (a free seat)
inline constexpr int kDisplace = kBoard + kNumGoods;  // + good * 4 + seat (variant)
inline constexpr int kSmallNone = kDisplace + kNumGoods * kMaxSeats;
inline constexpr int kSmall = kSmallNone + 1;  // + good * 2 + {+1, -1}
inline constexpr int kLargeNone = kSmall + kNumGoods * 2;
inline constexpr int kLargeOne = kLargeNone + 1;             // + good * 4 + {+1, -1, +2, -2}
inline constexpr int kNumPairs = 6;                          // pairs of goods, in good order
inline constexpr int kLargeTwo = kLargeOne + kNumGoods * 4;  // + pair * 4 + {++, +-, -+, --}
inline constexpr int kPlunder = kLargeTwo + kNumPairs * 4;   // + mask, bit (3 - good): shipyard
inline constexpr int kDeal = kPlunder + (1 << kNumGoods);    // chance: + good dealt
inline constexpr int kRoll = kDeal + kNumGoods;              // chance: + (d0-1)*36+(d1-1)*6+(d2-1)
inline constexpr int kNumRolls = static_cast<int>(power_of_six(kNumBoats));
inline constexpr int kNumActions = kRoll + kNumRolls;
}  // namespace action

// Throws std::invalid_argument unless a game may have this many players.
void check_players(int players);

// The name of an action, the same in every state ("bid 7", "place silk", "roll 3-5-1").
std::string action_name(int a);
// The start spaces of start triple t (for the sailing goods in good order).
std::array<int, kNumBoats> start_triple(int t);

enum class Phase : int {
    kDeal,         // chance: the shares are dealt one by one
    kAuction,      // bidding for harbour master
    kBuyShare,     // harbour master: may buy one share
    kChooseGoods,  // harbour master: which good stays home
    kPlaceBoats,   // harbour master: start spaces
    kPlacement,    // placement rounds
    kRoll,         // chance: one die per boat not yet in Manila
    kBoarding,     // after roll 2: pirates may board boats on 13
    kSmallPilot,
    kLargePilot,
    kPlunder,   // after roll 3: the captain sends each plundered boat to Manila or the shipyard
    kGameOver,  // the last phase: kNumPhases counts them
};
static_assert(static_cast<int>(Phase::kGameOver) + 1 == kNumPhases, "kNumPhases counts the phases");
const char* phase_name(Phase p);
// The phase called `name`; std::invalid_argument otherwise.
Phase phase_of(const std::string& name);

// The player who receives the share dealt by the deal action at history index k.
inline constexpr int deal_recipient(int k) { return k / kSharesDealt; }

// A small, fast, serialisable random generator (splitmix64).
class Rng {
  public:
    explicit Rng(std::uint64_t seed = 0) : state_(seed) {}
    std::uint64_t next();
    int below(int n);  // uniform in 0..n-1, n in 1..2^31-1
    std::uint64_t state() const { return state_; }
    void set_state(std::uint64_t s) { state_ = s; }

  private:
    std::uint64_t state_;
};

// A seed derived from another and an index (game i of a run, seat s of a game).
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index);

struct PlayerState {
    int cash = kStartCash;
    std::array<int, kNumGoods> shares{};
    int mortgaged = 0;  // shares under a loan (which ones does not matter: all count alike)
    std::array<int, kNumGoods>
        dealt{};  // of `shares`, those dealt face down: only this player sees them
    int unmortgaged() const;
    int capacity() const { return cash + kLoanAmount * unmortgaged(); }  // what can be paid
};

// What happened at the end of the last voyage (for logs and replays).
struct Settlement {
    std::array<int, kMaxPlayers> income{};     // received minus the insurer's payment
    std::array<int, kMaxPlayers> mortgages{};  // forced loans taken to pay the insurance
    int insurer = -1;
    int insurance_due = 0, insurance_paid = 0;  // the bank covered the difference
    int in_manila = 0, in_shipyard = 0, plundered = 0;
    std::array<int, kNumBoats> port{-1, -1, -1}, shipyard{-1, -1, -1};  // goods by slot
    int plundered_goods = 0;                                            // bit g: good g
};

// Chance outcomes with exact probabilities weight / den (den is the same for all).
struct ChanceWeights {
    std::vector<std::pair<int, int>> outcomes;  // (action, weight)
    int den = 0;
};

// What placing on a spot costs a player, and whether as a blind passenger (rule 12: paying
// all their cash instead).
struct PlacementTerms {
    int cost = 0;
    bool blind = false;
};

// Everything on the table. Fields are public for reading; change them only through
// GameState's actions.
struct Board {
    int num_players = 4;
    Rules rules{};
    int max_accomplices = kAccomplices;
    std::array<PlayerState, kMaxPlayers> players{};
    int bank = 0;  // the bank's balance: players' cash + bank is always 30 * players
    std::array<int, kNumGoods> price_step{};  // index into kPriceTrack
    std::array<int, kNumGoods> supply{};      // face-up shares for sale
    std::array<int, kNumGoods> pile{};        // face-down shares still to deal
    int dealt = 0;

    Phase phase = Phase::kDeal;
    int current = kChancePlayer;
    int voyage = 0;           // 1 for the first voyage
    int harbour_master = -1;  // -1 before the first auction ends
    // Auction.
    int high_bid = 0, high_bidder = -1, in_auction = 0;  // bit p: p has not passed
    // The voyage.
    int stays_home = -1;  // good, once chosen
    std::array<Boat, kNumBoats> boats{};
    std::array<int, kNumSpots> spots{};
    int next_roll = 1;    // 1..3; 4 once roll 3 is over
    int rounds_left = 0;  // placement rounds before next_roll (this one included)
    int turn = 0;         // position in the round, counted from the harbour master
    int declined = 0;     // bit p: declined this voyage
    std::array<int, kNumBoats> port{-1, -1, -1}, shipyard{-1, -1, -1};  // goods by slot
    int in_port = 0, in_shipyard = 0;
    // Boarding after roll 2.
    std::array<int, 2> boarders{-1, -1};  // owners of pirate_1 and pirate_2 when it began
    int on_ship = 0;                      // bit k: boarders[k] still on the ship
    int decider = 0;
    int guard_boat = -1, guard_seat = -1;  // the seat a pirate took in this boarding
    bool small_done = false, large_done = false;
    int plunder = 0;  // bit i: boat i plundered after roll 3
    Settlement last{};

    int price(int good) const { return kPriceTrack[static_cast<std::size_t>(price_step[good])]; }
    int accomplices(int p) const;  // accomplices of p on the board
    int pirates_on_ship() const;
};

class GameState {
  public:
    GameState(int players, Rules rules, std::uint64_t seed);
    // A state put together from a table (manila/table.hpp builds and checks the board):
    // no history, chance drawn from a generator seeded by `seed`. Throws
    // std::invalid_argument listing the broken invariants if the board is not consistent.
    static GameState from_board(const Board& board, std::uint64_t seed);
    // What `viewer` may know, as a state of its own: the others' face-down shares replaced by
    // one fixed deal consistent with the view (the same whatever the true deal), and no
    // generator or seed from which the deal or the dice could be replayed. A player's view
    // holds this, never the referee's state.
    GameState seen_by(int viewer) const;

    const Board& board() const { return b_; }
    int num_players() const { return b_.num_players; }
    int current_player() const { return b_.current; }
    bool is_chance_node() const { return b_.current == kChancePlayer; }
    bool is_terminal() const { return b_.phase == Phase::kGameOver; }
    const std::vector<int>& history() const { return history_; }
    std::uint64_t seed() const { return seed_; }
    Rng& rng() { return rng_; }
    const Rng& rng() const { return rng_; }

    // Legal actions, sorted. The out-parameter form reuses the caller's buffer on purpose:
    // play-outs ask for the legal actions at every move, and an allocation each time would
    // cost more than the rest of a random bot's move.
    void legal_actions(std::vector<int>& out) const;
    std::vector<int> legal_actions() const;
    bool is_legal(int a) const;
    // Why an action is illegal, naming the rule; empty when it is legal.
    std::string illegal_reason(int a) const;

    // Checked: throws std::invalid_argument (with illegal_reason) and leaves the state as
    // it was if the action is illegal.
    void apply_action(int a);
    // For callers that took `a` from legal_actions(): no check.
    void apply_legal(int a);

    // Chance outcomes with exact probabilities (empty unless a chance node).
    ChanceWeights chance_weights() const;
    std::vector<std::pair<int, double>> chance_outcomes() const;
    // A chance outcome drawn with this state's own generator (seeded by the game seed).
    int sample_chance();
    int sample_chance(Rng& rng) const;

    int wealth(int p) const;
    std::vector<int> returns() const;  // wealth of every player (final once terminal)
    int voyages_completed() const;

    // The voyage in progress as the evaluator sees it (owners = player ids); nothing when
    // there is none (before the boats are placed, and once roll 3 is over). Pilots that
    // have acted and pirates who boarded are no longer on their spots.
    std::optional<Voyage> voyage() const;

    std::string action_to_string(int a) const;  // the name, with goods where it helps
    std::string to_string() const;
    // Every broken invariant (money, shares, accomplices, prices, board); empty if none.
    std::vector<std::string> check_invariants() const;

    // The terms on which player p may place on spot-table id now; nothing if they may not.
    std::optional<PlacementTerms> placement_terms(int p, int id) const;

  private:
    void legal_main(std::vector<int>& out) const;  // without the loan actions (same buffer)
    bool loans_open() const;
    void pay(int p, int amount);  // with forced mortgages
    void mortgage(int p);
    void begin_voyage();
    void end_auction(int winner);
    void begin_placement();
    void advance_placement();
    void after_roll();
    void begin_boarding();
    void advance_boarding();
    std::vector<int> boarding_options(int decider) const;
    void begin_pilots();
    void begin_large_pilot();
    void finish_voyage();
    void settle();
    void move_boat(int i, int delta);
    int boat_of(int good) const;
    int cheapest_paid_spot() const;

    Board b_;
    Rng rng_;
    std::uint64_t seed_;
    std::vector<int> history_;
};

}  // namespace manila

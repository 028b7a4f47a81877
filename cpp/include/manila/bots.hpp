// The built-in bots and the play-out loop that runs whole games with them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "manila/game.hpp"

namespace manila {

// kExpert: manila/analysis.hpp (rollouts where they pay, the solver elsewhere); kRollout:
// manila/analysis.hpp too (every decision by rollouts of greedy, an opponent unlike ours);
// kSage: the expert with its rollouts ending in the learned value (manila/value.hpp);
// kGreedyOffice: greedy-wealth with the solver's office play (the review's policy).
enum class BotKind : int {
    kRandom,
    kGreedy,
    kGreedyWealth,
    kSolver,
    kExpert,
    kRollout,
    kSage,
    kGreedyOffice
};

// The built-in bots' names ("random", "greedy", ...), in BotKind order: manila.bots
// registers them for Python, and play_games takes them by these names.
const std::vector<std::string>& bot_names();
// The name of bot `kind` (std::invalid_argument for a kind out of range).
const std::string& bot_name(BotKind kind);
// The bot of that name; throws std::invalid_argument naming the built-in bots otherwise.
BotKind bot_kind_of(const std::string& name);
std::vector<BotKind> bot_kinds_of(const std::vector<std::string>& names);

// Uniformly random among the legal actions.
int random_action(const GameState& s, Rng& rng);
// The greedy bot (see game_bots.cpp for its rules): best expected_net spot, exact pirate and
// pilot decisions, and simple stated rules for bids, shares, goods and start spaces.
int greedy_action(const GameState& s, Objective objective = Objective::kIncome);
// The solver bot (see game_solver.cpp): the placement-round search and the advice for the
// voyage's decisions, expected share gains for the harbour master's, all valued in wealth
// from the mover's own view. Deterministic.
int solver_action(const GameState& s);
// The greedy-office bot: the solver's bids, share, goods and start spaces (the office, which
// greedy-wealth plays by rough rules), greedy-wealth's every other decision. As cheap as
// greedy-wealth (no placement search) and deterministic: the review's continuation policy,
// which values an office as a player who uses it well.
int greedy_office_action(const GameState& s);
// The move of built-in bot `kind` for the player to move in s (not a chance node), from that
// player's view only; `rng` is the seat's own generator (only the random bot draws from it).
// Rollouts, self-play and the ladder all ask the bots through this one call.
int bot_action(BotKind kind, const GameState& s, Rng& rng);
// Whether the bot needs the seat's generator: random and rollout draw from it, expert salts
// its rollouts with it; the others are deterministic.
bool bot_draws(BotKind kind);

struct GameResult {
    std::uint64_t seed = 0;
    std::vector<int> wealth;
    int voyages = 0;
    int actions = 0;
    std::vector<int> history;  // only when recorded
};

// Plays one game: chance from the game's own generator, seat s's random bot from
// derive_seed(seed, s + 1). With `check`, invariants are checked after every action
// (std::logic_error on a failure).
GameResult play_game(int players, const Rules& rules, std::uint64_t seed,
                     const std::vector<BotKind>& bots, bool record, bool check);
// Games first..first+n-1 of a run: game i has seed derive_seed(seed, i). Spread over
// threads (0: all hardware threads); results in game order, the same for any threads.
std::vector<GameResult> play_games(int players, const Rules& rules, std::uint64_t seed,
                                   std::int64_t first, int n, const std::vector<BotKind>& bots,
                                   int threads, bool record, bool check);

}  // namespace manila

// N games of Manila stepped at once, for learning: the agent acts at its own seats, and
// everything else — the deal and the dice, and the seats given to built-in bots — is played
// inside the step, so that one call advances every game to the agent's next decision.
//
// The buffers (observations, masks, rewards, ...) belong to the environment and are
// rewritten by every reset and step; the bindings hand them to numpy without copies.
//
// Games and seeds. After reset(seed), env i plays games i, i + N, i + 2N, ... of the run
// (N = num_envs), and game k has seed derive_seed(seed, k), as in play_games. A game is
// played exactly as GameState would play it one move at a time: chance drawn from the
// game's own generator (GameState::sample_chance), the bot at seat s drawing from
// derive_seed(game seed, s + 1) (as in play_game), and the agent's actions as given.
//
// Explicit chance (an option). The step stops at chance nodes as well: the env's seat to
// move is kChancePlayer, its mask is empty, its observation is the view of the agent seat
// that moved last (the first agent seat before any move), and its row of chance weights
// holds every chance outcome's exact probability as weight / denominator (outcome k is the
// engine's action action::kDeal + k, as in the OpenSpiel game; weight 0: impossible). The
// caller then gives an outcome in place of an action. Outcomes drawn by sample_chance (each game's
// own generator, as the default draws them) replay the default env's games exactly.
//
// Automatic reset. When an action ends a game, that step's rewards row holds every seat's
// final reward (RewardKind) and done is 1; the observation, mask and seat to move are
// already those of the env's next game (its first decision for the agent, or with explicit
// chance its deal), and the final observations row holds the finished game's last state as
// seen by the agent seat that moved last (Gymnasium's same-step autoreset). Rewards are 0 on
// every other step.
//
// Without autoreset a finished game stays over until the next reset: its mask is empty, its
// seat to move is kTerminalPlayer, its observation is the final one, and its action in later
// steps is ignored (its rewards row is 0 after the step that ended it; done stays 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "manila/bots.hpp"
#include "manila/game.hpp"
#include "manila/observation.hpp"

namespace manila {

// The player actions: every action id below the first chance action. A mask covers these.
inline constexpr int kNumPlayerActions = action::kDeal;
// The chance outcomes: outcome k is the engine's action action::kDeal + k.
inline constexpr int kNumChanceOutcomes = action::kNumActions - action::kDeal;

// What a seat is paid when its game ends (docs/rules.md, docs/value.md): its final
// wealth; its share of the win (1 among the tied highest, 0 else); or its equity, final
// wealth minus the mean of the others' (zero-sum).
enum class RewardKind : int { kWealth, kWin, kEquity };
const char* reward_name(RewardKind kind);
// The kind called `name`; std::invalid_argument naming the choices otherwise.
RewardKind reward_kind_of(const std::string& name);
// Every seat's reward for the finished game s into out[0..players).
void final_rewards(const GameState& s, RewardKind kind, float* out);

class VectorEnv {
  public:
    // seats[s]: the built-in bot at seat s, or nothing for the agent's seats (at least one).
    // threads: how many threads step the games (1: the caller's alone; 0: all hardware threads).
    // explicit_chance: chance nodes are the caller's to resolve (see the top of this file).
    VectorEnv(int num_envs, int players, Rules rules, std::vector<std::optional<BotKind>> seats,
              int threads = 1, bool autoreset = true, RewardKind reward = RewardKind::kWealth,
              bool explicit_chance = false);

    // Starts game i (seed derive_seed(seed, i)) in every env i and plays up to the agent's
    // first decision.
    void reset(std::uint64_t seed);
    // actions[i]: the agent's action in env i, or at a chance node a chance outcome of
    // positive probability (n must be num_envs). Throws std::invalid_argument naming the
    // env, seat and rule, leaving every game unchanged, if one is illegal (or reset was
    // never called).
    void step(const std::int64_t* actions, std::size_t n);
    // A random legal move for every env from `rng`: uniform among the agent's legal actions
    // (without scanning the masks), or at a chance node drawn by the outcomes' probabilities.
    void sample_actions(Rng& rng, std::int64_t* out, std::size_t n) const;
    // With explicit chance: at each chance node the outcome drawn from the game's own
    // generator (advancing it), the draw the default env makes there; -1 elsewhere.
    void sample_chance(std::int64_t* out, std::size_t n);

    int num_envs() const { return num_envs_; }
    int num_players() const { return players_; }
    int observation_size() const { return obs_size_; }
    int threads() const { return threads_; }
    const std::vector<std::optional<BotKind>>& seats() const { return seats_; }
    bool started() const { return started_; }
    RewardKind reward() const { return reward_; }
    bool explicit_chance() const { return explicit_chance_; }

    // Row-major buffers, one row per env.
    std::vector<float>& observations() { return obs_; }    // num_envs x observation_size
    std::vector<std::uint8_t>& masks() { return masks_; }  // num_envs x kNumPlayerActions
    std::vector<float>& rewards() { return rewards_; }     // num_envs x players
    // num_envs x observation_size, rows written only where done.
    std::vector<float>& final_observations() { return final_obs_; }
    std::vector<std::uint8_t>& dones() { return dones_; }  // num_envs
    // The agent seat to move, kChancePlayer at a chance node (explicit chance only).
    std::vector<std::int32_t>& to_move() { return to_move_; }
    std::vector<std::uint64_t>& game_seeds() { return game_seeds_; }     // of the current games
    std::vector<std::int64_t>& game_numbers() { return game_numbers_; }  // k: game k of the run
    std::vector<std::int32_t>& steps() { return steps_; }  // agent decisions so far, this game
    // Explicit chance: at a chance node, outcome k has probability weight / denominator
    // (num_envs x kNumChanceOutcomes weights, num_envs denominators); zeros elsewhere.
    std::vector<std::int32_t>& chance_weights() { return chance_weights_; }
    std::vector<std::int32_t>& chance_denominators() { return chance_dens_; }

    // The game in progress in env i (throws std::invalid_argument for a bad i).
    const GameState& game(int i) const;
    // Writes seat `seat`'s observation of env i into out[0..observation_size) (any seat, as
    // the AEC form of an environment asks for every agent's).
    void observe(int i, int seat, float* out, std::size_t size) const;
    bool autoreset() const { return autoreset_; }

  private:
    struct Slot {
        GameState state;
        std::vector<Rng> bot_rngs;  // one per seat, used at the bots' seats
        std::vector<int> legal;     // the agent's legal actions now (set in the mask)
        std::vector<int> chance;    // the outcomes with a weight now (set in the weights row)
        int last_seat = 0;          // the agent seat that moved last (the first one at first)
    };
    void start(int i, std::int64_t number);
    // Plays chance (unless explicit) and bots until an agent seat is to move, a chance node
    // is the caller's, or the game is over.
    void advance(Slot& slot) const;
    // From slot.state (an agent seat to move, or a chance node of the caller's): legal list,
    // mask, chance weights, observation, seat.
    void publish(int i);
    // Rewards, done, final observation, and the next game or the finished one's rows.
    void finish(int i);
    void clear_chance(std::size_t u);  // env u's chance weights back to zeros
    void check_env(int i) const;

    int num_envs_, players_, obs_size_, threads_;
    bool autoreset_;
    RewardKind reward_;
    bool explicit_chance_;
    int first_agent_ = 0;
    Rules rules_;
    std::vector<std::optional<BotKind>> seats_;
    bool started_ = false;
    std::uint64_t seed_ = 0;
    std::vector<Slot> slots_;
    std::vector<float> obs_, final_obs_;
    std::vector<std::uint8_t> masks_;
    std::vector<float> rewards_;
    std::vector<std::uint8_t> dones_;
    std::vector<std::int32_t> to_move_;
    std::vector<std::uint64_t> game_seeds_;
    std::vector<std::int64_t> game_numbers_;
    std::vector<std::int32_t> steps_;
    std::vector<std::int32_t> chance_weights_, chance_dens_;
};

}  // namespace manila

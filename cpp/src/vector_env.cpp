#include "manila/vector_env.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "game_internal.hpp"
#include "parallel.hpp"

namespace manila {

namespace {
constexpr auto kMaskWidth = static_cast<std::size_t>(kNumPlayerActions);
}  // namespace

VectorEnv::VectorEnv(int num_envs, int players, Rules rules,
                     std::vector<std::optional<BotKind>> seats, int threads, bool autoreset)
    : num_envs_(num_envs),
      players_(players),
      obs_size_(0),
      threads_(threads),
      autoreset_(autoreset),
      rules_(rules),
      seats_(std::move(seats)) {
    if (num_envs < 1) invalid("num_envs: must be at least 1, got " + std::to_string(num_envs));
    check_players(players);
    if (static_cast<int>(seats_.size()) != players)
        invalid("bots: one entry per seat is needed (a bot, or none for the agent), " +
                std::to_string(players) + " in all, got " + std::to_string(seats_.size()));
    if (std::all_of(seats_.begin(), seats_.end(), [](const auto& b) { return b.has_value(); }))
        invalid(
            "bots: at least one seat must be the agent's (none); for games of bots alone "
            "use play_games");
    if (threads < 0) invalid("threads: must be at least 0, got " + std::to_string(threads));
    if (threads_ == 0) threads_ = hardware_threads();
    obs_size_ = manila::observation_size(players);
    const auto n = static_cast<std::size_t>(num_envs);
    slots_.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        slots_.push_back(Slot{GameState(players, rules, 0), {}, {}});
    obs_.assign(n * static_cast<std::size_t>(obs_size_), 0.0f);
    final_obs_.assign(obs_.size(), 0.0f);
    masks_.assign(n * kMaskWidth, 0);
    rewards_.assign(n * static_cast<std::size_t>(players), 0.0f);
    dones_.assign(n, 0);
    to_move_.assign(n, -1);
    game_seeds_.assign(n, 0);
    game_numbers_.assign(n, -1);
    steps_.assign(n, 0);
}

void VectorEnv::check_env(int i) const {
    if (i < 0 || i >= num_envs_)
        invalid("env: must be 0.." + std::to_string(num_envs_ - 1) + ", got " + std::to_string(i));
}

const GameState& VectorEnv::game(int i) const {
    check_env(i);
    return slots_[static_cast<std::size_t>(i)].state;
}

void VectorEnv::observe(int i, int seat, float* out, std::size_t size) const {
    if (!started_) invalid("observe: call reset(seed) first");
    check_env(i);
    observation_tensor(slots_[static_cast<std::size_t>(i)].state, seat, PrivateInfo::kSingle, out,
                       size);
}

void VectorEnv::advance(Slot& slot) const {
    GameState& s = slot.state;
    while (!s.is_terminal()) {
        int a;
        if (s.is_chance_node()) {
            a = s.sample_chance();
        } else {
            const auto p = static_cast<std::size_t>(s.current_player());
            if (!seats_[p]) return;  // the agent's decision
            a = bot_action(*seats_[p], s, slot.bot_rngs[p]);
        }
        s.apply_legal(a);
        if (s.history().size() > static_cast<std::size_t>(kMaxGameActions))
            throw std::runtime_error("VectorEnv: game seed " + std::to_string(s.seed()) +
                                     " does not end");
    }
}

void VectorEnv::publish(int i) {
    const auto u = static_cast<std::size_t>(i);
    Slot& slot = slots_[u];
    std::uint8_t* mask = masks_.data() + u * kMaskWidth;
    // Clearing only what was set keeps a step from touching the whole row (1,300 bytes).
    for (int a : slot.legal) mask[a] = 0;
    slot.state.legal_actions(slot.legal);
    for (int a : slot.legal) mask[a] = 1;
    const int seat = slot.state.current_player();
    to_move_[u] = seat;
    observation_tensor(slot.state, seat, PrivateInfo::kSingle,
                       obs_.data() + u * static_cast<std::size_t>(obs_size_),
                       static_cast<std::size_t>(obs_size_));
}

void VectorEnv::start(int i, std::int64_t number) {
    const auto u = static_cast<std::size_t>(i);
    const std::uint64_t seed = derive_seed(seed_, static_cast<std::uint64_t>(number));
    Slot& slot = slots_[u];
    slot.state = GameState(players_, rules_, seed);
    slot.bot_rngs.clear();
    for (int p = 0; p < players_; ++p)
        slot.bot_rngs.emplace_back(derive_seed(seed, static_cast<std::uint64_t>(p) + 1));
    game_seeds_[u] = seed;
    game_numbers_[u] = number;
    steps_[u] = 0;
    advance(slot);
    // Every player bids or passes in the first auction, so an agent seat always gets a turn.
    if (slot.state.is_terminal())
        throw std::logic_error("VectorEnv: game seed " + std::to_string(seed) +
                               " ended before the agent's first decision");
    publish(i);
}

void VectorEnv::reset(std::uint64_t seed) {
    seed_ = seed;
    started_ = true;
    std::fill(rewards_.begin(), rewards_.end(), 0.0f);
    std::fill(dones_.begin(), dones_.end(), std::uint8_t{0});
    parallel_for(num_envs_, threads_, [&](int i) { start(i, i); });
}

void VectorEnv::step(const std::int64_t* actions, std::size_t n) {
    if (!started_) invalid("step: call reset(seed) first");
    if (n != static_cast<std::size_t>(num_envs_))
        invalid("actions: one per env is needed, " + std::to_string(num_envs_) + " in all, got " +
                std::to_string(n));
    // Every action is checked before any game moves, so a bad batch changes nothing.
    for (int i = 0; i < num_envs_; ++i) {
        const auto u = static_cast<std::size_t>(i);
        if (slots_[u].state.is_terminal()) continue;  // without autoreset: over, action ignored
        const std::int64_t a = actions[u];
        if (a < 0 || a >= kNumPlayerActions ||
            !masks_[u * kMaskWidth + static_cast<std::size_t>(a)]) {
            const GameState& s = slots_[u].state;
            const std::string why =
                a < 0 || a >= action::kNumActions
                    ? "not an action id (0.." + std::to_string(kNumPlayerActions - 1) + ")"
                    : s.illegal_reason(static_cast<int>(a));
            invalid("actions[" + std::to_string(i) + "]: " + std::to_string(a) +
                    " is illegal for seat " + std::to_string(to_move_[u]) + " in game seed " +
                    std::to_string(s.seed()) + ": " + why);
        }
    }
    parallel_for(num_envs_, threads_, [&](int i) {
        const auto u = static_cast<std::size_t>(i);
        Slot& slot = slots_[u];
        float* reward = rewards_.data() + u * static_cast<std::size_t>(players_);
        if (slot.state.is_terminal()) {
            std::fill(reward, reward + players_, 0.0f);
            return;
        }
        const int seat = to_move_[u];
        slot.state.apply_legal(static_cast<int>(actions[u]));
        ++steps_[u];
        advance(slot);
        if (slot.state.is_terminal()) {
            for (int p = 0; p < players_; ++p) reward[p] = static_cast<float>(slot.state.wealth(p));
            dones_[u] = 1;
            observation_tensor(slot.state, seat, PrivateInfo::kSingle,
                               final_obs_.data() + u * static_cast<std::size_t>(obs_size_),
                               static_cast<std::size_t>(obs_size_));
            if (autoreset_) {
                start(i, game_numbers_[u] + num_envs_);
            } else {
                std::uint8_t* mask = masks_.data() + u * kMaskWidth;
                for (int a : slot.legal) mask[a] = 0;
                slot.legal.clear();
                to_move_[u] = kTerminalPlayer;
                std::copy_n(final_obs_.data() + u * static_cast<std::size_t>(obs_size_), obs_size_,
                            obs_.data() + u * static_cast<std::size_t>(obs_size_));
            }
        } else {
            std::fill(reward, reward + players_, 0.0f);
            dones_[u] = 0;
            publish(i);
        }
    });
}

void VectorEnv::sample_actions(Rng& rng, std::int64_t* out, std::size_t n) const {
    if (!started_) invalid("sample_actions: call reset(seed) first");
    if (n != static_cast<std::size_t>(num_envs_))
        invalid("out: one entry per env is needed, " + std::to_string(num_envs_) + " in all, got " +
                std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) {
        const std::vector<int>& legal = slots_[i].legal;
        // A finished game (without autoreset) takes any action: 0 stands for none.
        out[i] = legal.empty()
                     ? 0
                     : legal[static_cast<std::size_t>(rng.below(static_cast<int>(legal.size())))];
    }
}

}  // namespace manila

#include "manila/vector_env.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "game_internal.hpp"
#include "manila/value.hpp"
#include "parallel.hpp"

namespace manila {

namespace {
constexpr auto kMaskWidth = static_cast<std::size_t>(kNumPlayerActions);
constexpr auto kChanceWidth = static_cast<std::size_t>(kNumChanceOutcomes);
constexpr std::array<RewardKind, 3> kRewardKinds{RewardKind::kWealth, RewardKind::kWin,
                                                 RewardKind::kEquity};
}  // namespace

const char* reward_name(RewardKind kind) {
    switch (kind) {
        case RewardKind::kWealth:
            return "wealth";
        case RewardKind::kWin:
            return "win";
        case RewardKind::kEquity:
            return "equity";
    }
    return "?";
}

RewardKind reward_kind_of(const std::string& name) {
    std::string choices;
    for (RewardKind k : kRewardKinds) {
        if (name == reward_name(k)) return k;
        choices += std::string(choices.empty() ? "" : ", ") + "\"" + reward_name(k) + "\"";
    }
    invalid("reward: one of " + choices + ", got \"" + name + "\"");
}

void final_rewards(const GameState& s, RewardKind kind, float* out) {
    const int n = s.num_players();
    if (kind == RewardKind::kWealth) {
        for (int p = 0; p < n; ++p) out[p] = static_cast<float>(s.wealth(p));
        return;
    }
    // The win shares and equities have one home: the value of a finished game.
    const PositionValue v = final_value(s);
    const std::vector<double>& r = kind == RewardKind::kWin ? v.win : v.equity;
    for (int p = 0; p < n; ++p) out[p] = static_cast<float>(r[static_cast<std::size_t>(p)]);
}

VectorEnv::VectorEnv(int num_envs, int players, Rules rules,
                     std::vector<std::optional<BotKind>> seats, int threads, bool autoreset,
                     RewardKind reward, bool explicit_chance)
    : num_envs_(num_envs),
      players_(players),
      obs_size_(0),
      threads_(threads),
      autoreset_(autoreset),
      reward_(reward),
      explicit_chance_(explicit_chance),
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
    first_agent_ = static_cast<int>(
        std::find_if(seats_.begin(), seats_.end(), [](const auto& b) { return !b; }) -
        seats_.begin());
    obs_size_ = manila::observation_size(players);
    const auto n = static_cast<std::size_t>(num_envs);
    slots_.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        slots_.push_back(Slot{GameState(players, rules, 0), {}, {}, {}, first_agent_});
    obs_.assign(n * static_cast<std::size_t>(obs_size_), 0.0f);
    final_obs_.assign(obs_.size(), 0.0f);
    masks_.assign(n * kMaskWidth, 0);
    rewards_.assign(n * static_cast<std::size_t>(players), 0.0f);
    dones_.assign(n, 0);
    to_move_.assign(n, -1);
    game_seeds_.assign(n, 0);
    game_numbers_.assign(n, -1);
    steps_.assign(n, 0);
    chance_weights_.assign(n * kChanceWidth, 0);
    chance_dens_.assign(n, 0);
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
            if (explicit_chance_) return;  // the caller's to resolve
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
    if (!slot.chance.empty()) clear_chance(u);
    int seat;
    if (slot.state.is_chance_node()) {
        slot.legal.clear();
        std::int32_t* weights = chance_weights_.data() + u * kChanceWidth;
        const ChanceWeights cw = slot.state.chance_weights();
        for (auto [a, w] : cw.outcomes) {
            weights[a - action::kDeal] = w;
            slot.chance.push_back(a - action::kDeal);
        }
        chance_dens_[u] = cw.den;
        to_move_[u] = kChancePlayer;
        seat = slot.last_seat;
    } else {
        slot.state.legal_actions(slot.legal);
        for (int a : slot.legal) mask[a] = 1;
        seat = slot.state.current_player();
        to_move_[u] = seat;
    }
    observation_tensor(slot.state, seat, PrivateInfo::kSingle,
                       obs_.data() + u * static_cast<std::size_t>(obs_size_),
                       static_cast<std::size_t>(obs_size_));
}

void VectorEnv::clear_chance(std::size_t u) {
    Slot& slot = slots_[u];
    std::int32_t* weights = chance_weights_.data() + u * kChanceWidth;
    for (int k : slot.chance) weights[k] = 0;
    slot.chance.clear();
    chance_dens_[u] = 0;
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
    slot.last_seat = first_agent_;
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
        const GameState& s = slots_[u].state;
        if (s.is_terminal()) continue;  // without autoreset: over, action ignored
        const std::int64_t a = actions[u];
        if (s.is_chance_node()) {
            if (a >= 0 && a < kNumChanceOutcomes &&
                chance_weights_[u * kChanceWidth + static_cast<std::size_t>(a)] > 0)
                continue;
            const std::string why =
                a < 0 || a >= kNumChanceOutcomes
                    ? "not a chance outcome (0.." + std::to_string(kNumChanceOutcomes - 1) + ")"
                    : s.illegal_reason(action::kDeal + static_cast<int>(a));
            invalid("actions[" + std::to_string(i) + "]: " + std::to_string(a) +
                    " is no outcome of this chance node (" + phase_name(s.board().phase) +
                    ") in game seed " + std::to_string(s.seed()) + ": " + why);
        }
        if (a < 0 || a >= kNumPlayerActions ||
            !masks_[u * kMaskWidth + static_cast<std::size_t>(a)]) {
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
        const int a = static_cast<int>(actions[u]);
        if (slot.state.is_chance_node()) {
            slot.state.apply_legal(action::kDeal + a);
        } else {
            slot.last_seat = to_move_[u];
            slot.state.apply_legal(a);
            ++steps_[u];
        }
        advance(slot);
        if (slot.state.is_terminal()) {
            finish(i);
        } else {
            std::fill(reward, reward + players_, 0.0f);
            dones_[u] = 0;
            publish(i);
        }
    });
}

void VectorEnv::finish(int i) {
    const auto u = static_cast<std::size_t>(i);
    Slot& slot = slots_[u];
    final_rewards(slot.state, reward_, rewards_.data() + u * static_cast<std::size_t>(players_));
    dones_[u] = 1;
    float* final_obs = final_obs_.data() + u * static_cast<std::size_t>(obs_size_);
    observation_tensor(slot.state, slot.last_seat, PrivateInfo::kSingle, final_obs,
                       static_cast<std::size_t>(obs_size_));
    if (autoreset_) {
        start(i, game_numbers_[u] + num_envs_);
        return;
    }
    std::uint8_t* mask = masks_.data() + u * kMaskWidth;
    for (int a : slot.legal) mask[a] = 0;
    slot.legal.clear();
    if (!slot.chance.empty()) clear_chance(u);
    to_move_[u] = kTerminalPlayer;
    std::copy_n(final_obs, obs_size_, obs_.data() + u * static_cast<std::size_t>(obs_size_));
}

void VectorEnv::sample_actions(Rng& rng, std::int64_t* out, std::size_t n) const {
    if (!started_) invalid("sample_actions: call reset(seed) first");
    if (n != static_cast<std::size_t>(num_envs_))
        invalid("out: one entry per env is needed, " + std::to_string(num_envs_) + " in all, got " +
                std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) {
        const Slot& slot = slots_[i];
        if (slot.state.is_chance_node()) {
            out[i] = slot.state.sample_chance(rng) - action::kDeal;
            continue;
        }
        const std::vector<int>& legal = slot.legal;
        // A finished game (without autoreset) takes any action: 0 stands for none.
        out[i] = legal.empty()
                     ? 0
                     : legal[static_cast<std::size_t>(rng.below(static_cast<int>(legal.size())))];
    }
}

void VectorEnv::sample_chance(std::int64_t* out, std::size_t n) {
    if (!explicit_chance_)
        invalid("sample_chance: this env draws chance inside step; make it with explicit_chance");
    if (!started_) invalid("sample_chance: call reset(seed) first");
    if (n != static_cast<std::size_t>(num_envs_))
        invalid("out: one entry per env is needed, " + std::to_string(num_envs_) + " in all, got " +
                std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) {
        GameState& s = slots_[i].state;
        out[i] = s.is_chance_node() ? s.sample_chance() - action::kDeal : -1;
    }
}

}  // namespace manila

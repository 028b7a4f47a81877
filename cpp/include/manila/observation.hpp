// What one player may know of a game. In Manila the dealt shares lie face down: each
// player sees their own, and of the others only the shares they bought from the supply
// (how many each holds face down is public). Everything else is on the table, and every
// action but another player's deal is public.
//
// Three forms, all functions of that knowledge alone: a fixed-length float tensor (the
// layout below; docs/observation.md explains it), a perfect-recall information state
// string (the visible history), and an observation string (the table as text).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "manila/game.hpp"
#include "manila/json.hpp"

namespace manila {

// Whose private information (face-down shares) a view includes, as in OpenSpiel's
// IIGObservationType: nobody's, the observer's own, or everybody's (a referee's view).
enum class PrivateInfo : int { kNone, kSingle, kAll };

// The shares of player p that `viewer` sees, and how many of p's shares they cannot see.
bool sees_shares(int viewer, int p, PrivateInfo info);
std::array<int, kNumGoods> known_shares(const Board& b, int viewer, int p, PrivateInfo info);
int hidden_shares(const Board& b, int viewer, int p, PrivateInfo info);
// Whether the action at history index k is visible to `viewer` (only deals can be hidden).
bool action_visible(const GameState& s, int viewer, std::size_t k, PrivateInfo info);

// One named part of the observation tensor: `size` floats from `offset`, row-major `shape`,
// none below `low` (there is no upper bound common to all: cash has none).
struct TensorSection {
    std::string name;
    int offset = 0;
    int size = 0;
    std::vector<int> shape;
    float low = 0;
};
// The tensor's sections in order, for `players` players (3..5). Seats are relative:
// row 0 is the observer, row 1 the next player clockwise, and so on.
std::vector<TensorSection> observation_layout(int players);
int observation_size(int players);

// Writes the observation of `viewer` into out[0..size): throws std::invalid_argument if
// viewer is not a player of the game or size is not observation_size(players). The buffer
// is the caller's on purpose: the binding writes straight into numpy memory, which an
// observer may reuse from step to step (the vector form below allocates its own).
void observation_tensor(const GameState& s, int viewer, PrivateInfo info, float* out,
                        std::size_t size);
std::vector<float> observation_tensor(const GameState& s, int viewer,
                                      PrivateInfo info = PrivateInfo::kSingle);

// The observer and every action so far, others' deals written "deal ?" (perfect recall).
std::string information_state_string(const GameState& s, int viewer,
                                     PrivateInfo info = PrivateInfo::kSingle);
// The table as `viewer` sees it (GameState::to_string with the hidden shares masked).
std::string observation_string(const GameState& s, int viewer,
                               PrivateInfo info = PrivateInfo::kSingle);

// "none", "single" or "all"; throws std::invalid_argument for any other name.
PrivateInfo private_info_named(const std::string& name);
// Throws std::invalid_argument unless `player` is a seat of the game ("field: must be 0..n-1").
void check_viewer(const GameState& s, int player, const char* field = "player");

// The table as JSON values: everything with PrivateInfo::kAll (for to_dict, tests and
// replays), or what `viewer` may see (others' face-down shares masked, their wealth null).
Json board_json(const GameState& s, int viewer = 0, PrivateInfo info = PrivateInfo::kAll);
// What `viewer` may know: board_json, "observer", and "history" with every action so far,
// another player's deal written null.
Json observation_json(const GameState& s, int viewer, PrivateInfo info = PrivateInfo::kSingle);

}  // namespace manila

// The built-in bots by name, shared by the register_* files (the table is in bind_game.cpp).
#pragma once

#include <string>

#include "manila/game.hpp"

// The bot called `name` ("random", "greedy", ...); std::invalid_argument listing the
// built-in bots for an unknown name.
manila::BotKind core_bot_kind(const std::string& name);

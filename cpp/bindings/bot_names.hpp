// The built-in bots by name, shared by the register_* files (the table is in bind_game.cpp).
#pragma once

#include <string>
#include <vector>

#include "manila/game.hpp"

// Throws std::invalid_argument naming the unknown bot and listing the built-in ones.
std::vector<manila::BotKind> bot_kinds(const std::vector<std::string>& names);

// The bot called `name` ("random", "greedy", ...); std::invalid_argument listing the
// built-in bots for an unknown name.
manila::BotKind core_bot_kind(const std::string& name);

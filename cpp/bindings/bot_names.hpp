// The built-in bots by name, for every binding that takes a bot or a policy (bind_game.cpp).
#pragma once

#include <string>
#include <vector>

#include "manila/game.hpp"

// Throws std::invalid_argument naming the unknown bot and listing the built-in ones.
std::vector<manila::BotKind> bot_kinds(const std::vector<std::string>& names);

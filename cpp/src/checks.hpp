// Private to the engine sources: how a bad argument is reported.
#pragma once

#include <stdexcept>
#include <string>

namespace manila {
inline namespace checks_detail {

[[noreturn]] inline void invalid(const std::string& what) { throw std::invalid_argument(what); }

// "field: why".
[[noreturn]] inline void reject(const std::string& field, const std::string& why) {
    invalid(field + ": " + why);
}

}  // namespace checks_detail
}  // namespace manila

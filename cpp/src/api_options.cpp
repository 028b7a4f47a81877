// The options of the routes that work on a table (api_value.cpp, api_analyse.cpp): their
// body's shape (server/app.py's _heavy_body and _at_most) and the bounds of rollouts, seeds
// and time limits (common/limits.py's check_number), in Python's words.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "api_internal.hpp"

namespace manila::api {
namespace {

// limits._text: a bound as Python writes it (86400, not 86400.0).
std::string bound_text(double bound) {
    if (bound == std::floor(bound) && std::fabs(bound) < 1e18)
        return std::to_string(static_cast<long long>(bound));
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", bound);
    return buffer;
}

}  // namespace

bool heavy_body(const Json& body, const std::vector<std::string>& keys, const char* required,
                const char* what, Answer& refused) {
    if (!body.is_object()) {
        refused = error_answer(400, {{"",
                                      std::string("the body must be a JSON object with a ") +
                                          required + ", not " + json_type(body),
                                      ""}});
        return false;
    }
    for (const auto& [key, value] : body.members())
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            refused = error_answer(400, {{key, "unknown key; allowed: " + joined(keys), ""}});
            return false;
        }
    if (!body.find(required)) {
        refused = error_answer(400, {{required, what, ""}});
        return false;
    }
    return true;
}

bool at_most(const Json& body, const char* key, std::int64_t cap, const char* unit,
             Answer& refused) {
    const Json* n = body.find(key);
    if (!n || !n->is_integer() || n->negative() || n->int_in(0, cap)) return true;
    refused =
        error_answer(400, {{key, "at most " + std::to_string(cap) + unit + " on this server", ""}});
    return false;
}

bool check_whole(const Json& v, const char* name, std::int64_t low, const std::string& high,
                 std::string& error) {
    const bool whole = v.is_integer();
    bool in = whole && !(v.kind() == Json::Kind::kInt && v.as_int() < low) && !v.negative();
    if (in && v.kind() == Json::Kind::kBigInt) {
        // Above the high bound unless it has fewer digits, or as many and is not greater.
        const std::string& d = v.as_string();
        in = d.size() < high.size() || (d.size() == high.size() && d <= high);
    } else if (in) {
        in = high.size() > 18 || v.as_int() <= std::stoll(high);
    }
    if (in) return true;
    error = std::string(name) + ": must be an integer from " + std::to_string(low) + " to " + high +
            ", got " + py_repr(v);
    return false;
}

bool check_real(const Json& v, const char* name, double low, double high, std::string& error) {
    bool in = false;
    if (v.kind() == Json::Kind::kFloat)
        in = std::isfinite(v.as_double()) && low <= v.as_double() && v.as_double() <= high;
    else if (v.kind() == Json::Kind::kInt)  // exact for the bounds here, whole and small
        in = static_cast<double>(v.as_int()) >= low && static_cast<double>(v.as_int()) <= high;
    if (in) return true;
    error = std::string(name) + ": must be a number from " + bound_text(low) + " to " +
            bound_text(high) + ", got " + py_repr(v);
    return false;
}

bool check_choice(const Json& v, const char* name, const std::vector<std::string>& choices,
                  std::string& error) {
    if (v.is_string() && std::find(choices.begin(), choices.end(), v.as_string()) != choices.end())
        return true;
    error = std::string(name) + ": must be one of " + joined(choices) + ", got " + py_repr(v);
    return false;
}

}  // namespace manila::api

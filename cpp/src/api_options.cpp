// The options of the routes that work on a table or a record (api_value.cpp,
// api_analyse.cpp, api_review.cpp): their body's shape (the one check of it, which the
// server reads through read_heavy_body) and the bounds of rollouts, seeds and time limits
// (common/limits.py's check_number), in Python's words.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <stdexcept>

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

// The heavy routes' bodies: their keys, what they must hold, and the server's bounds.
const std::vector<HeavyShape> kHeavyShapes{
    {"/v1/analyse",
     {std::begin(kAnalysisKeys), std::end(kAnalysisKeys)},
     "table",
     "the table to analyse (an observation or a serialized state)",
     {{"rollouts", kMinRollouts}},
     kAnalysisMaxRollouts,
     " per option"},
    {"/v1/value",
     {std::begin(kValueKeys), std::end(kValueKeys)},
     "table",
     "the table to value (an observation or a serialized state)",
     {{"rollouts", kMinRollouts}},
     kValueMaxRollouts,
     ""},
    {"/v1/review",
     {std::begin(kReviewKeys), std::end(kReviewKeys)},
     "record",
     "the game to review (a line of simulate --record, or State.serialize())",
     {{"rollouts", kMinRollouts}, {"luck_rollouts", 0}},  // 0: no luck
     kReviewMaxRollouts,
     ""},
};

// The length of the JSON path `text` starts with (players[0].cash, history[3]), 0 if none.
std::size_t path_length(const std::string& text) {
    const auto word = [&](std::size_t i) {
        if (i >= text.size() ||
            !(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_'))
            return i;
        while (i < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
            ++i;
        return i;
    };
    std::size_t i = word(0);
    if (i == 0) return 0;
    for (;;) {
        if (i < text.size() && text[i] == '.' && word(i + 1) > i + 1) {
            i = word(i + 1);
        } else if (i < text.size() && text[i] == '[') {
            std::size_t j = i + 1;
            while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
            if (j == i + 1 || j >= text.size() || text[j] != ']') return i;
            i = j + 1;
        } else {
            return i;
        }
    }
}

}  // namespace

const HeavyShape* heavy_shape(std::string_view route) {
    for (const HeavyShape& shape : kHeavyShapes)
        if (route == shape.route) return &shape;
    return nullptr;
}

bool heavy_body(const Json& body, const HeavyShape& shape, Problems& problems) {
    if (!body.is_object()) {
        problems.push_back({"",
                            std::string("the body must be a JSON object with a ") + shape.required +
                                ", not " + json_type(body),
                            ""});
        return false;
    }
    for (const auto& [key, value] : body.members())
        if (std::find(shape.keys.begin(), shape.keys.end(), key) == shape.keys.end()) {
            problems.push_back({key, "unknown key; allowed: " + joined(shape.keys), ""});
            return false;
        }
    if (!body.find(shape.required)) {
        problems.push_back({shape.required, shape.what, ""});
        return false;
    }
    // The server's bounds, said as its own (not the library's million). Null is the route's.
    for (const auto& [key, low] : shape.capped) {
        const Json* n = body.find(key);
        if (!n || n->is_null() || (n->is_integer() && n->int_in(low, shape.cap))) continue;
        problems.push_back({key,
                            "must be an integer from " + std::to_string(low) + " to " +
                                std::to_string(shape.cap) + shape.unit + " on this server, got " +
                                py_repr(*n),
                            ""});
        return false;
    }
    return true;
}

Problem refusal_at(const std::string& error, const HeavyShape& shape, bool input) {
    // The checks word a refusal "key: rule" (Python's check_number), the readers of tables
    // and records "path: rule" within their own JSON (players[0].cash), a record's whole
    // "not a game record: ...".
    const std::size_t colon = error.find(": ");
    const std::string key = colon == std::string::npos ? "" : error.substr(0, colon);
    if (!input && std::find(shape.keys.begin(), shape.keys.end(), key) != shape.keys.end())
        return {key, error.substr(colon + 2), ""};
    const std::string outer = shape.required;
    std::string rest = error;
    const std::string lead = "not a game record: ";
    if (rest.compare(0, lead.size(), lead) == 0) rest.erase(0, lead.size());
    const std::size_t n = path_length(rest);
    if (n == 0 || rest.compare(n, 2, ": ") != 0) return {outer, error, ""};
    const std::string path = rest.substr(0, n);
    // The readers name the input as a whole by what Python calls it.
    const bool whole =
        path == "table" || path == "record" || path == "state" || path == "table_or_state";
    return {whole ? outer : outer + "." + path, rest.substr(n + 2), ""};
}

Answer body_refused(const std::string& error, const HeavyShape& shape) {
    return error_answer(400, {refusal_at(error, shape, false)});
}

Answer input_refused(const std::string& error, const HeavyShape& shape) {
    return error_answer(400, {refusal_at(error, shape, true)});
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

namespace manila {

std::pair<std::string, std::string> heavy_refusal(std::string_view route, const std::string& error,
                                                  bool input) {
    const api::HeavyShape* shape = api::heavy_shape(route);
    if (!shape) throw std::invalid_argument("not a heavy route: " + std::string(route));
    api::Problem p = api::refusal_at(error, *shape, input);
    return {p.path, p.message};
}

ContractRead read_heavy_body(std::string_view text, std::string_view route) {
    const api::HeavyShape* shape = api::heavy_shape(route);
    if (!shape) throw std::invalid_argument("not a heavy route: " + std::string(route));
    return api::read_contract(text, [shape](const Json& body, api::Problems& problems) {
        return api::heavy_body(body, *shape, problems) ? std::optional<Json>(Json::object())
                                                       : std::nullopt;
    });
}

}  // namespace manila

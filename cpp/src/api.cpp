// call(route, body): the server's reading of a POST body (app.Handler._read_json), its
// routes, and its answers: JSON as json.dumps writes it, errors as app._errors writes them.
#include "manila/api.hpp"

#include <algorithm>
#include <stdexcept>

#include "api_internal.hpp"
#include "manila/cancel.hpp"

namespace manila {
namespace api {
namespace {

// CPython's JSON messages, in the words of the rest of the program (common/inputs.py).
const char* json_reason(const std::string& msg) {
    static const std::pair<const char*, const char*> kReasons[] = {
        {"Expecting value", "a value was expected"},
        {"Expecting property name enclosed in double quotes",
         "a key in double quotes was expected"},
        {"Expecting ':' delimiter", "a ':' was expected after the key"},
        {"Expecting ',' delimiter", "a ',' or a closing bracket was expected"},
        {"Unterminated string starting at", "a string is not closed"},
        {"Invalid control character at", "a line break or control character inside a string"},
        {"Invalid \\escape", "an unknown backslash escape in a string"},
        {"Invalid \\uXXXX escape", "an unknown \\u escape in a string"},
        {"Extra data", "more text after the end of the JSON value"},
    };
    for (const auto& [python, ours] : kReasons)
        if (msg == python) return ours;
    return "not valid here";
}

// How each remedy lets a user past a refusal, in the HTTP's words (common/errors.REMEDIES).
std::string remedy_text(const std::string& remedy) {
    if (remedy == "strict")
        return "\"strict\": false in the body, or ?strict=0, evaluates hypothetical positions";
    return "";
}

// What an unknown name at `path` could have meant (suggest._choices), or nothing.
const std::vector<std::string>* suggestion_choices(const std::string& path,
                                                   const std::string& message, std::string& name) {
    static const std::vector<std::string> goods = [] {
        std::vector<std::string> out;
        for (const GoodInfo& g : kGoods) out.emplace_back(g.name);
        return out;
    }();
    // The notation's options that are not spots: "playr=red" reaches the reader as a spot.
    static const std::vector<std::string> spots = [] {
        std::vector<std::string> out(kSpotNames.begin(), kSpotNames.end());
        for (const char* option : {"player", "players", "thirteen"}) out.emplace_back(option);
        return out;
    }();
    static const std::vector<std::string> rules{"thirteen_after_last_roll", "pirate_variant"};
    static const std::vector<std::string> boat{"position", "crew"};
    // VoyageState's fields, then the keys a request may add.
    static const std::vector<std::string> state{
        "next_roll", "boats",  "spots",  "player",       "players", "rules",  "objective",
        "shares",    "prices", "budget", "extra_owners", "exact",   "strict", "version"};
    if (message.rfind("unknown", 0) != 0) return nullptr;
    const std::size_t dot = path.rfind('.');
    const std::string head = dot == std::string::npos ? "" : path.substr(0, dot);
    name = dot == std::string::npos ? path : path.substr(dot + 1);
    if (head == "boats") return &goods;
    if (head == "spots") return &spots;
    if (head == "rules") return &rules;
    if (head.rfind("boats.", 0) == 0 && std::count(head.begin(), head.end(), '.') == 1)
        return &boat;
    if (head.empty() && name.find('[') == std::string::npos && message.rfind("unknown key", 0) == 0)
        return &state;
    return nullptr;
}

// voyage/suggest.with_suggestions.
Problem with_suggestion(Problem p) {
    if (p.message.find("did you mean") != std::string::npos) return p;
    std::string name;
    const std::vector<std::string>* choices = suggestion_choices(p.path, p.message, name);
    const std::string hint = choices && !name.empty() ? did_you_mean(name, *choices) : "";
    if (!hint.empty()) {
        const std::size_t semicolon = p.message.find(';');
        p.message = semicolon == std::string::npos
                        ? p.message + hint
                        : p.message.substr(0, semicolon) + hint + p.message.substr(semicolon);
    }
    return p;
}

// A lone surrogate (see json.hpp) cannot be written in UTF-8: the server then writes the
// answer in ASCII, escaping it.
bool has_lone_surrogate(const std::string& text) {
    for (std::size_t k = 0; k + 1 < text.size(); ++k)
        if (static_cast<unsigned char>(text[k]) == 0xED &&
            static_cast<unsigned char>(text[k + 1]) >= 0xA0)
            return true;
    return false;
}

Answer render(int status, const Json& body) {
    std::string text = body.dumps();
    if (has_lone_surrogate(text)) text = body.dumps(true);
    return {status, std::move(text)};
}

// The body read as JSON (Handler._read_json), or the 400 that refuses it.
bool read_body(std::string_view bytes, Json& out, Answer& refused) {
    const std::size_t bad = invalid_utf8_at(bytes);
    if (bad != std::string_view::npos) {
        refused = error_answer(
            400, {{"", "the body is not UTF-8 (byte " + std::to_string(bad) + ")", ""}});
        return false;
    }
    const std::u32string text = code_points(bytes);
    bool blank = true;
    for (const char32_t c : text) blank = blank && py_isspace(c);
    if (blank) {
        refused = error_answer(400, {{"", "the body is empty: send a voyage state as JSON", ""}});
        return false;
    }
    JsonRead read = read_json(text);
    if (!read.ok) {
        const std::string why = read.decode_error ? json_error_text(read) : read.reason;
        refused = error_answer(400, {{"", "not valid JSON: " + why, ""}});
        return false;
    }
    out = std::move(read.value);
    return true;
}

Answer route(std::string_view path, std::string_view bytes, const Progress& progress) {
    Answer (*handler)(const Json&) = nullptr;
    const bool review = path == "/v1/review";  // long work: it reports progress
    if (path == "/v1/validate")
        handler = route_validate;
    else if (path == "/v1/evaluate")
        handler = route_evaluate;
    else if (path == "/v1/advise")
        handler = route_advise;
    else if (path == "/v1/value")
        handler = route_value;
    else if (path == "/v1/analyse")
        handler = route_analyse;
    else if (path == "/v1/play")
        handler = route_play;
    if (!handler && !review) {
        const std::u32string points = code_points(path);
        return error_answer(
            404,
            {{"url", "no such resource: " + utf8(points.substr(0, 200)) + "; see /openapi.json",
              ""}});
    }
    Json body;
    Answer refused;
    if (!read_body(bytes, body, refused)) return refused;
    return review ? route_review(body, progress) : handler(body);
}

}  // namespace

std::string json_error_text(const JsonRead& read) {
    return std::string(json_reason(read.reason)) + " at line " + std::to_string(read.line) +
           " column " + std::to_string(read.column);
}

Json errors_json(const Problems& problems) {
    Json list = Json::array();
    for (const Problem& given : problems) {
        const Problem p = with_suggestion(given);
        const std::string remedy = remedy_text(p.remedy);
        Json e = Json::object();
        e.set("path", p.path);
        e.set("message", remedy.empty() ? p.message : p.message + " (" + remedy + ")");
        list.push(e);
    }
    Json out = Json::object();
    out.set("errors", list);
    return out;
}

Answer error_answer(int status, const Problems& problems) {
    return render(status, errors_json(problems));
}

Answer ok(const Json& body) { return render(200, body); }

}  // namespace api

Answer answer_for_exception(const std::type_info& type, const char* what, std::string_view route) {
    // pybind11 turns these into ValueError, which the server answers 400 in its own words.
    if (type == typeid(std::invalid_argument) || type == typeid(std::domain_error) ||
        type == typeid(std::length_error) || type == typeid(std::range_error)) {
        // On a heavy route, at the option or within the table or record it is about, as the
        // server places a ValueError of manila.analyse, value or review.
        if (const api::HeavyShape* shape = api::heavy_shape(route))
            return api::body_refused(what ? what : "", *shape);
        return api::error_answer(400, {{"", what ? what : "", ""}});
    }
    return api::error_answer(500, {{"", "internal server error", ""}});
}

Answer call(std::string_view route, std::string_view body, const Progress& progress) {
#if defined(__wasm__)
    // No exceptions in WebAssembly: entry.cpp's __cxa_throw answers for the engine and traps.
    return api::route(route, body, progress);
#else
    try {
        return api::route(route, body, progress);
    } catch (const Cancelled&) {
        throw;  // the caller's own token stopped the work: no answer is due
    } catch (const std::exception& e) {
        return answer_for_exception(typeid(e), e.what(), route);
    }
#endif
}

Answer play(std::string_view body, const PlayHost& host) {
    Json data;
    Answer refused;
    if (!api::read_body(body, data, refused)) return refused;
    // The engine's own exceptions are answered as call answers them; what the host's bots
    // throw (a program that broke down: no std::logic_error or std::range_error) is the
    // host's to report.
    try {
        return api::route_play(data, host);
    } catch (const std::logic_error& e) {
        return answer_for_exception(typeid(e), e.what());
    } catch (const std::range_error& e) {
        return answer_for_exception(typeid(e), e.what());
    }
}

}  // namespace manila

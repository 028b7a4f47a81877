// The one-line notation's reader (the one: manila.voyage.notation reads through it): it
// reads the syntax into the JSON form, and the state's reader checks the rest. Offsets are
// in code points, as Python indexes a str.
#include <algorithm>
#include <tuple>

#include "api_internal.hpp"

namespace manila::api {
namespace {

using Text = std::u32string;

bool name_char(char32_t c) {
    return (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z') || (c >= U'0' && c <= U'9') ||
           c == U'_' || c == U'.' || c == U'\'' || c == U'+' || c == U'-';
}
bool ascii_digit(char32_t c) { return c >= U'0' && c <= U'9'; }
// ASCII digits only (str.isdigit also takes '²', which int() refuses).
bool digits(const Text& t) { return !t.empty() && std::all_of(t.begin(), t.end(), ascii_digit); }

// Offset just past the JSON string opening at text[i] (or the end if unterminated).
std::size_t string_end(const Text& text, std::size_t i) {
    std::size_t j = i + 1;
    while (j < text.size()) {
        if (text[j] == U'\\')
            j += 2;
        else if (text[j] == U'"')
            return j + 1;
        else
            ++j;
    }
    return text.size();
}

Json text_json(const Text& t) { return Json(utf8(t)); }

constexpr std::size_t kMaxIntDigits = 4300;  // Python's int() reads no more

class Scanner {
  public:
    Scanner(const Text& text, Problems& problems) : text_(text), problems_(problems) {}

    void fail(std::size_t at, std::string message) {
        problems_.push_back({"notation[" + std::to_string(at) + "]", std::move(message), ""});
    }

    // int() of ASCII digits; past Python's limit it raises a ValueError, which no reader
    // catches: kept in `value_error`, and the reading stops.
    Json integer(const Text& t) {
        if (t.size() > kMaxIntDigits && value_error.empty())
            value_error = "Exceeds the limit (" + std::to_string(kMaxIntDigits) +
                          " digits) for integer string conversion: value has " +
                          std::to_string(t.size()) +
                          " digits; use sys.set_int_max_str_digits() to increase the limit";
        return Json::integer(utf8(t));
    }

    // (offset, item) pairs; quoted strings may hold spaces.
    std::vector<std::pair<std::size_t, Text>> items() const {
        std::vector<std::pair<std::size_t, Text>> out;
        std::size_t i = 0;
        const std::size_t n = text_.size();
        while (i < n) {
            if (py_isspace(text_[i])) {
                ++i;
                continue;
            }
            const std::size_t start = i;
            while (i < n && !py_isspace(text_[i]))
                i = text_[i] == U'"' ? string_end(text_, i) : i + 1;
            out.emplace_back(start, text_.substr(start, i - start));
        }
        return out;
    }

    // A comma-separated list of owners (names or JSON strings); nothing for a failed one.
    std::vector<Json> owners(const Text& text, std::size_t at) {
        std::vector<Json> out;
        std::size_t i = 0;
        while (true) {
            if (i < text.size() && text[i] == U'"') {
                const std::size_t end = string_end(text, i);
                const Text quoted = text.substr(i, end - i);
                const JsonRead read = read_json(quoted);
                if (!read.ok) {
                    fail(at + i, "unreadable quoted name " + py_repr(utf8(quoted)));
                    return out;
                }
                out.push_back(read.value);
                i = end;
            } else {
                std::size_t end = i;
                while (end < text.size() && name_char(text[end])) ++end;
                if (end == i) {
                    const Text rest = text.substr(i);
                    fail(at + i, "expected an owner's name at " +
                                     py_repr(rest.empty() ? std::string("the end") : utf8(rest)));
                    return out;
                }
                out.push_back(text_json(text.substr(i, end - i)));
                i = end;
            }
            if (i == text.size()) return out;
            if (text[i] != U',') {
                fail(at + i,
                     "expected ',' between owners, found " + py_repr(utf8(text.substr(i, 1))));
                return out;
            }
            ++i;
        }
    }

    // One owner, or null (a problem said why).
    Json single_owner(const Text& text, std::size_t at) {
        const std::vector<Json> found = owners(text, at);
        if (found.size() != 1) {
            if (!found.empty()) fail(at, "expected one owner");
            return Json();
        }
        return found[0];
    }

    // Splits `owner:rest` (the owner may be a quoted JSON string holding a colon): the
    // owner or null, the rest, and the offset of the rest.
    std::tuple<Json, Text, std::size_t> owner_and(const Text& text, std::size_t at,
                                                  const char* example) {
        std::size_t end;
        if (!text.empty() && text[0] == U'"') {
            end = string_end(text, 0);
        } else {
            end = text.find(U':');
        }
        if (end == Text::npos || end >= text.size() || text[end] != U':') {
            fail(at, std::string("expected owner:") + example);
            return {Json(), Text(), at};
        }
        return {single_owner(text.substr(0, end), at), text.substr(end + 1), at + end + 1};
    }

    // "jade2,silk1" read into {"jade": 2, "silk": 1}; goods are checked later.
    Json counts(const Text& text, std::size_t at, const char* what) {
        Json out = Json::object();
        std::size_t from = 0;
        while (true) {
            const std::size_t comma = text.find(U',', from);
            const Text part = text.substr(from, comma == Text::npos ? Text::npos : comma - from);
            std::size_t letters = 0;
            while (letters < part.size() &&
                   ((part[letters] >= U'a' && part[letters] <= U'z') || part[letters] == U'_'))
                ++letters;
            const Text name = part.substr(0, letters), number = part.substr(letters);
            if (letters == 0 || !digits(number)) {
                fail(at, std::string("expected a good and its ") + what + " such as jade2, found " +
                             py_repr(utf8(part)));
            } else if (out.find(utf8(name))) {
                fail(at, utf8(name) + " is given twice");
            } else {
                out.set(utf8(name), integer(number));
            }
            at += part.size() + 1;
            if (comma == Text::npos) return out;
            from = comma + 1;
        }
    }

    std::string value_error;

  private:
    const Text& text_;
    Problems& problems_;
};

const Text kMomentKeys[] = {U"moment", U"turn", U"order", U"hand", U"declined", U"protect"};

// One item of a position's moment: moment=KIND turn=P order=P,Q hand=P:N,... declined=P,...
// protect=GOOD:SEAT (the kind is placement unless moment= says otherwise).
void moment_item(Scanner& sc, Json& moment, const Text& key, const Text& value, std::size_t at) {
    if (!moment.find("kind")) moment.set("kind", "placement");
    if (key == U"moment") {
        moment.set("kind", text_json(value));
    } else if (key == U"turn") {
        moment.set("to_move", sc.single_owner(value, at));
    } else if (key == U"order" || key == U"declined") {
        Json names = Json::array();
        for (Json& o : sc.owners(value, at)) names.push(std::move(o));
        moment.set(utf8(key), names);
    } else if (key == U"hand") {
        Json hands = Json::object();
        Text rest = value;
        std::size_t where = at;
        while (!rest.empty()) {
            auto [owner, count, after] = sc.owner_and(rest, where, "2");
            where = after;
            const Text number = count.substr(0, count.find(U','));
            if (owner.is_null() || !digits(number)) {
                if (!owner.is_null())
                    sc.fail(where,
                            "expected player:count such as red:2, found " + py_repr(utf8(number)));
                return;
            }
            hands.set(owner.as_string(), sc.integer(number));
            rest = number.size() + 1 <= count.size() ? count.substr(number.size() + 1) : Text();
            where += number.size() + 1;
        }
        moment.set("accomplices", hands);
    } else {  // protect
        const std::size_t colon = value.find(U':');
        const Text good = value.substr(0, colon);
        const Text seat = colon == Text::npos ? Text() : value.substr(colon + 1);
        if (!digits(seat)) {
            sc.fail(at, "expected good:seat such as jade:3, found " + py_repr(utf8(value)));
            return;
        }
        Json protect = Json::object();
        protect.set("good", text_json(good));
        protect.set("seat", sc.integer(seat));
        moment.set("protected", protect);
    }
}

// Reads one item after the roll into `data` (rule options into `rules`).
void read_item(Scanner& sc, std::size_t at, const Text& item, Json& data, Json& rules,
               std::vector<Text>& seen) {
    const Text before_eq = item.substr(0, item.find(U'='));
    const Text head = before_eq.substr(0, before_eq.find(U':'));
    if (item == U"variant") {
        rules.set("pirate_variant", true);
    } else if (item == U"wealth" || item == U"income") {
        data.set("objective", text_json(item));
    } else if (head.find(U'@') != Text::npos) {
        const std::size_t at_sign = item.find(U'@');
        const Text good = item.substr(0, at_sign), rest = item.substr(at_sign + 1);
        const std::size_t colon = rest.find(U':');
        const Text place = rest.substr(0, colon);
        const Json& boats = data.at("boats");
        if (boats.find(utf8(good))) {
            sc.fail(at, utf8(good) + " is given twice");
            return;
        }
        Json position = text_json(place);
        if (digits(place))
            position = sc.integer(place);
        else if (place.empty())
            sc.fail(at + good.size() + 1, "expected a position (0..13 or \"arrived\") after \"@\"");
        Json crew = Json::array();
        if (colon != Text::npos)
            for (Json& o : sc.owners(rest.substr(colon + 1), at + good.size() + place.size() + 2))
                crew.push(std::move(o));
        Json boat = Json::object();
        boat.set("position", position);
        boat.set("crew", crew);
        Json updated = boats;
        updated.set(utf8(good), boat);
        data.set("boats", updated);
    } else if (item.find(U'=') != Text::npos) {
        const std::size_t eq = item.find(U'=');
        const Text key = item.substr(0, eq), value = item.substr(eq + 1);
        std::size_t where = at + key.size() + 1;
        if (key == U"shares" || key == U"budget") {  // one item per player
            const bool shares = key == U"shares";
            auto [owner, rest, after] = sc.owner_and(value, where, shares ? "jade2,silk1" : "7");
            where = after;
            if (owner.is_null()) return;
            const std::string k = utf8(key);
            Json entries = data.find(k) ? *data.find(k) : Json::object();
            if (entries.find(owner.as_string())) {
                sc.fail(at, k + " of " + owner.as_string() + " is given twice");
            } else if (shares) {
                entries.set(owner.as_string(), sc.counts(rest, where, "share count"));
            } else if (digits(rest)) {
                entries.set(owner.as_string(), sc.integer(rest));
            } else {
                sc.fail(where, "a budget is a whole number of pesos, not " + py_repr(utf8(rest)));
            }
            data.set(k, entries);
            return;
        }
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            sc.fail(at, utf8(key) + " is given twice");
        seen.push_back(key);
        if (std::find(std::begin(kMomentKeys), std::end(kMomentKeys), key) !=
            std::end(kMomentKeys)) {
            Json moment = data.find("moment") ? *data.find("moment") : Json::object();
            moment_item(sc, moment, key, value, where);
            data.set("moment", moment);
        } else if (key == U"prices") {
            data.set("prices", sc.counts(value, where, "price"));
        } else if (key == U"player") {
            data.set("player", sc.single_owner(value, where));
        } else if (key == U"players") {
            data.set("players", digits(value) ? sc.integer(value) : text_json(value));
        } else if (key == U"thirteen") {
            rules.set("thirteen_after_last_roll", text_json(value));
        } else {
            Json spots = data.at("spots");
            spots.set(utf8(key), sc.single_owner(value, where));
            data.set("spots", spots);
        }
    } else {
        sc.fail(at, "unreadable item " + py_repr(utf8(item)) +
                        ": expected good@position[:crew], spot=owner, player=..., players=..., "
                        "thirteen=..., variant, wealth, shares=..., prices=... or budget=...");
    }
}

// The JSON value of a state key written as notation items `key=value`, one per value
// (read_notation_option in api.hpp): false with every problem at `path`, or int()'s
// ValueError in `value_error`.
bool read_option(std::string_view key, const std::vector<std::string>& values,
                 const std::string& path, Json& out, Problems& problems, std::string& value_error) {
    Json data = Json::object();
    data.set("boats", Json::object());
    data.set("spots", Json::object());
    Json rules = Json::object();
    std::vector<Text> seen;
    const std::string name(key);
    Problems all;
    for (const std::string& value : values) {
        const Text text = code_points(name + "=" + value);
        Problems mine;
        Scanner sc(text, mine);
        const auto items = sc.items();
        if (items.size() == 1) read_item(sc, items[0].first, items[0].second, data, rules, seen);
        if (!sc.value_error.empty()) {
            value_error = sc.value_error;
            return false;
        }
        // Exactly one `key=` item: anything else read (a boat, a spot, another key) means
        // the value held a space or another item's syntax.
        bool other = !data.at("boats").members().empty() || !data.at("spots").members().empty() ||
                     !rules.members().empty();
        for (const auto& [k, v] : data.members())
            other = other || (k != "boats" && k != "spots" && k != name);
        if (items.size() != 1 || other)
            mine = {{"", "expected one " + name + " value, without spaces", ""}};
        for (const Problem& p : mine)
            all.push_back({path, p.message + " (in " + py_repr(Json(value)) + ")", ""});
    }
    problems.insert(problems.end(), all.begin(), all.end());
    const Json* given = data.find(name);
    out = given ? *given : Json();
    return all.empty();
}

}  // namespace

bool read_notation(std::string_view utf8_text, Json& out, Problems& problems,
                   std::string& value_error) {
    const Text text = code_points(utf8_text);
    Problems mine;
    Scanner sc(text, mine);
    const auto items = sc.items();
    if (items.empty()) {
        problems.push_back({"notation", "empty: a state starts with the roll, e.g. r1", ""});
        return false;
    }
    Json data = Json::object();
    data.set("boats", Json::object());
    data.set("spots", Json::object());
    const auto& [at, first] = items[0];
    if (first.size() > 1 && first[0] == U'r' && digits(first.substr(1)))
        data.set("next_roll", sc.integer(first.substr(1)));
    else
        sc.fail(at, "a state starts with the roll that comes next (r1, r2 or r3), not " +
                        py_repr(utf8(first)));
    Json rules = Json::object();
    std::vector<Text> seen;
    for (std::size_t k = 1; k < items.size() && sc.value_error.empty(); ++k)
        read_item(sc, items[k].first, items[k].second, data, rules, seen);
    if (!sc.value_error.empty()) {
        value_error = sc.value_error;
        return false;
    }
    if (!rules.members().empty()) data.set("rules", rules);
    problems.insert(problems.end(), mine.begin(), mine.end());
    out = std::move(data);
    return mine.empty();
}

}  // namespace manila::api

namespace manila {

ContractRead read_notation(std::string_view text, std::string& value_error) {
    Json data;
    api::Problems problems;
    const bool ok = api::read_notation(text, data, problems, value_error);
    return api::contract_read(ok ? std::optional<Json>(std::move(data)) : std::nullopt,
                              std::move(problems));
}

ContractRead read_notation_option(std::string_view key, const std::vector<std::string>& values,
                                  const std::string& path, std::string& value_error) {
    Json value;
    api::Problems problems;
    const bool ok = api::read_option(key, values, path, value, problems, value_error);
    return api::contract_read(ok ? std::optional<Json>(std::move(value)) : std::nullopt,
                              std::move(problems));
}

}  // namespace manila

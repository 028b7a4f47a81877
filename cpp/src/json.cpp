#include "manila/json.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace manila {

Json Json::number(double d) {
    Json j(Kind::kFloat);
    j.double_ = d;
    return j;
}

Json Json::integer(std::string_view digits) {
    const bool minus = !digits.empty() && digits[0] == '-';
    std::string_view magnitude = digits.substr(minus ? 1 : 0);
    while (magnitude.size() > 1 && magnitude[0] == '0') magnitude.remove_prefix(1);
    std::int64_t value = 0;
    bool fits = true;
    for (const char c : magnitude) {
        const int d = c - '0';
        // Accumulated as a negative number: the int64 range has one more below zero.
        if (value < (std::numeric_limits<std::int64_t>::min() + d) / 10) {
            fits = false;
            break;
        }
        value = value * 10 - d;
    }
    if (fits && (minus || value != std::numeric_limits<std::int64_t>::min()))
        return Json(static_cast<std::int64_t>(minus ? value : -value));
    Json j(Kind::kBigInt);
    j.str_ = (minus ? "-" : "") + std::string(magnitude);
    return j;
}

bool Json::negative() const {
    return (kind_ == Kind::kInt && int_ < 0) ||
           (kind_ == Kind::kBigInt && !str_.empty() && str_[0] == '-');
}

Json& Json::push(Json v) {
    if (kind_ != Kind::kArray) throw std::logic_error("Json::push: not an array");
    items_.push_back(std::move(v));
    return *this;
}

Json& Json::set(const std::string& key, Json v) {
    if (kind_ != Kind::kObject) throw std::logic_error("Json::set: not an object");
    for (auto& m : members_)
        if (m.first == key) {
            m.second = std::move(v);
            return *this;
        }
    members_.emplace_back(key, std::move(v));
    return *this;
}

const Json& Json::at(const std::string& key) const {
    if (const Json* found = find(key)) return *found;
    throw std::out_of_range("Json::at: no key '" + key + "'");
}

const Json* Json::find(std::string_view key) const {
    for (const auto& m : members_)
        if (m.first == key) return &m.second;
    return nullptr;
}

// --------------------------------------------------------------------------- text

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

std::string utf8(std::u32string_view points) {
    std::string out;
    out.reserve(points.size());
    for (const char32_t c : points) append_utf8(out, c);
    return out;
}

namespace {

// The length of the sequence starting at bytes[i] if it is one Python's decoder takes
// (surrogates allowed when `surrogates`), else 0.
std::size_t sequence_length(std::string_view bytes, std::size_t i, bool surrogates) {
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
    const unsigned char b = at(i);
    if (b < 0x80) return 1;
    std::size_t n = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the second byte's range
    if (b >= 0xC2 && b <= 0xDF) {
        n = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED && !surrogates) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + n > bytes.size()) return 0;
    if (at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
    return n;
}

}  // namespace

std::size_t invalid_utf8_at(std::string_view bytes) {
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = sequence_length(bytes, i, false);
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

std::u32string code_points(std::string_view text) {
    std::u32string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = sequence_length(text, i, true);
        const auto at = [&](std::size_t k) { return static_cast<char32_t>(text[k]) & 0xFF; };
        switch (n) {
            case 1:
                out += at(i);
                break;
            case 2:
                out += ((at(i) & 0x1F) << 6) | (at(i + 1) & 0x3F);
                break;
            case 3:
                out += ((at(i) & 0x0F) << 12) | ((at(i + 1) & 0x3F) << 6) | (at(i + 2) & 0x3F);
                break;
            case 4:
                out += ((at(i) & 0x07) << 18) | ((at(i + 1) & 0x3F) << 12) |
                       ((at(i + 2) & 0x3F) << 6) | (at(i + 3) & 0x3F);
                break;
            default:  // not UTF-8: callers check first; a byte stands for itself
                out += U'\uFFFD';
                i += 1;
                continue;
        }
        i += n;
    }
    return out;
}

std::string python_float_repr(double d) {
    if (d != d) return "nan";
    if (d == std::numeric_limits<double>::infinity()) return "inf";
    if (d == -std::numeric_limits<double>::infinity()) return "-inf";
    // The shortest round-trip digits, as "d.ddde+XX".
    char buf[64];
    const auto done = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    const std::string text(buf, done.ptr);
    std::size_t at = 0;
    std::string sign;
    if (text[0] == '-') sign = "-", at = 1;
    const std::size_t e = text.find('e');
    std::string digits;
    for (std::size_t k = at; k < e; ++k)
        if (text[k] != '.') digits += text[k];
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    const int exponent = std::atoi(text.c_str() + e + 1);
    const int point = exponent + 1;  // digits are 0.ddd times 10^point
    const int n = static_cast<int>(digits.size());
    if (point <= -4 || point > 16) {
        std::string out = sign + digits.substr(0, 1);
        if (n > 1) out += "." + digits.substr(1);
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+',
                      exponent < 0 ? -exponent : exponent);
        return out + exp;
    }
    if (point <= 0)
        return sign + "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
    if (point < n)
        return sign + digits.substr(0, static_cast<std::size_t>(point)) + "." +
               digits.substr(static_cast<std::size_t>(point));
    return sign + digits + std::string(static_cast<std::size_t>(point - n), '0') + ".0";
}

// --------------------------------------------------------------------------- writing

namespace {

void quote(const std::string& s, std::string& out) {
    out += '"';
    for (const char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

// As Python's json encoder writes a str: its short escapes, \u00XX for the other control
// characters, and with ensure_ascii every other non-ASCII code point as \uXXXX (a pair of
// them past U+FFFF).
void python_quote(const std::string& s, std::string& out, bool ensure_ascii) {
    out += '"';
    const auto u = [&out](unsigned v) {
        char buf[12];  // a backslash, u and any unsigned in hex: never truncated
        std::snprintf(buf, sizeof buf, "\\u%04x", v);
        out += buf;
    };
    for (const char32_t c : code_points(s)) {
        switch (c) {
            case U'"':
                out += "\\\"";
                break;
            case U'\\':
                out += "\\\\";
                break;
            case U'\b':
                out += "\\b";
                break;
            case U'\f':
                out += "\\f";
                break;
            case U'\n':
                out += "\\n";
                break;
            case U'\r':
                out += "\\r";
                break;
            case U'\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20 || (ensure_ascii && c > 0x7E)) {
                    if (c >= 0x10000) {
                        const char32_t v = c - 0x10000;
                        u(static_cast<unsigned>(0xD800 | (v >> 10)));
                        u(static_cast<unsigned>(0xDC00 | (v & 0x3FF)));
                    } else {
                        u(static_cast<unsigned>(c));
                    }
                } else {
                    append_utf8(out, c);
                }
        }
    }
    out += '"';
}

}  // namespace

void Json::dump_to(std::string& out) const {
    switch (kind_) {
        case Kind::kNull:
            out += "null";
            return;
        case Kind::kBool:
            out += int_ ? "true" : "false";
            return;
        case Kind::kInt:
            out += std::to_string(int_);
            return;
        case Kind::kBigInt:
            out += str_;
            return;
        case Kind::kFloat:
            out += python_float_repr(double_);
            return;
        case Kind::kString:
            quote(str_, out);
            return;
        case Kind::kArray: {
            out += '[';
            for (std::size_t k = 0; k < items_.size(); ++k) {
                if (k) out += ',';
                items_[k].dump_to(out);
            }
            out += ']';
            return;
        }
        case Kind::kObject: {
            out += '{';
            for (std::size_t k = 0; k < members_.size(); ++k) {
                if (k) out += ',';
                quote(members_[k].first, out);
                out += ':';
                members_[k].second.dump_to(out);
            }
            out += '}';
            return;
        }
    }
}

std::string Json::dump() const {
    std::string out;
    dump_to(out);
    return out;
}

// json.dumps's writer: `compact_sorted` is json.dumps(sort_keys=True, separators=(",", ":"))
// (ASCII only), else ", " and ": " in the keys' own order.
void Json::dumps_to(std::string& out, bool ensure_ascii, bool compact_sorted) const {
    const char* item_sep = compact_sorted ? "," : ", ";
    const char* key_sep = compact_sorted ? ":" : ": ";
    switch (kind_) {
        case Kind::kString:
            python_quote(str_, out, ensure_ascii);
            return;
        case Kind::kArray:
            out += '[';
            for (std::size_t k = 0; k < items_.size(); ++k) {
                if (k) out += item_sep;
                items_[k].dumps_to(out, ensure_ascii, compact_sorted);
            }
            out += ']';
            return;
        case Kind::kObject: {
            const auto member = [&](std::size_t k, const std::pair<std::string, Json>& m) {
                if (k) out += item_sep;
                python_quote(m.first, out, ensure_ascii);
                out += key_sep;
                m.second.dumps_to(out, ensure_ascii, compact_sorted);
            };
            out += '{';
            if (compact_sorted) {
                // UTF-8's byte order is the code points' order (lone surrogates included).
                std::vector<const std::pair<std::string, Json>*> sorted;
                for (const auto& m : members_) sorted.push_back(&m);
                std::sort(sorted.begin(), sorted.end(),
                          [](const auto* x, const auto* y) { return x->first < y->first; });
                for (std::size_t k = 0; k < sorted.size(); ++k) member(k, *sorted[k]);
            } else {
                for (std::size_t k = 0; k < members_.size(); ++k) member(k, members_[k]);
            }
            out += '}';
            return;
        }
        default:
            dump_to(out);
    }
}

std::string Json::dumps(bool ensure_ascii) const {
    std::string out;
    dumps_to(out, ensure_ascii, false);
    return out;
}

std::string Json::dumps_sorted() const {
    std::string out;
    dumps_to(out, true, true);
    return out;
}

// --------------------------------------------------------------------------- reading

namespace {

// CPython's JSON scanner, step for step where its errors depend on it: which character
// it looks at, and where it says the problem is.
class Reader {
  public:
    Reader(std::u32string_view s, JsonRead& r, bool constants)
        : s_(s), r_(r), constants_(constants) {}

    bool value(std::size_t idx, Json& out, std::size_t& next, int depth) {
        const std::size_t n = s_.size();
        if (idx >= n) return fail("Expecting value", idx);
        switch (s_[idx]) {
            case U'"': {
                std::string text;
                if (!string(idx + 1, text, next)) return false;
                out = Json(std::move(text));
                return true;
            }
            case U'{':
                if (depth >= kMaxJsonDepth) return too_deep();
                return object(idx + 1, out, next, depth + 1);
            case U'[':
                if (depth >= kMaxJsonDepth) return too_deep();
                return array(idx + 1, out, next, depth + 1);
            case U'n':
                if (word(idx, U"null")) return next = idx + 4, out = Json(), true;
                break;
            case U't':
                if (word(idx, U"true")) return next = idx + 4, out = Json(true), true;
                break;
            case U'f':
                if (word(idx, U"false")) return next = idx + 5, out = Json(false), true;
                break;
            case U'N':
                if (word(idx, U"NaN"))
                    return constant("NaN", std::numeric_limits<double>::quiet_NaN(), out, next,
                                    idx);
                break;
            case U'I':
                if (word(idx, U"Infinity"))
                    return constant("Infinity", std::numeric_limits<double>::infinity(), out, next,
                                    idx);
                break;
            case U'-':
                if (word(idx, U"-Infinity"))
                    return constant("-Infinity", -std::numeric_limits<double>::infinity(), out,
                                    next, idx);
                break;
            default:
                break;
        }
        return number(idx, out, next);
    }

    bool fail(const char* reason, std::size_t pos) {
        r_.reason = reason;
        r_.decode_error = true;
        r_.pos = pos;
        return false;
    }

    bool whitespace(std::size_t i) const {
        if (i >= s_.size()) return false;
        const char32_t c = s_[i];
        return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r';
    }
    std::size_t skip(std::size_t i) const {
        while (whitespace(i)) ++i;
        return i;
    }

  private:
    bool at(std::size_t i, char32_t c) const { return i < s_.size() && s_[i] == c; }
    bool word(std::size_t idx, std::u32string_view w) const {
        return s_.substr(idx, w.size()) == w;
    }
    bool digit(std::size_t i) const { return i < s_.size() && s_[i] >= U'0' && s_[i] <= U'9'; }

    bool too_deep() {
        r_.reason = "nested too deeply";
        r_.decode_error = false;
        return false;
    }
    bool constant(const char* name, double value, Json& out, std::size_t& next, std::size_t idx) {
        if (constants_) {
            out = Json::number(value);
            next = idx + std::char_traits<char>::length(name);
            return true;
        }
        // manila's parse_constant refuses it, in these words (common/inputs.py).
        r_.reason = std::string(name) + " is not a JSON number";
        r_.decode_error = false;
        return false;
    }

    bool number(std::size_t start, Json& out, std::size_t& next) {
        const std::size_t n = s_.size();
        std::size_t idx = start;
        if (at(idx, U'-')) {
            ++idx;
            if (idx >= n) return fail("Expecting value", start);
        }
        if (s_[idx] >= U'1' && s_[idx] <= U'9') {
            ++idx;
            while (digit(idx)) ++idx;
        } else if (s_[idx] == U'0') {
            ++idx;
        } else {
            return fail("Expecting value", start);
        }
        bool is_float = false;
        // A fraction needs a digit after the point, and the point before the last character.
        if (idx + 1 < n && s_[idx] == U'.' && digit(idx + 1)) {
            is_float = true;
            idx += 2;
            while (digit(idx)) ++idx;
        }
        if (idx + 1 < n && (s_[idx] == U'e' || s_[idx] == U'E')) {
            const std::size_t e_start = idx++;
            if (idx + 1 < n && (s_[idx] == U'-' || s_[idx] == U'+')) ++idx;
            while (digit(idx)) ++idx;
            if (digit(idx - 1))
                is_float = true;
            else
                idx = e_start;
        }
        std::string text;
        for (std::size_t k = start; k < idx; ++k) text += static_cast<char>(s_[k]);
        next = idx;
        if (is_float) {
            out = Json::number(std::strtod(text.c_str(), nullptr));
            return true;
        }
        const std::size_t digits = text.size() - (text[0] == '-' ? 1 : 0);
        if (digits > kMaxIntDigits) {
            // Python's limit on the digits of an int read from text, in its words.
            r_.reason = "Exceeds the limit (" + std::to_string(kMaxIntDigits) +
                        " digits) for integer string conversion: value has " +
                        std::to_string(digits) +
                        " digits; use sys.set_int_max_str_digits() to increase the limit";
            r_.decode_error = false;
            return false;
        }
        out = Json::integer(text);
        return true;
    }

    int hex(std::size_t i) const {
        const char32_t c = s_[i];
        if (c >= U'0' && c <= U'9') return static_cast<int>(c - U'0');
        if (c >= U'a' && c <= U'f') return static_cast<int>(c - U'a' + 10);
        if (c >= U'A' && c <= U'F') return static_cast<int>(c - U'A' + 10);
        return -1;
    }

    // The string whose opening quote is just before `end`.
    bool string(std::size_t end, std::string& out, std::size_t& next_end) {
        const std::size_t len = s_.size();
        const std::size_t begin = end - 1;
        while (true) {
            std::size_t next = end;
            char32_t c = 0;
            for (; next < len; ++next) {
                c = s_[next];
                if (c == U'"' || c == U'\\') break;
                if (c <= 0x1F) return fail("Invalid control character at", next);
            }
            if (next >= len || (c != U'"' && c != U'\\'))
                return fail("Unterminated string starting at", begin);
            for (std::size_t k = end; k < next; ++k) append_utf8(out, s_[k]);
            ++next;
            if (c == U'"') {
                next_end = next;
                return true;
            }
            if (next == len) return fail("Unterminated string starting at", begin);
            c = s_[next];
            if (c != U'u') {
                end = next + 1;
                switch (c) {
                    case U'"':
                    case U'\\':
                    case U'/':
                        break;
                    case U'b':
                        c = U'\b';
                        break;
                    case U'f':
                        c = U'\f';
                        break;
                    case U'n':
                        c = U'\n';
                        break;
                    case U'r':
                        c = U'\r';
                        break;
                    case U't':
                        c = U'\t';
                        break;
                    default:
                        return fail("Invalid \\escape", end - 2);
                }
            } else {
                ++next;
                end = next + 4;
                // CPython asks for a character after the four digits (the closing quote).
                if (end >= len) return fail("Invalid \\uXXXX escape", next - 1);
                c = 0;
                for (; next < end; ++next) {
                    const int h = hex(next);
                    if (h < 0) return fail("Invalid \\uXXXX escape", end - 5);
                    c = (c << 4) | static_cast<char32_t>(h);
                }
                // A high surrogate and a low one escaped right after it make one code point.
                if (c >= 0xD800 && c <= 0xDBFF && end + 6 < len && s_[end] == U'\\' &&
                    s_[end + 1] == U'u') {
                    char32_t c2 = 0;
                    const std::size_t end2 = end + 6;
                    for (next = end + 2; next < end2; ++next) {
                        const int h = hex(next);
                        if (h < 0) return fail("Invalid \\uXXXX escape", end2 - 5);
                        c2 = (c2 << 4) | static_cast<char32_t>(h);
                    }
                    if (c2 >= 0xDC00 && c2 <= 0xDFFF) {
                        c = 0x10000 + ((c - 0xD800) << 10) + (c2 - 0xDC00);
                        end = end2;
                    }
                }
            }
            append_utf8(out, c);
        }
    }

    bool object(std::size_t idx, Json& out, std::size_t& next, int depth) {
        out = Json::object();
        idx = skip(idx);
        if (!at(idx, U'}')) {
            while (true) {
                if (!at(idx, U'"'))
                    return fail("Expecting property name enclosed in double quotes", idx);
                std::string key;
                if (!string(idx + 1, key, idx)) return false;
                idx = skip(idx);
                if (!at(idx, U':')) return fail("Expecting ':' delimiter", idx);
                idx = skip(idx + 1);
                Json item;
                if (!value(idx, item, idx, depth)) return false;
                out.set(key, std::move(item));
                idx = skip(idx);
                if (at(idx, U'}')) break;
                if (!at(idx, U',')) return fail("Expecting ',' delimiter", idx);
                idx = skip(idx + 1);
            }
        }
        next = idx + 1;
        return true;
    }

    bool array(std::size_t idx, Json& out, std::size_t& next, int depth) {
        out = Json::array();
        idx = skip(idx);
        if (!at(idx, U']')) {
            while (true) {
                Json item;
                if (!value(idx, item, idx, depth)) return false;
                out.push(std::move(item));
                idx = skip(idx);
                if (at(idx, U']')) break;
                if (!at(idx, U',')) return fail("Expecting ',' delimiter", idx);
                idx = skip(idx + 1);
            }
        }
        next = idx + 1;
        return true;
    }

    static constexpr std::size_t kMaxIntDigits = 4300;  // sys.get_int_max_str_digits()

    std::u32string_view s_;
    JsonRead& r_;
    bool constants_;
};

}  // namespace

JsonRead read_json(std::u32string_view text, bool constants) {
    JsonRead r;
    Reader reader(text, r, constants);
    std::size_t end = 0;
    if (!text.empty() && text[0] == 0xFEFF) {
        reader.fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    } else if (reader.value(reader.skip(0), r.value, end, 0)) {
        end = reader.skip(end);
        if (end == text.size())
            r.ok = true;
        else
            reader.fail("Extra data", end);
    }
    if (!r.ok && r.decode_error) {
        r.value = Json();
        r.line = 1;
        std::size_t last_newline = std::string_view::npos;
        for (std::size_t k = 0; k < r.pos && k < text.size(); ++k)
            if (text[k] == U'\n') ++r.line, last_newline = k;
        r.column = last_newline == std::string_view::npos ? r.pos + 1 : r.pos - last_newline;
    }
    return r;
}

}  // namespace manila

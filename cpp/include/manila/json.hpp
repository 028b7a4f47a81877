// A JSON value: built by the engine for its views of a game (the table, a player's
// observation), and read and written by the API (api.hpp) exactly as the Python server
// reads and writes its bodies. The library renders, and a binding only converts the tree
// to its own language's values. Objects keep their keys in insertion order.
//
// Numbers are Python's: a number without fraction or exponent is an integer of any size
// (kInt when it fits 64 bits, else kBigInt holding its decimal digits), any other a double.
// Strings are UTF-8; a lone surrogate (which JSON's \ud800 escapes can make, and Python's
// str holds) is kept as its three-byte generalised UTF-8 form, so that nothing is lost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace manila {

class Json {
  public:
    enum class Kind { kNull, kBool, kInt, kString, kArray, kObject, kFloat, kBigInt };
    using Members = std::vector<std::pair<std::string, Json>>;

    Json() = default;  // null
    Json(bool b) : kind_(Kind::kBool), int_(b) {}
    Json(int i) : kind_(Kind::kInt), int_(i) {}
    Json(std::int64_t i) : kind_(Kind::kInt), int_(i) {}
    Json(const char* s) : kind_(Kind::kString), str_(s) {}
    Json(std::string s) : kind_(Kind::kString), str_(std::move(s)) {}
    static Json array() { return Json(Kind::kArray); }
    static Json object() { return Json(Kind::kObject); }
    static Json number(double d);
    // An integer given by its decimal digits (an optional '-', then digits): kInt when it
    // fits 64 bits, else kBigInt.
    static Json integer(std::string_view digits);
    template <class T>
    static Json array_of(const std::vector<T>& values) {
        Json out = array();
        for (const T& v : values) out.push(Json(v));
        return out;
    }

    Kind kind() const { return kind_; }
    bool is_null() const { return kind_ == Kind::kNull; }
    bool is_bool() const { return kind_ == Kind::kBool; }
    bool is_string() const { return kind_ == Kind::kString; }
    bool is_array() const { return kind_ == Kind::kArray; }
    bool is_object() const { return kind_ == Kind::kObject; }
    // A whole number (Python's int, not bool): kInt or kBigInt.
    bool is_integer() const { return kind_ == Kind::kInt || kind_ == Kind::kBigInt; }
    bool as_bool() const { return int_ != 0; }
    std::int64_t as_int() const { return int_; }
    double as_double() const { return double_; }
    const std::string& as_string() const { return str_; }  // also a kBigInt's digits
    const std::vector<Json>& items() const { return items_; }
    const Members& members() const { return members_; }
    // Whether this is the integer n (a kBigInt never fits an int64).
    bool is_int(std::int64_t n) const { return kind_ == Kind::kInt && int_ == n; }
    // Whether this is an integer from lo to hi.
    bool int_in(std::int64_t lo, std::int64_t hi) const {
        return kind_ == Kind::kInt && int_ >= lo && int_ <= hi;
    }
    // Whether this is an integer below zero, of any size.
    bool negative() const;

    // Appends to an array; sets a key of an object (replacing its value if already there,
    // keeping its place, as a Python dict does).
    Json& push(Json v);
    Json& set(const std::string& key, Json v);
    // The value of a key of an object; throws std::out_of_range if it has none.
    const Json& at(const std::string& key) const;
    // The value of a key of an object, or nullptr.
    const Json* find(std::string_view key) const;

    // Compact JSON text.
    std::string dump() const;
    // The text Python's json.dumps(value, ensure_ascii=...) writes: ", " and ": " between
    // items, floats as Python's repr, strings escaped as Python's encoder escapes them.
    std::string dumps(bool ensure_ascii = false) const;
    // json.dumps(value, sort_keys=True, separators=(",", ":")): compact, every object's keys
    // in code point order, non-ASCII escaped.
    std::string dumps_sorted() const;

  private:
    explicit Json(Kind k) : kind_(k) {}
    void dump_to(std::string& out) const;
    void dumps_to(std::string& out, bool ensure_ascii, bool compact_sorted) const;

    Kind kind_ = Kind::kNull;
    std::int64_t int_ = 0;
    double double_ = 0;
    std::string str_;
    std::vector<Json> items_;
    Members members_;
};

// Python's repr of a float (and so json.dumps's): the shortest digits that read back to
// the same double, fixed between 1e-4 and 1e16, else with an exponent ("1e+16", "1e-05");
// "inf", "-inf", "nan" for the others.
std::string python_float_repr(double d);

// Text as a sequence of Unicode code points, as Python's str indexes it, and back. UTF-8
// in; a lone surrogate encoded in three bytes (see above) decodes to itself.
std::u32string code_points(std::string_view utf8);
std::string utf8(std::u32string_view points);
void append_utf8(std::string& out, char32_t c);

// The first invalid byte of `bytes` as Python's strict UTF-8 decoder finds it (the start of
// the first sequence it refuses: surrogates, overlong forms and code points past U+10FFFF
// included), or npos when the whole is valid UTF-8.
std::size_t invalid_utf8_at(std::string_view bytes);

// Reading JSON text as Python's json.loads does (its C scanner): the same values, and on
// failure the same reason at the same place. NaN, Infinity and -Infinity are floats with
// `constants`, else refused as the server refuses them (its parse_constant).
struct JsonRead {
    Json value;
    bool ok = false;
    // Failure: CPython's message ("Expecting value", ...) and, for a decode error, the
    // offset in code points with its line and column as JSONDecodeError counts them; for
    // a refused constant or number (`decode_error` false) the message alone.
    std::string reason;
    bool decode_error = true;
    std::size_t pos = 0, line = 0, column = 0;
};
// Nesting deeper than this is refused as too deep (Python's recursion limit, roughly).
inline constexpr int kMaxJsonDepth = 900;
JsonRead read_json(std::u32string_view text, bool constants = false);

}  // namespace manila

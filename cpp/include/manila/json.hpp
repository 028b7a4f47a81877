// A JSON value built by the engine for its views of a game (the table, a player's
// observation): the library renders, and a binding only converts the tree to its own
// language's values. Objects keep their keys in insertion order.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace manila {

class Json {
  public:
    enum class Kind { kNull, kBool, kInt, kString, kArray, kObject };
    using Members = std::vector<std::pair<std::string, Json>>;

    Json() = default;  // null
    Json(bool b) : kind_(Kind::kBool), int_(b) {}
    Json(int i) : kind_(Kind::kInt), int_(i) {}
    Json(std::int64_t i) : kind_(Kind::kInt), int_(i) {}
    Json(const char* s) : kind_(Kind::kString), str_(s) {}
    Json(std::string s) : kind_(Kind::kString), str_(std::move(s)) {}
    static Json array() { return Json(Kind::kArray); }
    static Json object() { return Json(Kind::kObject); }
    template <class T>
    static Json array_of(const std::vector<T>& values) {
        Json out = array();
        for (const T& v : values) out.push(Json(v));
        return out;
    }

    Kind kind() const { return kind_; }
    bool is_null() const { return kind_ == Kind::kNull; }
    bool as_bool() const { return int_ != 0; }
    std::int64_t as_int() const { return int_; }
    const std::string& as_string() const { return str_; }
    const std::vector<Json>& items() const { return items_; }
    const Members& members() const { return members_; }

    // Appends to an array; sets a key of an object (replacing its value if already there).
    Json& push(Json v);
    Json& set(const std::string& key, Json v);
    // The value of a key of an object; throws std::out_of_range if it has none.
    const Json& at(const std::string& key) const;

    // Compact JSON text.
    std::string dump() const;

  private:
    explicit Json(Kind k) : kind_(k) {}
    void dump_to(std::string& out) const;

    Kind kind_ = Kind::kNull;
    std::int64_t int_ = 0;
    std::string str_;
    std::vector<Json> items_;
    Members members_;
};

}  // namespace manila

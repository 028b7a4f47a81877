#include "manila/json.hpp"

#include <cstdio>
#include <stdexcept>

namespace manila {

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
    for (const auto& m : members_)
        if (m.first == key) return m.second;
    throw std::out_of_range("Json::at: no key '" + key + "'");
}

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

}  // namespace manila

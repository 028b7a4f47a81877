// The position's reader (the one: Position.from_dict reads through it): a voyage state
// with the decision that is due, and the moment's writer (Moment.to_dict).
#include <algorithm>
#include <iterator>

#include "api_internal.hpp"

namespace manila::api {
namespace {

const std::vector<std::string> kKinds(std::begin(kMomentKinds), std::end(kMomentKinds));
const std::vector<std::string> kPositionMomentKeys{"kind",        "order",    "to_move",
                                                   "accomplices", "declined", "protected"};

bool pilot_kind(const std::string& kind) { return kind == "pilot_small" || kind == "pilot_large"; }

const std::string* spot_owner(const State& s, int spot) {
    for (const auto& [id, owner] : s.spots)
        if (id == spot) return &owner;
    return nullptr;
}

int spot_id(const std::string& name) {
    for (int s = 0; s < kNumSpots; ++s)
        if (name == kSpotNames[static_cast<std::size_t>(s)]) return s;
    return -1;
}

class MomentReader {
  public:
    explicit MomentReader(Problems& problems) : problems_(problems) {}

    void fail(const std::string& path, std::string message) {
        problems_.push_back({"moment" + (path.empty() ? "" : "." + path), std::move(message), ""});
    }

    bool name(const Json& value, const std::string& path) {
        if (is_owner(value)) return true;
        fail(path, "a player's name must be a non-empty string, got " + py_repr(value));
        return false;
    }

    std::vector<std::string> names(const Json& value, const std::string& path) {
        std::vector<std::string> out;
        if (value.is_null()) return out;
        if (!value.is_array()) {
            fail(path, "must be a list of players' names");
            return out;
        }
        for (std::size_t i = 0; i < value.items().size(); ++i)
            if (name(value.items()[i], path + "[" + std::to_string(i) + "]"))
                out.push_back(value.items()[i].as_string());
        for (std::size_t i = 0; i < out.size(); ++i)
            if (std::find(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(i), out[i]) !=
                out.begin() + static_cast<std::ptrdiff_t>(i))
                fail(path, out[i] + " is named twice");
        return out;
    }

    // The moment; false when there is none to check against the state (a problem said why).
    bool read(const Json& data, const State* state, Moment& m,
              std::vector<std::pair<std::string, Json>>& hands) {
        if (!data.is_object()) {
            fail("",
                 "must be an object such as {\"kind\": \"placement\", \"order\": [...], "
                 "\"to_move\": ...}");
            return false;
        }
        for (const auto& [key, value] : data.members())
            if (!contains(kPositionMomentKeys, key))
                fail(key, "unknown key" + did_you_mean(key, kPositionMomentKeys) +
                              "; a moment has " + joined(kPositionMomentKeys));
        const Json* kind = data.find("kind");
        if (!kind || !kind->is_string() || !contains(kKinds, kind->as_string())) {
            const Json none;
            const Json& given = kind ? *kind : none;
            fail("kind", "must be one of " + joined(kKinds) + did_you_mean(given, kKinds) +
                             ", got " + py_repr(given));
            return false;
        }
        m.kind = kind->as_string();
        if (const Json* to_move = data.find("to_move"); to_move && !to_move->is_null())
            if (name(*to_move, "to_move")) m.to_move = to_move->as_string();
        static const Json none;
        const Json* order = data.find("order");
        m.order = names(order ? *order : none, "order");
        const Json* declined = data.find("declined");
        m.declined = names(declined ? *declined : none, "declined");
        const Json* accomplices = data.find("accomplices");
        read_hands(accomplices ? *accomplices : none, hands);
        for (const auto& [player, n] : hands)
            m.accomplices.emplace_back(
                player, n.int_in(0, 1 << 30) ? static_cast<int>(n.as_int()) : 1 << 30);
        const Json* protect = data.find("protected");
        read_protected(protect ? *protect : none, m);
        if (!state) return true;
        if (m.kind == "placement") {
            placement(m, hands, *state);
        } else {
            if (!m.order.empty()) fail("order", "belongs to a placement turn, not to " + m.kind);
            if (!hands.empty())
                fail("accomplices", "belongs to a placement turn, not to " + m.kind);
            if (!m.declined.empty())
                fail("declined", "belongs to a placement turn, not to " + m.kind);
            if (pilot_kind(m.kind))
                pilot(m, *state);
            else
                boarding(m, *state);
        }
        return true;
    }

  private:
    void read_hands(const Json& data, std::vector<std::pair<std::string, Json>>& out) {
        if (data.is_null()) return;
        if (!data.is_object()) {
            fail("accomplices", "must be an object of accomplices in hand, e.g. {\"red\": 2}");
            return;
        }
        for (const auto& [player, n] : data.members()) {
            if (!name(Json(player), "accomplices." + player)) continue;
            if (n.is_integer() && !n.negative())
                out.emplace_back(player, n);
            else
                fail("accomplices." + player,
                     "must be a whole number 0 or more, got " + py_repr(n));
        }
    }

    void read_protected(const Json& data, Moment& m) {
        if (data.is_null()) return;
        if (data.is_object() && data.members().size() == 2) {
            const Json* good = data.find("good");
            const Json* seat = data.find("seat");
            bool known = false;
            for (const GoodInfo& g : kGoods)
                known = known || (good && good->is_string() && good->as_string() == g.name);
            if (known && seat && seat->int_in(1, kMaxSeats)) {
                m.protected_seat =
                    std::make_pair(good->as_string(), static_cast<int>(seat->as_int()));
                return;
            }
        }
        fail("protected",
             "must be {\"good\": ..., \"seat\": 1..4}: the seat the captain just boarded");
    }

    void placement(const Moment& m, const std::vector<std::pair<std::string, Json>>& hands,
                   const State& state) {
        if (m.order.empty()) {
            fail("order", "missing: this placement round's order, harbour master first");
            return;
        }
        if (!m.to_move) {
            fail("to_move", "missing: whose turn it is");
            return;
        }
        if (!contains(m.order, *m.to_move)) {
            fail("to_move", *m.to_move + " is not in the order (" + joined(m.order) + ")");
            return;
        }
        std::vector<std::string> everyone = state.owners();
        for (const std::string& p : m.order)
            if (!contains(everyone, p)) everyone.push_back(p);
        if (everyone.size() > static_cast<std::size_t>(kMaxPlayers)) {
            fail("order", "the state and the order name " + std::to_string(everyone.size()) +
                              " players (" + joined(everyone) + "), but a game has at most " +
                              std::to_string(kMaxPlayers));
            return;
        }
        for (const auto& [player, n] : hands)
            if (!contains(m.order, player))
                fail("accomplices." + player, player + " is not in the order");
        for (const std::string& player : m.declined)
            if (!contains(m.order, player)) fail("declined", player + " is not in the order");
        if (contains(m.declined, *m.to_move))
            fail("to_move",
                 *m.to_move + " has declined: a player who declines places no more this voyage");
        const int limit = state.accomplice_limit();
        for (const std::string& player : m.order) {
            const int held = state.on_board(player);
            const auto given = std::find_if(hands.begin(), hands.end(),
                                            [&](const auto& h) { return h.first == player; });
            // A hand may be any whole number; past the limit it is refused below.
            const bool big = given != hands.end() && !given->second.int_in(0, limit);
            const int hand = given == hands.end() ? std::max(0, limit - held)
                             : big                ? limit + 1
                                                  : static_cast<int>(given->second.as_int());
            if (big || held + hand > limit)
                fail("accomplices." + player,
                     player + " has " + std::to_string(held) + " on the board and " +
                         (given == hands.end() ? std::to_string(hand) : py_repr(given->second)) +
                         " in hand, but a player has only " + std::to_string(limit));
            else if (player == *m.to_move && hand == 0)
                fail("to_move", player + " has no accomplice in hand (" + std::to_string(held) +
                                    " on the board)");
        }
        if (m.protected_seat) fail("protected", "belongs to boarding, not to a placement turn");
    }

    void pilot(const Moment& m, const State& state) {
        if (state.next_roll != kNumRollsPerVoyage) {
            fail("kind",
                 "the pilots act after the last placement round, before roll 3; this voyage is "
                 "before roll " +
                     std::to_string(state.next_roll));
            return;
        }
        const std::string* holder = spot_owner(state, spot_id(m.kind));
        if (!holder)
            fail("kind", "nobody holds " + m.kind + " (spots." + m.kind + ")");
        else if (m.to_move && *m.to_move != *holder)
            fail("to_move", m.kind + " is " + *holder + "'s, not " + *m.to_move + "'s");
        if (m.kind == "pilot_large" && spot_owner(state, kPilotSmall))
            fail("kind",
                 "the small pilot moves first: take pilot_small off the spots once it has acted");
        if (m.protected_seat) fail("protected", "belongs to boarding, not to a pilot's move");
    }

    void boarding(const Moment& m, const State& state) {
        if (state.next_roll != kNumRollsPerVoyage) {
            fail("kind",
                 "boarding happens right after roll 2 (next_roll 3); this voyage is before roll " +
                     std::to_string(state.next_roll));
            return;
        }
        if (std::none_of(state.boats.begin(), state.boats.end(),
                         [](const StateBoat& b) { return b.position == kThirteen; }))
            fail("kind", "boarding needs a boat that roll 2 brought onto 13");
        const std::string* captain = spot_owner(state, kPirate1);
        const std::string* other = spot_owner(state, kPirate2);
        if (!captain) {
            fail("kind", "no pirate is on the ship (spots.pirate_1)");
        } else if (m.to_move && *m.to_move != *captain && !(other && *m.to_move == *other)) {
            fail("to_move", *m.to_move + " is not a pirate on the ship");
        } else if (m.protected_seat) {
            const std::string& good = m.protected_seat->first;
            const int seat = m.protected_seat->second;
            const auto boat =
                std::find_if(state.boats.begin(), state.boats.end(), [&](const StateBoat& b) {
                    return good == kGoods[static_cast<std::size_t>(b.good)].name;
                });
            if (m.to_move && *m.to_move != *captain)
                fail("protected",
                     "only the pirate left after the captain boarded has a seat to respect");
            else if (other)  // the captain who boards leaves one pirate, who takes pirate_1
                fail("protected",
                     "the captain has not boarded: " + *other +
                         " is still on the ship (spots.pirate_2); once the captain boards, the "
                         "pirate left is the captain");
            else if (boat == state.boats.end() || static_cast<int>(boat->crew.size()) < seat)
                fail("protected", good + " has no seat " + std::to_string(seat) + " taken");
        }
    }

    Problems& problems_;
};

}  // namespace

std::string Position::to_move() const {
    if (moment.to_move) return *moment.to_move;
    const int spot = pilot_kind(moment.kind) ? spot_id(moment.kind) : static_cast<int>(kPirate1);
    const std::string* holder = spot_owner(state, spot);
    return holder ? *holder : std::string();
}

int Position::hand(const std::string& player) const {
    for (const auto& [p, n] : moment.accomplices)
        if (p == player) return n;
    return std::max(0, state.accomplice_limit() - state.on_board(player));
}

bool read_position(const Json& data, std::optional<bool> strict, Position& out,
                   Problems& problems) {
    if (!data.is_object()) {
        problems.push_back({"", "a position must be a JSON object, got " + py_type_name(data), ""});
        return false;
    }
    const Json* moment = data.find("moment");
    if (!moment) {
        problems.push_back({"moment",
                            "missing: a position is a voyage state with the decision that is "
                            "due, e.g. {\"kind\": \"pilot_small\"}",
                            ""});
        return false;
    }
    Json rest = Json::object();
    for (const auto& [key, value] : data.members())
        if (key != "moment") rest.set(key, value);
    Problems mine;
    const bool state_ok = read_state(rest, strict, out.state, mine);
    std::vector<std::pair<std::string, Json>> hands;
    MomentReader(mine).read(*moment, state_ok ? &out.state : nullptr, out.moment, hands);
    problems.insert(problems.end(), mine.begin(), mine.end());
    if (!mine.empty()) return false;
    for (const std::string& p : out.moment.order)
        if (!contains(out.state.owners(), p)) out.state.extra_owners.push_back(p);
    return true;
}

Json moment_json(const Moment& m) {
    Json out = Json::object();
    out.set("kind", m.kind);
    if (!m.order.empty()) out.set("order", Json::array_of(m.order));
    if (m.to_move) out.set("to_move", *m.to_move);
    if (!m.accomplices.empty()) {
        Json hands = Json::object();
        for (const auto& [player, n] : m.accomplices) hands.set(player, n);
        out.set("accomplices", hands);
    }
    if (!m.declined.empty()) out.set("declined", Json::array_of(m.declined));
    if (m.protected_seat) {
        Json seat = Json::object();
        seat.set("good", m.protected_seat->first);
        seat.set("seat", m.protected_seat->second);
        out.set("protected", seat);
    }
    return out;
}

}  // namespace manila::api

namespace manila {

ContractRead read_position(std::string_view text, std::optional<bool> strict) {
    return api::read_contract(
        text, [strict](const Json& data, api::Problems& problems) -> std::optional<Json> {
            api::Position pos;
            if (!api::read_position(data, strict, pos, problems)) return std::nullopt;
            Json out = Json::object();
            out.set("state", api::state_json(pos.state));
            out.set("moment", api::moment_json(pos.moment));
            out.set("extra_owners", Json::array_of(pos.state.extra_owners));
            return out;
        });
}

}  // namespace manila

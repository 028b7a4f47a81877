// The game's JSON as the analysis routes take it: a table (one player's view; the one reader
// of tables, which python/manila/game/table.py calls through read_table) or a serialized
// state (a game record: its fields by the one reader of them, which game/engine.py's
// read_record calls too; its actions replayed, the twin of engine.py's replay). Python raises
// at the first problem: so do these, returning its message.
#include <algorithm>
#include <limits>
#include <tuple>

#include "api_internal.hpp"
#include "manila/game.hpp"
#include "manila/table.hpp"

namespace manila::api {
namespace {

constexpr int kSerialVersion = 1;  // of State.serialize()

std::vector<std::string> good_words() {
    std::vector<std::string> out;
    for (const GoodInfo& g : kGoods) out.emplace_back(g.name);
    return out;
}
int good_id(const std::string& name) {
    for (int g = 0; g < kNumGoods; ++g)
        if (name == kGoods[static_cast<std::size_t>(g)].name) return g;
    return -1;
}

// The sign of (v - x) for a whole number v of any size.
int compare(const Json& v, std::int64_t x) {
    if (v.kind() == Json::Kind::kBigInt) return v.negative() ? -1 : 1;
    return v.as_int() < x ? -1 : v.as_int() > x ? 1 : 0;
}

}  // namespace

bool py_equals(const Json& v, std::int64_t n) {
    switch (v.kind()) {
        case Json::Kind::kInt:
            return v.as_int() == n;
        case Json::Kind::kBool:
            return static_cast<std::int64_t>(v.as_bool()) == n;
        case Json::Kind::kFloat:
            return v.as_double() == static_cast<double>(n);
        default:
            return false;
    }
}

namespace {

// A whole number below 2^64 (an unsigned seed or generator state), or nothing.
std::optional<std::uint64_t> unsigned64(const Json& v) {
    if (!v.is_integer() || v.negative()) return std::nullopt;
    if (v.kind() == Json::Kind::kInt) return static_cast<std::uint64_t>(v.as_int());
    std::uint64_t out = 0;
    for (const char c : v.as_string()) {
        const auto d = static_cast<std::uint64_t>(c - '0');
        if (out > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return std::nullopt;
        out = out * 10 + d;
    }
    return out;
}

}  // namespace

std::string py_str(const Json& v) { return v.is_string() ? v.as_string() : py_repr(v); }

namespace {

// int(text, 16): whitespace around, a sign, "0x", digits with single underscores between
// them; nothing when Python would raise (digits of other scripts, which int() also reads,
// are not read here).
std::optional<std::pair<bool, std::string>> hex_int(const std::string& given) {
    std::u32string t = code_points(given);
    while (!t.empty() && py_isspace(t.front())) t.erase(t.begin());
    while (!t.empty() && py_isspace(t.back())) t.pop_back();
    bool minus = false;
    std::size_t i = 0;
    if (i < t.size() && (t[i] == U'+' || t[i] == U'-')) minus = t[i++] == U'-';
    bool prefixed = false;
    if (i + 1 < t.size() && t[i] == U'0' && (t[i + 1] == U'x' || t[i + 1] == U'X'))
        i += 2, prefixed = true;
    std::string digits;
    bool underscore_ok = prefixed;  // "0x_1f" is read, "_1f" is not
    for (; i < t.size(); ++i) {
        const char32_t c = t[i];
        if (c == U'_') {
            if (!underscore_ok) return std::nullopt;
            underscore_ok = false;
            continue;
        }
        const bool hex =
            (c >= U'0' && c <= U'9') || (c >= U'a' && c <= U'f') || (c >= U'A' && c <= U'F');
        if (!hex) return std::nullopt;
        digits += static_cast<char>(c);
        underscore_ok = true;
    }
    if (digits.empty() || (i > 0 && t.back() == U'_')) return std::nullopt;
    return std::make_pair(minus, digits);
}

}  // namespace

std::optional<std::uint64_t> hex_state(const Json& given, bool& hex) {
    const auto parsed = hex_int(py_str(given));
    hex = parsed.has_value();
    if (!parsed) return std::nullopt;
    std::string digits = parsed->second;
    while (digits.size() > 1 && digits[0] == '0') digits.erase(0, 1);
    if ((parsed->first && digits != "0") || digits.size() > 16) return std::nullopt;
    return std::stoull(digits, nullptr, 16);
}

namespace {

class Refusal {
  public:
    bool fail(std::string message) {
        if (error.empty()) error = std::move(message);
        return false;
    }
    std::string error;
};

// game/table.py's readers of one field: each refuses with the first problem's words.
class TableReader : public Refusal {
  public:
    // _int: a whole number from low (if any) to high.
    bool integer(const Json& v, const std::string& field, std::optional<std::int64_t> low, int& out,
                 std::int64_t high = kIntMax) {
        if (!v.is_integer()) return fail(field + ": must be an integer, got " + py_repr(v));
        if (low && compare(v, *low) < 0)
            return fail(field + ": must be at least " + std::to_string(*low) + ", got " +
                        py_repr(v));
        if (compare(v, high) > 0)
            return fail(field + ": must be at most " + std::to_string(high) + ", got " +
                        py_repr(v));
        if (compare(v, -kIntMax) < 0)
            return fail(field + ": must be at least " + std::to_string(-kIntMax) + ", got " +
                        py_repr(v));
        out = static_cast<int>(v.as_int());
        return true;
    }
    // _owner: a player 0..players-1.
    bool owner(const Json& v, const std::string& field, int players, int& out) {
        if (!integer(v, field, std::nullopt, out)) return false;
        if (out < 0 || out >= players)
            return fail(field + ": must be a player 0.." + std::to_string(players - 1) + ", got " +
                        std::to_string(out));
        return true;
    }
    // _goods: {good: count} as counts in good order (missing goods 0, null all 0).
    bool goods(const Json& v, const std::string& field, std::array<int, kNumGoods>& out,
               int high = kSharesPerGood) {
        out.fill(0);
        if (v.is_null()) return true;
        if (!v.is_object()) return fail(field + ": an object of goods, got " + py_repr(v));
        for (const auto& [name, count] : v.members()) {
            const int g = good_id(name);
            if (g < 0)
                return fail(field + "." + name + ": not a good (the goods are " +
                            joined(good_words()) + ")");
            if (!integer(count, field + "." + name, 0, out[static_cast<std::size_t>(g)], high))
                return false;
        }
        return true;
    }
    // _good: a good's name.
    bool good(const Json& v, const std::string& field, int& out) {
        out = v.is_string() ? good_id(v.as_string()) : -1;
        if (out < 0)
            return fail(field + ": a good (" + joined(good_words()) + "), got " + py_repr(v));
        return true;
    }
};

// A value Python takes as false (for `data.get(key) or {}`).
bool falsy(const Json& v) {
    switch (v.kind()) {
        case Json::Kind::kNull:
            return true;
        case Json::Kind::kBool:
            return !v.as_bool();
        case Json::Kind::kInt:
            return v.as_int() == 0;
        case Json::Kind::kFloat:
            return v.as_double() == 0;
        case Json::Kind::kString:
            return v.as_string().empty();
        case Json::Kind::kArray:
            return v.items().empty();
        case Json::Kind::kObject:
            return v.members().empty();
        default:
            return false;
    }
}

// _observer_dealt: the observer's face-down shares as the history's deal shows them.
std::optional<std::array<int, kNumGoods>> observer_dealt(const Json& history, int observer,
                                                         int players) {
    if (!history.is_array()) return std::nullopt;
    std::array<int, kNumGoods> dealt{};
    int total = 0;
    const auto& items = history.items();
    for (std::size_t k = 0; k < items.size() && k < static_cast<std::size_t>(2 * players); ++k) {
        const Json& a = items[k];
        if (static_cast<int>(k / 2) == observer &&
            a.int_in(action::kDeal, action::kDeal + kNumGoods - 1))
            ++dealt[static_cast<std::size_t>(a.as_int() - action::kDeal)], ++total;
    }
    if (total != kSharesDealt) return std::nullopt;
    return dealt;
}

// What table_fields reads beyond the view: the phase's name and the boats, which read_game
// builds once the rules are known, and the rule options.
struct TableRest {
    std::string phase;
    std::vector<std::tuple<int, int, std::vector<int>>> boats;  // good, position, crew
    Json rules;
};

// A table's fields, each checked, the first problem naming its field.
bool table_fields(const Json& data, TableView& t, TableRest& rest, std::string& error) {
    TableReader r;
    const auto done = [&](bool ok) {
        error = r.error;
        return ok;
    };
    const Json& players = get(data, "players");
    if (!players.is_array() || players.items().empty())
        return done(r.fail("players: a list with one object per player"));
    const int n = static_cast<int>(players.items().size());
    if (n < kMinPlayers || n > kMaxPlayers)
        return done(r.fail("players: Manila is for " + std::to_string(kMinPlayers) + " to " +
                           std::to_string(kMaxPlayers) + " players, got " + std::to_string(n)));
    t.num_players = n;
    if (!data.find("observer"))
        return done(r.fail("observer: whose view the table is (a player 0..n-1)"));
    if (!r.owner(get(data, "observer"), "observer", n, t.observer)) return done(false);
    const Json& phase = get(data, "phase");
    if (!phase.is_string())
        return done(r.fail("phase: the phase of the game, got " + py_repr(phase)));
    if (!r.owner(get(data, "current_player"), "current_player", n, t.current)) return done(false);
    const Json* voyage = data.find("voyage");
    if (!r.integer(voyage ? *voyage : Json(1), "voyage", 1, t.voyage)) return done(false);
    const Json& master = get(data, "harbour_master");
    t.harbour_master = -1;
    if (!master.is_null() && !r.owner(master, "harbour_master", n, t.harbour_master))
        return done(false);
    if (!r.goods(get(data, "prices"), "prices", t.prices, kPriceTrack.back())) return done(false);
    if (!data.find("supply")) return done(r.fail("supply: the face-up shares for sale, by good"));
    if (!r.goods(get(data, "supply"), "supply", t.supply)) return done(false);
    for (int i = 0; i < n; ++i) {
        const Json& pd = players.items()[static_cast<std::size_t>(i)];
        const std::string field = "players[" + std::to_string(i) + "]";
        if (!pd.is_object())
            return done(
                r.fail(field + ": an object (cash, shares, hidden_shares, mortgaged, declined)"));
        const Json* declined = pd.find("declined");
        if (declined && !declined->is_bool())
            return done(r.fail(field + ".declined: true or false, got " + py_repr(*declined)));
        TablePlayer p;
        p.declined = declined && declined->as_bool();
        const Json* hidden = pd.find("hidden_shares");
        const Json* mortgaged = pd.find("mortgaged");
        if (!r.integer(get(pd, "cash"), field + ".cash", 0, p.cash, kMaxCash) ||
            !r.goods(get(pd, "shares"), field + ".shares", p.shares) ||
            !r.integer(hidden ? *hidden : Json(i == t.observer ? 0 : kSharesDealt),
                       field + ".hidden_shares", 0, p.hidden) ||
            !r.integer(mortgaged ? *mortgaged : Json(0), field + ".mortgaged", 0, p.mortgaged))
            return done(false);
        t.players.push_back(p);
    }
    if (data.find("dealt")) {
        if (!r.goods(get(data, "dealt"), "dealt", t.observer_dealt)) return done(false);
    } else if (const auto dealt = observer_dealt(get(data, "history"), t.observer, n)) {
        t.observer_dealt = *dealt;
    }
    if (phase.as_string() == "auction") {
        const Json& auction = get(data, "auction");
        if (!auction.is_object())
            return done(
                r.fail("auction: the auction in progress (high_bid, high_bidder, bidding)"));
        const Json* high = auction.find("high_bid");
        if (!r.integer(high ? *high : Json(0), "auction.high_bid", 0, t.high_bid, action::kMaxBid))
            return done(false);
        const Json& bidder = get(auction, "high_bidder");
        if (!bidder.is_null() && !r.owner(bidder, "auction.high_bidder", n, t.high_bidder))
            return done(false);
        const Json& bidding = get(auction, "bidding");
        if (!bidding.is_array())
            return done(r.fail("auction.bidding: the players still bidding, a list"));
        for (std::size_t k = 0; k < bidding.items().size(); ++k) {
            int p = 0;
            if (!r.owner(bidding.items()[k], "auction.bidding[" + std::to_string(k) + "]", n, p))
                return done(false);
            t.bidding.push_back(p);
        }
    }
    const Json& home = get(data, "stays_home");
    if (!home.is_null() && !r.good(home, "stays_home", t.stays_home)) return done(false);
    const Json& boats = falsy(get(data, "boats")) ? Json::object() : get(data, "boats");
    if (!boats.is_object()) return done(r.fail("boats: an object of the sailing goods"));
    // In good order, the names no good has after them as given (Python's stable sort).
    std::vector<const std::pair<std::string, Json>*> sorted;
    for (const auto& m : boats.members()) sorted.push_back(&m);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
        const int x = good_id(a->first), y = good_id(b->first);
        return (x < 0 ? 99 : x) < (y < 0 ? 99 : y);
    });
    for (const auto* m : sorted) {
        const std::string& name = m->first;
        const Json& boat = m->second;
        const std::string field = "boats." + name;
        Boat b;
        if (!r.good(Json(name), field, b.good)) return done(false);
        if (!boat.is_object()) return done(r.fail(field + ": an object with position and crew"));
        const Json& position = get(boat, "position");
        if (position.is_string() && position.as_string() == "arrived") {
            b.position = kArrived;
        } else {
            if (!r.integer(position, field + ".position", 0, b.position)) return done(false);
            if (b.position > kThirteen)
                return done(r.fail(field + ".position: 0.." + std::to_string(kThirteen) +
                                   " or 'arrived', got " + std::to_string(b.position)));
        }
        const Json* crew = boat.find("crew");
        if (crew && !crew->is_array())
            return done(r.fail(field + ".crew: a list of players, front seat first"));
        std::vector<int> seated;
        for (std::size_t k = 0; crew && k < crew->items().size(); ++k) {
            int p = 0;
            if (!r.owner(crew->items()[k], field + ".crew[" + std::to_string(k) + "]", n, p))
                return done(false);
            seated.push_back(p);
        }
        rest.boats.emplace_back(b.good, b.position, seated);
    }
    const Json& spots = falsy(get(data, "spots")) ? Json::object() : get(data, "spots");
    if (!spots.is_object()) return done(r.fail("spots: an object of spot: player"));
    for (const auto& [spot, o] : spots.members()) {
        int s = 0;
        while (s < kNumSpots && spot != kSpotNames[static_cast<std::size_t>(s)]) ++s;
        if (s == kNumSpots) {
            std::vector<std::string> names(kSpotNames.begin(), kSpotNames.end());
            return done(
                r.fail("spots." + spot + ": not a spot (the spots are " + joined(names) + ")"));
        }
        if (!o.is_null() && !r.owner(o, "spots." + spot, n, t.spots[static_cast<std::size_t>(s)]))
            return done(false);
    }
    const Json& next_roll = get(data, "next_roll");
    if (!next_roll.is_null() && !r.integer(next_roll, "next_roll", 1, t.next_roll))
        return done(false);
    if (phase.as_string() == "boarding") {
        const Json& boarding = get(data, "boarding");
        if (!boarding.is_object())
            return done(r.fail("boarding: who decides (decider 0 or 1) and the guarded seat"));
        const Json* decider = boarding.find("decider");
        if (!r.integer(decider ? *decider : Json(0), "boarding.decider", 0, t.boarding_decider))
            return done(false);
        const Json& guard = get(boarding, "guard");
        if (!guard.is_null()) {
            // A sequence of two: a list, or (as Python reads it) a string of two characters.
            std::vector<Json> pair;
            if (guard.is_array()) pair = guard.items();
            if (guard.is_string())
                for (const char32_t c : code_points(guard.as_string()))
                    pair.emplace_back(utf8(std::u32string(1, c)));
            if ((!guard.is_array() && !guard.is_string()) || pair.size() != 2)
                return done(
                    r.fail("boarding.guard: [boat, seat] of the seat the captain took, or null"));
            if (!r.integer(pair[0], "boarding.guard[0]", 0, t.guard_boat) ||
                !r.integer(pair[1], "boarding.guard[1]", 0, t.guard_seat))
                return done(false);
        }
    }
    if (const Json* rounds = data.find("rounds_left"))
        if (!r.integer(*rounds, "rounds_left", 1, t.rounds_left)) return done(false);
    rest.phase = phase.as_string();
    rest.rules = get(data, "rules");
    if (!rest.rules.is_null() && !rest.rules.is_object())
        return done(r.fail("rules: an object of rule options, got " + py_repr(rest.rules)));
    return done(true);
}

// Game(players, seed, rules)'s check of the rules: the first problem, as a line.
bool game_rules(const Json& given, Rules& rules, std::string& error) {
    const Problems problems = read_rules(given, rules.thirteen_to_port, rules.pirate_variant);
    if (problems.empty()) return true;
    error = problems[0].path.empty() ? problems[0].message
                                     : problems[0].path + ": " + problems[0].message;
    return false;
}

}  // namespace

std::string py_split_joined(const std::string& text) {
    std::u32string out;
    bool gap = false;
    for (const char32_t c : code_points(text)) {
        if (py_isspace(c)) {
            gap = !out.empty();
            continue;
        }
        if (gap) out += U' ';
        gap = false;
        out += c;
    }
    return utf8(out);
}

std::string unnamed_reason(const std::string& action, const std::string& reason) {
    const std::string head = py_split_joined(action) + ": ";
    return reason.rfind(head, 0) == 0 ? reason.substr(head.size()) : reason;
}

bool read_game_rules(const Json& given, Rules& rules, std::string& error) {
    return game_rules(given, rules, error);
}

std::string RecordProblem::text() const {
    const std::string where = field.empty() ? "" : field + ": ";
    return lead ? "not a game record: " + where + message : where + message;
}

bool read_record_fields(const Json& data, RecordFields& out, RecordProblem& problem) {
    const auto refuse = [&](std::string message, std::string field, bool lead = true) {
        problem = {std::move(message), std::move(field), lead};
        return false;
    };
    if (!data.is_object())
        return refuse("a game record is a JSON object, not " + json_type(data), "");
    const Json* game = data.find("game");
    if (game && !(game->is_string() && game->as_string() == "manila"))
        return refuse("a record of another game (" + py_repr(*game) + "), not \"manila\"", "game");
    if (const Json* version = data.find("version"); version && !py_equals(*version, kSerialVersion))
        return refuse("version " + py_repr(*version) + "; this version reads version " +
                          std::to_string(kSerialVersion),
                      "version");
    const Json& history = get(data, "history");
    if (!history.is_array()) return refuse("missing, or not a list of action ids", "history");
    for (std::size_t i = 0; i < history.items().size(); ++i)
        if (!history.items()[i].is_integer())
            return refuse("an action id (a whole number), got " + py_repr(history.items()[i]),
                          "history[" + std::to_string(i) + "]");
    const Json* players = data.find("players");
    const Json given_players = players ? *players : Json(4);
    if (!given_players.int_in(kMinPlayers, kMaxPlayers)) {
        std::vector<int> counts;
        for (int p = kMinPlayers; p <= kMaxPlayers; ++p) counts.push_back(p);
        return refuse("must be " + spoken(counts) + ", got " + py_repr(given_players), "players");
    }
    const Json* seed_given = data.find("seed");
    const std::optional<std::uint64_t> seed =
        seed_given ? unsigned64(*seed_given) : std::uint64_t{0};
    if (!seed) return refuse("a whole number in 0..2**64-1, got " + py_repr(*seed_given), "seed");
    const Json& rules_given = get(data, "rules");
    if (!rules_given.is_null() && !rules_given.is_object())
        return refuse("an object of rule options, not " + json_type(rules_given), "rules");
    Rules rules;
    std::string why;
    if (!game_rules(rules_given, rules, why)) return refuse(why, "rules");
    if (const Json* actions = data.find("actions");
        actions && actions->is_integer() &&
        !actions->is_int(static_cast<std::int64_t>(history.items().size()))) {
        const std::string held = std::to_string(history.items().size());
        // A history longer than the record says is not cut short: it runs past its end.
        if (actions->int_in(0, static_cast<std::int64_t>(history.items().size())))
            return refuse("the record says " + py_repr(*actions) + " actions, its history holds " +
                              held + ": actions after its end",
                          "history", false);
        return refuse("cut short: the record says " + py_repr(*actions) +
                          " actions, its history holds " + held,
                      "", false);
    }
    out.rng.reset();
    if (const Json* given = data.find("rng"); given && !given->is_null()) {
        bool hex = false;
        out.rng = hex_state(*given, hex);
        if (!out.rng) {
            return refuse(std::string(hex ? "a 64-bit" : "a hexadecimal") +
                              " generator state, got " + py_repr(*given),
                          "rng");
        }
    }
    out.players = static_cast<int>(given_players.as_int());
    out.seed = *seed;
    out.rules = rules;
    out.history = &history;
    return true;
}

bool replay_record(const RecordFields& record, bool seeded, std::optional<GameState>& out,
                   RecordProblem& problem) {
    // replay: every action legal where it is played, and with `seeded` every deal and roll
    // the one the game's seed draws there.
    GameState state(record.players, record.rules, record.seed);
    const auto& history = record.history->items();
    for (std::size_t i = 0; i < history.size(); ++i) {
        const Json& a = history[i];
        const std::string where = "history[" + std::to_string(i) + "]";
        if (state.is_terminal()) {
            problem = {"action " + py_repr(a) + ": the game was already over", where, false};
            return false;
        }
        if (compare(a, 0) < 0 || compare(a, action::kNumActions) >= 0) {
            problem = {"action " + py_repr(a) + ": no such action (0.." +
                           std::to_string(action::kNumActions - 1) + ")",
                       where, false};
            return false;
        }
        const int id = static_cast<int>(a.as_int());
        const std::string name = action_name(id);
        const std::string named = "action " + std::to_string(id) + " (" + name + ")";
        if (seeded && state.is_chance_node()) {
            const int drawn = state.sample_chance();
            if (drawn != id) {
                problem = {
                    named + ": not what the game's seed draws here (" + action_name(drawn) + ")",
                    where, false};
                return false;
            }
        }
        if (!state.is_legal(id)) {
            problem = {named + ": " + unnamed_reason(name, state.illegal_reason(id)), where, false};
            return false;
        }
        state.apply_legal(id);
    }
    out = std::move(state);
    return true;
}

bool read_record(const Json& data, std::optional<GameState>& out, std::string& error) {
    RecordFields fields;
    RecordProblem problem;
    if (!read_record_fields(data, fields, problem) || !replay_record(fields, false, out, problem)) {
        error = problem.text();
        return false;
    }
    if (fields.rng) out->rng().set_state(*fields.rng);
    return true;
}

bool read_game(const Json& table, std::uint64_t seed, std::optional<GameState>& state, int& viewer,
               std::string& error) {
    Json data = table;
    if (table.is_string()) {
        // A table given as JSON text is read as common/inputs.json_value reads it (no NaN).
        const JsonRead read = read_json(code_points(table.as_string()));
        if (!read.ok) {
            error = "table: not valid JSON: " +
                    (read.decode_error ? json_error_text(read) : read.reason);
            return false;
        }
        data = read.value;
    } else if (!table.is_object()) {
        error = "table_or_state: a manila.game.State, a player's view, or a table (JSON), got " +
                py_type_name(table);
        return false;
    }
    if (!data.is_object()) {
        error = "table: a JSON object, got " + py_type_name(data);
        return false;
    }
    const Json* game = data.find("game");
    const Json* players = data.find("players");
    if (game && game->is_string() && game->as_string() == "manila" && data.find("history") &&
        !data.find("observer") && players && players->is_integer()) {
        viewer = -1;
        return read_record(data, state, error);
    }
    TableView t;
    TableRest rest;
    if (!table_fields(data, t, rest, error)) return false;
    if (!game_rules(rest.rules, t.rules, error)) return false;
    // The engine's refusals from here on, as for Python's _core.table_state.
    t.phase = phase_of(rest.phase);
    for (const auto& [good, position, crew] : rest.boats)
        t.boats.push_back(table_boat(good, position, crew));
    viewer = t.observer;
    state = table_state(t, seed);
    return true;
}

const char* moment_kind(Phase phase) {
    switch (phase) {
        case Phase::kPlacement:
            return "placement";
        case Phase::kSmallPilot:
            return "pilot_small";
        case Phase::kLargePilot:
            return "pilot_large";
        case Phase::kBoarding:
            return "boarding";
        default:
            return nullptr;
    }
}

}  // namespace manila::api

namespace manila {

bool read_table(std::string_view text, std::uint64_t seed, std::optional<GameState>& state,
                int& viewer, std::string& error) {
    return api::read_game(Json(std::string(text)), seed, state, viewer, error);
}

}  // namespace manila

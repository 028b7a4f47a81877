// The voyage state's JSON: its reader (the one: VoyageState.from_dict reads through it),
// its writer (VoyageState.to_dict) and its notation (notation.format_state).
#include <algorithm>
#include <set>

#include "api_internal.hpp"
#include "manila/game.hpp"

namespace manila::api {
namespace {

const std::vector<std::string> kStateKeys{"rules", "next_roll", "player", "players", "boats",
                                          "spots", "objective", "shares", "prices",  "budget"};
const std::vector<std::string> kRuleOptions{"thirteen_after_last_roll", "pirate_variant"};
const std::vector<std::string> kObjectives{"income", "wealth"};
constexpr const char* kArrivedName = "arrived";

std::vector<std::string> good_names() {
    std::vector<std::string> out;
    for (const GoodInfo& g : kGoods) out.emplace_back(g.name);
    return out;
}
std::vector<std::string> spot_names() { return {kSpotNames.begin(), kSpotNames.end()}; }
int good_index(std::string_view name) {
    for (int g = 0; g < kNumGoods; ++g)
        if (name == kGoods[static_cast<std::size_t>(g)].name) return g;
    return -1;
}
int spot_index(std::string_view name) {
    for (int s = 0; s < kNumSpots; ++s)
        if (name == kSpotNames[static_cast<std::size_t>(s)]) return s;
    return -1;
}
std::vector<int> player_counts() {
    std::vector<int> out;
    for (int p = kMinPlayers; p <= kMaxPlayers; ++p) out.push_back(p);
    return out;
}
std::vector<int> rolls() { return {1, 2, 3}; }
// The prices a voyage may see: the track below its top.
std::string voyage_prices() {
    std::vector<std::string> words;
    for (int s = 0; s + 1 < kPriceSteps; ++s) words.push_back(std::to_string(kPriceTrack[s]));
    return joined(words);
}

// A count that may outgrow 64 bits, as a Python int sums any share counts given.
class Count {
  public:
    void add(const Json& n) {
        if (n.kind() == Json::Kind::kInt) {
            add_digits(std::to_string(n.as_int()));
        } else {
            add_digits(n.as_string());
        }
    }
    bool above(int limit) const { return digits_.size() > 9 || std::stoll(digits_) > limit; }
    const std::string& text() const { return digits_; }

  private:
    void add_digits(const std::string& more) {
        std::string sum;
        int carry = 0;
        for (std::size_t k = 0; k < std::max(digits_.size(), more.size()) || carry; ++k) {
            const int a = k < digits_.size() ? digits_[digits_.size() - 1 - k] - '0' : 0;
            const int b = k < more.size() ? more[more.size() - 1 - k] - '0' : 0;
            sum += static_cast<char>('0' + (a + b + carry) % 10);
            carry = (a + b + carry) / 10;
        }
        std::reverse(sum.begin(), sum.end());
        digits_ = sum.empty() ? "0" : sum;
        while (digits_.size() > 1 && digits_[0] == '0') digits_.erase(0, 1);
    }
    std::string digits_ = "0";
};

// Start spaces from which a boat can stand on `position` after `made` rolls.
std::vector<int> starts_reaching(int position, int made) {
    std::vector<int> out;
    for (int s = 0; s <= kMaxStartSpace; ++s)
        if (position == kArrived ? s + kDieFaces * made > kThirteen
                                 : s + made <= position && position <= s + kDieFaces * made)
            out.push_back(s);
    return out;
}

// Whether some start spaces, one from each boat's `options` from `k` on, sum to `left`.
bool sums_to(const std::vector<std::vector<int>>& options, std::size_t k, int left) {
    if (k == options.size()) return left == 0;
    return std::any_of(options[k].begin(), options[k].end(),
                       [&](int start) { return sums_to(options, k + 1, left - start); });
}

}  // namespace

Problems reachability_problems(int next_roll,
                               const std::vector<std::pair<std::string, int>>& positions) {
    const int made = next_roll - 1;
    Problems problems;
    std::vector<std::vector<int>> options;
    for (const auto& [good, position] : positions) {
        options.push_back(starts_reaching(position, made));
        if (!options.back().empty()) continue;
        const std::string where =
            position == kArrived ? "have arrived" : "be on " + std::to_string(position);
        const std::string rolls_made =
            made == 0 ? "no roll yet" : std::to_string(made) + " roll" + (made > 1 ? "s" : "");
        problems.push_back({"boats." + good + ".position",
                            "a boat cannot " + where + " before roll " + std::to_string(next_roll) +
                                ": it started on 0.." + std::to_string(kMaxStartSpace) +
                                " and has made " + rolls_made,
                            "strict"});
    }
    if (!problems.empty() || sums_to(options, 0, kStartSum)) return problems;
    std::vector<std::string> spans;
    for (std::size_t k = 0; k < options.size(); ++k)
        spans.push_back(positions[k].first + " " + std::to_string(options[k].front()) + ".." +
                        std::to_string(options[k].back()));
    problems.push_back({"boats",
                        "these positions cannot arise together: the start spaces must sum to " +
                            std::to_string(kStartSum) + ", but they could only have been " +
                            joined(spans, ", "),
                        "strict"});
    return problems;
}

namespace {

class StateReader {
  public:
    explicit StateReader(Problems& problems) : problems_(problems) {}

    void fail(std::string path, std::string message, std::string remedy = "") {
        problems_.push_back({std::move(path), std::move(message), std::move(remedy)});
    }

    bool owner(const Json& value, const std::string& path) {
        if (is_owner(value)) return true;
        fail(path, "an owner must be a non-empty string (a player's name), got " + py_repr(value));
        return false;
    }

    bool read(const Json& data, std::optional<bool> strict, State& out) {
        if (!data.is_object()) {
            fail("", "a voyage state must be a JSON object, got " + py_type_name(data));
            return false;
        }
        for (const auto& [key, value] : data.members()) {
            if (std::count(kStateKeys.begin(), kStateKeys.end(), key) ||
                std::count(std::begin(kStateRequestKeys), std::end(kStateRequestKeys), key))
                continue;
            if (key == "moment")
                fail(key,
                     "a voyage state with a moment is a position: ask manila.advise "
                     "(python -m manila advise) for it");
            else
                fail(key, "unknown key" + did_you_mean(key, kStateKeys) + "; a voyage state has " +
                              joined(kStateKeys));
        }
        rules(get(data, "rules"), out);
        next_roll(data.find("next_roll"), out);
        const Json& player = get(data, "player");
        if (!player.is_null() && owner(player, "player")) out.player = player.as_string();
        const Json& players = get(data, "players");
        if (!players.is_null()) {
            if (players.int_in(kMinPlayers, kMaxPlayers))
                out.players = static_cast<int>(players.as_int());
            else
                fail("players", "the player count must be " + spoken(player_counts()) + ", got " +
                                    py_repr(players));
        }
        boats(get(data, "boats"), out);
        spots(get(data, "spots"), out);
        const Json* objective = data.find("objective");
        this->objective(objective ? *objective : Json("income"), out);
        shares(get(data, "shares"), out);
        prices(get(data, "prices"), out);
        budget(get(data, "budget"), out);
        for (const char* key : {"exact", "strict"})
            if (const Json* v = data.find(key); v && !v->is_bool())
                fail(key, "must be true or false, got " + py_repr(*v));
        if (const Json* v = data.find("version"); v && !v->is_int(1))
            fail("version", "this is version 1 of the voyage state, got " + py_repr(*v));
        if (!strict) {
            const Json* given = data.find("strict");
            strict = !(given && given->is_bool() && !given->as_bool());
        }
        if (!problems_.empty()) return false;
        accomplice_limits(out);
        if (*strict) {
            // A hypothetical board (strict false: a sweep's family, a test's) may name more
            // owners than a game has players, as far as the engine holds them.
            owner_count(out);
            reachability(out);
        }
        return problems_.empty();
    }

  private:
    void rules(const Json& data, State& out) {
        const Problems found = read_rules(data, out.thirteen_to_port, out.pirate_variant);
        problems_.insert(problems_.end(), found.begin(), found.end());
    }

    void next_roll(const Json* value, State& out) {
        if (!value)
            fail("next_roll", "missing: say which roll comes next (" + spoken(rolls()) + ")");
        else if (!value->int_in(1, kNumRollsPerVoyage))
            fail("next_roll", "must be " + spoken(rolls()) + " (the roll that comes next), got " +
                                  py_repr(*value));
        else
            out.next_roll = static_cast<int>(value->as_int());
    }

    void good(const std::string& name, const std::string& path) {
        fail(path, "unknown good" + did_you_mean(name, good_names()) + "; the goods are " +
                       joined(good_names()));
    }

    void boats(const Json& data, State& out) {
        if (!data.is_object()) {
            fail("boats", "must be an object mapping each of the three sailing goods to its boat");
            return;
        }
        for (const auto& [name, value] : data.members())
            if (good_index(name) < 0) good(name, "boats." + name);
        if (data.members().size() != kNumBoats)
            fail("boats", "exactly three goods sail each voyage, got " +
                              std::to_string(data.members().size()));
        for (int g = 0; g < kNumGoods; ++g)
            if (const Json* boat = data.find(kGoods[static_cast<std::size_t>(g)].name))
                this->boat(g, *boat, out);
    }

    void boat(int g, const Json& data, State& out) {
        const GoodInfo& info = kGoods[static_cast<std::size_t>(g)];
        const std::string path = std::string("boats.") + info.name;
        if (!data.is_object()) {
            fail(path, "must be an object with position and crew");
            return;
        }
        for (const auto& [key, value] : data.members())
            if (key != "position" && key != "crew")
                fail(path + "." + key, "unknown key; a boat has position and crew");
        StateBoat boat;
        boat.good = g;
        const Json* position = data.find("position");
        const std::string spaces = "0.." + std::to_string(kThirteen);
        if (!position)
            fail(path + ".position", "missing: " + spaces + " or \"arrived\"");
        else if (position->is_string() && position->as_string() == kArrivedName)
            boat.position = kArrived;
        else if (position->int_in(0, kThirteen))
            boat.position = static_cast<int>(position->as_int());
        else
            fail(path + ".position",
                 "must be a space " + spaces + " or \"arrived\", got " + py_repr(*position));
        const Json* crew = data.find("crew");
        static const Json no_crew = Json::array();
        if (crew && !crew->is_array()) {
            fail(path + ".crew", "must be a list of owners, front seat first");
            crew = &no_crew;
        }
        if (!crew) crew = &no_crew;
        const std::size_t taken = crew->items().size();
        if (taken > static_cast<std::size_t>(info.seats))
            fail(path + ".crew", std::string("a ") + info.name + " boat has " +
                                     std::to_string(info.seats) + " seats, but " +
                                     std::to_string(taken) + " are taken");
        for (std::size_t i = 0; i < taken; ++i) {
            const Json& o = crew->items()[i];
            if (owner(o, path + ".crew[" + std::to_string(i) + "]"))
                boat.crew.push_back(o.as_string());
        }
        out.boats.push_back(std::move(boat));
    }

    // An optional key that must hold an object: false when it is absent or (a problem
    // noted) not an object.
    bool given_object(const Json& data, const char* field, const char* what) {
        if (data.is_null()) return false;
        if (!data.is_object()) {
            fail(field, what);
            return false;
        }
        return true;
    }

    void spots(const Json& data, State& out) {
        if (!given_object(data, "spots", "must be an object mapping spot ids to owners")) return;
        std::array<const std::string*, kNumSpots> taken{};
        for (const auto& [spot, owner] : data.members()) {
            const int s = spot_index(spot);
            if (s < 0) {
                const std::string hint = good_index(spot) >= 0
                                             ? "; cargo seats are given in boats." + spot + ".crew"
                                             : did_you_mean(spot, spot_names()) +
                                                   "; the spots are " + joined(spot_names());
                fail("spots." + spot, "unknown spot" + hint);
            } else if (is_owner(owner)) {
                taken[static_cast<std::size_t>(s)] = &owner.as_string();
            } else if (!owner.is_null()) {
                this->owner(owner, "spots." + spot);
            }
        }
        if (taken[kPirate2] && !taken[kPirate1])
            fail("spots.pirate_2", "pirate_2 may only be taken once pirate_1 is occupied");
        for (int s = 0; s < kNumSpots; ++s)
            if (taken[static_cast<std::size_t>(s)])
                out.spots.emplace_back(s, *taken[static_cast<std::size_t>(s)]);
    }

    void objective(const Json& value, State& out) {
        if (value.is_string() && (value.as_string() == "income" || value.as_string() == "wealth")) {
            out.wealth = value.as_string() == "wealth";
            return;
        }
        fail("objective", "must be \"income\" or \"wealth\"" + did_you_mean(value, kObjectives) +
                              ", got " + py_repr(value));
    }

    // A whole number 0 or more, else a problem saying `what` it is.
    bool count(const Json& value, const std::string& path, const std::string& what) {
        if (value.is_integer() && !value.negative()) return true;
        fail(path, what + " must be a whole number 0 or more, got " + py_repr(value));
        return false;
    }

    void shares(const Json& data, State& out) {
        if (!given_object(data, "shares",
                          "must be an object mapping players to their shares, e.g. {\"red\": "
                          "{\"jade\": 2}}"))
            return;
        std::array<Count, kNumGoods> totals;
        for (const auto& [owner, held] : data.members()) {
            if (!is_owner(owner)) {
                this->owner(Json(owner), "shares." + owner);
                continue;
            }
            if (!held.is_object()) {
                fail("shares." + owner,
                     "must be an object mapping goods to share counts, e.g. {\"jade\": 2}");
                continue;
            }
            std::array<int, kNumGoods> counts{};
            bool any = false;
            for (const auto& [name, n] : held.members()) {
                const int g = good_index(name);
                const std::string path = "shares." + owner + "." + name;
                if (g >= 0 && n.is_integer() && !n.negative()) {
                    totals[static_cast<std::size_t>(g)].add(n);
                    // Beyond the 5 of a good the total is refused below; the count kept is
                    // never used then.
                    if (!n.is_int(0))
                        counts[static_cast<std::size_t>(g)] = n.int_in(0, kSharesPerGood)
                                                                  ? static_cast<int>(n.as_int())
                                                                  : kSharesPerGood + 1,
                        any = true;
                } else if (g < 0) {
                    good(name, path);
                } else {
                    count(n, path, "a share count");
                }
            }
            if (any) out.shares.emplace_back(owner, counts);
        }
        for (int g = 0; g < kNumGoods; ++g) {
            const Count& total = totals[static_cast<std::size_t>(g)];
            if (total.above(kSharesPerGood))
                fail("shares", total.text() + " shares of " +
                                   kGoods[static_cast<std::size_t>(g)].name +
                                   " are held, but there are only " +
                                   std::to_string(kSharesPerGood) + " in all");
        }
    }

    void prices(const Json& data, State& out) {
        if (!given_object(data, "prices",
                          "must be an object mapping goods to prices, e.g. {\"jade\": 10}"))
            return;
        for (const auto& [name, price] : data.members()) {
            const int g = good_index(name);
            const bool on_track = price.kind() == Json::Kind::kInt &&
                                  price_step(static_cast<int>(std::clamp<std::int64_t>(
                                      price.as_int(), -1, kPriceTrack.back() + 1))) >= 0;
            if (g >= 0 && on_track && !price.is_int(kPriceTrack.back())) {
                out.prices[static_cast<std::size_t>(g)] = static_cast<int>(price.as_int());
                continue;
            }
            const std::string path = "prices." + name;
            if (g < 0) {
                good(name, path);
            } else if (price.is_int(kPriceTrack.back())) {
                fail(path, "a good at " + std::to_string(kPriceTrack.back()) +
                               " has ended the game; prices are " + voyage_prices() +
                               " during a voyage");
            } else {
                fail(path, "must be a price on the track (" + voyage_prices() + "), got " +
                               py_repr(price));
            }
        }
    }

    void budget(const Json& data, State& out) {
        if (!given_object(data, "budget",
                          "must be an object mapping players to what they can pay, e.g. "
                          "{\"red\": 7}"))
            return;
        for (const auto& [owner, amount] : data.members()) {
            if (is_owner(owner) && amount.int_in(0, kMaxBudget)) {
                out.budget.emplace_back(owner, static_cast<int>(amount.as_int()));
                continue;
            }
            const std::string path = "budget." + owner;
            const std::string what =
                "a budget (cash plus " + std::to_string(kLoanAmount) + " per unmortgaged share)";
            if (this->owner(Json(owner), path) && count(amount, path, what))
                fail(path, what + " must be at most " + std::to_string(kMaxBudget) + ", got " +
                               py_repr(amount));
        }
    }

    // The first owner past the most players a game has.
    void owner_count(const State& s) {
        std::vector<std::pair<std::string, std::string>> named;  // owner, where first named
        const auto name = [&named](const std::string& o, std::string where) {
            for (const auto& n : named)
                if (n.first == o) return;
            named.emplace_back(o, std::move(where));
        };
        for (const StateBoat& b : s.boats)
            for (std::size_t i = 0; i < b.crew.size(); ++i)
                name(b.crew[i], std::string("boats.") +
                                    kGoods[static_cast<std::size_t>(b.good)].name + ".crew[" +
                                    std::to_string(i) + "]");
        for (const auto& [spot, o] : s.spots)
            name(o, std::string("spots.") + kSpotNames[static_cast<std::size_t>(spot)]);
        if (s.player) name(*s.player, "player");
        for (const auto& [o, held] : s.shares) name(o, "shares." + o);
        for (const auto& [o, amount] : s.budget) name(o, "budget." + o);
        if (named.size() <= static_cast<std::size_t>(kMaxPlayers)) return;
        std::vector<std::string> names;
        for (const auto& n : named) names.push_back(n.first);
        fail(named[kMaxPlayers].second,
             "this state names " + std::to_string(named.size()) + " players (" + joined(names) +
                 "), but a game has at most " + std::to_string(kMaxPlayers));
    }

    // At the first accomplice over the limit, the owner who holds too many.
    void accomplice_limits(const State& s) {
        const int limit = s.accomplice_limit();
        std::vector<std::pair<std::string, std::string>> held;  // owner, path
        for (const StateBoat& b : s.boats)
            for (std::size_t i = 0; i < b.crew.size(); ++i)
                held.emplace_back(b.crew[i], std::string("boats.") +
                                                 kGoods[static_cast<std::size_t>(b.good)].name +
                                                 ".crew[" + std::to_string(i) + "]");
        for (const auto& [spot, o] : s.spots)
            held.emplace_back(o,
                              std::string("spots.") + kSpotNames[static_cast<std::size_t>(spot)]);
        std::vector<std::pair<std::string, int>> counts;
        for (const auto& [o, path] : held) {
            auto it = std::find_if(counts.begin(), counts.end(),
                                   [&o = o](const auto& c) { return c.first == o; });
            if (it == counts.end()) it = counts.insert(counts.end(), {o, 0});
            if (++it->second != limit + 1) continue;
            const auto total = std::count_if(held.begin(), held.end(),
                                             [&o = o](const auto& h) { return h.first == o; });
            const std::string game = s.players == kMinPlayers
                                         ? "in a " + std::to_string(kMinPlayers) + "-player game"
                                         : "unless \"players\" is " + std::to_string(kMinPlayers);
            fail(path, o + " holds " + std::to_string(total) +
                           " accomplices, but a player has only " + std::to_string(limit) + " " +
                           game);
        }
    }

    // Whether the boats can stand where they are in a real voyage.
    void reachability(const State& s) {
        std::vector<std::pair<std::string, int>> positions;
        for (const StateBoat& b : s.boats)
            positions.emplace_back(kGoods[static_cast<std::size_t>(b.good)].name, b.position);
        const Problems found = reachability_problems(s.next_roll, positions);
        problems_.insert(problems_.end(), found.begin(), found.end());
    }

    Problems& problems_;
};

// notation.quote: a plain name as it is, any other as a JSON string.
std::string quote_owner(const std::string& owner) {
    const bool plain = !owner.empty() && std::all_of(owner.begin(), owner.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.' || c == '\'' || c == '+' || c == '-';
    });
    return plain ? owner : Json(owner).dumps();
}

}  // namespace

Problems read_rules(const Json& data, bool& thirteen_to_port, bool& pirate_variant) {
    Problems problems;
    if (data.is_null()) return problems;
    if (!data.is_object()) return {{"rules", "must be an object of rule options", ""}};
    for (const auto& [key, value] : data.members())
        if (!std::count(kRuleOptions.begin(), kRuleOptions.end(), key))
            problems.push_back(
                {"rules." + key,
                 "unknown rule option; the options are " + joined(kRuleOptions, " and "), ""});
    if (const Json* thirteen = data.find("thirteen_after_last_roll")) {
        if (thirteen->is_string() &&
            (thirteen->as_string() == "port" || thirteen->as_string() == "shipyard"))
            thirteen_to_port = thirteen->as_string() == "port";
        else
            problems.push_back({"rules.thirteen_after_last_roll",
                                "must be \"port\" or \"shipyard\", got " + py_repr(*thirteen), ""});
    }
    if (const Json* variant = data.find("pirate_variant")) {
        if (variant->is_bool())
            pirate_variant = variant->as_bool();
        else
            problems.push_back(
                {"rules.pirate_variant", "must be true or false, got " + py_repr(*variant), ""});
    }
    return problems;
}

std::vector<std::string> State::owners() const {
    std::vector<std::string> out;
    const auto add = [&out](const std::string& o) {
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    };
    for (const StateBoat& b : boats)
        for (const std::string& o : b.crew) add(o);
    for (const auto& [spot, o] : spots) add(o);
    if (player) add(*player);
    for (const auto& [o, held] : shares) add(o);
    for (const auto& [o, amount] : budget) add(o);
    for (const std::string& o : extra_owners) add(o);
    return out;
}

int State::accomplice_limit() const {
    return players ? accomplices_per_player(*players) : kAccomplices;
}

int State::on_board(const std::string& owner) const {
    int n = 0;
    for (const StateBoat& b : boats)
        n += static_cast<int>(std::count(b.crew.begin(), b.crew.end(), owner));
    for (const auto& [spot, o] : spots) n += o == owner;
    return n;
}

bool read_state(const Json& data, std::optional<bool> strict, State& out, Problems& problems) {
    Problems mine;
    const bool ok = StateReader(mine).read(data, strict, out);
    problems.insert(problems.end(), mine.begin(), mine.end());
    return ok;
}

Json state_json(const State& s) {
    Json out = Json::object();
    Json rules = Json::object();
    rules.set("thirteen_after_last_roll", s.thirteen_to_port ? "port" : "shipyard");
    rules.set("pirate_variant", s.pirate_variant);
    out.set("rules", rules);
    out.set("next_roll", s.next_roll);
    if (s.player) out.set("player", *s.player);
    if (s.players) out.set("players", *s.players);
    Json boats = Json::object();
    for (const StateBoat& b : s.boats) {
        Json boat = Json::object();
        boat.set("position", b.position == kArrived ? Json(kArrivedName) : Json(b.position));
        boat.set("crew", Json::array_of(b.crew));
        boats.set(kGoods[static_cast<std::size_t>(b.good)].name, boat);
    }
    out.set("boats", boats);
    Json spots = Json::object();
    for (const auto& [spot, o] : s.spots) spots.set(kSpotNames[static_cast<std::size_t>(spot)], o);
    out.set("spots", spots);
    if (s.wealth) out.set("objective", "wealth");
    if (!s.shares.empty()) {
        Json shares = Json::object();
        for (const auto& [o, counts] : s.shares) {
            Json held = Json::object();
            for (int g = 0; g < kNumGoods; ++g)
                if (counts[static_cast<std::size_t>(g)])
                    held.set(kGoods[static_cast<std::size_t>(g)].name,
                             counts[static_cast<std::size_t>(g)]);
            shares.set(o, held);
        }
        out.set("shares", shares);
    }
    Json prices = Json::object();
    for (int g = 0; g < kNumGoods; ++g)
        if (s.prices[static_cast<std::size_t>(g)])
            prices.set(kGoods[static_cast<std::size_t>(g)].name,
                       s.prices[static_cast<std::size_t>(g)]);
    if (!prices.members().empty()) out.set("prices", prices);
    if (!s.budget.empty()) {
        Json budget = Json::object();
        for (const auto& [o, amount] : s.budget) budget.set(o, amount);
        out.set("budget", budget);
    }
    return out;
}

std::string state_notation(const State& s) {
    std::vector<std::string> parts{"r" + std::to_string(s.next_roll)};
    for (const StateBoat& b : s.boats) {
        std::string item = std::string(kGoods[static_cast<std::size_t>(b.good)].name) + "@" +
                           (b.position == kArrived ? kArrivedName : std::to_string(b.position));
        std::vector<std::string> crew;
        for (const std::string& o : b.crew) crew.push_back(quote_owner(o));
        if (!crew.empty()) item += ":" + joined(crew, ",");
        parts.push_back(item);
    }
    for (const auto& [spot, o] : s.spots)
        parts.push_back(std::string(kSpotNames[static_cast<std::size_t>(spot)]) + "=" +
                        quote_owner(o));
    if (s.player) parts.push_back("player=" + quote_owner(*s.player));
    if (s.players) parts.push_back("players=" + std::to_string(*s.players));
    if (s.wealth) parts.push_back("wealth");
    for (const auto& [o, counts] : s.shares) {
        std::vector<std::string> held;
        for (int g = 0; g < kNumGoods; ++g)
            if (counts[static_cast<std::size_t>(g)])
                held.push_back(kGoods[static_cast<std::size_t>(g)].name +
                               std::to_string(counts[static_cast<std::size_t>(g)]));
        parts.push_back("shares=" + quote_owner(o) + ":" + joined(held, ","));
    }
    std::vector<std::string> priced;
    for (int g = 0; g < kNumGoods; ++g)
        if (s.prices[static_cast<std::size_t>(g)])
            priced.push_back(kGoods[static_cast<std::size_t>(g)].name +
                             std::to_string(s.prices[static_cast<std::size_t>(g)]));
    if (!priced.empty()) parts.push_back("prices=" + joined(priced, ","));
    for (const auto& [o, amount] : s.budget)
        parts.push_back("budget=" + quote_owner(o) + ":" + std::to_string(amount));
    if (!s.thirteen_to_port) parts.push_back("thirteen=shipyard");
    if (s.pirate_variant) parts.push_back("variant");
    return joined(parts, " ");
}

ProblemList problem_list(Problems problems) {
    ProblemList out;
    for (Problem& p : problems)
        out.emplace_back(std::move(p.path), std::move(p.message), std::move(p.remedy));
    return out;
}

ContractRead contract_read(std::optional<Json> value, Problems problems) {
    return {std::move(value), problem_list(std::move(problems))};
}

}  // namespace manila::api

namespace manila {

ProblemList reachability_problems(int next_roll,
                                  const std::vector<std::pair<std::string, int>>& positions) {
    return api::problem_list(api::reachability_problems(next_roll, positions));
}

ContractRead read_voyage_state(std::string_view text, std::optional<bool> strict) {
    return api::read_contract(
        text, [strict](const Json& data, api::Problems& problems) -> std::optional<Json> {
            api::State state;
            if (!api::read_state(data, strict, state, problems)) return std::nullopt;
            return api::state_json(state);
        });
}

}  // namespace manila

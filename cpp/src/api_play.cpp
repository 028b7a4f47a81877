// POST /v1/play: a game against the bots that the caller holds (docs/play.md), for the page's
// engine (call) and the server (play, with its PlayHost). Every refusal is a 400 naming the
// field, found before anything is played (nothing here throws on bad input).
//
// Through call (the page) there is no host: bots beyond the built-in ones (cmd: and
// module:Class bots play only on a server started with them) are refused as by a server
// without an allow-list, and the bots play to the player's next decision without a clock.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "api_internal.hpp"
#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/observation.hpp"
#include "manila/sha256.hpp"
#include "manila/words.hpp"

namespace manila::api {
namespace {

const std::vector<std::string> kPlayKeyNames(std::begin(kPlayKeys), std::end(kPlayKeys));
const std::vector<std::string> kNewKeys(std::begin(kPlayNewKeys), std::end(kPlayNewKeys));
const std::vector<std::string> kRecordKeys(std::begin(kPlayRecordKeys), std::end(kPlayRecordKeys));
constexpr const char* kMaxSeed = "18446744073709551615";  // 2**64 - 1

// A refusal: the message and the path of what is wrong.
struct Refused {
    Problem problem;
    bool set = false;
    bool operator()(std::string message, std::string path = "") {
        problem = {std::move(path), std::move(message), ""};
        set = true;
        return false;
    }
};

std::string hex16(std::uint64_t x) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
    return buf;
}

// Whether digits (no sign) are at most `high` (digits, no sign), as numbers.
bool at_most(const std::string& digits, const std::string& high) {
    return digits.size() < high.size() || (digits.size() == high.size() && digits <= high);
}

// A whole number (no bool) from low to high (as digits); its value below 2**64.
bool whole(const Json& v, const std::string& path, std::int64_t low, const std::string& high,
           std::uint64_t& out, Refused& refuse) {
    if (!v.is_integer())
        return refuse(
            "must be an integer " + std::to_string(low) + ".." + high + ", got " + py_repr(v),
            path);
    const bool below = v.negative() || (v.kind() == Json::Kind::kInt && v.as_int() < low);
    const std::string digits =
        v.kind() == Json::Kind::kBigInt ? v.as_string() : std::to_string(v.as_int());
    if (below || !at_most(digits, high))
        return refuse("must be " + std::to_string(low) + ".." + high + ", got " + py_repr(v), path);
    out = std::stoull(digits);
    return true;
}

// The built-in bots, in the order the server names them (its registry follows bot_names()),
// then the host's.
std::vector<std::string> known_bots(const PlayHost& host) {
    std::vector<std::string> known = bot_names();
    known.insert(known.end(), host.bots.begin(), host.bots.end());
    return known;
}

bool built_in(const std::string& name) { return contains(bot_names(), name); }

// Every seat's bot in seat order ("" for the player's). Only the built-in bots and those the
// host was started with (exact names): a request must never make a server run a program or
// import code.
bool seat_names(const Json& given, int players, int human, const std::string& path,
                const PlayHost& host, std::vector<std::string>& out, Refused& refuse) {
    const int others = players - 1;
    const std::vector<std::string> known = known_bots(host);
    std::vector<Json> names;
    if (given.is_null()) {
        names.assign(static_cast<std::size_t>(others), Json(kPlayDefaultBot));
    } else {
        if (!given.is_array() || static_cast<int>(given.items().size()) != others)
            return refuse("one bot name for each of the " + std::to_string(others) +
                              " other seats, in seat order",
                          path);
        names = given.items();
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
        const Json& name = names[i];
        const std::string where = path + "[" + std::to_string(i) + "]";
        const bool text = name.is_string();
        if (text && name.as_string().find(':') != std::string::npos &&
            !contains(known, name.as_string()))
            return refuse("bot " + py_repr(name) + " is not allowed: this server plays the bots " +
                              joined(known) +
                              "; a program (cmd:) or Python (module:Class) bot plays only if the "
                              "server is started with it, exactly as written, in an allow-list "
                              "(serve --allow-bot)",
                          where);
        if (!text || !contains(known, name.as_string()))
            return refuse("unknown bot " + py_repr(name) + did_you_mean(py_str(name), known) +
                              "; the bots are " + joined(known),
                          where);
        out.push_back(name.as_string());
    }
    out.insert(out.begin() + human, "");
    return true;
}

// A game being played: the state, the player's seat, a bot in every other seat with its
// own generator where a built-in bot draws (the host's bots keep none in the game).
struct Table {
    const PlayHost* host = nullptr;
    std::optional<GameState> state;
    int human = 0;
    std::vector<std::string> names;
    std::vector<std::optional<Rng>> rngs;
    int players() const { return state->num_players(); }
    std::string label(int p) const { return p == human ? "you" : player_name(p); }
};

// Each bot seeded as bots_for seeds it (bot_seed: derive_seed(seed, p + 1)).
void seat_bots(Table& t) {
    t.rngs.clear();
    for (std::size_t p = 0; p < t.names.size(); ++p) {
        if (built_in(t.names[p]) && bot_draws(bot_kind_of(t.names[p])))
            t.rngs.emplace_back(Rng(derive_seed(t.state->seed(), p + 1)));
        else
            t.rngs.emplace_back(std::nullopt);
    }
}

Json rules_json(const Rules& r) {
    Json out = Json::object();
    out.set("thirteen_after_last_roll", r.thirteen_to_port ? "port" : "shipyard");
    out.set("pirate_variant", r.pirate_variant);
    return out;
}

// The game's check: SHA-256 of the record without its check, keys sorted, compact, ASCII.
std::string checksum(const Json& record) {
    Json body = Json::object();
    for (const auto& [key, value] : record.members())
        if (key != "check") body.set(key, value);
    return sha256_hex(body.dumps_sorted()).substr(0, kPlayCheckDigits);
}

// The game as the page holds it: what the route needs to go on.
Json to_record(const Table& t) {
    const GameState& s = *t.state;
    Json record = Json::object();
    record.set("version", 1);
    record.set("game", "manila");
    record.set("players", s.num_players());
    record.set("seed", Json::integer(std::to_string(s.seed())));
    record.set("rules", rules_json(s.board().rules));
    record.set("history", Json::array_of(s.history()));
    record.set("rng", hex16(s.rng().state()));
    Json play = Json::object();
    play.set("version", kPlayVersion);
    play.set("human", t.human);
    Json bots = Json::array();
    for (const std::string& n : t.names)
        if (!n.empty()) bots.push(n);
    play.set("bots", bots);
    Json rngs = Json::array();
    for (const auto& r : t.rngs) rngs.push(r ? Json(hex16(r->state())) : Json());
    play.set("bot_rng", rngs);
    record.set("play", play);
    record.set("check", checksum(record));
    return record;
}

// A new game; the deal is not made yet.
bool new_table(const Json& spec, Table& t, Refused& refuse) {
    if (!spec.is_object())
        return refuse(R"(a new game is {"players": 4, "seed": 3, "human": 0, "bots": [...]})",
                      "new");
    for (const auto& [key, value] : spec.members())
        if (!contains(kNewKeys, key))
            return refuse(
                "unknown key" + did_you_mean(key, kNewKeys) + "; allowed: " + joined(kNewKeys),
                "new." + key);
    std::uint64_t players = 0, seed = 0, human = 0;
    const Json* given = spec.find("players");
    if (!whole(given ? *given : Json(4), "new.players", kMinPlayers, std::to_string(kMaxPlayers),
               players, refuse))
        return false;
    given = spec.find("seed");
    if (!whole(given ? *given : Json(0), "new.seed", 0, kMaxSeed, seed, refuse)) return false;
    given = spec.find("human");
    if (!whole(given ? *given : Json(0), "new.human", 0, std::to_string(players - 1), human,
               refuse))
        return false;
    t.human = static_cast<int>(human);
    if (!seat_names(get(spec, "bots"), static_cast<int>(players), t.human, "new.bots", *t.host,
                    t.names, refuse))
        return false;
    // Game(players, seed, rules).
    const Json& rules_given = get(spec, "rules");
    Rules rules;
    std::string error;
    if (!rules_given.is_null() && !rules_given.is_object())
        return refuse(
            "rules: a manila.Rules or a dict of rule options, got " + py_type_name(rules_given),
            "new.rules");
    if (!read_game_rules(rules_given, rules, error)) return refuse(error, "new.rules");
    t.state.emplace(static_cast<int>(players), rules, seed);
    seat_bots(t);
    return true;
}

// The game the page sent back, checked.
bool load_table(const Json& record, Table& t, Refused& refuse) {
    if (!record.is_object())
        return refuse("the game is the JSON object an earlier answer gave", "game");
    const Json& game = get(record, "game");
    if (!(game.is_string() && game.as_string() == "manila")) {
        if (record.find("history") && record.find("bots"))
            return refuse(
                "this is a line of simulate --record (a game the bots played), not a game of "
                "/v1/play: review it with POST /v1/review or python -m manila review; the play "
                "page goes on only with a game it saved",
                "game");
        return refuse(R"(not a manila game: the game the page saved has "game": "manila")",
                      "game.game");
    }
    const Json& play = get(record, "play");
    if (!play.is_object())
        return refuse("not a game of /v1/play: it has no play section (seat and bots)",
                      "game.play");
    if (!py_equals(get(play, "version"), kPlayVersion))
        return refuse("a game of play version " + py_repr(get(play, "version")) +
                          "; this server plays version " + std::to_string(kPlayVersion),
                      "game.play.version");
    for (const auto& [key, value] : record.members())
        if (!contains(kRecordKeys, key))
            return refuse("unknown key; a game has " + joined(kRecordKeys), "game." + key);
    const Json& check = get(record, "check");
    if (!(check.is_string() && check.as_string() == checksum(record)))
        return refuse("the game was changed after the server wrote it (its check does not match)",
                      "game.check");
    RecordFields fields;
    RecordProblem problem;
    const auto record_refusal = [&] {
        return refuse(problem.message, problem.field.empty() ? "game" : "game." + problem.field);
    };
    if (!read_record_fields(record, fields, problem)) return record_refusal();
    std::uint64_t human = 0;
    if (!whole(get(play, "human"), "game.play.human", 0, std::to_string(fields.players - 1), human,
               refuse))
        return false;
    t.human = static_cast<int>(human);
    if (!seat_names(get(play, "bots"), fields.players, t.human, "game.play.bots", *t.host, t.names,
                    refuse))
        return false;
    // The page's game goes on from where the seed's deals and rolls left it.
    if (!replay_record(fields, true, t.state, problem)) return record_refusal();
    const Json& rng = get(record, "rng");
    if (!(rng.is_string() && rng.as_string() == hex16(t.state->rng().state())))
        return refuse("the generator's state is not the one this history leaves", "game.rng");
    seat_bots(t);
    const Json& rngs = get(play, "bot_rng");
    if (!rngs.is_array() || static_cast<int>(rngs.items().size()) != fields.players)
        return refuse("one generator state (or null) per seat", "game.play.bot_rng");
    for (std::size_t p = 0; p < rngs.items().size(); ++p) {
        const Json& given = rngs.items()[p];
        const std::string where = "game.play.bot_rng[" + std::to_string(p) + "]";
        auto& rng_p = t.rngs[p];
        if (!rng_p != given.is_null())
            return refuse(!rng_p ? "this seat's bot has no generator" : "missing", where);
        if (rng_p) {
            bool hex = false;
            const std::optional<std::uint64_t> state = hex_state(given, hex);
            if (!state)
                return refuse(std::string(hex ? "a 64-bit" : "a hexadecimal") +
                                  " generator state, got " + py_repr(given),
                              where);
            rng_p->set_state(*state);
        }
    }
    return true;
}

// --------------------------------------------------------------------------- the log

std::string goods_list(const Json& goods) {
    std::vector<std::string> names;
    for (const Json& g : goods.items()) names.push_back(g.as_string());
    return names.empty() ? "none" : joined(names);
}

const char* good_name(int g) { return kGoods[static_cast<std::size_t>(g)].name; }

// Readable lines for the actions played, as the player sees them.
class Log {
  public:
    explicit Log(Table& t) : t_(t) {}

    void play(int a) {
        GameState& s = *t_.state;
        if (s.board().phase == Phase::kDeal) return deal(a);
        flush_deal();
        const Json snap = board_json(s);
        const int completed = s.voyages_completed();
        lines_.push_back(text(s, s.current_player(), a));
        s.apply_action(a);
        after(s, snap, completed);
    }

    std::vector<std::string> finish() {
        flush_deal();
        return lines_;
    }

  private:
    void deal(int a) {
        GameState& s = *t_.state;
        const int me = t_.human;
        const Board before = s.board();
        s.apply_action(a);
        const Board& now = s.board();
        for (int p = 0; p < s.num_players(); ++p) {
            const auto& b = before.players[static_cast<std::size_t>(p)];
            const auto& n = now.players[static_cast<std::size_t>(p)];
            if (p == me) {
                auto& mine = dealt_[p];
                for (int g = 0; g < kNumGoods; ++g)
                    if (n.shares[static_cast<std::size_t>(g)] >
                        b.shares[static_cast<std::size_t>(g)])
                        mine.emplace_back(good_name(g));
            } else {
                int was = 0, is = 0;
                for (int g = 0; g < kNumGoods; ++g)
                    was += b.dealt[static_cast<std::size_t>(g)],
                        is += n.dealt[static_cast<std::size_t>(g)];
                if (is > was) dealt_[p].emplace_back("?");
            }
        }
    }

    void flush_deal() {
        if (dealt_.empty()) return;
        const int me = t_.human;
        std::vector<std::string> mine = dealt_.count(me) ? dealt_[me] : std::vector<std::string>{};
        std::string text = "deal: you get " + (mine.empty() ? std::string("none") : joined(mine));
        std::vector<std::string> others;
        for (const auto& [p, v] : dealt_)
            if (p != me) others.push_back(player_name(p) + " " + std::to_string(v.size()));
        if (!others.empty()) text += " (face down: " + joined(others) + ")";
        lines_.push_back(text);
        dealt_.clear();
    }

    std::string text(const GameState& s, int mover, int a) const {
        const std::string name = action_name(a);
        if (mover < 0) {  // a roll: the dice in the boats' order
            const std::string dice = name.substr(name.find(' ') + 1);
            std::vector<std::string> parts;
            std::size_t from = 0;
            const Json board = board_json(s);
            for (const auto& [good, boat] : board.at("boats").members()) {
                if (from > dice.size()) break;
                const std::size_t to = dice.find('-', from);
                parts.push_back(good + " " +
                                dice.substr(from, to == std::string::npos ? to : to - from));
                from = to == std::string::npos ? dice.size() + 1 : to + 1;
            }
            return "roll: " + joined(parts);
        }
        const bool you = mover == t_.human;
        const std::string who = t_.label(mover);
        static const std::map<std::string, std::pair<const char*, const char*>> verbs{
            {"pass", {"pass", "passes"}},
            {"mortgage", {"mortgage a share", "mortgages a share"}},
            {"repay", {"repay a loan", "repays a loan"}},
            {"buy nothing", {"buy no share", "buys no share"}},
            {"decline", {"place no more this voyage", "places no more this voyage"}},
        };
        static const std::map<std::string, std::pair<const char*, const char*>> heads{
            {"bid", {"bid", "bids"}},
            {"buy", {"buy a share of", "buys a share of"}},
            {"board", {"board", "boards"}},
        };
        if (const auto v = verbs.find(name); v != verbs.end())
            return who + " " + (you ? v->second.first : v->second.second);
        const std::size_t space = name.find(' ');
        const std::string head = name.substr(0, space);
        const std::string rest = space == std::string::npos ? "" : name.substr(space + 1);
        if (const auto h = heads.find(head); h != heads.end())
            return who + " " + (you ? h->second.first : h->second.second) + " " + rest;
        if (head == "leave")
            return who + " " + (you ? "leave" : "leaves") + " " + rest.substr(0, rest.find(' ')) +
                   " at home";
        if (head == "start") return who + ": " + s.action_to_string(a);
        if (head == "place") return who + " " + (you ? "take" : "takes") + " " + spot_label(rest);
        return who + ": " + name;  // pilots and plunder: the name says it all
    }

    void after(const GameState& s, const Json& snap, int completed) {
        const Json now = board_json(s);
        const Json& hm = get(now, "harbour_master");
        if (get(snap, "phase").as_string() == "auction" &&
            get(now, "phase").as_string() != "auction" && !hm.is_null()) {
            const Json& bid = get(get(snap, "auction"), "high_bid");
            const int master = static_cast<int>(hm.as_int());
            std::string line =
                t_.label(master) + (master == t_.human ? " are" : " is") + " harbour master";
            if (bid.is_integer() && bid.as_int() != 0) line += " for " + py_repr(bid);
            lines_.push_back(line);
        }
        if (s.voyages_completed() > completed) settlement(snap, now, s.voyages_completed());
        if (s.is_terminal()) {
            const std::vector<int> wealth = s.returns();
            const int top = *std::max_element(wealth.begin(), wealth.end());
            std::vector<std::string> win, each;
            for (std::size_t p = 0; p < wealth.size(); ++p) {
                each.push_back(t_.label(static_cast<int>(p)) + " " + std::to_string(wealth[p]));
                if (wealth[p] == top) win.push_back(t_.label(static_cast<int>(p)));
            }
            const bool plural = (win.size() == 1 && win[0] == "you") || win.size() > 1;
            lines_.push_back("game over: " + joined(each) + "; " + joined(win, " and ") +
                             (plural ? " win" : " wins"));
        }
    }

    void settlement(const Json& before, const Json& now, int voyage) {
        const Json& last = get(now, "last_settlement");
        const Json& plundered = get(last, "plundered");
        lines_.push_back("voyage " + std::to_string(voyage) + ": in Manila " +
                         goods_list(get(last, "port")) + "; in the shipyard " +
                         goods_list(get(last, "shipyard")) +
                         (plundered.items().empty() ? "" : "; plundered " + goods_list(plundered)));
        std::vector<std::string> income;
        const auto& paid = get(last, "income").items();
        for (std::size_t p = 0; p < paid.size(); ++p)
            if (paid[p].as_int() != 0)
                income.push_back(t_.label(static_cast<int>(p)) + " +" +
                                 std::to_string(paid[p].as_int()));
        lines_.push_back("paid: " + (income.empty() ? std::string("nobody") : joined(income)));
        const Json& insurer = get(last, "insurer");
        const Json& insurance = get(last, "insurance_paid");
        if (!insurer.is_null() && insurance.is_integer() && insurance.as_int() != 0)
            lines_.push_back("insurance: " + t_.label(static_cast<int>(insurer.as_int())) +
                             " pays " + std::to_string(insurance.as_int()));
        std::vector<std::string> rises;
        for (const GoodInfo& g : kGoods) {
            const Json& was = get(get(before, "prices"), g.name);
            const Json& is = get(get(now, "prices"), g.name);
            if (was.as_int() != is.as_int())
                rises.push_back(std::string(g.name) + " " + std::to_string(was.as_int()) +
                                "\u2192" + std::to_string(is.as_int()));
        }
        if (!rises.empty()) lines_.push_back("prices: " + joined(rises));
    }

    Table& t_;
    std::vector<std::string> lines_;
    std::map<int, std::vector<std::string>> dealt_;
};

// --------------------------------------------------------------------------- a request

// Chance and the bots up to the player's decision or the end (true), or until the host's
// clock stops the bots before a move (false: the game is pending).
bool advance(Table& t, Log& log) {
    GameState& s = *t.state;
    while (!s.is_terminal()) {
        int a = 0;
        if (s.is_chance_node()) {
            a = s.sample_chance();
        } else {
            const int p = s.current_player();
            if (p == t.human) return true;
            if (t.host->stop && t.host->stop()) return false;
            const std::string& name = t.names[static_cast<std::size_t>(p)];
            if (built_in(name)) {
                Rng unused;
                auto& rng = t.rngs[static_cast<std::size_t>(p)];
                a = bot_action(bot_kind_of(name), s.seen_by(p), rng ? *rng : unused);
            } else {
                // The host's bot is handed the state and sees only its seat's view of it.
                a = t.host->move(name, p, s);
                const std::string reason = s.illegal_reason(a);
                if (!reason.empty())
                    throw std::runtime_error("bot " + py_repr(Json(name)) + " at seat " +
                                             std::to_string(p) + " played " + std::to_string(a) +
                                             ": " + reason);
            }
        }
        log.play(a);
    }
    return true;
}

std::vector<std::string> full_log(const Table& t) {
    Table replay{t.host, GameState(t.state->num_players(), t.state->board().rules, t.state->seed()),
                 t.human, t.names, t.rngs};
    Log log(replay);
    for (const int a : t.state->history()) log.play(a);
    return log.finish();
}

Json names_json(const std::vector<std::string>& names) {
    Json out = Json::array();
    for (const std::string& n : names) out.push(n);
    return out;
}

// The goods of the player's dealt shares, from their own history.
Json face_down(const GameState& s, int player) {
    Json out = Json::array();
    const Json seen = observation_json(s, player);
    for (const Json& a : seen.at("history").items()) {
        if (a.is_null()) continue;
        const std::string name = action_name(static_cast<int>(a.as_int()));
        if (name.rfind("deal ", 0) == 0) out.push(name.substr(5));
    }
    return out;
}

// The answer: the game to send back, the player's view and choices, the log.
Json answer(const Table& t, const std::vector<std::string>& lines, bool pending = false) {
    const GameState& s = *t.state;
    const GameState view = s.seen_by(t.human);
    const int current = s.current_player();
    Json out = Json::object();
    out.set("game", to_record(t));
    out.set("you", player_name(t.human));
    Json bots = Json::object();
    for (std::size_t p = 0; p < t.names.size(); ++p)
        if (!t.names[p].empty()) bots.set(player_name(static_cast<int>(p)), t.names[p]);
    out.set("bots", bots);
    out.set("phase", phase_name(s.board().phase));
    out.set("voyage", s.board().voyage);
    out.set("to_move", current >= 0 ? Json(player_name(current)) : Json());
    std::vector<std::string> legal;
    if (current == t.human)
        for (const int a : view.legal_actions()) legal.push_back(action_name(a));
    out.set("legal_actions", names_json(legal));
    out.set("terminal", s.is_terminal());
    out.set("pending", pending && !s.is_terminal());
    out.set("view", observation_json(view, t.human));
    out.set("face_down", face_down(s, t.human));
    out.set("log", names_json(lines));
    if (s.is_terminal()) {
        Json shares = Json::array();
        const Json board = board_json(s);
        for (const Json& p : board.at("players").items()) shares.push(p.at("shares"));
        Json winners = Json::array();
        const std::vector<int> wealth = s.returns();
        const int top = *std::max_element(wealth.begin(), wealth.end());
        for (std::size_t p = 0; p < wealth.size(); ++p)
            if (wealth[p] == top) winners.push(player_name(static_cast<int>(p)));
        Json final = Json::object();
        final.set("wealth", Json::array_of(wealth));
        final.set("winners", winners);
        final.set("shares", shares);
        out.set("final", final);
    }
    return out;
}

// engine.action_id of a name: the id of " ".join(name.split()), or -1.
int action_named(const std::string& name) {
    static const std::map<std::string, int> ids = [] {
        std::map<std::string, int> out;
        for (int a = 0; a < action::kNumActions; ++a) out.emplace(action_name(a), a);
        return out;
    }();
    const auto found = ids.find(py_split_joined(name));
    return found == ids.end() ? -1 : found->second;
}

// The player's action (none: only the bots and chance) and every reply.
bool play_move(Table& t, const std::optional<std::string>& action, bool whole_log, Json& out,
               Refused& refuse) {
    GameState& s = *t.state;
    Log log(t);
    if (action) {
        const std::string quoted = py_repr(*action);
        if (s.current_player() != t.human)
            return refuse(quoted + ": not your move, " +
                              (s.is_terminal() ? std::string("the game is over")
                                               : player_name(s.current_player()) + " is to move"),
                          "action");
        const int id = action_named(*action);
        if (id < 0)
            return refuse(quoted + ": " + quoted +
                              " is not the name of an action (e.g. 'pass', 'bid 7', 'place silk', "
                              "'start 3-2-4', 'roll 3-5-1')",
                          "action");
        const std::string reason = s.illegal_reason(id);
        if (!reason.empty())
            return refuse(quoted + ": " + unnamed_reason(*action, reason), "action");
        log.play(id);
    }
    const bool done = advance(t, log);
    std::vector<std::string> lines = log.finish();
    if (whole_log) lines = full_log(t);
    out = answer(t, lines, !done);
    return true;
}

// --------------------------------------------------------------------------- the hint

// engine.advice_action: the game's action name of an advice option in this phase.
std::string advice_action(Phase phase, const std::string& option) {
    if (phase == Phase::kPlacement) return option == "decline" ? option : "place " + option;
    if (phase == Phase::kSmallPilot || phase == Phase::kLargePilot) {
        std::string out = phase == Phase::kSmallPilot ? "small pilot: " : "large pilot: ";
        if (option == "none") return out + "none";
        // Every ([a-z]+)([+-]\d) in the option, as "good +1", joined by ", ".
        std::vector<std::string> moves;
        for (std::size_t i = 0; i < option.size(); ++i) {
            if (option[i] < 'a' || option[i] > 'z') continue;
            std::size_t j = i;
            while (j < option.size() && option[j] >= 'a' && option[j] <= 'z') ++j;
            if (j + 1 < option.size() && (option[j] == '+' || option[j] == '-') &&
                option[j + 1] >= '0' && option[j + 1] <= '9') {
                moves.push_back(option.substr(i, j - i) + " " + option.substr(j, 2));
                i = j + 1;
            } else {
                i = j - 1 + (j == i ? 1 : 0);
            }
        }
        return out + joined(moves);
    }
    const std::string displace = " displace ";
    const std::size_t at = option.find(displace);
    if (at != std::string::npos)
        return option.substr(0, at) + ", displacing seat " + option.substr(at + displace.size());
    return option;
}

std::string plain(const std::string& action) {
    if (action.rfind("place ", 0) == 0) return "take " + spot_label(action.substr(6));
    return action;
}

// "+1.50", "−0.25" (a minus sign).
std::string pesos(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.2f", x);
    std::string out;
    for (const char c : std::string(buf))
        out += c == '-' ? std::string("\u2212") : std::string(1, c);
    return out;
}

}  // namespace

Json game_voyage_json(const GameState& s, int player, int viewer, bool wealth, bool with_moment) {
    const int n = s.num_players();
    // The seats are checked whatever the moment: a call is wrong or right, not by the phase.
    if (player < -1 || player >= n)
        throw std::invalid_argument("player: " + std::to_string(player) + " is not a seat");
    if (viewer < -1 || viewer >= n)
        throw std::invalid_argument("viewer: " + std::to_string(viewer) + " is not a seat");
    const std::optional<Voyage> v = s.voyage();
    const char* kind = moment_kind(s.board().phase);
    if (!v || (with_moment && !kind)) return Json();
    const Board& b = s.board();
    Json out = Json::object();
    out.set("rules", rules_json(b.rules));
    out.set("next_roll", v->next_roll);
    if (player >= 0) out.set("player", player_name(player));
    out.set("players", n);
    Json boats = Json::object();
    std::vector<std::pair<std::string, int>> positions;  // each boat's good and space
    for (const Boat& boat : v->boats) {
        Json bd = Json::object();
        bd.set("position", boat.position == kArrived ? Json("arrived") : Json(boat.position));
        Json crew = Json::array();
        for (int k = 0; k < boat.crew_size; ++k)
            crew.push(player_name(boat.crew[static_cast<std::size_t>(k)]));
        bd.set("crew", crew);
        boats.set(good_name(boat.good), bd);
        positions.emplace_back(good_name(boat.good), boat.position);
    }
    out.set("boats", boats);
    Json spots = Json::object();
    for (int k = 0; k < kNumSpots; ++k)
        if (v->spots[static_cast<std::size_t>(k)] >= 0)
            spots.set(kSpotNames[static_cast<std::size_t>(k)],
                      player_name(v->spots[static_cast<std::size_t>(k)]));
    out.set("spots", spots);
    if (wealth) out.set("objective", "wealth");
    Json shares = Json::object();
    for (int p = 0; p < n; ++p) {
        std::array<int, kNumGoods> seen{};
        if (viewer >= 0)
            seen = known_shares(b, viewer, p, PrivateInfo::kSingle);
        else
            std::copy(v->shares[static_cast<std::size_t>(p)].begin(),
                      v->shares[static_cast<std::size_t>(p)].end(), seen.begin());
        Json held = Json::object();
        for (int g = 0; g < kNumGoods; ++g)
            if (seen[static_cast<std::size_t>(g)])
                held.set(good_name(g), seen[static_cast<std::size_t>(g)]);
        if (!held.members().empty()) shares.set(player_name(p), held);
    }
    out.set("shares", shares);
    Json prices = Json::object();
    for (int g = 0; g < kNumGoods; ++g)
        if (v->price[static_cast<std::size_t>(g)])
            prices.set(good_name(g), v->price[static_cast<std::size_t>(g)]);
    out.set("prices", prices);
    Json budget = Json::object();
    for (int o = 0; o < v->num_owners; ++o) {
        const int x = v->budget[static_cast<std::size_t>(o)];
        budget.set(player_name(o), x == kUnlimited ? -1 : x);
    }
    out.set("budget", budget);
    // A pilot may move a boat where no start leads: read without the strict checks.
    if (!reachability_problems(v->next_roll, positions).empty()) out.set("strict", false);
    if (!with_moment) return out;
    const int me = s.current_player();
    Json moment = Json::object();
    moment.set("kind", kind);
    moment.set("to_move", player_name(me));
    if (std::string(kind) == "placement") {
        Json order = Json::array();
        for (int k = 0; k < n; ++k) order.push(player_name((b.harbour_master + k) % n));
        moment.set("order", order);
        Json declined = Json::array();
        for (int p = 0; p < n; ++p)
            if ((b.declined >> p) & 1) declined.push(player_name(p));
        if (!declined.items().empty()) moment.set("declined", declined);
    } else if (std::string(kind) == "boarding" && b.guard_boat >= 0) {
        Json guard = Json::object();
        guard.set("good", positions[static_cast<std::size_t>(b.guard_boat)].first);
        guard.set("seat", b.guard_seat + 1);
        moment.set("protected", guard);
    }
    out.set("moment", moment);
    return out;
}

namespace {

bool advice_hint(const GameState& s, const Json& position, Json& out, Refused& refuse) {
    Position pos;
    Problems problems;
    if (!read_position(position, false, pos, problems))
        return refuse(problems.empty() ? "the position" : problems[0].message, "hint");
    const Json advice = advise_position(pos, false);
    const std::string kind = advice.at("kind").as_string();
    const Phase phase = s.board().phase;
    Json options = Json::array();
    std::string first;
    for (const auto& [name, v] : advice.at("options").members()) {
        Json o = Json::object();
        o.set("action", advice_action(phase, name));
        o.set("value", Json::number(v.at("expected_net").as_double()));
        o.set("cost", v.at("cost"));
        if (first.empty()) first = advice_action(phase, name);
        options.push(o);
    }
    const std::string best_name = advice.at("best").as_string();
    const std::string best = advice_action(phase, best_name);
    const double value = advice.at("options").at(best_name).at("expected_net").as_double();
    const bool placement = kind == "placement";
    const std::string against = placement ? "placing no more" : "'" + first + "'";
    Json words = Json::array();
    words.push("Best: " + plain(best) + ", " + pesos(value) + " pesos in wealth against " +
               against + ".");
    words.push(std::string("Exact: every player after you answers with their own best ") +
               (placement ? "for the rest of this round." : "for the rest of the voyage."));
    out = Json::object();
    out.set("source", "advice");
    out.set("exact", true);
    out.set("kind", kind);
    out.set("best", best);
    out.set("options", options);
    out.set("words", words);
    return true;
}

// The rollout analysis of the decision from the player's view.
bool analysis_hint(const Table& t, const GameState& view, int rollouts, Json& out,
                   Refused& refuse) {
    const GameState& s = *t.state;
    const std::uint64_t seed =
        derive_seed(s.seed(), kPlayHintSalt + static_cast<std::uint64_t>(s.history().size()));
    std::optional<GameState> table;
    int viewer = -1;
    std::string error;
    if (!read_game(observation_json(view, t.human), seed, table, viewer, error))
        return refuse(error, "hint");
    AnalysisConfig c;
    c.horizon = Horizon::kGame;  // equity, as the page's own hint (an office pays over the game)
    c.seed = seed;
    c.rollouts = rollouts;
    // The host's time, else as the server with its default time limit bounds it.
    const double seconds = t.host->hint_seconds >= 0
                               ? t.host->hint_seconds
                               : std::min(kPlayHintSeconds, kPlayHintTimeShare * kTimeLimit);
    c.time_limit = rollouts ? 0.0 : seconds;
    c.threads = 1;
    c.exact_answers = viewer == table->current_player();
    c.sample_hidden = true;
    c.screen = kHarbourScreen;
    // Fixed rollouts are all played, whatever the time (the analysis's rule): a hint still
    // answers within its time, with the rollouts played by then.
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    const AnalysisProgress in_time = [until](int, double) {
        return std::chrono::steady_clock::now() < until;
    };
    const Analysis a = analyse_decision(*table, c, rollouts ? in_time : AnalysisProgress{});
    // An option of the harbour master is a whole combination: the decision due now is its
    // first action; each is shown with its best combination.
    std::vector<std::pair<std::string, Json>> first;
    std::vector<double> values;
    for (std::size_t k = 0; k < a.options.size(); ++k) {
        const DecisionOption& o = a.options[k];
        const OptionValue& v = a.values[k];
        const std::string act = o.actions.empty() ? o.name : action_name(o.actions[0]);
        auto held =
            std::find_if(first.begin(), first.end(), [&](const auto& f) { return f.first == act; });
        if (held != first.end() &&
            !(v.mean > values[static_cast<std::size_t>(held - first.begin())]))
            continue;
        Json row = Json::object();
        row.set("action", act);
        row.set("value", Json::number(v.mean));
        row.set("ci95", Json::number(v.ci95));
        row.set("exact", v.exact);
        row.set("line", o.name);
        if (held == first.end()) {
            first.emplace_back(act, row);
            values.push_back(v.mean);
        } else {
            held->second = row;
            values[static_cast<std::size_t>(held - first.begin())] = v.mean;
        }
    }
    std::vector<std::size_t> order(first.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return -values[x] < -values[y]; });
    Json options = Json::array();
    for (const std::size_t k : order) options.push(first[k].second);
    const DecisionOption& best = a.options[static_cast<std::size_t>(a.best)];
    const std::string how =
        a.exact ? std::string("exact")
                : std::to_string(a.rollouts) + " rollouts, \u00b1 is a 95% interval";
    Json words = Json::array();
    for (const std::string& line : plain_words(words_of(a), true)) words.push(line);
    words.push("Values: your equity, your expected final wealth minus the others' mean (" + how +
               ", each ending at the next voyage with the learned value), the bots playing "
               "greedy-wealth.");
    out = Json::object();
    out.set("source", "analysis");
    out.set("exact", a.exact);
    out.set("kind", a.kind);
    out.set("best", best.actions.empty() ? best.name : action_name(best.actions[0]));
    out.set("options", options);
    out.set("words", words);
    return true;
}

// The answer for the game as it stands, with the hint.
bool play_hint(Table& t, int rollouts, Json& out, Refused& refuse) {
    const GameState& s = *t.state;
    if (s.current_player() != t.human) return refuse("no decision of yours is due", "hint");
    out = answer(t, {});
    const GameState view = s.seen_by(t.human);
    const Json position = view.current_player() == t.human
                              ? game_voyage_json(view, t.human, t.human, true, true)
                              : Json();
    Json hint;
    if (!(position.is_null() ? analysis_hint(t, view, rollouts, hint, refuse)
                             : advice_hint(s, position, hint, refuse)))
        return false;
    out.set("hint", hint);
    return true;
}

}  // namespace

Answer route_play(const Json& data, const PlayHost& host) {
    Refused refuse;
    const auto refused = [&] { return error_answer(400, {refuse.problem}); };
    if (!data.is_object()) {
        refuse(R"(the body is {"new": {...}} or {"game": ..., "action": "..."})");
        return refused();
    }
    for (const auto& [key, value] : data.members())
        if (!contains(kPlayKeyNames, key)) {
            refuse("unknown key" + did_you_mean(key, kPlayKeyNames) +
                       "; allowed: " + joined(kPlayKeyNames),
                   key);
            return refused();
        }
    const bool is_new = data.find("new") != nullptr;
    if (is_new == (data.find("game") != nullptr)) {
        refuse(R"(give either "new" (a new game) or "game" (the game an answer gave))");
        return refused();
    }
    const Json& action = get(data, "action");
    if (!action.is_null() && !action.is_string()) {
        refuse("an action's name such as 'bid 7' or 'place silk', got " + py_repr(action),
               "action");
        return refused();
    }
    const Json* hint_given = data.find("hint");
    const Json* log_given = data.find("log");
    const Json hint = hint_given ? *hint_given : Json(false);
    const Json whole_log = log_given ? *log_given : Json(false);
    for (const auto& [key, flag] :
         {std::pair<const char*, const Json*>{"hint", &hint}, {"log", &whole_log}})
        if (!flag->is_bool()) {
            refuse("true or false, got " + py_repr(*flag), key);
            return refused();
        }
    std::uint64_t rollouts = 0;
    if (const Json* given = data.find("rollouts"); given && !given->is_null()) {
        if (!hint.as_bool()) {
            refuse(R"(the rollouts of a hint's analysis: only with "hint": true)", "rollouts");
            return refused();
        }
        if (!whole(*given, "rollouts", kMinRollouts, std::to_string(kPlayHintMaxRollouts), rollouts,
                   refuse))
            return refused();
    }
    Table table;
    table.host = &host;
    std::optional<std::string> act;
    if (!action.is_null()) act = action.as_string();
    if (is_new) {
        if (act || hint.as_bool()) {
            refuse("a new game takes no action or hint: the bots and the deal move first", "new");
            return refused();
        }
        if (!new_table(*data.find("new"), table, refuse)) return refused();
    } else {
        if (act && hint.as_bool()) {
            refuse("ask for a hint or play an action, not both", "hint");
            return refused();
        }
        if (!load_table(*data.find("game"), table, refuse)) return refused();
    }
    Json out;
    const bool done = hint.as_bool() ? play_hint(table, static_cast<int>(rollouts), out, refuse)
                                     : play_move(table, act, whole_log.as_bool(), out, refuse);
    return done ? ok(out) : refused();
}

Answer route_play(const Json& data) { return route_play(data, PlayHost{}); }

}  // namespace manila::api

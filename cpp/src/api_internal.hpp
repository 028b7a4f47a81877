// The API's parts (api.hpp): Python's words for values, the readers and writers of the
// voyage state, the position and the notation, and the routes that use them. The readers of
// the voyage state, the position, the notation, the routes' bodies, the table, a record's
// fields and the rule options are Python's too (through the bindings); the heavy routes'
// options and a request's JSON errors follow a Python twin check for check (analysis/,
// common/limits.py, server/app.py), so that both report the same problems, in the same
// order and the same words; tests/test_contract.py holds them to it.
// Nothing here throws on bad input: a problem is collected, never raised.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "game_internal.hpp"
#include "manila/api.hpp"
#include "manila/game.hpp"
#include "manila/json.hpp"
#include "manila/rules.hpp"

namespace manila::api {

// The largest count the engine takes: its int (Python's limits.MAX_INT).
inline constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();

// dict.get(key): the member, or null when absent or `object` is no object (Python cannot tell
// the two apart there).
const Json& get(const Json& object, std::string_view key);
// name in names.
bool contains(const std::vector<std::string>& names, const std::string& name);

// ------------------------------------------------------------------ Python's words

// repr() of the value Python's json.loads makes of this JSON: 'text', True, None, 1.5,
// [1, 'a'], {'k': 2}.
std::string py_repr(const Json& v);
// repr() of a str.
std::string py_repr(const std::string& utf8);
// type(value).__name__: dict, list, str, int, float, bool, NoneType.
std::string py_type_name(const Json& v);
// common/inputs.json_type: "null", "true", "a number", "a string", "an array", ...
std::string json_type(const Json& v);
// str.isspace() and str.isprintable() of one code point.
bool py_isspace(char32_t c);
bool py_isprintable(char32_t c);
// A player's name (common/text.is_owner): a string that is not empty once stripped.
bool is_owner(const Json& v);
bool is_owner(const std::string& utf8);
// common/text.did_you_mean: ' (did you mean "silk"?)' for the closest choice, as difflib's
// get_close_matches finds it, or "" (also for a word that is not a string).
std::string did_you_mean(const Json& word, const std::vector<std::string>& choices);
std::string did_you_mean(const std::string& word, const std::vector<std::string>& choices);
// "1, 2 or 3" (common/text.spoken).
std::string spoken(const std::vector<int>& values);
// "a, b, c".
std::string joined(const std::vector<std::string>& words, const char* glue = ", ");
// "n/d" in lowest terms, as the exact JSON writes a value ("41/4").
std::string exact_text(std::int64_t num, std::int64_t den);

// common/inputs.json_error_text of a reading that failed with a decode error: "a value was
// expected at line 1 column 1".
std::string json_error_text(const JsonRead& read);

// ------------------------------------------------------------------ problems

// One thing wrong with an input (common/errors.Problem): a JSON path, why, and the remedy
// ("strict" or "") an option would offer.
struct Problem {
    std::string path, message, remedy;
};
using Problems = std::vector<Problem>;

// The 400 body: {"errors": [...]}, each problem about an unknown name followed by the
// closest known one (voyage/suggest.with_suggestions), remedies in the HTTP's words.
Json errors_json(const Problems& problems);
Answer error_answer(int status, const Problems& problems);

// ------------------------------------------------------------------ the voyage state

struct StateBoat {
    int good = 0;
    int position = 0;  // 0..13, or kArrived
    std::vector<std::string> crew;
};

struct State {
    int next_roll = 1;
    std::vector<StateBoat> boats;                    // canonical good order
    std::vector<std::pair<int, std::string>> spots;  // (spot, owner), canonical order
    std::optional<std::string> player;
    std::optional<int> players;
    bool thirteen_to_port = true, pirate_variant = false;
    bool wealth = false;
    // owner -> count per good, in the order given (owners holding none left out)
    std::vector<std::pair<std::string, std::array<int, kNumGoods>>> shares;
    std::array<int, kNumGoods> prices{};              // 0 where not given
    std::vector<std::pair<std::string, int>> budget;  // in the order given
    std::vector<std::string> extra_owners;            // a placement round's other players

    // Every owner named: crews in good order, spots, the player, shares, budget, extras
    // (VoyageState.owners); the engine numbers them in this order.
    std::vector<std::string> owners() const;
    int accomplice_limit() const;
    int on_board(const std::string& owner) const;
};

// A voyage state's rule options: the defaults stand where a problem is.
Problems read_rules(const Json& data, bool& thirteen_to_port, bool& pirate_variant);
// Why boats at these spaces cannot stand before roll `next_roll` (reachability_problems in
// api.hpp); the state's reader asks it of strict states.
Problems reachability_problems(int next_roll,
                               const std::vector<std::pair<std::string, int>>& positions);
// VoyageState.from_dict: true and `out` filled, or false with every problem.
bool read_state(const Json& data, std::optional<bool> strict, State& out, Problems& problems);
// VoyageState.to_dict and str(state) (the canonical notation).
Json state_json(const State& s);
std::string state_notation(const State& s);

// Problems as Python takes them; and what a reader read (none where it failed) with its.
ProblemList problem_list(Problems problems);
ContractRead contract_read(std::optional<Json> value, Problems problems);
// A reader's answer to Python: `text` read as JSON, then its value by
// `read(value, problems)`, which gives what it read as the contract writes it or, with
// problems, none.
template <class Read>
ContractRead read_contract(std::string_view text, Read read) {
    const JsonRead parsed = read_json(code_points(text), true);
    if (!parsed.ok)
        return contract_read(std::nullopt, {{"", "not JSON (" + parsed.reason + ")", ""}});
    Problems problems;
    std::optional<Json> value = read(parsed.value, problems);
    return contract_read(std::move(value), std::move(problems));
}
// The notation's reading into the JSON form (read_notation in api.hpp). A number
// past Python's int() limit raises a ValueError there, which no reader catches: its
// message goes to `value_error`, and the reading fails.
bool read_notation(std::string_view text, Json& out, Problems& problems, std::string& value_error);

// ------------------------------------------------------------------ positions

struct Moment {
    std::string kind;
    std::optional<std::string> to_move;
    std::vector<std::string> order;
    std::vector<std::pair<std::string, int>> accomplices;
    std::vector<std::string> declined;
    std::optional<std::pair<std::string, int>> protected_seat;  // (good, seat from 1)
};

struct Position {
    State state;
    Moment moment;
    std::string to_move() const;
    int hand(const std::string& player) const;
};

// Position.from_dict: true and `out` filled, or false with every problem.
bool read_position(const Json& data, std::optional<bool> strict, Position& out, Problems& problems);
// Moment.to_dict.
Json moment_json(const Moment& m);
// advise(position) and Advice.to_dict (POST /v1/advise's answer), floats unless `exact`.
Json advise_position(const Position& pos, bool exact);

// ------------------------------------------------------------------ games

// The advice's kind of a decision in this phase ("placement", "pilot_small", "pilot_large",
// "boarding": kMomentKinds), or nullptr where the advice does not reach.
const char* moment_kind(Phase phase);

// A game record (game/engine.py's read_record, then replay: every action checked): the
// state it reaches, or false with RecordError's text.
bool read_record(const Json& data, std::optional<GameState>& out, std::string& error);
// What the analysis routes take as a table (and read_table, for game/table.table_view):
// a serialized state, or one player's view with the others' face-down shares dealt from
// `seed`; `viewer` is that player (-1 for a serialized state). False with the ValueError's
// text. The engine's own refusals (a table no game reaches) throw, as for Python.
bool read_game(const Json& table, std::uint64_t seed, std::optional<GameState>& state, int& viewer,
               std::string& error);

// The state after every action of a record's history (engine.replay), each checked; with
// `seeded` every chance action must be the one the state's own generator draws there (and
// the generator is the one those draws leave).
bool replay_record(const RecordFields& record, bool seeded, std::optional<GameState>& out,
                   RecordProblem& problem);

// Python's `value == n` for a JSON value and an int: 1 == 1.0 == True.
bool py_equals(const Json& v, std::int64_t n);
// str(value) of what json.loads made (Python's str of an int, a float, a bool, ...).
std::string py_str(const Json& v);
// int(str(value), 16) when it is a state of a 64-bit generator (0..2**64-1), else nothing;
// `hex` says whether int() reads it at all.
std::optional<std::uint64_t> hex_state(const Json& given, bool& hex);
// " ".join(text.split()).
std::string py_split_joined(const std::string& text);
// The engine's reason without the action's name it starts with (engine.unnamed_reason).
std::string unnamed_reason(const std::string& action, const std::string& reason);
// ------------------------------------------------------------------ a heavy route's options

// A heavy route's body: an object of the route's `keys` that holds `required` (`what` says
// what it is), the whole numbers at `capped` from their least value to `cap` on a server
// ("from {low} to {cap}{unit} on this server").
struct HeavyShape {
    const char* route;
    std::vector<std::string> keys;
    const char* required;
    const char* what;
    std::vector<std::pair<const char*, std::int64_t>> capped;  // key, its least value
    std::int64_t cap;
    const char* unit;
};
// The shape of /v1/analyse's, /v1/value's or /v1/review's body, or nullptr.
const HeavyShape* heavy_shape(std::string_view route);
// True for a body of that shape, else false with its first problem.
bool heavy_body(const Json& body, const HeavyShape& shape, Problems& problems);
// Where a refusal belongs: an option's ("seed: must be ...") at its key; the table's or the
// record's (`input`, or no option's) within it, "players[0].cash: ..." at
// table.players[0].cash, the whole at "table" or "record".
Problem refusal_at(const std::string& error, const HeavyShape& shape, bool input);
// The 400 of a refusal so placed: body_refused at the option it names, else within the
// table or record; input_refused within the table or record whatever its first word.
Answer body_refused(const std::string& error, const HeavyShape& shape);
Answer input_refused(const std::string& error, const HeavyShape& shape);
// common/limits.check_number: a whole number from low to high (as text: 2**64-1 too), or
// any finite number from low to high; false with the ValueError's text.
bool check_whole(const Json& v, const char* name, std::int64_t low, const std::string& high,
                 std::string& error);
bool check_real(const Json& v, const char* name, double low, double high, std::string& error);
// analysis.check_choice: one of the choices, or false with the ValueError's text.
bool check_choice(const Json& v, const char* name, const std::vector<std::string>& choices,
                  std::string& error);

// ------------------------------------------------------------------ routes

// The routes' bodies (server/app.py): their answer with its status.
Answer route_validate(const Json& body);
Answer route_evaluate(const Json& body);
Answer route_advise(const Json& body);
Answer route_value(const Json& body);
Answer route_play(const Json& body);  // without a host: the page's
Answer route_play(const Json& body, const PlayHost& host);
Answer route_analyse(const Json& body);
// POST /v1/review: `progress` after every reviewed item; returning false stops it (503).
Answer route_review(const Json& body, const Progress& progress);

// An answer of status 200 with this body.
Answer ok(const Json& body);

}  // namespace manila::api

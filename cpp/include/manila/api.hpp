// The HTTP API's POST routes as one function: the page's engine (cpp/wasm/entry.cpp) and
// Python (manila._core.call) send it a route and the request's body, and it answers what
// the Python server answers for them (docs/http.md, docs/architecture.md): the same status
// and the same JSON, errors as the server's {"errors": [{"path", "message"}]}.
//
// The body is the request's bytes; the route a path such as "/v1/evaluate". A problem
// with the input is an answer, never an exception: only the engine's own refusals of what
// the readers let through (boards beyond any game that "strict": false allows) arrive as
// std::invalid_argument, which call turns into the server's 400 where it can catch them
// (answer_for_exception says how), and which trap in WebAssembly, where entry.cpp renders
// the same answer before the trap.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <typeinfo>
#include <utility>
#include <vector>

#include "manila/analysis.hpp"
#include "manila/evaluator.hpp"
#include "manila/game.hpp"
#include "manila/json.hpp"
#include "manila/value.hpp"

namespace manila {

struct Answer {
    int status = 200;
    std::string body;  // JSON text, as Python's json.dumps writes it
};

// Long work (POST /v1/review) calls `progress` with the items done and their total after
// each item; returning false stops it, and the answer is then a 503 (kStopped). Cancelled
// (cancel.hpp) passes through: a caller that set a token wants no answer.
using Progress = std::function<bool(int done, int total)>;
Answer call(std::string_view route, std::string_view body, const Progress& progress = {});

// POST /v1/play as a server plays it, beside what call gives the page: bots the server was
// started with besides the built-in ones (their moves from `move`), a clock for the bots
// (once `stop` says so before a bot's move, the answer is `pending`) and the hint's time.
// An exception thrown by `move` (a program that broke down) leaves play unanswered.
struct PlayHost {
    std::vector<std::string> bots;  // the allow-list: exact names, beside the built-in bots
    std::function<int(const std::string& bot, int seat, const GameState& state)> move;
    std::function<bool()> stop;
    double hint_seconds = -1;  // a hint's time without "rollouts"; < 0: call's default
};
Answer play(std::string_view body, const PlayHost& host);

// The answer the server gives when the engine throws while answering `route`: a
// ValueError's 400 for std::invalid_argument (and the other exceptions pybind11 makes
// ValueErrors of), naming no field, or on a heavy route the table's or record's field it
// names (heavy_refusal); else the 500 of an internal error. `type` is the thrown object's
// dynamic type.
Answer answer_for_exception(const std::type_info& type, const char* what,
                            std::string_view route = {});

// evaluate(dict)'s way in (voyage/evaluation.py): a voyage state as JSON values, read by
// the state's reader (the one /v1/evaluate reads with, `strict` as the body's "strict" when
// none is given) and evaluated with `threads`. Nothing when the reader refuses it: Python's
// own parser then reads it again and words every problem. The table's owners are numbered
// as `owners`, its boats in the order of `goods`.
struct StateEvaluation {
    Table table;
    std::vector<std::string> goods, owners;
};
std::optional<StateEvaluation> evaluate_state(const Json& state, std::optional<bool> strict,
                                              int threads);

// A table (one player's view of a game: docs/analysis.md) as a playable state, the others'
// face-down shares dealt from `seed`, and whose view it is (`viewer`); a serialized state
// is read as the record it is (`viewer` -1). `text` is the JSON, in json.loads' dialect.
// The one reader of tables: the routes' (analyse, value, play) and manila.game.table's.
// False with the first problem, naming its field, in `error`; the engine's refusals of a
// board no game reaches throw std::invalid_argument.
bool read_table(std::string_view text, std::uint64_t seed, std::optional<GameState>& state,
                int& viewer, std::string& error);

// The kinds of decision a position's moment names (docs/advice.md).
inline constexpr const char* kMomentKinds[] = {"placement", "pilot_small", "pilot_large",
                                               "boarding"};

// Keys a client may send beside a voyage state: request options, not part of the voyage.
inline constexpr const char* kStateRequestKeys[] = {"exact", "strict", "version"};

// Problems with what a caller gave, each as (path, message, remedy).
using ProblemList = std::vector<std::tuple<std::string, std::string, std::string>>;
// What a reader of the contract's JSON gives Python: the value read, written as the
// contract writes it, or none and every problem.
struct ContractRead {
    std::optional<Json> value;
    ProblemList problems;
};
// Why boats on these spaces (each boat's name and space, kArrived once it has arrived)
// cannot stand before roll `next_roll` in a real voyage, where the harbour master puts them
// on 0..5 summing to 9 and each has made a die's move per roll since; none if they can. The
// one check of it: the voyage state's reader makes it of strict states, Python's
// manila.voyage.reach asks it, and the page's table of reachable boards is drawn from it.
ProblemList reachability_problems(int next_roll,
                                  const std::vector<std::pair<std::string, int>>& positions);
// A voyage state's JSON (`text`, in json.loads' dialect) read as the contract says
// (docs/numbers.md; `strict` as VoyageState.from_dict takes it, none: the JSON's own
// "strict"): the one reader of voyage states, for the routes and for Python
// (manila.voyage.state, through the bindings). The state as VoyageState.to_dict writes it.
ContractRead read_voyage_state(std::string_view text, std::optional<bool> strict);
// A position's JSON (a voyage state with the decision that is due, its "moment":
// docs/advice.md), read likewise: the one reader of positions, for /v1/advise, the play
// route's hint and Python (manila.voyage.position). {"state": as VoyageState.to_dict
// writes it, "moment": as Moment.to_dict writes it, "extra_owners": the round's players
// the state does not name, who take part holding nothing yet}.
ContractRead read_position(std::string_view text, std::optional<bool> strict);

// What the body of /v1/validate, /v1/evaluate or /v1/advise asks for, its shape read (the
// state or position itself is read by its own reader): the one reader of it, for the
// routes and the server (server/app.py, through the bindings). {} when the body is the
// state or position; {"notation": ..., "exact": ..., "strict": ...} (the last two as given)
// when it is a notation.
ContractRead read_state_body(std::string_view text);
// The body of /v1/analyse, /v1/value or /v1/review (`route`), its shape checked: an object
// of the route's keys that holds its table or record, its rollouts within a server's
// bounds. The one check of it, for the routes and the server (server/app.py, through the
// bindings): {}, or its first problem. std::invalid_argument for another route.
ContractRead read_heavy_body(std::string_view text, std::string_view route);
// Where a refusal of such a body's option or of its table or record (`input`) belongs, as
// (path, message): "seed: must be ..." at seed, a table's "players[0].cash: ..." at
// table.players[0].cash. The one placing of them, for the routes and the server.
std::pair<std::string, std::string> heavy_refusal(std::string_view route, const std::string& error,
                                                  bool input);
// The one-line notation (docs/notation.md) read into its JSON form, only its syntax checked
// (the readers of the state and the position check the rest): the one reader of the
// notation, for the routes and for Python (manila.voyage.notation). A number past Python's
// int() limit is int()'s ValueError there: its message in `value_error`, and no value.
ContractRead read_notation(std::string_view text, std::string& value_error);
// The JSON value of a state key written as notation items `key=value`, one per value (the
// command line's --shares, --prices and --budget: manila.voyage.notation.read_option),
// null for none; the problems at `path`, each naming the value it is in.
ContractRead read_notation_option(std::string_view key, const std::vector<std::string>& values,
                                  const std::string& path, std::string& value_error);

namespace api {
// A game record's fields (State.serialize(), a line of simulate --record), each checked:
// the one reader of them, for the routes (read_record, the play route's saved game) and
// for Python (manila.game.engine.read_record, through the bindings). A refusal names the
// field, and `lead` says the JSON is no game record at all (RecordError's "not a game
// record"). The actions are checked by replaying them (replay_record).
struct RecordProblem {
    std::string message, field;
    bool lead = false;
    std::string text() const;  // str(RecordError)
};
struct RecordFields {
    int players = 4;
    std::uint64_t seed = 0;
    Rules rules{};
    const Json* history = nullptr;  // the record's list of action ids (whole numbers)
    std::optional<std::uint64_t> rng;
};
bool read_record_fields(const Json& data, RecordFields& out, RecordProblem& problem);
// A game's rule options (docs/rules.md) as Game(players, seed, rules) takes them: the one
// reader of them (the records', the tables', the play route's and, through the bindings,
// manila.game.Game's). False with the first problem as a line ("path: message").
bool read_game_rules(const Json& given, Rules& rules, std::string& error);
// The voyage in progress in a game as the contract's JSON (docs/numbers.md), or null before
// the boats are placed and once roll 3 is over: the players named p0, p1, ...; `player` the
// point of view (-1: none); every player's shares as `viewer` sees them (-1: the referee's
// view, every share); "objective": "wealth" with `wealth`; "strict": false where a pilot
// moved a boat where no start leads. With `moment`, the decision due as a position
// (docs/advice.md), or null where none is. The one writer of it: manila.game's
// voyage_state and position (State's and PlayerView's), and the play route's hint.
Json game_voyage_json(const GameState& s, int player, int viewer, bool wealth, bool moment);
}  // namespace api

// The contract's JSON of an evaluation: row `row` of a table, its sailing goods and its
// owners by the table's numbering (docs/numbers.md), numbers as floats or, `exact`, "n/d".
Json evaluation_json(const Table& t, int row, const std::vector<std::string>& goods,
                     const std::vector<std::string>& owners, bool exact);

// An advice's numbers (over `denominator`) and the JSON of them (docs/advice.md).
struct AdviceAnswer {
    std::string kind, to_move;
    std::vector<std::string> names;  // the options, in their order
    std::vector<int> costs;
    std::vector<std::int64_t> nets;  // each option's value to the decider minus option 0's
    std::int64_t denominator = 1;
    int best = 0;
    std::vector<std::pair<std::string, std::string>> line;  // (player, option) from the best on
    std::vector<std::int64_t> payoffs;                      // every owner's after the line
};
Json advice_json(const AdviceAnswer& a, const std::vector<std::string>& owners, bool exact);

// The contract's JSON of an analysis (docs/analysis.md) and of a position's value from
// model `m` asked as `c` (docs/value.md): what /v1/analyse and /v1/value answer, and what
// manila's Analysis.to_dict and Value.to_dict give (the bindings hand it to Python).
Json analysis_json(const Analysis& a);
Json value_json(const GameState& s, const ValueModel& m, const ValueConfig& c,
                const ValueAnswer& a);

// The POST routes call serves, in the server's spelling.
inline constexpr const char* kRoutes[] = {"/v1/validate", "/v1/evaluate", "/v1/advise", "/v1/value",
                                          "/v1/analyse",  "/v1/review",   "/v1/play"};

// Bounds on what a request may ask, the server's as call's (common/limits.py and
// server/openapi.py read them from here).
inline constexpr int kMaxRollouts = 1000000;    // per option or chance event: hours of work
inline constexpr int kValueMaxRollouts = 1000;  // for one POST /v1/value
inline constexpr int kValueRollouts = 200;      // a value's play-outs when none are asked
// The keys of a POST /v1/value body.
inline constexpr const char* kValueKeys[] = {"table", "policy", "rollouts", "seed"};

// POST /v1/play (docs/play.md; the server reads these from here).
inline constexpr int kPlayVersion = 1;  // the "play" section of a saved game
// The keys of a request, of its "new" game, and of the game an answer gives.
inline constexpr const char* kPlayKeys[] = {"new", "game", "action", "hint", "log", "rollouts"};
inline constexpr const char* kPlayNewKeys[] = {"players", "seed", "human", "bots", "rules"};
inline constexpr const char* kPlayRecordKeys[] = {"version", "game", "players", "seed", "rules",
                                                  "history", "rng",  "play",    "check"};
inline constexpr const char* kPlayDefaultBot = "expert";  // every other seat unless named
// A hint's analysis: seconds of rollouts (the server's default), or with "rollouts" in the
// request a fixed number per option, at most this many (deterministic: the same everywhere).
inline constexpr double kPlayHintSeconds = 4.0;
// ... within this share of the time left for the request (the bots' turn: within half of
// it, then the answer is "pending"; call has no clock of the request's: see kTimeLimit).
inline constexpr double kPlayHintTimeShare = 0.6;
inline constexpr double kPlayBotsTimeShare = 0.5;
inline constexpr int kPlayHintMaxRollouts = 2000;
// The hint's analysis draws from derive_seed(game seed, kPlayHintSalt + move number).
inline constexpr std::uint64_t kPlayHintSalt = 1000000;
// The checksum of a saved game: this many hex digits of SHA-256.
inline constexpr int kPlayCheckDigits = 32;
// The server's time limit for one request, from its headers to its answer, by default
// (server/app.py's TIME_LIMIT); call, which has no clock of the request's, uses this one.
inline constexpr double kTimeLimit = 10.0;
// POST /v1/analyse: at most this many rollouts per option (its max_rollouts too), one
// thread, and the analysis stops by itself within this share of the request's time limit.
inline constexpr int kAnalysisMaxRollouts = 2000;
inline constexpr double kAnalysisTimeShare = 0.8;
// The keys of a POST /v1/analyse body: the table, then manila.analyse's options a request
// may set (the others are the server's: max_rollouts, threads).
inline constexpr const char* kAnalysisKeys[] = {"table",    "horizon", "value",      "policy",
                                                "rollouts", "seed",    "time_limit", "exact",
                                                "max_bids", "screen"};

// POST /v1/review: the keys of its body, the most rollouts per option and per chance event
// a request may ask, and the budget a request gets when it says nothing of "quick".
inline constexpr const char* kReviewKeys[] = {
    "record", "horizon", "value", "policy", "seed", "quick", "rollouts", "luck_rollouts", "exact"};
inline constexpr int kReviewMaxRollouts = 64;
inline constexpr bool kReviewQuick = true;
// What call answers (503) when `progress` stopped the work.
inline constexpr const char* kStopped = "stopped before the end (the caller cancelled it)";

}  // namespace manila

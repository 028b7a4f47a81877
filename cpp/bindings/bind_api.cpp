#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis_args.hpp"
#include "json_values.hpp"
#include "manila/api.hpp"
#include "manila/sha256.hpp"
#include "manila/words.hpp"

namespace py = pybind11;
using namespace manila;

void register_api(py::module_& m) {
    // The writers of the voyage's answers: Evaluation.to_dict and Advice.to_dict give what
    // the routes answer.
    m.def(
        "evaluation_json",
        [](const Table& t, int row, const std::vector<std::string>& goods,
           const std::vector<std::string>& owners, bool exact) {
            return manila_bindings::to_python(evaluation_json(t, row, goods, owners, exact));
        },
        py::arg("table"), py::arg("row"), py::arg("goods"), py::arg("owners"), py::arg("exact"));
    m.def(
        "advice_json",
        [](std::string kind, std::string to_move, std::vector<std::string> names,
           std::vector<int> costs, std::vector<std::int64_t> nets, std::int64_t denominator,
           int best, std::vector<std::pair<std::string, std::string>> line,
           std::vector<std::int64_t> payoffs, const std::vector<std::string>& owners, bool exact) {
            AdviceAnswer a;
            a.kind = std::move(kind);
            a.to_move = std::move(to_move);
            a.names = std::move(names);
            a.costs = std::move(costs);
            a.nets = std::move(nets);
            a.denominator = denominator;
            a.best = best;
            a.line = std::move(line);
            a.payoffs = std::move(payoffs);
            return manila_bindings::to_python(advice_json(a, owners, exact));
        },
        py::arg("kind"), py::arg("to_move"), py::arg("names"), py::arg("costs"), py::arg("nets"),
        py::arg("denominator"), py::arg("best"), py::arg("line"), py::arg("payoffs"),
        py::arg("owners"), py::arg("exact"));
    // The readers of the contract's JSON: (what was read, as the contract writes it, []) or
    // (None, every problem as (path, message, remedy)).
    const auto problem_list = [](const ProblemList& problems) {
        using manila_bindings::to_python_str;
        py::list out;
        for (const auto& [path, message, remedy] : problems)
            out.append(
                py::make_tuple(to_python_str(path), to_python_str(message), to_python_str(remedy)));
        return out;
    };
    const auto contract_read = [problem_list](const ContractRead& read) {
        return py::make_tuple(
            read.value ? manila_bindings::to_python(*read.value) : py::object(py::none()),
            problem_list(read.problems));
    };
    m.def(
        "game_voyage_json",
        [](const GameState& s, int player, int viewer, bool wealth, bool moment) {
            return manila_bindings::to_python(
                api::game_voyage_json(s, player, viewer, wealth, moment));
        },
        py::arg("state"), py::arg("player"), py::arg("viewer"), py::arg("wealth"),
        py::arg("moment"),
        "The voyage in progress as the contract's JSON, or None: `player` the point of view (-1: "
        "none), the shares as `viewer` sees them (-1: every share), the objective wealth or "
        "income; with `moment`, the decision due as a position, or None where none is.");
    // The readers of a voyage state and of a position (`strict` None: the JSON's own).
    using StateReader = ContractRead (*)(std::string_view, std::optional<bool>);
    for (const auto& [name, read, doc] : {
             std::tuple<const char*, StateReader, const char*>{
                 "read_voyage_state", &read_voyage_state,
                 "(the state as VoyageState.to_dict writes it, []) of a voyage state's JSON, or "
                 "(None, every problem as (path, message, remedy)); `strict` None: the JSON's "
                 "own."},
             {"read_position", &read_position,
              "({\"state\": as VoyageState.to_dict writes it, \"moment\": as Moment.to_dict "
              "writes it, \"extra_owners\": the round's players the state does not name}, []) "
              "of a position's JSON, or (None, every problem as (path, message, remedy))."},
         })
        m.def(
            name,
            [contract_read, read = read](const std::string& text, std::optional<bool> strict) {
                return contract_read(read(text, strict));
            },
            py::arg("text"), py::arg("strict"), doc);
    m.def(
        "read_state_body",
        [contract_read](const std::string& text) { return contract_read(read_state_body(text)); },
        py::arg("text"),
        "({} for a body that is the state or position itself, or {\"notation\": ..., "
        "\"exact\": ..., \"strict\": ...} as given, []) of the body of /v1/validate, "
        "/v1/evaluate or /v1/advise, or (None, every problem as (path, message, remedy)).");
    m.def(
        "read_heavy_body",
        [contract_read](const std::string& text, const std::string& route) {
            return contract_read(read_heavy_body(text, route));
        },
        py::arg("text"), py::arg("route"),
        "({}, []) for the body of a heavy route (/v1/analyse, /v1/value, /v1/review) of its "
        "shape and within a server's bounds, or (None, [its first problem]).");
    m.def("heavy_refusal", &heavy_refusal, py::arg("route"), py::arg("error"), py::arg("input"),
          "(path, message): where a heavy route's refusal belongs, an option's at its key, its "
          "table's or record's (input=True, or no option's) within it: table.players[0].cash.");
    m.def(
        "reachability_problems",
        [problem_list](int next_roll, const std::vector<std::pair<std::string, int>>& positions) {
            return problem_list(reachability_problems(next_roll, positions));
        },
        py::arg("next_roll"), py::arg("positions"),
        "Why boats on these spaces ((name, space) each, ARRIVED once arrived) cannot stand "
        "before roll next_roll in a real voyage, as (path, message, remedy); [] if they can.");
    // The notation's readers; a number past int()'s limit is int()'s ValueError, as in Python.
    const auto notation_read = [contract_read](const ContractRead& read,
                                               const std::string& value_error) {
        if (!value_error.empty()) manila_bindings::raise_value_error(value_error);
        return contract_read(read);
    };
    m.def(
        "read_notation",
        [notation_read](const py::str& text) {
            std::string value_error;
            const ContractRead read =
                read_notation(manila_bindings::from_python_str(text), value_error);
            return notation_read(read, value_error);
        },
        py::arg("text"),
        "(the state or position in its JSON form, []) of a notation, only its syntax checked, "
        "or (None, every problem as (path, message, remedy)); ValueError for a number past "
        "int()'s limit.");
    m.def(
        "read_notation_option",
        [notation_read](const py::str& key, const std::vector<py::str>& values,
                        const py::str& path) {
            std::vector<std::string> texts;
            for (const py::str& v : values) texts.push_back(manila_bindings::from_python_str(v));
            std::string value_error;
            const ContractRead read =
                read_notation_option(manila_bindings::from_python_str(key), texts,
                                     manila_bindings::from_python_str(path), value_error);
            return notation_read(read, value_error);
        },
        py::arg("key"), py::arg("values"), py::arg("path"),
        "(the JSON value of a state key written as notation items key=value, one per value "
        "(None for none), []) or (None, every problem at `path`); ValueError for a number past "
        "int()'s limit.");
    m.def(
        "read_game_rules",
        [](const std::string& text) {
            Rules rules;
            std::string error;
            if (!api::read_game_rules(manila_bindings::from_text(text, "rules"), rules, error))
                manila_bindings::raise_value_error(error);
            return py::make_tuple(rules.thirteen_to_port, rules.pirate_variant);
        },
        py::arg("text"),
        "(thirteen_to_port, pirate_variant) of a game's rule options given as JSON (null: the "
        "defaults); ValueError with the first problem as a line (\"path: message\").");
    m.def(
        "read_record_fields",
        [](const std::string& text) -> py::tuple {
            const Json data = manila_bindings::from_text(text, "record");
            api::RecordFields f;  // its history points into `data`
            api::RecordProblem problem;
            if (!api::read_record_fields(data, f, problem))
                return py::make_tuple(
                    py::none(),
                    py::make_tuple(manila_bindings::to_python_str(problem.message),
                                   manila_bindings::to_python_str(problem.field), problem.lead));
            const py::object rng = f.rng ? py::object(py::int_(*f.rng)) : py::object(py::none());
            return py::make_tuple(
                py::make_tuple(f.players, f.seed, f.rules.thirteen_to_port, f.rules.pirate_variant,
                               manila_bindings::to_python(*f.history), rng),
                py::none());
        },
        py::arg("text"),
        "((players, seed, thirteen_to_port, pirate_variant, history, rng or None), None) of a "
        "game record's JSON, its fields checked (not its actions), or (None, (message, field, "
        "lead)) for the first problem: RecordError's parts, lead when it is no game record.");
    m.def(
        "call",
        [](const std::string& route, const std::string& body,
           std::optional<std::function<bool(int, int)>> progress) {
            PythonProgress<int, int> report(std::move(progress));
            Answer a;
            {
                // The route and body are C++ strings by now: the engine touches no Python
                // object while it works (an advice search may take seconds, a review
                // minutes); the progress callback takes the GIL back.
                py::gil_scoped_release release;
                a = call(route, body, report.callback());
            }
            report.rethrow_if_failed();
            return std::make_pair(a.status, py::str(a.body));
        },
        py::arg("route"), py::arg("body"), py::arg("progress") = py::none(),
        "(status, JSON text) the server answers to a POST of `body` (bytes, or str as UTF-8) "
        "to `route` (docs/architecture.md). Long work (/v1/review) calls progress(done, "
        "total) after each item; False stops it (a 503).");
    m.def(
        "play",
        [](const std::string& body, const std::vector<std::string>& bots,
           std::optional<std::function<int(const std::string&, int, const GameState&)>> move,
           std::optional<std::function<bool()>> stop, double hint_seconds) {
            PlayHost host;
            host.bots = bots;
            if (move) host.move = std::move(*move);
            if (stop) host.stop = std::move(*stop);
            host.hint_seconds = hint_seconds;
            Answer a;
            {
                py::gil_scoped_release release;  // the callbacks take the GIL back
                a = play(body, host);
            }
            return std::make_pair(a.status, py::str(a.body));
        },
        py::arg("body"), py::arg("bots") = std::vector<std::string>{}, py::arg("move") = py::none(),
        py::arg("stop") = py::none(), py::arg("hint_seconds") = -1.0,
        "(status, JSON text) of POST /v1/play as a server answers it: `bots` the names it plays "
        "besides the built-in ones, move(bot, seat, state) their action, stop() True once the "
        "bots must stop (the game is then pending), `hint_seconds` a hint's time (< 0: call's). "
        "What move raises comes out of play.");
    // A list of the engine's names as a tuple of str.
    const auto strings = [](const auto& list) {
        py::list out;
        for (const char* k : list) out.append(k);
        return py::tuple(out);
    };
    m.attr("ROUTES") = strings(kRoutes);
    m.attr("STATE_REQUEST_KEYS") = strings(kStateRequestKeys);
    m.attr("MOMENT_KINDS") = strings(kMomentKinds);
    m.attr("MAX_ROLLOUTS") = kMaxRollouts;
    m.attr("MIN_ROLLOUTS") = kMinRollouts;
    m.attr("VALUE_MAX_ROLLOUTS") = kValueMaxRollouts;
    m.attr("VALUE_ROLLOUTS") = kValueRollouts;
    m.attr("VALUE_KEYS") = strings(kValueKeys);
    // POST /v1/play's facts (server/play.py, server/openapi.py).
    m.attr("PLAY_VERSION") = kPlayVersion;
    m.attr("PLAY_KEYS") = strings(kPlayKeys);
    m.attr("PLAY_NEW_KEYS") = strings(kPlayNewKeys);
    m.attr("PLAY_RECORD_KEYS") = strings(kPlayRecordKeys);
    m.attr("PLAY_DEFAULT_BOT") = kPlayDefaultBot;
    m.attr("PLAY_HINT_SECONDS") = kPlayHintSeconds;
    m.attr("PLAY_HINT_TIME_SHARE") = kPlayHintTimeShare;
    m.attr("PLAY_BOTS_TIME_SHARE") = kPlayBotsTimeShare;
    m.attr("PLAY_HINT_MAX_ROLLOUTS") = kPlayHintMaxRollouts;
    m.attr("PLAY_HINT_SALT") = kPlayHintSalt;
    m.attr("PLAY_CHECK_DIGITS") = kPlayCheckDigits;
    m.def(
        "sha256_hex", [](const py::bytes& data) { return sha256_hex(std::string(data)); },
        py::arg("data"), "SHA-256 of the bytes, in lowercase hex (the play route's checksum).");
    // The words players read (manila/words.hpp).
    py::dict labels;
    for (const auto& [spot, label] : spot_labels()) labels[py::str(spot)] = label;
    m.attr("SPOT_LABELS") = labels;
    m.def(
        "plain_words",
        [](const std::string& decider, const std::string& kind, const std::string& horizon,
           const std::vector<std::tuple<std::string, double, double, double, double>>& options,
           std::size_t best, std::optional<int> worth, int screened_out, bool to_decider) {
            AnalysisWords a;
            a.decider = decider;
            a.kind = kind;
            a.horizon = horizon;
            for (const auto& [name, mean, ci95, diff, diff_ci95] : options)
                a.options.push_back({name, mean, ci95, diff, diff_ci95});
            if (best >= a.options.size())
                throw std::invalid_argument("best: not an option's index");
            a.best = best;
            a.worth = worth;
            a.screened_out = screened_out;
            return plain_words(a, to_decider);
        },
        py::kw_only(), py::arg("decider"), py::arg("kind"), py::arg("horizon"), py::arg("options"),
        py::arg("best"), py::arg("worth"), py::arg("screened_out"), py::arg("to_decider") = false,
        "An analysis in plain words: options as (name, mean, ci95, diff, diff_ci95), best "
        "their index; to_decider: said to the decider, their seat as \"you\" "
        "(manila.analysis.Analysis.plain_words).");
    m.attr("TIME_LIMIT") = kTimeLimit;
    m.attr("ANALYSIS_MAX_ROLLOUTS") = kAnalysisMaxRollouts;
    m.attr("ANALYSIS_TIME_SHARE") = kAnalysisTimeShare;
    m.attr("ANALYSIS_KEYS") = strings(kAnalysisKeys);
    m.attr("REVIEW_KEYS") = strings(kReviewKeys);
    m.attr("REVIEW_MAX_ROLLOUTS") = kReviewMaxRollouts;
    m.attr("REVIEW_QUICK") = kReviewQuick;
    m.attr("STOPPED") = kStopped;
}

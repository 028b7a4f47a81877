#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bot_names.hpp"
#include "manila/analysis.hpp"
#include "manila/game.hpp"
#include "manila/table.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

Horizon horizon_named(const std::string& name) {
    if (name == "voyage") return Horizon::kVoyage;
    if (name == "game") return Horizon::kGame;
    throw std::invalid_argument("horizon: must be \"voyage\" or \"game\", got \"" + name + "\"");
}

Phase phase_named(const std::string& name) {
    for (int p = 0; p < kNumPhases; ++p)
        if (name == phase_name(static_cast<Phase>(p))) return static_cast<Phase>(p);
    throw std::invalid_argument("phase: no phase is called \"" + name + "\"");
}

py::dict analysis_dict(const Analysis& a) {
    py::dict d;
    d["decider"] = a.decider;
    d["kind"] = a.kind;
    d["horizon"] = horizon_name(a.config.horizon);
    d["rollouts"] = a.rollouts;
    d["seed"] = a.config.seed;
    d["exact"] = a.exact;
    d["stop"] = a.stop;
    d["seconds"] = a.seconds;
    d["target"] = a.config.target;
    d["gap_ci95"] = a.best_gap_ci95;
    d["best"] = a.best;
    d["screened_out"] = a.screened_out;
    py::list options;
    for (std::size_t k = 0; k < a.options.size(); ++k) {
        const OptionValue& v = a.values[k];
        py::dict o;
        o["name"] = a.options[k].name;
        o["actions"] = a.options[k].actions;
        o["mean"] = v.mean;
        o["ci95"] = v.ci95;
        o["diff"] = v.diff;
        o["diff_ci95"] = v.diff_ci95;
        o["rollouts"] = v.rollouts;
        o["exact"] = v.exact;
        if (a.config.horizon == Horizon::kGame) {
            o["margin"] = v.margin;
            o["margin_ci95"] = v.margin_ci95;
        }
        options.append(o);
    }
    d["options"] = options;
    return d;
}

}  // namespace

void register_analysis(py::module_& m) {
    m.def("decision_kind", &decision_kind, py::arg("state"));
    m.def(
        "decision_options",
        [](const GameState& s, int max_bids) {
            std::vector<std::pair<std::string, std::vector<int>>> out;
            for (const DecisionOption& o : decision_options(s, max_bids))
                out.emplace_back(o.name, o.actions);
            return out;
        },
        py::arg("state"), py::arg("max_bids") = 0);

    // Rollouts take from milliseconds to minutes: they run on a copy of the state with the
    // GIL released (they touch no Python object). The progress callback, between batches on
    // this thread, takes the GIL back; an exception it raises stops the analysis and is
    // raised again here.
    m.def(
        "analyse_decision",
        [](const GameState& s, const std::string& horizon, const std::string& policy,
           std::uint64_t seed, int rollouts, int max_rollouts, double time_limit, double target,
           int batch, int threads, int max_bids, bool exact_shortcut, bool exact_answers,
           bool sample_hidden, bool racing, int screen, bool relative,
           std::optional<std::function<bool(int, double)>> progress) {
            AnalysisConfig c;
            c.horizon = horizon_named(horizon);
            c.policy = bot_kinds({policy}).front();
            c.seed = seed;
            c.rollouts = rollouts;
            c.max_rollouts = max_rollouts;
            c.time_limit = time_limit;
            c.target = target;
            c.batch = batch;
            c.threads = threads;
            c.max_bids = max_bids;
            c.exact_shortcut = exact_shortcut;
            c.exact_answers = exact_answers;
            c.sample_hidden = sample_hidden;
            c.racing = racing;
            c.screen = screen;
            c.relative = relative;
            const GameState copy = s;
            AnalysisProgress report;
            bool failed = false;
            if (progress)
                report = [&](int done, double gap) {
                    py::gil_scoped_acquire acquire;
                    try {
                        return (*progress)(done, gap);
                    } catch (py::error_already_set& e) {
                        e.restore();  // raised again below, once the GIL is back
                        failed = true;
                        return false;
                    }
                };
            Analysis a;
            {
                py::gil_scoped_release release;
                a = analyse_decision(copy, c, report);
            }
            if (failed) throw py::error_already_set();
            py::dict d = analysis_dict(a);
            d["policy"] = policy;
            return d;
        },
        py::arg("state"), py::kw_only(), py::arg("horizon") = "voyage",
        py::arg("policy") = "greedy-wealth", py::arg("seed") = 0, py::arg("rollouts") = 0,
        py::arg("max_rollouts") = 20000, py::arg("time_limit") = 10.0, py::arg("target") = 0.0,
        py::arg("batch") = 64, py::arg("threads") = 0, py::arg("max_bids") = 0,
        py::arg("exact_shortcut") = true, py::arg("exact_answers") = true,
        py::arg("sample_hidden") = false, py::arg("racing") = true, py::arg("screen") = 0,
        py::arg("relative") = false, py::arg("progress") = py::none());

    // The expert's rollouts take a fraction of a second: on a copy, the GIL released.
    m.def(
        "expert_action",
        [](const GameState& s, Rng& rng) {
            const GameState copy = s;
            py::gil_scoped_release release;
            return expert_action(copy, rng);
        },
        py::arg("state"), py::arg("rng"));

    py::class_<TablePlayer>(m, "TablePlayer", "One player's line of a table (manila.table).")
        .def(py::init<>())
        .def_readwrite("cash", &TablePlayer::cash)
        .def_readwrite("shares", &TablePlayer::shares)
        .def_readwrite("hidden", &TablePlayer::hidden)
        .def_readwrite("mortgaged", &TablePlayer::mortgaged)
        .def_readwrite("declined", &TablePlayer::declined);

    py::class_<TableView>(m, "TableView",
                          "A table's fields, as manila.table reads them from the JSON.")
        .def(py::init<>())
        .def_readwrite("num_players", &TableView::num_players)
        .def_property(
            "thirteen_to_port", [](const TableView& t) { return t.rules.thirteen_to_port; },
            [](TableView& t, bool v) { t.rules.thirteen_to_port = v; })
        .def_property(
            "pirate_variant", [](const TableView& t) { return t.rules.pirate_variant; },
            [](TableView& t, bool v) { t.rules.pirate_variant = v; })
        .def_readwrite("observer", &TableView::observer)
        .def_property(
            "phase", [](const TableView& t) { return std::string(phase_name(t.phase)); },
            [](TableView& t, const std::string& name) { t.phase = phase_named(name); })
        .def_readwrite("current", &TableView::current)
        .def_readwrite("voyage", &TableView::voyage)
        .def_readwrite("harbour_master", &TableView::harbour_master)
        .def_readwrite("prices", &TableView::prices)
        .def_readwrite("supply", &TableView::supply)
        .def_readwrite("players", &TableView::players)
        .def_readwrite("observer_dealt", &TableView::observer_dealt)
        .def_readwrite("high_bid", &TableView::high_bid)
        .def_readwrite("high_bidder", &TableView::high_bidder)
        .def_readwrite("bidding", &TableView::bidding)
        .def_readwrite("stays_home", &TableView::stays_home)
        .def_readwrite("spots", &TableView::spots)
        .def_readwrite("next_roll", &TableView::next_roll)
        .def_readwrite("boarding_decider", &TableView::boarding_decider)
        .def_readwrite("guard_boat", &TableView::guard_boat)
        .def_readwrite("guard_seat", &TableView::guard_seat)
        .def_readwrite("rounds_left", &TableView::rounds_left)
        // Boats as (good, position, crew) in good order; position 14 is Manila.
        .def_property(
            "boats",
            [](const TableView& t) {
                std::vector<std::tuple<int, int, std::vector<int>>> out;
                for (const Boat& b : t.boats)
                    out.emplace_back(
                        b.good, b.position,
                        std::vector<int>(b.crew.begin(), b.crew.begin() + b.crew_size));
                return out;
            },
            [](TableView& t, const std::vector<std::tuple<int, int, std::vector<int>>>& boats) {
                t.boats.clear();
                for (const auto& [good, position, crew] : boats) {
                    if (good < 0 || good >= kNumGoods)
                        throw std::invalid_argument("boats: not a good: " + std::to_string(good));
                    Boat b;
                    b.good = good;
                    b.position = position;
                    if (static_cast<int>(crew.size()) >
                        kGoods[static_cast<std::size_t>(good)].seats)
                        throw std::invalid_argument(
                            std::string("boats.") + kGoods[static_cast<std::size_t>(good)].name +
                            ".crew: more than the boat's " +
                            std::to_string(kGoods[static_cast<std::size_t>(good)].seats) +
                            " seats");
                    b.crew_size = static_cast<int>(crew.size());
                    for (std::size_t k = 0; k < crew.size(); ++k) b.crew[k] = crew[k];
                    t.boats.push_back(b);
                }
            });

    m.def("table_state", &table_state, py::arg("table"), py::arg("seed") = 0,
          "The playable state of a table, the others' face-down shares dealt at random from "
          "`seed`.");
    m.def(
        "resample_hidden",
        [](const GameState& s, int viewer, std::uint64_t seed) {
            if (viewer < 0 || viewer >= s.num_players())
                throw std::invalid_argument("viewer: must be 0.." +
                                            std::to_string(s.num_players() - 1) + ", got " +
                                            std::to_string(viewer));
            Board b = s.board();
            Rng rng(seed);
            resample_hidden(b, viewer, rng);
            return GameState::from_board(b, s.seed());
        },
        py::arg("state"), py::arg("viewer"), py::arg("seed"),
        "A copy of the state with the face-down shares of all but `viewer` dealt anew (no "
        "history).");
}

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis_args.hpp"
#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/game.hpp"
#include "manila/share_worth.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

py::dict analysis_dict(const Analysis& a) {
    py::dict d;
    d["decider"] = a.decider;
    d["kind"] = a.kind;
    d["horizon"] = horizon_name(a.config.horizon);
    d["seed"] = a.config.seed;
    d["seconds"] = a.seconds;
    d["target"] = a.config.target;
    d["gap_ci95"] = a.best_gap_ci95;
    put_outcome(d, a);
    return d;
}

}  // namespace

void register_analysis(py::module_& m) {
    m.attr("HORIZONS") =
        py::make_tuple(horizon_name(Horizon::kVoyage), horizon_name(Horizon::kGame));
    m.attr("POLICIES") = py::tuple(py::cast(continuation_policies()));
    m.attr("DEFAULT_POLICY") = default_policy();
    m.attr("HARBOUR_SCREEN") = kHarbourScreen;
    m.attr("VALUE_SOURCES") = py::make_tuple(value_source_name(ValueSource::kLearned),
                                             value_source_name(ValueSource::kRollout));
    py::list premium;
    for (const auto& row : kSharePremium) premium.append(py::tuple(py::cast(row)));
    m.attr("SHARE_PREMIUM") = py::tuple(premium);
    m.def("decision_kind", &decision_kind, py::arg("state"));
    m.def(
        "decision_options",
        [](const GameState& s, int max_bids, bool ceilings) {
            std::vector<std::pair<std::string, std::vector<int>>> out;
            for (const DecisionOption& o : decision_options(s, max_bids, ceilings))
                out.emplace_back(o.name, o.actions);
            return out;
        },
        py::arg("state"), py::arg("max_bids") = 0, py::arg("ceilings") = true);

    // Rollouts take from milliseconds to minutes: they run on a copy of the state with the
    // GIL released (they touch no Python object). The progress callback, between batches on
    // this thread, takes the GIL back; an exception it raises stops the analysis and is
    // raised again here.
    m.def(
        "analyse_decision",
        [](const GameState& s, const std::string& horizon, const std::string& value,
           const std::string& policy, std::uint64_t seed, int rollouts, int max_rollouts,
           double time_limit, double target, int batch, int threads, int max_bids,
           bool exact_shortcut, bool exact_answers, bool sample_hidden, bool racing, int screen,
           bool relative, bool final_worth,
           std::optional<std::function<bool(int, double)>> progress) {
            AnalysisConfig c;
            c.horizon = horizon_of(horizon);
            c.value = value_source_of(value);
            c.policy = policy_of(policy);
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
            c.final_worth = final_worth;
            const GameState copy = s;
            PythonProgress<int, double> report(std::move(progress));
            Analysis a;
            {
                py::gil_scoped_release release;
                a = analyse_decision(copy, c, report.callback());
            }
            report.rethrow_if_failed();
            py::dict d = analysis_dict(a);
            d["policy"] = policy;
            return d;
        },
        py::arg("state"), py::kw_only(), py::arg("horizon") = "voyage",
        py::arg("value") = "learned", py::arg("policy") = default_policy(), py::arg("seed") = 0,
        py::arg("rollouts") = 0, py::arg("max_rollouts") = 20000, py::arg("time_limit") = 10.0,
        py::arg("target") = 0.0, py::arg("batch") = 64, py::arg("threads") = 0,
        py::arg("max_bids") = 0, py::arg("exact_shortcut") = true, py::arg("exact_answers") = true,
        py::arg("sample_hidden") = false, py::arg("racing") = true, py::arg("screen") = 0,
        py::arg("relative") = false, py::arg("final_worth") = false,
        py::arg("progress") = py::none());

    // The expert's rollouts take a fraction of a second: on a copy, the GIL released.
    m.def(
        "expert_action",
        [](const GameState& s, Rng& rng) {
            const GameState copy = s;
            py::gil_scoped_release release;
            return expert_action(copy, rng);
        },
        py::arg("state"), py::arg("rng"));
}

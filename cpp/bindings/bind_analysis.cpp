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
#include "json_values.hpp"
#include "manila/analysis.hpp"
#include "manila/api.hpp"
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
    m.def("split_gain", &split_gain, py::arg("values"));
    m.def("t95", &t95, py::arg("df"),
          "Student's t quantile of 0.975 with df degrees of freedom: every 95% interval's.");
    m.def(
        "decision_options",
        [](const GameState& s, int max_bids, bool ceilings) {
            std::vector<std::pair<std::string, std::vector<int>>> out;
            for (const DecisionOption& o : decision_options(s, max_bids, ceilings))
                out.emplace_back(o.name, o.actions);
            return out;
        },
        py::arg("state"), py::arg("max_bids") = 0, py::arg("ceilings") = true);

    // The options of an analysis, with the engine's defaults (manila.analysis.analyse reads
    // them from here); the names of the horizon, value source and policy as Python gives them.
    py::class_<AnalysisConfig>(m, "AnalysisConfig", "The options of an analysis (analysis.hpp).")
        .def(py::init<>())
        .def_property(
            "horizon", [](const AnalysisConfig& c) { return std::string(horizon_name(c.horizon)); },
            [](AnalysisConfig& c, const std::string& name) { c.horizon = horizon_of(name); })
        .def_property(
            "value",
            [](const AnalysisConfig& c) { return std::string(value_source_name(c.value)); },
            [](AnalysisConfig& c, const std::string& name) { c.value = value_source_of(name); })
        .def_property(
            "policy", [](const AnalysisConfig& c) { return bot_name(c.policy); },
            [](AnalysisConfig& c, const std::string& name) { c.policy = policy_of(name); })
        .def_readwrite("seed", &AnalysisConfig::seed)
        .def_readwrite("rollouts", &AnalysisConfig::rollouts)
        .def_readwrite("max_rollouts", &AnalysisConfig::max_rollouts)
        .def_readwrite("time_limit", &AnalysisConfig::time_limit)
        .def_readwrite("target", &AnalysisConfig::target)
        .def_readwrite("batch", &AnalysisConfig::batch)
        .def_readwrite("threads", &AnalysisConfig::threads)
        .def_readwrite("max_bids", &AnalysisConfig::max_bids)
        .def_readwrite("exact_shortcut", &AnalysisConfig::exact_shortcut)
        .def_readwrite("exact_answers", &AnalysisConfig::exact_answers)
        .def_readwrite("sample_hidden", &AnalysisConfig::sample_hidden)
        .def_readwrite("racing", &AnalysisConfig::racing)
        .def_readwrite("screen", &AnalysisConfig::screen)
        .def_readwrite("relative", &AnalysisConfig::relative)
        .def_readwrite("final_worth", &AnalysisConfig::final_worth);

    // Rollouts take from milliseconds to minutes: they run on a copy of the state with the
    // GIL released (they touch no Python object). The progress callback, between batches on
    // this thread, takes the GIL back; an exception it raises stops the analysis and is
    // raised again here.
    m.def(
        "analyse_decision",
        [](const GameState& s, const AnalysisConfig& config,
           std::optional<std::function<bool(int, double)>> progress) {
            const GameState copy = s;
            PythonProgress<int, double> report(std::move(progress));
            Analysis a;
            {
                py::gil_scoped_release release;
                a = analyse_decision(copy, config, report.callback());
            }
            report.rethrow_if_failed();
            py::dict d = analysis_dict(a);
            d["policy"] = bot_name(config.policy);
            d["report"] = manila_bindings::to_python(analysis_json(a));
            return d;
        },
        py::arg("state"), py::arg_v("config", AnalysisConfig{}, "AnalysisConfig()"),
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

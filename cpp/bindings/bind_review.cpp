#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis_args.hpp"
#include "manila/bots.hpp"
#include "manila/review.hpp"
#include "manila/value.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

py::dict decision_dict(const ReviewedDecision& d) {
    py::dict out;
    out["index"] = d.index;
    out["player"] = d.player;
    out["voyage"] = d.voyage;
    out["kind"] = d.kind;
    out["forced"] = d.forced;
    out["chosen"] = d.chosen;
    put_outcome(out, d.analysis);
    return out;
}

py::dict event_dict(const ChanceLuck& e) {
    py::dict out;
    out["index"] = e.index;
    out["voyage"] = e.voyage;
    out["action"] = e.action;
    out["kind"] = e.kind;
    out["before"] = e.before;
    out["after"] = e.after;
    out["luck"] = e.luck;
    out["luck_ci95"] = e.luck_ci95;
    out["exact"] = e.exact;
    return out;
}

}  // namespace

void register_review(py::module_& m) {
    const std::string review_policy = bot_name(kReviewPolicy);
    // A review runs for seconds to minutes: on copies of the state and the history with the
    // GIL released (the C++ work touches no Python object). The progress callback, after
    // every item on this thread, takes the GIL back; an exception it raises stops the
    // review and is raised again here.
    m.def(
        "review_game",
        [](const GameState& initial, const std::vector<int>& history, const std::string& horizon,
           const std::string& value, const std::string& policy, std::uint64_t seed, int rollouts,
           int max_rollouts, double time_limit, double target, int batch, int threads, int max_bids,
           int screen, bool exact, bool sample_hidden, bool relative, int luck_rollouts,
           bool with_decisions, std::optional<std::function<bool(int, int)>> progress) {
            ReviewConfig c;
            c.analysis.horizon = horizon_of(horizon);
            c.analysis.value = value_source_of(value);
            c.analysis.policy = policy_of(policy);
            c.analysis.seed = seed;
            c.analysis.rollouts = rollouts;
            c.analysis.max_rollouts = max_rollouts;
            c.analysis.time_limit = time_limit;
            c.analysis.target = target;
            c.analysis.batch = batch;
            c.analysis.threads = threads;
            c.analysis.max_bids = max_bids;
            c.analysis.screen = screen;
            c.analysis.exact_shortcut = exact;
            c.analysis.exact_answers = exact;
            c.analysis.sample_hidden = sample_hidden;
            c.analysis.relative = relative;
            c.luck_rollouts = luck_rollouts;
            c.decisions = with_decisions;
            const GameState copy = initial;
            PythonProgress<int, int> report(std::move(progress));
            Review r;
            {
                py::gil_scoped_release release;
                r = review_game(copy, history, c, report.callback());
            }
            report.rethrow_if_failed();
            py::dict out;
            py::list decisions, events;
            for (const ReviewedDecision& d : r.decisions) decisions.append(decision_dict(d));
            for (const ChanceLuck& e : r.events) events.append(event_dict(e));
            out["decisions"] = decisions;
            out["events"] = events;
            out["voyage_wealth"] = r.voyage_wealth;
            out["wealth"] = r.wealth;
            out["seconds"] = r.seconds;
            out["items"] = r.items;
            return out;
        },
        py::arg("initial"), py::arg("history"), py::kw_only(), py::arg("horizon") = "voyage",
        py::arg("value") = "learned", py::arg("policy") = review_policy, py::arg("seed") = 0,
        py::arg("rollouts") = 0, py::arg("max_rollouts") = 256, py::arg("time_limit") = 2.0,
        py::arg("target") = 0.0, py::arg("batch") = 16, py::arg("threads") = 0,
        py::arg("max_bids") = 8, py::arg("screen") = 12, py::arg("exact") = true,
        py::arg("sample_hidden") = true, py::arg("relative") = false,
        py::arg("luck_rollouts") = 256, py::arg("decisions") = true,
        py::arg("progress") = py::none());

    // The report (the contract's JSON, as text): classes, bands and budgets have their one
    // home in the engine (review.hpp); manila.review reads them and wraps this.
    py::list classes, thresholds, bands;
    for (const char* c : kLossClasses) classes.append(c);
    for (const double t : kLossThresholds) thresholds.append(t);
    for (const ReviewBand& b : kReviewBands) bands.append(py::make_tuple(b.name, b.below));
    m.attr("REVIEW_POLICY") = review_policy;
    m.attr("REVIEW_CLASSES") = py::tuple(classes);
    m.attr("REVIEW_THRESHOLDS") = py::tuple(thresholds);
    m.attr("REVIEW_BANDS") = py::tuple(bands);
    m.attr("REVIEW_ACCURACY_SCALE") = kAccuracyScale;
    m.def(
        "review_budget",
        [](const std::string& horizon, bool quick) {
            const ReviewBudget b = review_budget(horizon_of(horizon), quick);
            py::dict out;
            out["max_rollouts"] = b.max_rollouts;
            out["target"] = b.target;
            out["time_limit"] = b.time_limit;
            out["luck_rollouts"] = b.luck_rollouts;
            return out;
        },
        py::arg("horizon"), py::arg("quick"));
    m.def("loss_class", &loss_class, py::arg("loss"), py::arg("ci95"));
    m.def("band_of", &band_of, py::arg("mean_loss"));
    m.def("same_exp", &same_exp, py::arg("x"));
    m.def(
        "review_report",
        [](const GameState& initial, const std::vector<int>& history, const std::string& horizon,
           const std::string& value, const std::string& policy, std::uint64_t seed, bool quick,
           int rollouts, std::optional<int> max_rollouts, std::optional<double> target,
           std::optional<double> time_limit, std::optional<int> luck_rollouts, int max_bids,
           int screen, bool exact, bool with_decisions, int threads,
           std::optional<std::function<bool(int, int)>> progress) {
            ReviewRequest r;
            r.horizon = horizon_of(horizon);
            r.value = value_source_of(value);
            r.policy = policy_of(policy);
            r.seed = Json::integer(std::to_string(seed));
            r.quick = quick;
            r.rollouts = rollouts;
            r.max_rollouts = max_rollouts;
            r.target = target;
            r.time_limit = time_limit;
            r.luck_rollouts = luck_rollouts;
            r.max_bids = max_bids;
            r.screen = screen;
            r.exact = exact;
            r.decisions = with_decisions;
            r.threads = threads;
            const GameState copy = initial;
            PythonProgress<int, int> report(std::move(progress));
            std::string text;
            int items = 0;
            {
                py::gil_scoped_release release;
                const ReviewReport out = review_report(copy, history, r, report.callback());
                text = out.json.dumps();
                items = out.items;
            }
            report.rethrow_if_failed();
            return std::make_pair(text, items);
        },
        py::arg("initial"), py::arg("history"), py::kw_only(), py::arg("horizon") = "game",
        py::arg("value") = "learned", py::arg("policy") = review_policy, py::arg("seed") = 0,
        py::arg("quick") = false, py::arg("rollouts") = 0, py::arg("max_rollouts") = py::none(),
        py::arg("target") = py::none(), py::arg("time_limit") = py::none(),
        py::arg("luck_rollouts") = py::none(), py::arg("max_bids") = 4, py::arg("screen") = 12,
        py::arg("exact") = true, py::arg("decisions") = true, py::arg("threads") = 0,
        py::arg("progress") = py::none(),
        "(the review's JSON text (docs/review.md), the record's items); the budget's numbers "
        "where none are given.");
}

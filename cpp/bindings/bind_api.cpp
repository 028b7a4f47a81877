#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>

#include "analysis_args.hpp"
#include "manila/api.hpp"

namespace py = pybind11;
using namespace manila;

void register_api(py::module_& m) {
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
    py::list routes;
    for (const char* r : kRoutes) routes.append(r);
    m.attr("ROUTES") = py::tuple(routes);
    m.attr("MAX_ROLLOUTS") = kMaxRollouts;
    m.attr("VALUE_MAX_ROLLOUTS") = kValueMaxRollouts;
    m.attr("VALUE_ROLLOUTS") = kValueRollouts;
    py::list keys;
    for (const char* k : kValueKeys) keys.append(k);
    m.attr("VALUE_KEYS") = py::tuple(keys);
    m.attr("TIME_LIMIT") = kTimeLimit;
    m.attr("ANALYSIS_MAX_ROLLOUTS") = kAnalysisMaxRollouts;
    m.attr("ANALYSIS_TIME_SHARE") = kAnalysisTimeShare;
    py::list analysis_keys;
    for (const char* k : kAnalysisKeys) analysis_keys.append(k);
    m.attr("ANALYSIS_KEYS") = py::tuple(analysis_keys);
    py::list review_keys;
    for (const char* k : kReviewKeys) review_keys.append(k);
    m.attr("REVIEW_KEYS") = py::tuple(review_keys);
    m.attr("REVIEW_MAX_ROLLOUTS") = kReviewMaxRollouts;
    m.attr("REVIEW_QUICK") = kReviewQuick;
    m.attr("STOPPED") = kStopped;
}

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>

#include "manila/api.hpp"

namespace py = pybind11;
using namespace manila;

void register_api(py::module_& m) {
    m.def(
        "call",
        [](const std::string& route, const std::string& body) {
            Answer a;
            {
                // The route and body are C++ strings by now: the engine touches no Python
                // object while it works (an advice search may take seconds).
                py::gil_scoped_release release;
                a = call(route, body);
            }
            return std::make_pair(a.status, py::str(a.body));
        },
        py::arg("route"), py::arg("body"),
        "(status, JSON text) the server answers to a POST of `body` (bytes, or str as UTF-8) "
        "to `route` (docs/architecture.md).");
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
}

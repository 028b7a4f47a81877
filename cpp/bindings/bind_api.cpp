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
}

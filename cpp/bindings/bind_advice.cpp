#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "manila/advice.hpp"

namespace py = pybind11;
using namespace manila;

void register_advice(py::module_& m) {
    m.attr("DECLINE") = kDeclineSpot;

    py::class_<PlacementAdvice>(m, "PlacementAdvice",
                                "A placement turn's options with their exact values (numerators).")
        .def_readonly("denominator", &PlacementAdvice::denominator)
        .def_property_readonly("options",
                               [](const PlacementAdvice& a) {
                                   std::vector<std::pair<int, int>> out;
                                   for (const LegalSpot& s : a.options)
                                       out.emplace_back(s.id, s.cost);
                                   return out;
                               })
        .def_readonly("net", &PlacementAdvice::net)
        .def_readonly("best", &PlacementAdvice::best)
        .def_property_readonly("line",
                               [](const PlacementAdvice& a) {
                                   std::vector<std::pair<int, int>> out;
                                   for (const Turn& t : a.line) out.emplace_back(t.owner, t.spot);
                                   return out;
                               })
        .def_readonly("payoffs", &PlacementAdvice::payoffs)
        .def_readonly("positions", &PlacementAdvice::positions);

    py::class_<DecisionAdvice>(m, "DecisionAdvice",
                               "A pilot's or pirate's options with everyone's payoffs after each.")
        .def_readonly("denominator", &DecisionAdvice::denominator)
        .def_readonly("decider", &DecisionAdvice::decider)
        .def_readonly("names", &DecisionAdvice::names)
        .def_readonly("payoffs", &DecisionAdvice::payoffs)
        .def_readonly("best", &DecisionAdvice::best)
        .def_readonly("line", &DecisionAdvice::line);

    // The searches touch no Python object once their arguments are C++ values: the GIL is
    // released so that a server keeps answering while a long search runs.
    m.def("advise_placement", &advise_placement, py::arg("voyage"), py::arg("movers"),
          py::arg("threads") = 0, py::call_guard<py::gil_scoped_release>());
    m.def("advise_pilot", &advise_pilot, py::arg("voyage"), py::arg("large"),
          py::call_guard<py::gil_scoped_release>());
    m.def("advise_boarding", &advise_boarding, py::arg("voyage"), py::arg("second") = false,
          py::arg("guard_boat") = -1, py::arg("guard_seat") = -1,
          py::call_guard<py::gil_scoped_release>());
}

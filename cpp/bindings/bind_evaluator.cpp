#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "manila/evaluator.hpp"
#include "numpy_views.hpp"

namespace py = pybind11;
using namespace manila;
using manila_bindings::view;

void register_evaluator(py::module_& m) {
    m.attr("TABLE_SIZE") = kNumTableSpots;
    m.def("denominator", &denominator, py::arg("next_roll"));

    py::class_<Table>(m, "Table", "Exact results of one or more voyages, as numerators.")
        .def_readonly("n", &Table::n)
        .def_readonly("owner_stride", &Table::owner_stride)
        .def_property_readonly("denominator",
                               [](py::object self) {
                                   Table& t = self.cast<Table&>();
                                   return view(self, t.denominator, {t.n});
                               })
        .def_property_readonly("incomes",
                               [](py::object self) {
                                   Table& t = self.cast<Table&>();
                                   return view(self, t.incomes, {t.n, t.owner_stride});
                               })
        .def_property_readonly("payoffs",
                               [](py::object self) {
                                   Table& t = self.cast<Table&>();
                                   return view(self, t.payoffs, {t.n, t.owner_stride});
                               })
        .def_property_readonly("boats",
                               [](py::object self) {
                                   Table& t = self.cast<Table&>();
                                   return view(self, t.boats, {t.n, kNumBoats, kNumOutcomes});
                               })
        .def_property_readonly(
            "legal",
            [](py::object self) {
                Table& t = self.cast<Table&>();
                return view(self, t.legal, {t.n, kNumTableSpots}).attr("view")("bool");
            })
        .def_property_readonly("cost",
                               [](py::object self) {
                                   Table& t = self.cast<Table&>();
                                   return view(self, t.cost, {t.n, kNumTableSpots});
                               })
        .def_property_readonly("net", [](py::object self) {
            Table& t = self.cast<Table&>();
            return view(self, t.net, {t.n, kNumTableSpots});
        });

    m.def(
        "legal_spots",
        [](const Voyage& v, int owner, int max_accomplices) {
            std::vector<std::pair<int, int>> out;
            for (const auto& s : legal_spots(v, {owner, max_accomplices}))
                out.emplace_back(s.id, s.cost);
            return out;
        },
        py::arg("voyage"), py::arg("owner"), py::arg("max_accomplices") = kAccomplices,
        "(spot-table id, cost) of every spot the owner may take now.");

    // The GIL is released once the arguments are C++ values: the evaluation touches no
    // Python object, and the Voyage argument is kept alive by the caller's frame.
    m.def("expected_payoff", &expected_payoff, py::arg("voyage"), py::arg("owner"),
          py::call_guard<py::gil_scoped_release>());
    m.def(
        "analyse",
        [](const Voyage& v, int owner, int max_accomplices, int threads) {
            return analyse(v, {owner, max_accomplices}, threads);
        },
        py::arg("voyage"), py::arg("owner") = kNoOwner, py::arg("max_accomplices") = kAccomplices,
        py::arg("threads") = 0, py::call_guard<py::gil_scoped_release>());
    m.def(
        "analyse_batch",
        [](const std::vector<Voyage>& voyages, const std::vector<int>& owners,
           const std::vector<int>& max_accomplices, int threads) {
            if (owners.size() != voyages.size() || max_accomplices.size() != voyages.size())
                throw std::invalid_argument(
                    "owners, max_accomplices: one entry per voyage is needed");
            std::vector<PointOfView> povs(voyages.size());
            for (std::size_t i = 0; i < voyages.size(); ++i)
                povs[i] = {owners[i], max_accomplices[i]};
            py::gil_scoped_release release;
            return analyse_batch(voyages, povs, threads);
        },
        py::arg("voyages"), py::arg("owners"), py::arg("max_accomplices"), py::arg("threads") = 0);
}

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "json_values.hpp"
#include "manila/api.hpp"
#include "manila/evaluator.hpp"
#include "manila/voyage_args.hpp"
#include "numpy_views.hpp"

namespace py = pybind11;
using namespace manila;
using manila_bindings::view;

namespace {

// A Python list of the n numbers at `first`: what the evaluation JSON is made of, without
// a numpy view per field (which costs more than a small row's numbers).
template <class T>
py::list numbers(const T* first, std::size_t n) {
    py::list out(n);
    for (std::size_t i = 0; i < n; ++i) {
        PyObject* number;
        if constexpr (std::is_same_v<T, std::uint8_t>)
            number = PyBool_FromLong(first[i]);
        else
            number = PyLong_FromLongLong(static_cast<long long>(first[i]));
        if (number == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), number);
    }
    return out;
}

py::tuple row(const Table& t, int i) {
    if (i < 0 || i >= t.n)
        throw std::out_of_range("row " + std::to_string(i) + " is not in 0.." +
                                std::to_string(t.n - 1));
    const auto r = static_cast<std::size_t>(i);
    const auto spots = static_cast<std::size_t>(kNumTableSpots);
    const auto owners = static_cast<std::size_t>(t.owner_stride);
    const auto outcomes = static_cast<std::size_t>(kNumOutcomes);
    const auto sailing = static_cast<std::size_t>(kNumBoats);
    // data() + offset, not &v[i]: with no owners the owner columns are empty vectors.
    py::list boats(sailing);
    for (std::size_t b = 0; b < sailing; ++b)
        boats[b] = numbers(t.boats.data() + (r * sailing + b) * outcomes, outcomes);
    return py::make_tuple(t.denominator[r], numbers(t.legal.data() + r * spots, spots),
                          numbers(t.cost.data() + r * spots, spots),
                          numbers(t.net.data() + r * spots, spots), boats,
                          numbers(t.incomes.data() + r * owners, owners),
                          numbers(t.payoffs.data() + r * owners, owners));
}

}  // namespace

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
        .def_property_readonly("net",
                               [](py::object self) {
                                   Table& t = self.cast<Table&>();
                                   return view(self, t.net, {t.n, kNumTableSpots});
                               })
        .def("row", &row, py::arg("i"),
             "Row i as plain Python values: (denominator, legal, cost, net, boats, incomes, "
             "payoffs), the lists as the array properties hold them.");

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
    // evaluate(dict) (voyage/evaluation.py): a plain dict read by the engine's reader of the
    // state, with no JSON text in between. None for anything not made of JSON's own types
    // and for what the reader or the engine refuses: Python's parser words the problems.
    // The engine's copy of a JSON value: what it read, kept as it was read.
    py::class_<Json>(m, "JsonValue").def("to_python", [](const Json& j) {
        return manila_bindings::to_python(j);
    });
    m.def(
        "evaluate_state",
        [](py::handle state, std::optional<bool> strict, int threads) -> py::object {
            Json data;
            if (!manila_bindings::from_python(state, data)) return py::none();
            std::optional<StateEvaluation> e;
            try {
                py::gil_scoped_release release;
                e = evaluate_state(data, strict, threads);
            } catch (const std::invalid_argument&) {
                return py::none();
            }
            if (!e) return py::none();
            return py::make_tuple(py::cast(std::move(data)), py::tuple(py::cast(e->goods)),
                                  py::tuple(py::cast(e->owners)), py::cast(std::move(e->table)));
        },
        py::arg("state"), py::arg("strict"), py::arg("threads"),
        "(the engine's copy of the state, goods, owners, its Table) of a voyage state given as "
        "JSON values, or None.");
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

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "manila/enumerate.hpp"
#include "manila/evaluator.hpp"
#include "manila/wealth_args.hpp"
#include "numpy_views.hpp"

namespace py = pybind11;
using namespace manila;
using manila_bindings::to_numpy;
using manila_bindings::view;

namespace {

// An [n][3] array of small integers from any integer array, each checked to lie in lo..hi
// before it is narrowed (a cast alone would wrap 270 to 14).
std::vector<std::int8_t> rows_of_three(const py::array& in, const char* name, int lo, int hi) {
    if (in.dtype().kind() != 'i' && in.dtype().kind() != 'u')
        throw std::invalid_argument(std::string(name) + ": an integer array is needed, got dtype " +
                                    std::string(py::str(in.dtype())));
    auto a = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(in);
    if (!a || a.ndim() != 2 || a.shape(1) != kNumBoats)
        throw std::invalid_argument(std::string(name) + ": an array of shape (n, 3) is needed");
    std::vector<std::int8_t> out(static_cast<std::size_t>(a.size()));
    const std::int64_t* p = a.data();
    for (std::size_t k = 0; k < out.size(); ++k) {
        if (p[k] < lo || p[k] > hi)
            throw std::invalid_argument(std::string(name) + "[" + std::to_string(k / kNumBoats) +
                                        "][" + std::to_string(k % kNumBoats) + "]: must be " +
                                        std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                                        std::to_string(p[k]));
        out[k] = static_cast<std::int8_t>(p[k]);
    }
    return out;
}

BoatArray boat_array(const std::vector<int>& v, const char* name) {
    if (v.size() != kNumBoats)
        throw std::invalid_argument(std::string(name) +
                                    ": three numbers (one per boat) are needed, got " +
                                    std::to_string(v.size()));
    return {v[0], v[1], v[2]};
}

Pattern make_pattern(const std::vector<std::vector<int>>& crews, const std::vector<int>& spots,
                     int num_owners, bool thirteen_to_port, bool pirate_variant) {
    if (crews.size() != kNumBoats)
        throw std::invalid_argument("crews: one crew per boat (three) is needed");
    if (spots.size() != kNumSpots)
        throw std::invalid_argument("spots: one owner (or -1) per spot is needed, " +
                                    std::to_string(kNumSpots) + " in all");
    Pattern p;
    for (int i = 0; i < kNumBoats; ++i) p.crews[i] = crews[i];
    for (int s = 0; s < kNumSpots; ++s) p.spots[s] = spots[s];
    p.num_owners = num_owners;
    p.rules = {thirteen_to_port, pirate_variant};
    return p;
}

py::tuple starts_arrays(const std::vector<Start>& starts) {
    std::vector<std::int8_t> goods, spaces;
    for (const Start& s : starts)
        for (int i = 0; i < kNumBoats; ++i) {
            goods.push_back(static_cast<std::int8_t>(s.goods[i]));
            spaces.push_back(static_cast<std::int8_t>(s.spaces[i]));
        }
    const auto n = static_cast<py::ssize_t>(starts.size());
    return py::make_tuple(to_numpy(std::move(goods), {n, kNumBoats}),
                          to_numpy(std::move(spaces), {n, kNumBoats}));
}

}  // namespace

void register_enumerate(py::module_& m) {
    m.def(
        "legal_starts", [] { return starts_arrays(legal_starts()); },
        "Every legal start as (goods, spaces), two int8 arrays of shape (100, 3).");
    m.def("reach_denominator", &reach_denominator, py::arg("next_roll"));
    m.def(
        "boat_counts",
        [](int space, int rolls) {
            const auto c = boat_counts(space, rolls);
            return std::vector<std::int64_t>(c.begin(), c.end());
        },
        py::arg("space"), py::arg("rolls"));
    m.def(
        "reachable",
        [](const std::vector<int>& goods, const std::vector<int>& spaces, int next_roll) {
            const std::vector<Reached> reached = reachable(
                Start{boat_array(goods, "goods"), boat_array(spaces, "spaces")}, next_roll);
            std::vector<std::int8_t> positions;
            std::vector<std::int64_t> counts;
            positions.reserve(reached.size() * kNumBoats);
            counts.reserve(reached.size());
            for (const Reached& r : reached) {
                for (int p : r.positions) positions.push_back(static_cast<std::int8_t>(p));
                counts.push_back(r.count);
            }
            const auto n = static_cast<py::ssize_t>(reached.size());
            return py::make_tuple(to_numpy(std::move(positions), {n, kNumBoats}),
                                  to_numpy(std::move(counts), {n}));
        },
        py::arg("goods"), py::arg("spaces"), py::arg("next_roll"),
        "Positions (int8, shape (m, 3)) and dice counts over reach_denominator(next_roll).");

    py::class_<Family>(m, "Family", "The rows of a family of voyage states (see enumerate_family).")
        .def_readonly("next_roll", &Family::next_roll)
        .def_readonly("n", &Family::n)
        .def_readonly("num_starts", &Family::num_starts)
        .def_property_readonly("goods",
                               [](py::object self) {
                                   Family& f = self.cast<Family&>();
                                   return view(self, f.goods, {f.n, kNumBoats});
                               })
        .def_property_readonly("positions",
                               [](py::object self) {
                                   Family& f = self.cast<Family&>();
                                   return view(self, f.positions, {f.n, kNumBoats});
                               })
        .def_property_readonly("start_goods",
                               [](py::object self) {
                                   Family& f = self.cast<Family&>();
                                   return view(self, f.start_goods, {f.num_starts, kNumBoats});
                               })
        .def_property_readonly("start_spaces",
                               [](py::object self) {
                                   Family& f = self.cast<Family&>();
                                   return view(self, f.start_spaces, {f.num_starts, kNumBoats});
                               })
        .def_property_readonly("path_start",
                               [](py::object self) {
                                   Family& f = self.cast<Family&>();
                                   return view(self, f.path_start,
                                               {static_cast<py::ssize_t>(f.path_start.size())});
                               })
        .def_property_readonly("path_row",
                               [](py::object self) {
                                   Family& f = self.cast<Family&>();
                                   return view(self, f.path_row,
                                               {static_cast<py::ssize_t>(f.path_row.size())});
                               })
        .def_property_readonly("path_count", [](py::object self) {
            Family& f = self.cast<Family&>();
            return view(self, f.path_count, {static_cast<py::ssize_t>(f.path_count.size())});
        });

    m.def(
        "enumerate_family",
        [](int next_roll, const std::vector<std::vector<int>>& goods, bool reachable,
           const std::vector<std::pair<std::vector<int>, std::vector<int>>>& starts,
           const std::vector<int>& fixed) {
            FamilySpec spec;
            spec.next_roll = next_roll;
            for (const auto& g : goods) spec.goods.push_back(boat_array(g, "goods"));
            spec.reachable = reachable;
            for (const auto& [g, s] : starts)
                spec.starts.push_back(
                    {boat_array(g, "starts.goods"), boat_array(s, "starts.spaces")});
            spec.fixed = boat_array(fixed, "fixed");
            // The enumeration touches no Python object; the spec is a C++ copy.
            py::gil_scoped_release release;
            return enumerate_family(spec);
        },
        py::arg("next_roll"), py::arg("goods") = std::vector<std::vector<int>>{},
        py::arg("reachable") = true,
        py::arg("starts") = std::vector<std::pair<std::vector<int>, std::vector<int>>>{},
        py::arg("fixed") = std::vector<int>{-1, -1, -1});

    m.def(
        "shape_pattern",
        [](const std::vector<int>& crew_sizes, int pirates) {
            const Pattern p = Pattern::shape(boat_array(crew_sizes, "crew_sizes"), pirates);
            return py::make_tuple(std::vector<std::vector<int>>(p.crews.begin(), p.crews.end()),
                                  std::vector<int>(p.spots.begin(), p.spots.end()), p.num_owners);
        },
        py::arg("crew_sizes"), py::arg("pirates"),
        "(crews, spots, num_owners) of a shape: each accomplice its own owner.");

    m.def(
        "analyse_rows",
        [](const py::array& goods, const py::array& positions, int next_roll,
           const std::vector<std::vector<int>>& crews, const std::vector<int>& spots,
           int num_owners, bool thirteen_to_port, bool pirate_variant, int owner,
           int max_accomplices, int threads, bool wealth, const std::vector<int>& prices,
           const std::vector<std::vector<int>>& shares, const std::vector<int>& budgets) {
            const std::vector<std::int8_t> g = rows_of_three(goods, "goods", 0, kNumGoods - 1);
            const std::vector<std::int8_t> p = rows_of_three(positions, "positions", 0, kArrived);
            if (g.size() != p.size())
                throw std::invalid_argument("positions: one row per row of goods is needed");
            Pattern pattern =
                make_pattern(crews, spots, num_owners, thirteen_to_port, pirate_variant);
            manila::set_wealth(pattern, wealth, prices, shares, budgets);
            const int n = static_cast<int>(g.size() / kNumBoats);
            // The rows were copied out of the numpy arrays above, so from here on nothing refers
            // to a Python object and other Python threads may run.
            py::gil_scoped_release release;
            const std::vector<Voyage> voyages =
                family_voyages(pattern, next_roll, g.data(), p.data(), n);
            const std::vector<PointOfView> povs(voyages.size(),
                                                PointOfView{owner, max_accomplices});
            return analyse_batch(voyages, povs, threads);
        },
        py::arg("goods"), py::arg("positions"), py::arg("next_roll"), py::arg("crews"),
        py::arg("spots"), py::arg("num_owners"), py::arg("thirteen_to_port") = true,
        py::arg("pirate_variant") = false, py::arg("owner") = kNoOwner,
        py::arg("max_accomplices") = kAccomplices, py::arg("threads") = 0,
        py::arg("wealth") = false, py::arg("prices") = std::vector<int>{},
        py::arg("shares") = std::vector<std::vector<int>>{},
        py::arg("budgets") = std::vector<int>{},
        "The spot table of every row (goods and positions of shape (n, 3)) with one pattern of "
        "crews, spots, owners and wealth keys (as the Voyage constructor takes them): a Table, "
        "computed with the GIL released.");
}

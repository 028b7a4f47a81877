#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "manila/voyage.hpp"
#include "manila/voyage_args.hpp"

namespace py = pybind11;
using namespace manila;

using manila::make_voyage;

void register_voyage(py::module_& m) {
    py::list goods, spots;
    py::dict seat_costs, values;
    for (const auto& g : kGoods) {
        goods.append(g.name);
        seat_costs[g.name] = std::vector<int>(g.seat_cost.begin(), g.seat_cost.begin() + g.seats);
        values[g.name] = g.value;
    }
    for (const char* s : kSpotNames) spots.append(s);
    m.attr("GOODS") = py::tuple(goods);
    m.attr("SPOTS") = py::tuple(spots);
    m.attr("SEAT_COSTS") = seat_costs;
    m.attr("CARGO_VALUES") = values;
    m.attr("ARRIVED") = kArrived;
    m.attr("PRICE_TRACK") =
        py::tuple(py::cast(std::vector<int>(kPriceTrack.begin(), kPriceTrack.end())));
    m.attr("SHARES_PER_GOOD") = kSharesPerGood;

    py::class_<Voyage>(m, "Voyage", "A validated voyage with owners numbered 0..num_owners-1.")
        .def(py::init(&make_voyage), py::kw_only(), py::arg("next_roll"), py::arg("goods"),
             py::arg("positions"), py::arg("crews"), py::arg("spots"), py::arg("num_owners"),
             py::arg("thirteen_to_port") = true, py::arg("pirate_variant") = false,
             py::arg("wealth") = false, py::arg("prices") = std::vector<int>{},
             py::arg("shares") = std::vector<std::vector<int>>{},
             py::arg("budgets") = std::vector<int>{})
        .def_readonly("next_roll", &Voyage::next_roll)
        .def_readonly("num_owners", &Voyage::num_owners)
        .def_property_readonly("goods",
                               [](const Voyage& v) {
                                   return std::vector<int>{v.boats[0].good, v.boats[1].good,
                                                           v.boats[2].good};
                               })
        .def_property_readonly("positions",
                               [](const Voyage& v) {
                                   return std::vector<int>{v.boats[0].position, v.boats[1].position,
                                                           v.boats[2].position};
                               })
        .def_property_readonly("crews",
                               [](const Voyage& v) {
                                   std::vector<std::vector<int>> out;
                                   for (const Boat& b : v.boats)
                                       out.emplace_back(b.crew.begin(),
                                                        b.crew.begin() + b.crew_size);
                                   return out;
                               })
        .def_property_readonly(
            "spots",
            [](const Voyage& v) { return std::vector<int>(v.spots.begin(), v.spots.end()); })
        .def_property_readonly("wealth",
                               [](const Voyage& v) { return v.objective == Objective::kWealth; })
        .def_property_readonly(
            "prices",
            [](const Voyage& v) { return std::vector<int>(v.price.begin(), v.price.end()); })
        .def_property_readonly("shares",
                               [](const Voyage& v) {
                                   std::vector<std::vector<int>> out;
                                   for (int o = 0; o < v.num_owners; ++o)
                                       out.emplace_back(
                                           v.shares[static_cast<std::size_t>(o)].begin(),
                                           v.shares[static_cast<std::size_t>(o)].end());
                                   return out;
                               })
        .def_property_readonly("budgets",
                               [](const Voyage& v) {
                                   std::vector<int> out;
                                   for (int o = 0; o < v.num_owners; ++o) {
                                       const int b = v.budget[static_cast<std::size_t>(o)];
                                       out.push_back(b == kUnlimited ? -1 : b);
                                   }
                                   return out;
                               })
        .def("accomplices", &Voyage::accomplices, py::arg("owner"));
}

// The rules' fixed numbers (manila/rules.hpp), for the Python side to read rather than repeat.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "manila/rules.hpp"

namespace py = pybind11;
using namespace manila;

void register_rules(py::module_& m) {
    m.attr("MIN_PLAYERS") = kMinPlayers;
    m.attr("MAX_PLAYERS") = kMaxPlayers;
    m.attr("ACCOMPLICES") = kAccomplices;
    m.def("accomplices_per_player", &accomplices_per_player, py::arg("players"));
    m.attr("NUM_ROLLS") = kNumRollsPerVoyage;
    m.attr("DIE_FACES") = kDieFaces;
    m.attr("THIRTEEN") = kThirteen;
    m.attr("MAX_START_SPACE") = kMaxStartSpace;
    m.attr("START_SUM") = kStartSum;
    py::list starts;
    for (const auto& t : kStartSpaces) starts.append(py::make_tuple(t[0], t[1], t[2]));
    m.attr("START_SPACES") = py::tuple(starts);
    m.attr("MAX_SEATS") = kMaxSeats;
    py::dict spot_costs;
    for (int k = 0; k < kNumSpots; ++k)
        spot_costs[kSpotNames[static_cast<std::size_t>(k)]] =
            kSpotCost[static_cast<std::size_t>(k)];
    m.attr("SPOT_COSTS") = spot_costs;
    m.attr("SLOT_PAYOUTS") = py::tuple(py::cast(kSlotPayout));
    m.attr("INSURANCE_CLAIM") = py::tuple(py::cast(kInsuranceClaim));
    m.def("price_rise", &price_rise, py::arg("price"),
          "What one share gains when its good reaches Manila at this price (0 at the top).");
}

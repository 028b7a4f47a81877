// A player's table as the engine takes it (manila.game.table reads the JSON into it), and
// the hidden deals behind a view.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "manila/game.hpp"
#include "manila/observation.hpp"
#include "manila/table.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

using PlayerRow = std::tuple<int, std::array<int, kNumGoods>, int, int, bool>;
using BoatRow = std::tuple<int, int, std::vector<int>>;

}  // namespace

void register_table(py::module_& m) {
    py::class_<TableView>(m, "TableView", "What one player sees of a game (table.hpp).")
        .def(py::init<>())
        .def_readwrite("num_players", &TableView::num_players)
        .def_readwrite("observer", &TableView::observer)
        .def_property(
            "phase", [](const TableView& t) { return std::string(phase_name(t.phase)); },
            [](TableView& t, const std::string& name) { t.phase = phase_of(name); })
        .def_readwrite("current", &TableView::current)
        .def_readwrite("voyage", &TableView::voyage)
        .def_readwrite("harbour_master", &TableView::harbour_master)
        .def_readwrite("prices", &TableView::prices)
        .def_readwrite("supply", &TableView::supply)
        .def_property(
            "players",
            [](const TableView& t) {
                std::vector<PlayerRow> out;
                for (const TablePlayer& p : t.players)
                    out.emplace_back(p.cash, p.shares, p.hidden, p.mortgaged, p.declined);
                return out;
            },
            [](TableView& t, const std::vector<PlayerRow>& rows) {
                t.players.clear();
                for (const auto& [cash, shares, hidden, mortgaged, declined] : rows)
                    t.players.push_back(TablePlayer{cash, shares, hidden, mortgaged, declined});
            },
            "(cash, shares by good, face-down count, mortgaged, declined) of each player.")
        .def_readwrite("observer_dealt", &TableView::observer_dealt)
        .def_readwrite("high_bid", &TableView::high_bid)
        .def_readwrite("high_bidder", &TableView::high_bidder)
        .def_readwrite("bidding", &TableView::bidding)
        .def_readwrite("stays_home", &TableView::stays_home)
        .def_property(
            "boats",
            [](const TableView& t) {
                std::vector<BoatRow> out;
                for (const Boat& b : t.boats)
                    out.emplace_back(
                        b.good, b.position,
                        std::vector<int>(b.crew.begin(), b.crew.begin() + b.crew_size));
                return out;
            },
            [](TableView& t, const std::vector<BoatRow>& rows) {
                t.boats.clear();
                for (const auto& [good, position, crew] : rows)
                    t.boats.push_back(table_boat(good, position, crew));
            },
            "(good, position, crew) of each sailing boat in good order, position 14 for Manila.")
        .def_readwrite("spots", &TableView::spots)
        .def_readwrite("next_roll", &TableView::next_roll)
        .def_readwrite("boarding_decider", &TableView::boarding_decider)
        .def_readwrite("guard_boat", &TableView::guard_boat)
        .def_readwrite("guard_seat", &TableView::guard_seat)
        .def_readwrite("rounds_left", &TableView::rounds_left)
        .def_property(
            "thirteen_to_port", [](const TableView& t) { return t.rules.thirteen_to_port; },
            [](TableView& t, bool v) { t.rules.thirteen_to_port = v; })
        .def_property(
            "pirate_variant", [](const TableView& t) { return t.rules.pirate_variant; },
            [](TableView& t, bool v) { t.rules.pirate_variant = v; });
    m.def("table_state", &table_state, py::arg("view"), py::arg("seed"),
          "The playable state of a table, the others' face-down shares dealt at random from "
          "`seed`.");
    m.def(
        "resample_hidden",
        [](const GameState& s, int viewer, std::uint64_t seed) {
            check_viewer(s, viewer, "viewer");
            Board b = s.board();
            Rng rng(seed);
            resample_hidden(b, viewer, rng);
            return GameState::from_board(b, s.seed());
        },
        py::arg("state"), py::arg("viewer"), py::arg("seed"),
        "A copy of the state with the face-down shares of all but `viewer` dealt anew (no "
        "history).");
    m.def(
        "hidden_deals",
        [](const GameState& s, int viewer) {
            check_viewer(s, viewer, "viewer");
            std::vector<std::pair<GameState, std::uint64_t>> out;
            for (const HiddenDeal& d : hidden_deals(s.board(), viewer))
                out.emplace_back(GameState::from_board(d.board, s.seed()), d.weight);
            return out;
        },
        py::arg("state"), py::arg("viewer"),
        "Every deal of the face-down shares of all but `viewer` that agrees with what `viewer` "
        "sees, as (state, weight): how many of the equally likely shuffles give it (no "
        "history).");
}

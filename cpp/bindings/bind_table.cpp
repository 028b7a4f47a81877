// A player's table read by the engine's reader (manila.game.table), and the hidden deals
// behind a view.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "json_values.hpp"
#include "manila/api.hpp"
#include "manila/game.hpp"
#include "manila/observation.hpp"
#include "manila/table.hpp"

namespace py = pybind11;
using namespace manila;

void register_table(py::module_& m) {
    m.def(
        "read_table",
        [](const std::string& text, std::uint64_t seed) {
            std::optional<GameState> state;
            int viewer = -1;
            std::string error;
            if (!read_table(text, seed, state, viewer, error))
                manila_bindings::raise_value_error(error);
            return py::make_tuple(std::move(*state), viewer);
        },
        py::arg("text"), py::arg("seed"),
        "(the playable state, whose view it is) of a table's JSON, the others' face-down "
        "shares dealt at random from `seed`; ValueError naming the field.");
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

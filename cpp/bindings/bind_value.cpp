// The learned value (manila/value.hpp): the model as a class, the value of a position, and
// the training samples as numpy arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "json_values.hpp"
#include "manila/api.hpp"
#include "manila/bots.hpp"
#include "manila/game.hpp"
#include "manila/value.hpp"
#include "numpy_views.hpp"

namespace py = pybind11;
using namespace manila;
using manila_bindings::to_numpy;

namespace {

py::dict value_dict(const PositionValue& v) {
    py::dict d;
    d["wealth"] = v.wealth;
    d["equity"] = v.equity;
    d["win"] = v.win;
    return d;
}

}  // namespace

void register_value(py::module_& m) {
    m.attr("VALUE_FEATURES") = kValueFeatures;
    py::class_<ValueModel>(m, "ValueModel")
        .def(py::init([](std::vector<int> sizes, std::vector<float> mean, std::vector<float> scale,
                         std::vector<std::vector<float>> weights,
                         std::vector<std::vector<float>> biases, std::string info) {
                 ValueModel v{std::move(info),  std::move(mean),    std::move(scale),
                              std::move(sizes), std::move(weights), std::move(biases)};
                 v.check();
                 return v;
             }),
             py::arg("sizes"), py::arg("mean"), py::arg("scale"), py::arg("weights"),
             py::arg("biases"), py::arg("info") = "{}")
        .def_readonly("info", &ValueModel::info)
        .def_readonly("sizes", &ValueModel::sizes)
        .def_readonly("mean", &ValueModel::mean)
        .def_readonly("scale", &ValueModel::scale)
        .def_readonly("weights", &ValueModel::weights)
        .def_readonly("biases", &ValueModel::biases);
    m.def("shipped_value_model", &shipped_value_model, py::return_value_policy::reference);
    m.def(
        "at_boundary", [](const GameState& s) { return at_boundary(s.board()); }, py::arg("state"));
    m.def("value_is_exact", &value_is_exact, py::arg("state"));
    m.def(
        "value_features",
        [](const GameState& s) {
            const int n = s.num_players();
            std::vector<float> out(static_cast<std::size_t>(n * kValueFeatures));
            for (int p = 0; p < n; ++p)
                value_features(s.board(), p,
                               out.data() + static_cast<std::size_t>(p * kValueFeatures));
            return to_numpy(std::move(out), {n, kValueFeatures});
        },
        py::arg("state"));
    m.def(
        "boundary_value",
        [](const GameState& s, const ValueModel& model) {
            return value_dict(boundary_value(s.board(), model));
        },
        py::arg("state"), py::arg("model"));
    m.def(
        "value_predict",
        [](const ValueModel& model,
           py::array_t<float, py::array::c_style | py::array::forcecast> features,
           py::array_t<double, py::array::c_style | py::array::forcecast> wealth, int players) {
            check_players(players);
            if (features.ndim() != 3 || features.shape(1) != kMaxPlayers ||
                features.shape(2) != kValueFeatures)
                throw py::value_error("features: must have shape (rows, 5, " +
                                      std::to_string(kValueFeatures) + ")");
            const py::ssize_t rows = features.shape(0);
            if (wealth.ndim() != 2 || wealth.shape(0) != rows || wealth.shape(1) != kMaxPlayers)
                throw py::value_error("wealth: must have shape (rows, 5)");
            std::vector<double> w(static_cast<std::size_t>(rows * kMaxPlayers)), v(w.size());
            const float* f = features.data();
            const double* now = wealth.data();
            {
                py::gil_scoped_release release;
                for (py::ssize_t r = 0; r < rows; ++r) {
                    const PositionValue pv =
                        predict_value(model, f + r * kMaxPlayers * kValueFeatures,
                                      now + r * kMaxPlayers, players);
                    for (int p = 0; p < players; ++p) {
                        w[static_cast<std::size_t>(r * kMaxPlayers + p)] =
                            pv.wealth[static_cast<std::size_t>(p)];
                        v[static_cast<std::size_t>(r * kMaxPlayers + p)] =
                            pv.win[static_cast<std::size_t>(p)];
                    }
                }
            }
            py::dict d;
            d["wealth"] = to_numpy(std::move(w), {rows, kMaxPlayers});
            d["win"] = to_numpy(std::move(v), {rows, kMaxPlayers});
            return d;
        },
        py::arg("model"), py::arg("features"), py::arg("wealth"), py::arg("players"));
    // Play-outs and exact walks take up to seconds: on a copy of the state, the GIL released.
    m.def(
        "position_value",
        [](const GameState& s, const ValueModel& model, const std::string& policy, int rollouts,
           std::uint64_t seed, int viewer, int threads) {
            ValueConfig c;
            c.viewer = viewer;
            c.policy = bot_kind_of(policy);
            c.rollouts = rollouts;
            c.seed = seed;
            c.threads = threads;
            ValueAnswer a;
            {
                py::gil_scoped_release release;
                a = position_value(s, model, c);
            }
            py::dict d = value_dict(a.value);
            d["wealth_ci95"] = a.wealth_ci95;
            d["equity_ci95"] = a.equity_ci95;
            d["win_ci95"] = a.win_ci95;
            d["exact"] = a.exact;
            d["rollouts"] = a.rollouts;
            d["report"] = manila_bindings::to_python(value_json(s, model, c, a));
            return d;
        },
        py::arg("state"), py::arg("model"), py::arg("policy"), py::arg("rollouts"), py::arg("seed"),
        py::arg("viewer") = -1, py::arg("threads") = 0);
    // Whole games from a position: up to minutes, on a copy, the GIL released.
    m.def(
        "play_outs",
        [](const GameState& s, const std::vector<std::string>& bots,
           const std::vector<double>& weights, int n, std::uint64_t seed, int threads) {
            const SeatMix mix{bot_kinds_of(bots), weights};
            const GameState copy = s;
            std::vector<int> w;
            {
                py::gil_scoped_release release;
                w = play_outs(copy, mix, n, seed, threads);
            }
            return to_numpy(std::move(w), {n, s.num_players()});
        },
        py::arg("state"), py::arg("bots"), py::arg("weights"), py::arg("n"), py::arg("seed"),
        py::arg("threads") = 0);
    m.def(
        "value_samples",
        [](int players, std::uint64_t seed, std::int64_t first, int n,
           const std::vector<std::string>& bots, const std::vector<double>& weights,
           bool thirteen_to_port, bool pirate_variant, int threads) {
            const Rules rules{thirteen_to_port, pirate_variant};
            const SeatMix mix{bot_kinds_of(bots), weights};
            ValueSamples v;
            {
                py::gil_scoped_release release;
                v = value_samples(players, rules, seed, first, n, mix, threads);
            }
            const auto rows = static_cast<py::ssize_t>(v.rows());
            py::dict d;
            d["features"] = to_numpy(std::move(v.features), {rows, kMaxPlayers, kValueFeatures});
            d["wealth"] = to_numpy(std::move(v.wealth), {rows, kMaxPlayers});
            d["final_wealth"] = to_numpy(std::move(v.final_wealth), {rows, kMaxPlayers});
            d["win"] = to_numpy(std::move(v.win), {rows, kMaxPlayers});
            d["game"] = to_numpy(std::move(v.game), {rows});
            d["voyage"] = to_numpy(std::move(v.voyage), {rows});
            d["players"] = players;
            return d;
        },
        py::arg("players"), py::arg("seed"), py::arg("first"), py::arg("n"), py::arg("bots"),
        py::arg("weights"), py::arg("thirteen_to_port") = true, py::arg("pirate_variant") = false,
        py::arg("threads") = 0);
    m.def(
        "value_boundaries",
        [](int players, std::uint64_t seed, std::int64_t first, int n,
           const std::vector<std::string>& bots, const std::vector<double>& weights,
           bool thirteen_to_port, bool pirate_variant, int threads) {
            const Rules rules{thirteen_to_port, pirate_variant};
            const SeatMix mix{bot_kinds_of(bots), weights};
            py::gil_scoped_release release;
            return value_boundaries(players, rules, seed, first, n, mix, threads);
        },
        py::arg("players"), py::arg("seed"), py::arg("first"), py::arg("n"), py::arg("bots"),
        py::arg("weights"), py::arg("thirteen_to_port") = true, py::arg("pirate_variant") = false,
        py::arg("threads") = 0);
}

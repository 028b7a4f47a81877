#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bot_names.hpp"
#include "manila/vector_env.hpp"
#include "numpy_views.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

// The environment with what the binding needs: the seat names as given, and a lock, since
// reset and step run without the GIL and two Python threads could otherwise step it at once.
struct BoundEnv {
    BoundEnv(int num_envs, int players, Rules rules, std::vector<std::optional<std::string>> names,
             std::vector<std::optional<BotKind>> kinds, int threads, bool autoreset)
        : env(num_envs, players, rules, std::move(kinds), threads, autoreset),
          bots(std::move(names)) {}
    VectorEnv env;
    std::vector<std::optional<std::string>> bots;
    std::mutex busy;
};

// A read-only numpy view of one of the environment's buffers (kept alive by `self`):
// read-only because the masks are what step() checks actions against.
template <class T>
py::array view(const py::object& self, std::vector<T>& data, std::vector<py::ssize_t> shape,
               py::dtype dtype = py::dtype::of<T>()) {
    py::array arr(std::move(dtype), std::move(shape), {}, data.data(), self);
    arr.attr("setflags")(py::arg("write") = false);
    return arr;
}

BoundEnv& env_of(const py::object& self) { return self.cast<BoundEnv&>(); }

py::array observations(const py::object& self) {
    VectorEnv& e = env_of(self).env;
    return view(self, e.observations(), {e.num_envs(), e.observation_size()});
}
py::array masks(const py::object& self) {
    VectorEnv& e = env_of(self).env;
    return view(self, e.masks(), {e.num_envs(), kNumPlayerActions}, py::dtype::of<bool>());
}
py::array rewards(const py::object& self) {
    VectorEnv& e = env_of(self).env;
    return view(self, e.rewards(), {e.num_envs(), e.num_players()});
}
py::array dones(const py::object& self) {
    VectorEnv& e = env_of(self).env;
    return view(self, e.dones(), {e.num_envs()}, py::dtype::of<bool>());
}
py::array to_move(const py::object& self) {
    VectorEnv& e = env_of(self).env;
    return view(self, e.to_move(), {e.num_envs()});
}

}  // namespace

void register_vector_env(py::module_& m) {
    m.attr("NUM_PLAYER_ACTIONS") = kNumPlayerActions;
    py::class_<BoundEnv>(m, "VectorEnv",
                         "N games stepped at once in C++; use manila.VectorEnv instead.")
        .def(py::init([](int num_envs, int players,
                         const std::optional<std::vector<std::optional<std::string>>>& bots,
                         int threads, bool autoreset, bool thirteen_to_port, bool pirate_variant) {
                 std::vector<std::optional<std::string>> names =
                     bots ? *bots
                          : std::vector<std::optional<std::string>>(
                                static_cast<std::size_t>(std::max(players, 0)));
                 std::vector<std::optional<BotKind>> kinds;
                 for (const auto& n : names)
                     kinds.push_back(n ? std::optional<BotKind>(core_bot_kind(*n)) : std::nullopt);
                 return new BoundEnv(num_envs, players, Rules{thirteen_to_port, pirate_variant},
                                     std::move(names), std::move(kinds), threads, autoreset);
             }),
             py::arg("num_envs"), py::kw_only(), py::arg("players") = 4,
             py::arg("bots") = py::none(), py::arg("threads") = 1, py::arg("autoreset") = true,
             py::arg("thirteen_to_port") = true, py::arg("pirate_variant") = false)
        .def_property_readonly("num_envs", [](BoundEnv& b) { return b.env.num_envs(); })
        .def_property_readonly("num_players", [](BoundEnv& b) { return b.env.num_players(); })
        .def_property_readonly("observation_size",
                               [](BoundEnv& b) { return b.env.observation_size(); })
        .def_property_readonly("threads", [](BoundEnv& b) { return b.env.threads(); })
        .def_property_readonly("bots", [](BoundEnv& b) { return b.bots; })
        .def_property_readonly("started", [](BoundEnv& b) { return b.env.started(); })
        .def_property_readonly("autoreset", [](BoundEnv& b) { return b.env.autoreset(); })
        // Both run without the GIL: the games touch no Python object, the seed and the
        // actions are C++ copies, and the lock keeps other threads out of this environment.
        .def(
            "reset",
            [](const py::object& self, std::uint64_t seed) {
                BoundEnv& b = env_of(self);
                {
                    py::gil_scoped_release release;
                    std::lock_guard<std::mutex> lock(b.busy);
                    b.env.reset(seed);
                }
                return py::make_tuple(observations(self), masks(self));
            },
            py::arg("seed"))
        .def(
            "step",
            [](const py::object& self,
               const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>&
                   actions) {
                BoundEnv& b = env_of(self);
                if (actions.ndim() != 1)
                    throw std::invalid_argument("actions: a one-dimensional array is needed, got " +
                                                std::to_string(actions.ndim()) + " dimensions");
                const std::vector<std::int64_t> copy(actions.data(),
                                                     actions.data() + actions.size());
                {
                    py::gil_scoped_release release;
                    std::lock_guard<std::mutex> lock(b.busy);
                    b.env.step(copy.data(), copy.size());
                }
                return py::make_tuple(observations(self), masks(self), rewards(self), dones(self),
                                      to_move(self));
            },
            py::arg("actions"))
        .def(
            "sample_actions",
            [](BoundEnv& b, Rng& rng) {
                std::vector<std::int64_t> out(static_cast<std::size_t>(b.env.num_envs()));
                b.env.sample_actions(rng, out.data(), out.size());
                return manila_bindings::to_numpy(std::move(out), {b.env.num_envs()});
            },
            py::arg("rng"))
        .def_property_readonly("observations", &observations)
        .def_property_readonly("masks", &masks)
        .def_property_readonly("rewards", &rewards)
        .def_property_readonly("final_observations",
                               [](const py::object& self) {
                                   VectorEnv& e = env_of(self).env;
                                   return view(self, e.final_observations(),
                                               {e.num_envs(), e.observation_size()});
                               })
        .def_property_readonly("dones", &dones)
        .def_property_readonly("to_move", &to_move)
        .def_property_readonly("game_seeds",
                               [](const py::object& self) {
                                   VectorEnv& e = env_of(self).env;
                                   return view(self, e.game_seeds(), {e.num_envs()});
                               })
        .def_property_readonly("game_numbers",
                               [](const py::object& self) {
                                   VectorEnv& e = env_of(self).env;
                                   return view(self, e.game_numbers(), {e.num_envs()});
                               })
        .def_property_readonly("steps",
                               [](const py::object& self) {
                                   VectorEnv& e = env_of(self).env;
                                   return view(self, e.steps(), {e.num_envs()});
                               })
        .def("game", [](BoundEnv& b, int i) { return GameState(b.env.game(i)); }, py::arg("env"))
        // A new array: the AEC form asks for any agent's view at any time.
        .def(
            "observe",
            [](BoundEnv& b, int i, int seat) {
                py::array_t<float> out(b.env.observation_size());
                b.env.observe(i, seat, out.mutable_data(), static_cast<std::size_t>(out.size()));
                return out;
            },
            py::arg("env"), py::arg("seat"));
}

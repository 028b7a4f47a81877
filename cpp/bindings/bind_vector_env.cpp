#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "manila/bots.hpp"
#include "manila/vector_env.hpp"
#include "numpy_views.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

// A read-only numpy view of one of the environment's buffers: read-only because the masks
// are what step() checks actions against. Its base holds the environment (shared), not the
// Python object, so that the object may keep its views without a reference cycle.
template <class T>
py::object view(const std::shared_ptr<VectorEnv>& env, std::vector<T>& data,
                std::vector<py::ssize_t> shape, py::dtype dtype = py::dtype::of<T>()) {
    auto* keep = new std::shared_ptr<VectorEnv>(env);
    py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<VectorEnv>*>(p); });
    py::array arr(std::move(dtype), std::move(shape), {}, data.data(), base);
    arr.attr("setflags")(py::arg("write") = false);
    return std::move(arr);
}

// The environment with what the binding needs: the seat names as given; a lock, since reset
// and step run without the GIL and two Python threads could otherwise step it at once; and
// its buffers' views, made once (the buffers never move) so that a step returns them without
// building arrays: the AEC form of the environment steps one game at a time.
struct BoundEnv {
    BoundEnv(int num_envs, int players, Rules rules, std::vector<std::optional<std::string>> names,
             std::vector<std::optional<BotKind>> kinds, int threads, bool autoreset,
             RewardKind reward, bool explicit_chance)
        : env(std::make_shared<VectorEnv>(num_envs, players, rules, std::move(kinds), threads,
                                          autoreset, reward, explicit_chance)),
          bots(std::move(names)) {
        VectorEnv& e = *env;
        const py::ssize_t n = e.num_envs();
        observations = view(env, e.observations(), {n, e.observation_size()});
        final_observations = view(env, e.final_observations(), {n, e.observation_size()});
        masks = view(env, e.masks(), {n, kNumPlayerActions}, py::dtype::of<bool>());
        rewards = view(env, e.rewards(), {n, e.num_players()});
        dones = view(env, e.dones(), {n}, py::dtype::of<bool>());
        to_move = view(env, e.to_move(), {n});
        game_seeds = view(env, e.game_seeds(), {n});
        game_numbers = view(env, e.game_numbers(), {n});
        steps = view(env, e.steps(), {n});
        chance_weights = view(env, e.chance_weights(), {n, kNumChanceOutcomes});
        chance_denominators = view(env, e.chance_denominators(), {n});
    }
    std::shared_ptr<VectorEnv> env;
    std::vector<std::optional<std::string>> bots;
    std::mutex busy;
    py::object observations, final_observations, masks, rewards, dones, to_move, game_seeds,
        game_numbers, steps, chance_weights, chance_denominators;
};

}  // namespace

void register_vector_env(py::module_& m) {
    m.attr("NUM_PLAYER_ACTIONS") = kNumPlayerActions;
    m.attr("NUM_CHANCE_OUTCOMES") = kNumChanceOutcomes;
    {
        py::list names;
        for (RewardKind k : {RewardKind::kWealth, RewardKind::kWin, RewardKind::kEquity})
            names.append(reward_name(k));
        m.attr("REWARDS") = py::tuple(names);
    }
    py::class_<BoundEnv>(m, "VectorEnv",
                         "N games stepped at once in C++; use manila.VectorEnv instead.")
        .def(py::init([](int num_envs, int players,
                         const std::optional<std::vector<std::optional<std::string>>>& bots,
                         int threads, bool autoreset, const std::string& reward,
                         bool explicit_chance, bool thirteen_to_port, bool pirate_variant) {
                 std::vector<std::optional<std::string>> names =
                     bots ? *bots
                          : std::vector<std::optional<std::string>>(
                                static_cast<std::size_t>(std::max(players, 0)));
                 std::vector<std::optional<BotKind>> kinds;
                 for (const auto& n : names)
                     kinds.push_back(n ? std::optional<BotKind>(bot_kind_of(*n)) : std::nullopt);
                 return new BoundEnv(num_envs, players, Rules{thirteen_to_port, pirate_variant},
                                     std::move(names), std::move(kinds), threads, autoreset,
                                     reward_kind_of(reward), explicit_chance);
             }),
             py::arg("num_envs"), py::kw_only(), py::arg("players") = 4,
             py::arg("bots") = py::none(), py::arg("threads") = 1, py::arg("autoreset") = true,
             py::arg("reward") = "wealth", py::arg("explicit_chance") = false,
             py::arg("thirteen_to_port") = true, py::arg("pirate_variant") = false)
        .def_property_readonly("num_envs", [](BoundEnv& b) { return b.env->num_envs(); })
        .def_property_readonly("num_players", [](BoundEnv& b) { return b.env->num_players(); })
        .def_property_readonly("observation_size",
                               [](BoundEnv& b) { return b.env->observation_size(); })
        .def_property_readonly("threads", [](BoundEnv& b) { return b.env->threads(); })
        .def_property_readonly("bots", [](BoundEnv& b) { return b.bots; })
        .def_property_readonly("started", [](BoundEnv& b) { return b.env->started(); })
        .def_property_readonly("autoreset", [](BoundEnv& b) { return b.env->autoreset(); })
        .def_property_readonly("reward",
                               [](BoundEnv& b) { return std::string(reward_name(b.env->reward())); })
        .def_property_readonly("explicit_chance",
                               [](BoundEnv& b) { return b.env->explicit_chance(); })
        // Both run without the GIL: the games touch no Python object, the seed and the
        // actions are C++ copies, and the lock keeps other threads out of this environment.
        .def(
            "reset",
            [](BoundEnv& b, std::uint64_t seed) {
                {
                    py::gil_scoped_release release;
                    std::lock_guard<std::mutex> lock(b.busy);
                    b.env->reset(seed);
                }
                return py::make_tuple(b.observations, b.masks);
            },
            py::arg("seed"))
        .def(
            "step",
            [](BoundEnv& b, const py::array_t<std::int64_t,
                                              py::array::c_style | py::array::forcecast>& actions) {
                if (actions.ndim() != 1)
                    throw std::invalid_argument("actions: a one-dimensional array is needed, got " +
                                                std::to_string(actions.ndim()) + " dimensions");
                const std::vector<std::int64_t> copy(actions.data(),
                                                     actions.data() + actions.size());
                {
                    py::gil_scoped_release release;
                    std::lock_guard<std::mutex> lock(b.busy);
                    b.env->step(copy.data(), copy.size());
                }
                return py::make_tuple(b.observations, b.masks, b.rewards, b.dones, b.to_move);
            },
            py::arg("actions"))
        .def(
            "sample_actions",
            [](BoundEnv& b, Rng& rng) {
                std::vector<std::int64_t> out(static_cast<std::size_t>(b.env->num_envs()));
                b.env->sample_actions(rng, out.data(), out.size());
                return manila_bindings::to_numpy(std::move(out), {b.env->num_envs()});
            },
            py::arg("rng"))
        // Draws from each game's own generator: the lock keeps a concurrent step out.
        .def("sample_chance",
             [](BoundEnv& b) {
                 std::vector<std::int64_t> out(static_cast<std::size_t>(b.env->num_envs()));
                 {
                     std::lock_guard<std::mutex> lock(b.busy);
                     b.env->sample_chance(out.data(), out.size());
                 }
                 return manila_bindings::to_numpy(std::move(out), {b.env->num_envs()});
             })
        .def_readonly("observations", &BoundEnv::observations)
        .def_readonly("masks", &BoundEnv::masks)
        .def_readonly("rewards", &BoundEnv::rewards)
        .def_readonly("final_observations", &BoundEnv::final_observations)
        .def_readonly("dones", &BoundEnv::dones)
        .def_readonly("to_move", &BoundEnv::to_move)
        .def_readonly("game_seeds", &BoundEnv::game_seeds)
        .def_readonly("game_numbers", &BoundEnv::game_numbers)
        .def_readonly("steps", &BoundEnv::steps)
        .def_readonly("chance_weights", &BoundEnv::chance_weights)
        .def_readonly("chance_denominators", &BoundEnv::chance_denominators)
        .def(
            "game", [](BoundEnv& b, int i) { return GameState(b.env->game(i)); }, py::arg("env"))
        // A new array: the AEC form asks for any agent's view at any time.
        .def(
            "observe",
            [](BoundEnv& b, int i, int seat) {
                py::array_t<float> out(b.env->observation_size());
                b.env->observe(i, seat, out.mutable_data(), static_cast<std::size_t>(out.size()));
                return out;
            },
            py::arg("env"), py::arg("seat"));
}

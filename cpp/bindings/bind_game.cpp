#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json_values.hpp"
#include "manila/bots.hpp"
#include "manila/game.hpp"
#include "manila/json.hpp"
#include "manila/observation.hpp"

namespace py = pybind11;
using namespace manila;

using manila_bindings::to_python;

void register_game(py::module_& m) {
    namespace a = action;
    m.attr("NUM_ACTIONS") = a::kNumActions;
    m.attr("MAX_BID") = a::kMaxBid;
    m.attr("NUM_ROLL_OUTCOMES") = a::kNumRolls;
    m.attr("LOAN_AMOUNT") = kLoanAmount;
    m.attr("MAX_CASH") = kMaxCash;
    m.attr("MAX_BUDGET") = kMaxBudget;
    m.attr("CHANCE_PLAYER") = kChancePlayer;
    m.attr("TERMINAL_PLAYER") = kTerminalPlayer;
    py::dict offsets;
    offsets["pass"] = a::kPass;
    offsets["mortgage"] = a::kMortgage;
    offsets["repay"] = a::kRepay;
    offsets["buy"] = a::kBuy;
    offsets["buy_nothing"] = a::kBuyNothing;
    offsets["leave_home"] = a::kLeaveHome;
    offsets["start"] = a::kStart;
    offsets["place"] = a::kPlace;
    offsets["decline"] = a::kDecline;
    offsets["stay"] = a::kStay;
    offsets["board"] = a::kBoard;
    offsets["displace"] = a::kDisplace;
    offsets["small_none"] = a::kSmallNone;
    offsets["small"] = a::kSmall;
    offsets["large_none"] = a::kLargeNone;
    offsets["large_one"] = a::kLargeOne;
    offsets["large_two"] = a::kLargeTwo;
    offsets["plunder"] = a::kPlunder;
    offsets["deal"] = a::kDeal;
    offsets["roll"] = a::kRoll;
    m.attr("ACTION_OFFSETS") = offsets;

    m.def("action_name", &action_name, py::arg("action"));
    m.def("observation_size", &observation_size, py::arg("players"));
    m.def(
        "observation_layout",
        [](int players) {
            py::list out;
            for (const TensorSection& sec : observation_layout(players))
                out.append(
                    py::make_tuple(sec.name, sec.offset, py::tuple(py::cast(sec.shape)), sec.low));
            return out;
        },
        py::arg("players"));
    m.attr("MAX_GAME_ACTIONS") = kMaxGameActions;
    m.attr("MIN_WEALTH") = kMinWealth;
    m.attr("MIN_FINAL_WEALTH") = kMinFinalWealth;
    m.attr("CORE_BOTS") = py::tuple(py::cast(bot_names()));
    m.def("start_triple", &start_triple, py::arg("index"));
    m.def("derive_seed", &derive_seed, py::arg("seed"), py::arg("index"));

    py::class_<Rng>(m, "Rng", "splitmix64: the generator of chance and of the random bot.")
        .def(py::init<std::uint64_t>(), py::arg("seed") = 0)
        .def("next", &Rng::next)
        .def("below", &Rng::below, py::arg("n"))
        .def_property("state", &Rng::state, &Rng::set_state);

    py::class_<GameState>(m, "GameState",
                          "The C++ game state; use manila.Game and manila.game.State.")
        .def(py::init(
                 [](int players, std::uint64_t seed, bool thirteen_to_port, bool pirate_variant) {
                     return GameState(players, Rules{thirteen_to_port, pirate_variant}, seed);
                 }),
             py::kw_only(), py::arg("players"), py::arg("seed") = 0,
             py::arg("thirteen_to_port") = true, py::arg("pirate_variant") = false)
        .def("clone", [](const GameState& s) { return GameState(s); })
        .def("seen_by", &GameState::seen_by, py::arg("viewer"))
        // A state is a plain value: copies are clones (OpenSpiel clones Python states with
        // deepcopy).
        .def("__copy__", [](const GameState& s) { return GameState(s); })
        .def(
            "__deepcopy__", [](const GameState& s, const py::dict&) { return GameState(s); },
            py::arg("memo"))
        // Pickled as the game, the history and the generator, and rebuilt by replaying the
        // history (every action checked, so a tampered pickle raises ValueError).
        .def(py::pickle(
            [](const GameState& s) {
                const Board& b = s.board();
                return py::make_tuple(b.num_players, s.seed(), b.rules.thirteen_to_port,
                                      b.rules.pirate_variant, s.history(), s.rng().state());
            },
            [](const py::tuple& t) {
                if (t.size() != 6)
                    throw std::invalid_argument("pickle: not a pickled manila GameState");
                GameState s(t[0].cast<int>(), Rules{t[2].cast<bool>(), t[3].cast<bool>()},
                            t[1].cast<std::uint64_t>());
                for (int a : t[4].cast<std::vector<int>>()) s.apply_action(a);
                s.rng().set_state(t[5].cast<std::uint64_t>());
                return s;
            }))
        .def_property_readonly("num_players", &GameState::num_players)
        .def_property_readonly("seed", &GameState::seed)
        .def_property(
            "rng_state", [](const GameState& s) { return s.rng().state(); },
            [](GameState& s, std::uint64_t v) { s.rng().set_state(v); })
        .def_property_readonly("thirteen_to_port",
                               [](const GameState& s) { return s.board().rules.thirteen_to_port; })
        .def_property_readonly("pirate_variant",
                               [](const GameState& s) { return s.board().rules.pirate_variant; })
        .def_property_readonly("phase",
                               [](const GameState& s) { return phase_name(s.board().phase); })
        .def_property_readonly("voyage_number", [](const GameState& s) { return s.board().voyage; })
        .def("current_player", &GameState::current_player)
        .def("is_chance_node", &GameState::is_chance_node)
        .def("is_terminal", &GameState::is_terminal)
        .def("legal_actions", py::overload_cast<>(&GameState::legal_actions, py::const_))
        .def("is_legal", &GameState::is_legal, py::arg("action"))
        .def("illegal_reason", &GameState::illegal_reason, py::arg("action"))
        .def("apply_action", &GameState::apply_action, py::arg("action"))
        .def("chance_weights",
             [](const GameState& s) {
                 ChanceWeights w = s.chance_weights();
                 return std::make_pair(std::move(w.outcomes), w.den);
             })
        .def("chance_outcomes", &GameState::chance_outcomes)
        .def("sample_chance", py::overload_cast<>(&GameState::sample_chance))
        .def("sample_chance_with", py::overload_cast<Rng&>(&GameState::sample_chance, py::const_),
             py::arg("rng"))
        .def("returns", &GameState::returns)
        .def("wealth", &GameState::wealth, py::arg("player"))
        .def("voyages_completed", &GameState::voyages_completed)
        .def("history", &GameState::history)
        .def("history_length", [](const GameState& s) { return s.history().size(); })
        .def("voyage", &GameState::voyage)
        .def("action_to_string", &GameState::action_to_string, py::arg("action"))
        .def("to_string", &GameState::to_string)
        .def("check_invariants", &GameState::check_invariants)
        .def("snapshot", [](const GameState& s) { return to_python(board_json(s)); })
        .def(
            "observation",
            [](const GameState& s, int player, const std::string& info) {
                check_viewer(s, player);
                return to_python(observation_json(s, player, private_info_named(info)));
            },
            py::arg("player"), py::arg("private_info") = "single")
        .def(
            "information_state_string",
            [](const GameState& s, int player, const std::string& info) {
                return information_state_string(s, player, private_info_named(info));
            },
            py::arg("player"), py::arg("private_info") = "single")
        .def(
            "observation_string",
            [](const GameState& s, int player, const std::string& info) {
                return observation_string(s, player, private_info_named(info));
            },
            py::arg("player"), py::arg("private_info") = "single")
        // Written straight into numpy memory: a new array, or `out` (float32, C-contiguous,
        // observation_size floats) reused by observers that keep one buffer.
        .def(
            "observation_tensor",
            [](const GameState& s, int player, const std::string& info, py::object out) {
                const PrivateInfo pi = private_info_named(info);
                check_viewer(s, player);
                py::array_t<float> arr;
                if (out.is_none()) {
                    arr = py::array_t<float>(observation_size(s.num_players()));
                } else {
                    if (!py::isinstance<py::array_t<float>>(out))
                        throw std::invalid_argument("out: a float32 numpy array is needed");
                    arr = out.cast<py::array_t<float>>();
                    if (!(arr.flags() & py::array::c_style) || !arr.writeable() || arr.ndim() != 1)
                        throw std::invalid_argument(
                            "out: a writable one-dimensional C-contiguous float32 array is needed");
                    if (arr.size() != observation_size(s.num_players()))
                        throw std::invalid_argument(
                            "out: " + std::to_string(observation_size(s.num_players())) +
                            " floats are needed, got " + std::to_string(arr.size()));
                }
                observation_tensor(s, player, pi, arr.mutable_data(),
                                   static_cast<std::size_t>(arr.size()));
                return arr;
            },
            py::arg("player"), py::arg("private_info") = "single", py::arg("out") = py::none())
        .def(
            "placement_terms",
            [](const GameState& s, int player, int id) -> py::object {
                const std::optional<PlacementTerms> terms = s.placement_terms(player, id);
                if (!terms) return py::none();
                return py::make_tuple(terms->cost, terms->blind);
            },
            py::arg("player"), py::arg("spot"));

    m.def("random_action", &random_action, py::arg("state"), py::arg("rng"));
    // Any built-in bot's move, by name. Bots search for up to seconds: on a copy of the
    // state, without the GIL (the seat's generator is the caller's, for this call alone).
    m.def(
        "bot_action",
        [](const GameState& s, const std::string& bot, std::optional<Rng*> given) {
            const BotKind kind = bot_kind_of(bot);
            Rng* rng = given.value_or(nullptr);
            if (rng == nullptr && bot_draws(kind))
                throw std::invalid_argument("rng: the " + bot +
                                            " bot draws from the seat's own generator: pass it");
            Rng unused;
            const GameState copy = s;
            py::gil_scoped_release release;
            return bot_action(kind, copy, rng != nullptr ? *rng : unused);
        },
        py::arg("state"), py::arg("bot"), py::arg("rng") = py::none());
    // The greedy bot evaluates voyages (up to milliseconds): it works on a copy of the
    // state with the GIL released, so other Python threads may run and even change the
    // original meanwhile.
    m.def(
        "greedy_action",
        [](const GameState& s, bool wealth) {
            const GameState copy = s;
            py::gil_scoped_release release;
            return greedy_action(copy, wealth ? Objective::kWealth : Objective::kIncome);
        },
        py::arg("state"), py::arg("wealth") = false);
    // The solver searches placement rounds (up to a second): on a copy, without the GIL.
    m.def(
        "solver_action",
        [](const GameState& s) {
            const GameState copy = s;
            py::gil_scoped_release release;
            return solver_action(copy);
        },
        py::arg("state"));

    // Plays games first..first+n-1 of a run in C++; returns (seeds, wealth, voyages,
    // actions, histories) with histories empty unless `record`. The GIL is released once
    // the arguments are C++ values: the play-outs touch no Python object.
    m.def(
        "play_games",
        [](int players, std::uint64_t seed, std::int64_t first, int n,
           const std::vector<std::string>& bots, int threads, bool record, bool check,
           bool thirteen_to_port, bool pirate_variant) {
            const std::vector<BotKind> kinds = bot_kinds_of(bots);
            std::vector<GameResult> results;
            {
                py::gil_scoped_release release;
                results = play_games(players, Rules{thirteen_to_port, pirate_variant}, seed, first,
                                     n, kinds, threads, record, check);
            }
            const auto rows = static_cast<py::ssize_t>(results.size());
            py::array_t<std::uint64_t> seeds(rows);
            py::array_t<std::int32_t> wealth({rows, static_cast<py::ssize_t>(players)});
            py::array_t<std::int32_t> voyages(rows), actions(rows);
            auto sd = seeds.mutable_unchecked<1>();
            auto wd = wealth.mutable_unchecked<2>();
            auto vd = voyages.mutable_unchecked<1>();
            auto ad = actions.mutable_unchecked<1>();
            py::list histories;
            for (py::ssize_t i = 0; i < rows; ++i) {
                const GameResult& r = results[static_cast<std::size_t>(i)];
                sd(i) = r.seed;
                for (py::ssize_t p = 0; p < players; ++p)
                    wd(i, p) = r.wealth[static_cast<std::size_t>(p)];
                vd(i) = r.voyages;
                ad(i) = r.actions;
                if (record) histories.append(py::cast(r.history));
            }
            return py::make_tuple(seeds, wealth, voyages, actions, histories);
        },
        py::kw_only(), py::arg("players"), py::arg("seed"), py::arg("first"), py::arg("n"),
        py::arg("bots"), py::arg("threads") = 0, py::arg("record") = false,
        py::arg("check") = false, py::arg("thirteen_to_port") = true,
        py::arg("pirate_variant") = false);
}

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bot_names.hpp"
#include "manila/game.hpp"
#include "manila/observation.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

py::object owner_or_none(int o) {
    return o == kNoOwner ? py::object(py::none()) : py::object(py::int_(o));
}

// The table as plain Python values: everything (for to_dict, tests and replays), or what
// `viewer` may see (face-down shares of others masked, their wealth unknown).
py::dict snapshot(const GameState& s, int viewer = 0, PrivateInfo info = PrivateInfo::kAll) {
    const Board& b = s.board();
    py::dict d;
    d["phase"] = phase_name(b.phase);
    d["current_player"] = b.current;
    d["voyage"] = b.voyage;
    d["harbour_master"] = owner_or_none(b.harbour_master);
    d["bank"] = b.bank;
    py::dict prices, supply;
    for (int g = 0; g < kNumGoods; ++g) {
        prices[kGoods[static_cast<std::size_t>(g)].name] = b.price(g);
        supply[kGoods[static_cast<std::size_t>(g)].name] = b.supply[static_cast<std::size_t>(g)];
    }
    d["prices"] = prices;
    d["supply"] = supply;
    py::list players;
    for (int p = 0; p < b.num_players; ++p) {
        const PlayerState& ps = b.players[static_cast<std::size_t>(p)];
        const auto known = known_shares(b, viewer, p, info);
        const int hidden = hidden_shares(b, viewer, p, info);
        py::dict pd, shares;
        for (int g = 0; g < kNumGoods; ++g)
            shares[kGoods[static_cast<std::size_t>(g)].name] = known[static_cast<std::size_t>(g)];
        pd["cash"] = ps.cash;
        pd["shares"] = shares;
        if (info != PrivateInfo::kAll) pd["hidden_shares"] = hidden;
        pd["mortgaged"] = ps.mortgaged;
        pd["accomplices"] = b.accomplices(p);
        pd["declined"] = static_cast<bool>((b.declined >> p) & 1);
        pd["wealth"] = hidden ? py::object(py::none()) : py::object(py::int_(s.wealth(p)));
        players.append(pd);
    }
    d["players"] = players;
    if (b.phase == Phase::kAuction) {
        py::dict a;
        a["high_bid"] = b.high_bid;
        a["high_bidder"] = owner_or_none(b.high_bidder);
        py::list bidding;
        for (int p = 0; p < b.num_players; ++p)
            if ((b.in_auction >> p) & 1) bidding.append(p);
        a["bidding"] = bidding;
        d["auction"] = a;
    }
    d["stays_home"] = b.stays_home >= 0
                          ? py::object(py::str(kGoods[static_cast<std::size_t>(b.stays_home)].name))
                          : py::object(py::none());
    py::dict boats, spots;
    const bool afloat = b.phase >= Phase::kPlacement && b.phase != Phase::kGameOver;
    if (afloat) {
        for (const Boat& boat : b.boats) {
            py::dict bd;
            bd["position"] = boat.position == kArrived ? py::object(py::str("arrived"))
                                                       : py::object(py::int_(boat.position));
            py::list crew;
            for (int k = 0; k < boat.crew_size; ++k)
                crew.append(boat.crew[static_cast<std::size_t>(k)]);
            bd["crew"] = crew;
            boats[kGoods[static_cast<std::size_t>(boat.good)].name] = bd;
        }
        for (int k = 0; k < kNumSpots; ++k)
            if (b.spots[static_cast<std::size_t>(k)] != kNoOwner)
                spots[kSpotNames[static_cast<std::size_t>(k)]] =
                    b.spots[static_cast<std::size_t>(k)];
    }
    d["boats"] = boats;
    d["spots"] = spots;
    if (b.phase == Phase::kBoarding) {
        // Who decides (0: the captain, 1: the other pirate) and the seat the captain took,
        // which the other pirate may not displace.
        py::dict boarding;
        boarding["decider"] = b.decider;
        boarding["guard"] = b.guard_boat >= 0
                                ? py::object(py::make_tuple(b.guard_boat, b.guard_seat))
                                : py::object(py::none());
        d["boarding"] = boarding;
    }
    d["next_roll"] =
        afloat ? py::object(py::int_(std::min(b.next_roll, 4))) : py::object(py::none());
    py::list port, yard;
    for (int k = 0; k < b.in_port; ++k)
        port.append(kGoods[static_cast<std::size_t>(b.port[static_cast<std::size_t>(k)])].name);
    for (int k = 0; k < b.in_shipyard; ++k)
        yard.append(kGoods[static_cast<std::size_t>(b.shipyard[static_cast<std::size_t>(k)])].name);
    d["port"] = port;
    d["shipyard"] = yard;
    const Settlement& st = b.last;
    py::dict last;
    last["income"] = std::vector<int>(st.income.begin(), st.income.begin() + b.num_players);
    last["forced_mortgages"] =
        std::vector<int>(st.mortgages.begin(), st.mortgages.begin() + b.num_players);
    last["insurer"] = owner_or_none(st.insurer);
    last["insurance_due"] = st.insurance_due;
    last["insurance_paid"] = st.insurance_paid;
    py::list lport, lyard, lplundered;
    for (int k = 0; k < st.in_manila; ++k)
        lport.append(kGoods[static_cast<std::size_t>(st.port[static_cast<std::size_t>(k)])].name);
    for (int k = 0; k < st.in_shipyard; ++k)
        lyard.append(
            kGoods[static_cast<std::size_t>(st.shipyard[static_cast<std::size_t>(k)])].name);
    for (int g = 0; g < kNumGoods; ++g)
        if ((st.plundered_goods >> g) & 1)
            lplundered.append(kGoods[static_cast<std::size_t>(g)].name);
    last["port"] = lport;
    last["shipyard"] = lyard;
    last["plundered"] = lplundered;
    d["last_settlement"] = last;
    return d;
}

PrivateInfo private_info(const std::string& name) {
    if (name == "none") return PrivateInfo::kNone;
    if (name == "single") return PrivateInfo::kSingle;
    if (name == "all") return PrivateInfo::kAll;
    throw std::invalid_argument("private_info: must be \"none\", \"single\" or \"all\", got \"" +
                                name + "\"");
}

void check_player(const GameState& s, int player) {
    if (player < 0 || player >= s.num_players())
        throw std::invalid_argument("player: must be 0.." + std::to_string(s.num_players() - 1) +
                                    ", got " + std::to_string(player));
}

// What `player` may know, as JSON-ready values: the masked table, and every action so far
// with another player's deal written as None.
py::dict observation(const GameState& s, int player, const std::string& info_name) {
    check_player(s, player);
    const PrivateInfo info = private_info(info_name);
    py::dict d = snapshot(s, player, info);
    d["observer"] = player;
    py::list history;
    for (std::size_t k = 0; k < s.history().size(); ++k)
        history.append(action_visible(s, player, k, info) ? py::object(py::int_(s.history()[k]))
                                                          : py::object(py::none()));
    d["history"] = history;
    return d;
}

// The bots the C++ play-out loop runs, by name (manila.bots registers them for Python).
const std::vector<std::pair<std::string, BotKind>>& core_bots() {
    static const std::vector<std::pair<std::string, BotKind>> bots{
        {"random", BotKind::kRandom},
        {"greedy", BotKind::kGreedy},
        {"greedy-wealth", BotKind::kGreedyWealth},
        {"expert", BotKind::kExpert}};
    return bots;
}

}  // namespace

std::vector<BotKind> bot_kinds(const std::vector<std::string>& names) {
    std::vector<BotKind> out;
    for (const std::string& n : names) {
        const auto& bots = core_bots();
        auto it =
            std::find_if(bots.begin(), bots.end(), [&](const auto& b) { return b.first == n; });
        if (it == bots.end()) {
            std::string known;
            for (const auto& b : bots) known += (known.empty() ? "" : ", ") + b.first;
            throw std::invalid_argument("bots: unknown bot '" + n + "'; the built-in bots are " +
                                        known);
        }
        out.push_back(it->second);
    }
    return out;
}

BotKind core_bot_kind(const std::string& name) { return bot_kinds({name}).front(); }

void register_game(py::module_& m) {
    namespace a = action;
    m.attr("NUM_ACTIONS") = a::kNumActions;
    m.attr("MAX_BID") = a::kMaxBid;
    m.attr("NUM_ROLL_OUTCOMES") = a::kNumRolls;
    m.attr("LOAN_AMOUNT") = kLoanAmount;
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
    py::list core_bot_names;
    for (const auto& b : core_bots()) core_bot_names.append(b.first);
    m.attr("CORE_BOTS") = py::tuple(core_bot_names);
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
        .def("snapshot", [](const GameState& s) { return snapshot(s); })
        .def("observation", &observation, py::arg("player"), py::arg("private_info") = "single")
        .def(
            "information_state_string",
            [](const GameState& s, int player, const std::string& info) {
                return information_state_string(s, player, private_info(info));
            },
            py::arg("player"), py::arg("private_info") = "single")
        .def(
            "observation_string",
            [](const GameState& s, int player, const std::string& info) {
                return observation_string(s, player, private_info(info));
            },
            py::arg("player"), py::arg("private_info") = "single")
        // Written straight into numpy memory: a new array, or `out` (float32, C-contiguous,
        // observation_size floats) reused by observers that keep one buffer.
        .def(
            "observation_tensor",
            [](const GameState& s, int player, const std::string& info, py::object out) {
                const PrivateInfo pi = private_info(info);
                check_player(s, player);
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

    // Plays games first..first+n-1 of a run in C++; returns (seeds, wealth, voyages,
    // actions, histories) with histories empty unless `record`. The GIL is released once
    // the arguments are C++ values: the play-outs touch no Python object.
    m.def(
        "play_games",
        [](int players, std::uint64_t seed, std::int64_t first, int n,
           const std::vector<std::string>& bots, int threads, bool record, bool check,
           bool thirteen_to_port, bool pirate_variant) {
            const std::vector<BotKind> kinds = bot_kinds(bots);
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

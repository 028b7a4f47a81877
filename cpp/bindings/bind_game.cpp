#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "manila/game.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

py::object owner_or_none(int o) { return o == kNoOwner ? py::object(py::none()) : py::object(py::int_(o)); }

// Everything on the table as plain Python values (for to_dict, tests and replays).
py::dict snapshot(const GameState& s) {
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
        py::dict pd, shares;
        for (int g = 0; g < kNumGoods; ++g) shares[kGoods[static_cast<std::size_t>(g)].name] = ps.shares[static_cast<std::size_t>(g)];
        pd["cash"] = ps.cash;
        pd["shares"] = shares;
        pd["mortgaged"] = ps.mortgaged;
        pd["accomplices"] = b.accomplices(p);
        pd["declined"] = static_cast<bool>((b.declined >> p) & 1);
        pd["wealth"] = s.wealth(p);
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
    d["stays_home"] = b.stays_home >= 0 ? py::object(py::str(kGoods[static_cast<std::size_t>(b.stays_home)].name))
                                        : py::object(py::none());
    py::dict boats, spots;
    const bool afloat = b.phase >= Phase::kPlacement && b.phase != Phase::kGameOver;
    if (afloat) {
        for (const Boat& boat : b.boats) {
            py::dict bd;
            bd["position"] = boat.position == kArrived ? py::object(py::str("arrived")) : py::object(py::int_(boat.position));
            py::list crew;
            for (int k = 0; k < boat.crew_size; ++k) crew.append(boat.crew[static_cast<std::size_t>(k)]);
            bd["crew"] = crew;
            boats[kGoods[static_cast<std::size_t>(boat.good)].name] = bd;
        }
        for (int k = 0; k < kNumSpots; ++k)
            if (b.spots[static_cast<std::size_t>(k)] != kNoOwner) spots[kSpotNames[static_cast<std::size_t>(k)]] = b.spots[static_cast<std::size_t>(k)];
    }
    d["boats"] = boats;
    d["spots"] = spots;
    d["next_roll"] = afloat ? py::object(py::int_(std::min(b.next_roll, 4))) : py::object(py::none());
    py::list port, yard;
    for (int k = 0; k < b.in_port; ++k) port.append(kGoods[static_cast<std::size_t>(b.port[static_cast<std::size_t>(k)])].name);
    for (int k = 0; k < b.in_shipyard; ++k) yard.append(kGoods[static_cast<std::size_t>(b.shipyard[static_cast<std::size_t>(k)])].name);
    d["port"] = port;
    d["shipyard"] = yard;
    const Settlement& st = b.last;
    py::dict last;
    last["income"] = std::vector<int>(st.income.begin(), st.income.begin() + b.num_players);
    last["forced_mortgages"] = std::vector<int>(st.mortgages.begin(), st.mortgages.begin() + b.num_players);
    last["insurer"] = owner_or_none(st.insurer);
    last["insurance_due"] = st.insurance_due;
    last["insurance_paid"] = st.insurance_paid;
    py::list lport, lyard, lplundered;
    for (int k = 0; k < st.in_manila; ++k) lport.append(kGoods[static_cast<std::size_t>(st.port[static_cast<std::size_t>(k)])].name);
    for (int k = 0; k < st.in_shipyard; ++k) lyard.append(kGoods[static_cast<std::size_t>(st.shipyard[static_cast<std::size_t>(k)])].name);
    for (int g = 0; g < kNumGoods; ++g)
        if ((st.plundered_goods >> g) & 1) lplundered.append(kGoods[static_cast<std::size_t>(g)].name);
    last["port"] = lport;
    last["shipyard"] = lyard;
    last["plundered"] = lplundered;
    d["last_settlement"] = last;
    return d;
}

std::vector<BotKind> bot_kinds(const std::vector<std::string>& names) {
    std::vector<BotKind> out;
    for (const std::string& n : names) {
        if (n == "random")
            out.push_back(BotKind::kRandom);
        else if (n == "greedy")
            out.push_back(BotKind::kGreedy);
        else if (n == "greedy-wealth")
            out.push_back(BotKind::kGreedyWealth);
        else
            throw std::invalid_argument("bots: unknown bot '" + n +
                                        "'; the built-in bots are random, greedy and greedy-wealth");
    }
    return out;
}

}  // namespace

void register_game(py::module_& m) {
    namespace a = action;
    m.attr("NUM_ACTIONS") = a::kNumActions;
    m.attr("MAX_BID") = a::kMaxBid;
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
    m.def("start_triple", &start_triple, py::arg("index"));
    m.def("derive_seed", &derive_seed, py::arg("seed"), py::arg("index"));

    py::class_<Rng>(m, "Rng", "splitmix64: the generator of chance and of the random bot.")
        .def(py::init<std::uint64_t>(), py::arg("seed") = 0)
        .def("next", &Rng::next)
        .def("below", &Rng::below, py::arg("n"))
        .def_property("state", &Rng::state, &Rng::set_state);

    py::class_<GameState>(m, "GameState", "The C++ game state; use manila.Game and manila.game.State.")
        .def(py::init([](int players, std::uint64_t seed, bool thirteen_to_port, bool pirate_variant) {
                 return GameState(players, Rules{thirteen_to_port, pirate_variant}, seed);
             }),
             py::kw_only(), py::arg("players"), py::arg("seed") = 0, py::arg("thirteen_to_port") = true,
             py::arg("pirate_variant") = false)
        .def("clone", [](const GameState& s) { return GameState(s); })
        .def_property_readonly("num_players", &GameState::num_players)
        .def_property_readonly("seed", &GameState::seed)
        .def_property("rng_state", [](const GameState& s) { return s.rng().state(); },
                      [](GameState& s, std::uint64_t v) { s.rng().set_state(v); })
        .def_property_readonly("thirteen_to_port", [](const GameState& s) { return s.board().rules.thirteen_to_port; })
        .def_property_readonly("pirate_variant", [](const GameState& s) { return s.board().rules.pirate_variant; })
        .def_property_readonly("phase", [](const GameState& s) { return phase_name(s.board().phase); })
        .def_property_readonly("voyage_number", [](const GameState& s) { return s.board().voyage; })
        .def("current_player", &GameState::current_player)
        .def("is_chance_node", &GameState::is_chance_node)
        .def("is_terminal", &GameState::is_terminal)
        .def("legal_actions", py::overload_cast<>(&GameState::legal_actions, py::const_))
        .def("is_legal", &GameState::is_legal, py::arg("action"))
        .def("illegal_reason", &GameState::illegal_reason, py::arg("action"))
        .def("apply_action", &GameState::apply_action, py::arg("action"))
        .def("chance_weights", [](const GameState& s) {
            int den = 0;
            auto w = s.chance_weights(den);
            return std::make_pair(w, den);
        })
        .def("chance_outcomes", &GameState::chance_outcomes)
        .def("sample_chance", py::overload_cast<>(&GameState::sample_chance))
        .def("sample_chance_with", py::overload_cast<Rng&>(&GameState::sample_chance, py::const_), py::arg("rng"))
        .def("returns", &GameState::returns)
        .def("wealth", &GameState::wealth, py::arg("player"))
        .def("voyages_completed", &GameState::voyages_completed)
        .def("history", &GameState::history)
        .def("history_length", [](const GameState& s) { return s.history().size(); })
        .def("voyage", [](const GameState& s) -> py::object {
            Voyage v;
            if (!s.voyage(v)) return py::none();
            return py::cast(v);
        })
        .def("action_to_string", &GameState::action_to_string, py::arg("action"))
        .def("to_string", &GameState::to_string)
        .def("check_invariants", &GameState::check_invariants)
        .def("snapshot", &snapshot)
        .def("placement_terms", [](const GameState& s, int player, int id) -> py::object {
            int cost;
            bool blind;
            if (!s.placement_terms(player, id, cost, blind)) return py::none();
            return py::make_tuple(cost, blind);
        }, py::arg("player"), py::arg("spot"));

    m.def("random_action", &random_action, py::arg("state"), py::arg("rng"));
    // The greedy bot evaluates voyages (up to milliseconds): it works on a copy of the
    // state with the GIL released, so other Python threads may run and even change the
    // original meanwhile.
    m.def("greedy_action", [](const GameState& s, bool wealth) {
        const GameState copy = s;
        py::gil_scoped_release release;
        return greedy_action(copy, wealth ? Objective::kWealth : Objective::kIncome);
    }, py::arg("state"), py::arg("wealth") = false);

    // Plays games first..first+n-1 of a run in C++; returns (seeds, wealth, voyages,
    // actions, histories) with histories empty unless `record`. The GIL is released once
    // the arguments are C++ values: the play-outs touch no Python object.
    m.def("play_games", [](int players, std::uint64_t seed, std::int64_t first, int n,
                           const std::vector<std::string>& bots, int threads, bool record, bool check,
                           bool thirteen_to_port, bool pirate_variant) {
        const std::vector<BotKind> kinds = bot_kinds(bots);
        std::vector<GameResult> results;
        {
            py::gil_scoped_release release;
            results = play_games(players, Rules{thirteen_to_port, pirate_variant}, seed, first, n, kinds,
                                 threads, record, check);
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
            for (py::ssize_t p = 0; p < players; ++p) wd(i, p) = r.wealth[static_cast<std::size_t>(p)];
            vd(i) = r.voyages;
            ad(i) = r.actions;
            if (record) histories.append(py::cast(r.history));
        }
        return py::make_tuple(seeds, wealth, voyages, actions, histories);
    }, py::kw_only(), py::arg("players"), py::arg("seed"), py::arg("first"), py::arg("n"), py::arg("bots"),
       py::arg("threads") = 0, py::arg("record") = false, py::arg("check") = false,
       py::arg("thirteen_to_port") = true, py::arg("pirate_variant") = false);
}

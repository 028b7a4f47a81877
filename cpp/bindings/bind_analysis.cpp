#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis_args.hpp"
#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/game.hpp"
#include "manila/share_worth.hpp"
#include "manila/table.hpp"

namespace py = pybind11;
using namespace manila;

namespace {

py::dict analysis_dict(const Analysis& a) {
    py::dict d;
    d["decider"] = a.decider;
    d["kind"] = a.kind;
    d["horizon"] = horizon_name(a.config.horizon);
    d["seed"] = a.config.seed;
    d["seconds"] = a.seconds;
    d["target"] = a.config.target;
    d["gap_ci95"] = a.best_gap_ci95;
    put_outcome(d, a);
    return d;
}

void check_viewer(const GameState& s, int viewer) {
    if (viewer < 0 || viewer >= s.num_players())
        throw std::invalid_argument("viewer: must be 0.." + std::to_string(s.num_players() - 1) +
                                    ", got " + std::to_string(viewer));
}

}  // namespace

void register_analysis(py::module_& m) {
    m.attr("HORIZONS") =
        py::make_tuple(horizon_name(Horizon::kVoyage), horizon_name(Horizon::kGame));
    m.attr("POLICIES") = py::tuple(py::cast(continuation_policies()));
    m.attr("DEFAULT_POLICY") = default_policy();
    m.attr("HARBOUR_SCREEN") = kHarbourScreen;
    m.attr("VALUE_SOURCES") = py::make_tuple(value_source_name(ValueSource::kLearned),
                                             value_source_name(ValueSource::kRollout));
    py::list premium;
    for (const auto& row : kSharePremium) premium.append(py::tuple(py::cast(row)));
    m.attr("SHARE_PREMIUM") = py::tuple(premium);
    m.def("decision_kind", &decision_kind, py::arg("state"));
    m.def(
        "decision_options",
        [](const GameState& s, int max_bids, bool ceilings) {
            std::vector<std::pair<std::string, std::vector<int>>> out;
            for (const DecisionOption& o : decision_options(s, max_bids, ceilings))
                out.emplace_back(o.name, o.actions);
            return out;
        },
        py::arg("state"), py::arg("max_bids") = 0, py::arg("ceilings") = true);

    // Rollouts take from milliseconds to minutes: they run on a copy of the state with the
    // GIL released (they touch no Python object). The progress callback, between batches on
    // this thread, takes the GIL back; an exception it raises stops the analysis and is
    // raised again here.
    m.def(
        "analyse_decision",
        [](const GameState& s, const std::string& horizon, const std::string& value,
           const std::string& policy, std::uint64_t seed, int rollouts, int max_rollouts,
           double time_limit, double target, int batch, int threads, int max_bids,
           bool exact_shortcut, bool exact_answers, bool sample_hidden, bool racing, int screen,
           bool relative, bool final_worth,
           std::optional<std::function<bool(int, double)>> progress) {
            AnalysisConfig c;
            c.horizon = horizon_of(horizon);
            c.value = value_source_of(value);
            c.policy = policy_of(policy);
            c.seed = seed;
            c.rollouts = rollouts;
            c.max_rollouts = max_rollouts;
            c.time_limit = time_limit;
            c.target = target;
            c.batch = batch;
            c.threads = threads;
            c.max_bids = max_bids;
            c.exact_shortcut = exact_shortcut;
            c.exact_answers = exact_answers;
            c.sample_hidden = sample_hidden;
            c.racing = racing;
            c.screen = screen;
            c.relative = relative;
            c.final_worth = final_worth;
            const GameState copy = s;
            PythonProgress<int, double> report(std::move(progress));
            Analysis a;
            {
                py::gil_scoped_release release;
                a = analyse_decision(copy, c, report.callback());
            }
            report.rethrow_if_failed();
            py::dict d = analysis_dict(a);
            d["policy"] = policy;
            return d;
        },
        py::arg("state"), py::kw_only(), py::arg("horizon") = "voyage",
        py::arg("value") = "learned", py::arg("policy") = default_policy(), py::arg("seed") = 0,
        py::arg("rollouts") = 0, py::arg("max_rollouts") = 20000, py::arg("time_limit") = 10.0,
        py::arg("target") = 0.0, py::arg("batch") = 64, py::arg("threads") = 0,
        py::arg("max_bids") = 0, py::arg("exact_shortcut") = true, py::arg("exact_answers") = true,
        py::arg("sample_hidden") = false, py::arg("racing") = true, py::arg("screen") = 0,
        py::arg("relative") = false, py::arg("final_worth") = false,
        py::arg("progress") = py::none());

    // The expert's rollouts take a fraction of a second: on a copy, the GIL released.
    m.def(
        "expert_action",
        [](const GameState& s, Rng& rng) {
            const GameState copy = s;
            py::gil_scoped_release release;
            return expert_action(copy, rng);
        },
        py::arg("state"), py::arg("rng"));

    // A table's fields, as manila.game.table reads them from the JSON; players as (cash,
    // shares by good, face-down count, mortgaged, declined), boats as (good, position,
    // crew) in good order with position 14 for Manila, owners -1 for nobody.
    m.def(
        "table_state",
        [](int num_players, int observer, const std::string& phase, int current, int voyage,
           int harbour_master, const std::array<int, kNumGoods>& prices,
           const std::array<int, kNumGoods>& supply,
           const std::vector<std::tuple<int, std::array<int, kNumGoods>, int, int, bool>>& players,
           const std::array<int, kNumGoods>& observer_dealt, int high_bid, int high_bidder,
           const std::vector<int>& bidding, int stays_home,
           const std::vector<std::tuple<int, int, std::vector<int>>>& boats,
           const std::array<int, kNumSpots>& spots, int next_roll, int boarding_decider,
           int guard_boat, int guard_seat, int rounds_left, bool thirteen_to_port,
           bool pirate_variant, std::uint64_t seed) {
            TableView t;
            t.num_players = num_players;
            t.rules = Rules{thirteen_to_port, pirate_variant};
            t.observer = observer;
            t.phase = phase_of(phase);
            t.current = current;
            t.voyage = voyage;
            t.harbour_master = harbour_master;
            t.prices = prices;
            t.supply = supply;
            for (const auto& [cash, shares, hidden, mortgaged, declined] : players)
                t.players.push_back(TablePlayer{cash, shares, hidden, mortgaged, declined});
            t.observer_dealt = observer_dealt;
            t.high_bid = high_bid;
            t.high_bidder = high_bidder;
            t.bidding = bidding;
            t.stays_home = stays_home;
            for (const auto& [good, position, crew] : boats)
                t.boats.push_back(table_boat(good, position, crew));
            t.spots = spots;
            t.next_roll = next_roll;
            t.boarding_decider = boarding_decider;
            t.guard_boat = guard_boat;
            t.guard_seat = guard_seat;
            t.rounds_left = rounds_left;
            return table_state(t, seed);
        },
        py::kw_only(), py::arg("num_players"), py::arg("observer"), py::arg("phase"),
        py::arg("current"), py::arg("voyage"), py::arg("harbour_master"), py::arg("prices"),
        py::arg("supply"), py::arg("players"), py::arg("observer_dealt"), py::arg("high_bid"),
        py::arg("high_bidder"), py::arg("bidding"), py::arg("stays_home"), py::arg("boats"),
        py::arg("spots"), py::arg("next_roll"), py::arg("boarding_decider"), py::arg("guard_boat"),
        py::arg("guard_seat"), py::arg("rounds_left"), py::arg("thirteen_to_port"),
        py::arg("pirate_variant"), py::arg("seed"),
        "The playable state of a table, the others' face-down shares dealt at random from "
        "`seed`.");
    m.def(
        "resample_hidden",
        [](const GameState& s, int viewer, std::uint64_t seed) {
            check_viewer(s, viewer);
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
            check_viewer(s, viewer);
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

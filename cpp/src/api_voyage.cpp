// The voyage routes: /v1/validate, /v1/evaluate and /v1/advise, as server/app.py answers
// them (its _state_input, route_validate and _computed), with the evaluation's and the
// advice's JSON as voyage/evaluation.py and voyage/advice.py write them.
#include <algorithm>

#include "api_internal.hpp"
#include "manila/advice.hpp"
#include "manila/evaluator.hpp"
#include "manila/voyage_args.hpp"

namespace manila::api {
namespace {

const std::vector<std::string> kNotationKeys{"notation", "exact", "strict"};
constexpr const char* kOutcomes[] = {"port", "shipyard", "plundered"};

// What a body asks for: a state (an object) or a notation, with the body's "exact" and
// "strict" when it is a notation (a state's own are read by the state's reader).
struct StateInput {
    const Json* state = nullptr;
    std::string notation;
    std::optional<bool> exact, strict;
};

// app._state_input.
bool state_input(const Json& body, StateInput& in, Problems& problems) {
    if (!body.is_object()) {
        problems.push_back({"",
                            "the body must be a JSON object (a voyage state, or {\"notation\": "
                            "...}), not " +
                                json_type(body),
                            ""});
        return false;
    }
    const Json* notation = body.find("notation");
    if (!notation) {
        in.state = &body;
        return true;
    }
    for (const auto& [key, value] : body.members())
        if (std::find(kNotationKeys.begin(), kNotationKeys.end(), key) == kNotationKeys.end())
            problems.push_back(
                {key, "unknown key beside notation; allowed: " + joined(kNotationKeys), ""});
    for (const char* key : {"exact", "strict"})
        if (const Json* v = body.find(key); v && !v->is_bool())
            problems.push_back({key, "must be true or false, got " + py_repr(*v), ""});
    if (!notation->is_string())
        problems.push_back(
            {"notation", "must be a string such as \"r1 ginseng@3 silk@2 nutmeg@4\"", ""});
    if (!problems.empty()) return false;
    in.notation = notation->as_string();
    if (const Json* v = body.find("exact")) in.exact = v->as_bool();
    if (const Json* v = body.find("strict")) in.strict = v->as_bool();
    return true;
}

// The JSON a reader reads: the state itself, or the notation read into its JSON form.
// False with the problems (or a ValueError's message) when the notation is unreadable.
bool input_json(const StateInput& in, Json& out, Problems& problems, std::string& value_error) {
    if (in.state) {
        out = *in.state;
        return true;
    }
    return read_notation(in.notation, out, problems, value_error);
}

// A notation is strict unless it says otherwise; a state as its own "strict" says.
std::optional<bool> strictness(const StateInput& in) {
    if (in.state) return in.strict;
    return in.strict.value_or(true);
}

// A body's "exact": the notation body's, else the state's own "exact": true.
bool exactness(const StateInput& in) {
    if (in.exact) return *in.exact;
    if (!in.state) return false;
    const Json* given = in.state->find("exact");
    return given && given->is_bool() && given->as_bool();
}

Answer value_error_answer(const std::string& message) {
    return error_answer(400, {{"", message, ""}});
}

int owner_id(const std::vector<std::string>& owners, const std::string& name) {
    return static_cast<int>(std::find(owners.begin(), owners.end(), name) - owners.begin());
}

// VoyageState.to_core: the engine's voyage, owners numbered in the order of owners().
Voyage to_voyage(const State& s, const std::vector<std::string>& owners) {
    std::vector<int> goods, positions;
    std::vector<std::vector<int>> crews;
    for (const StateBoat& b : s.boats) {
        goods.push_back(b.good);
        positions.push_back(b.position);
        std::vector<int> crew;
        for (const std::string& o : b.crew) crew.push_back(owner_id(owners, o));
        crews.push_back(crew);
    }
    std::vector<int> spots(kNumSpots, kNoOwner);
    for (const auto& [spot, o] : s.spots)
        spots[static_cast<std::size_t>(spot)] = owner_id(owners, o);
    std::vector<int> prices;
    if (std::any_of(s.prices.begin(), s.prices.end(), [](int p) { return p != 0; }))
        prices.assign(s.prices.begin(), s.prices.end());
    std::vector<std::vector<int>> shares;
    if (!s.shares.empty())
        for (const std::string& o : owners) {
            std::vector<int> row(kNumGoods, 0);
            for (const auto& [holder, counts] : s.shares)
                if (holder == o) row.assign(counts.begin(), counts.end());
            shares.push_back(row);
        }
    std::vector<int> budgets;
    if (!s.budget.empty())
        for (const std::string& o : owners) {
            int amount = -1;
            for (const auto& [holder, b] : s.budget)
                if (holder == o) amount = b;
            budgets.push_back(amount);
        }
    return make_voyage(s.next_roll, goods, positions, crews, spots, static_cast<int>(owners.size()),
                       s.thirteen_to_port, s.pirate_variant, s.wealth, prices, shares, budgets);
}

// A value of the answers: a float, or the exact "n/d".
Json number(std::int64_t num, std::int64_t den, bool exact) {
    if (exact) return Json(exact_text(num, den));
    return Json::number(static_cast<double>(num) / static_cast<double>(den));
}

std::string table_spot_name(int id) {
    return id < kNumGoods ? kGoods[static_cast<std::size_t>(id)].name
                          : kSpotNames[static_cast<std::size_t>(id - kNumGoods)];
}

// evaluate(): the state's table from its player's point of view.
Table evaluated(const State& s, const std::vector<std::string>& owners, int threads) {
    const Voyage v = to_voyage(s, owners);
    PointOfView pov;
    pov.owner = s.player ? owner_id(owners, *s.player) : kNoOwner;
    pov.max_accomplices = s.accomplice_limit();
    return analyse(v, pov, threads);
}

// Evaluation.to_dict.
Json evaluation_json(const State& s, bool exact) {
    const std::vector<std::string> owners = s.owners();
    const Table t = evaluated(s, owners, 1);
    const std::int64_t den = t.denominator[0];
    Json spots = Json::object();
    for (int i = 0; i < kNumTableSpots; ++i) {
        if (!t.legal[static_cast<std::size_t>(i)]) continue;
        Json spot = Json::object();
        spot.set("cost", t.cost[static_cast<std::size_t>(i)]);
        spot.set("expected_net", number(t.net[static_cast<std::size_t>(i)], den, exact));
        spots.set(table_spot_name(i), spot);
    }
    Json boats = Json::object();
    for (std::size_t b = 0; b < s.boats.size(); ++b) {
        Json outcomes = Json::object();
        for (int k = 0; k < kNumOutcomes; ++k)
            outcomes.set(
                kOutcomes[k],
                number(t.boats[b * kNumOutcomes + static_cast<std::size_t>(k)], den, exact));
        boats.set(kGoods[static_cast<std::size_t>(s.boats[b].good)].name, outcomes);
    }
    Json incomes = Json::object(), payoffs = Json::object();
    for (std::size_t o = 0; o < owners.size(); ++o) {
        incomes.set(owners[o], number(t.incomes[o], den, exact));
        payoffs.set(owners[o], number(t.payoffs[o], den, exact));
    }
    Json out = Json::object();
    out.set("spots", spots);
    out.set("boats", boats);
    out.set("incomes", incomes);
    out.set("payoffs", payoffs);
    return out;
}

std::string option_name(int spot) {
    return spot == kDeclineSpot ? "decline" : table_spot_name(spot);
}

// advise() and Advice.to_dict.
Json advice_json(const Position& pos, bool exact) {
    const State& s = pos.state;
    const std::vector<std::string> owners = s.owners();
    const Voyage v = to_voyage(s, owners);
    const std::string& kind = pos.moment.kind;
    std::int64_t den = 1;
    std::string to_move;
    std::vector<std::string> names;
    std::vector<int> costs;
    std::vector<std::int64_t> nets, payoffs;
    std::vector<std::pair<std::string, std::string>> line;
    int best = 0;
    if (kind == "placement") {
        to_move = pos.to_move();
        const auto& order = pos.moment.order;
        std::vector<int> movers;
        for (auto it = std::find(order.begin(), order.end(), to_move); it != order.end(); ++it) {
            const bool declined = std::find(pos.moment.declined.begin(), pos.moment.declined.end(),
                                            *it) != pos.moment.declined.end();
            if (*it == to_move || (!declined && pos.hand(*it) > 0))
                movers.push_back(owner_id(owners, *it));
        }
        const PlacementAdvice a = advise_placement(v, movers, 1);
        den = a.denominator;
        for (std::size_t i = 0; i < a.options.size(); ++i) {
            names.push_back(option_name(a.options[i].id));
            costs.push_back(a.options[i].cost);
            nets.push_back(a.net[i]);
        }
        best = a.best;
        for (const Turn& t : a.line)
            line.emplace_back(owners[static_cast<std::size_t>(t.owner)], option_name(t.spot));
        payoffs = a.payoffs;
    } else {
        DecisionAdvice d;
        if (kind == "pilot_small" || kind == "pilot_large") {
            d = advise_pilot(v, kind == "pilot_large");
        } else {
            std::string captain;
            for (const auto& [spot, o] : s.spots)
                if (spot == kPirate1) captain = o;
            const bool second = pos.to_move() != captain;
            int guard_boat = -1, guard_seat = -1;
            if (pos.moment.protected_seat) {
                const auto& [good, seat] = *pos.moment.protected_seat;
                for (std::size_t b = 0; b < s.boats.size(); ++b)
                    if (good == kGoods[static_cast<std::size_t>(s.boats[b].good)].name)
                        guard_boat = static_cast<int>(b);
                guard_seat = seat - 1;
            }
            d = advise_boarding(v, second, guard_boat, guard_seat);
        }
        den = d.denominator;
        const auto me = static_cast<std::size_t>(d.decider);
        to_move = owners[me];
        names = d.names;
        costs.assign(names.size(), 0);
        for (const auto& p : d.payoffs) nets.push_back(p[me] - d.payoffs[0][me]);
        best = d.best;
        for (const auto& [o, name] : d.line)
            line.emplace_back(owners[static_cast<std::size_t>(o)], name);
        payoffs = d.payoffs[static_cast<std::size_t>(d.best)];
    }
    Json options = Json::object();
    for (std::size_t i = 0; i < names.size(); ++i) {
        Json option = Json::object();
        option.set("cost", costs[i]);
        option.set("expected_net", number(nets[i], den, exact));
        options.set(names[i], option);
    }
    Json turns = Json::array();
    for (const auto& [o, name] : line) turns.push(Json::array().push(o).push(name));
    Json values = Json::object();
    for (std::size_t o = 0; o < owners.size(); ++o)
        values.set(owners[o], number(payoffs[o], den, exact));
    Json out = Json::object();
    out.set("kind", kind);
    out.set("to_move", to_move);
    out.set("options", options);
    out.set("best", names[static_cast<std::size_t>(best)]);
    out.set("line", turns);
    out.set("payoffs", values);
    // What the advice assumes after this decision (voyage/advice.HORIZONS).
    out.set("horizon", kind == "placement"
                           ? "the rest of this placement round, then no further placements"
                           : "the rest of the voyage, with no further placements");
    return out;
}

}  // namespace

Answer route_validate(const Json& body) {
    Problems problems;
    StateInput in;
    if (!state_input(body, in, problems)) return error_answer(400, problems);
    Json data;
    std::string value_error;
    if (!input_json(in, data, problems, value_error))
        return value_error.empty() ? error_answer(400, problems) : value_error_answer(value_error);
    State state;
    if (!read_state(data, strictness(in), state, problems)) return error_answer(400, problems);
    Json out = Json::object();
    out.set("valid", true);
    out.set("state", state_json(state));
    out.set("notation", state_notation(state));
    return ok(out);
}

Answer route_evaluate(const Json& body) {
    Problems problems;
    StateInput in;
    if (!state_input(body, in, problems)) return error_answer(400, problems);
    Json data;
    std::string value_error;
    if (!input_json(in, data, problems, value_error))
        return value_error.empty() ? error_answer(400, problems) : value_error_answer(value_error);
    State state;
    if (!read_state(data, strictness(in), state, problems)) return error_answer(400, problems);
    return ok(evaluation_json(state, exactness(in)));
}

Answer route_advise(const Json& body) {
    Problems problems;
    StateInput in;
    if (!state_input(body, in, problems)) return error_answer(400, problems);
    Json data;
    std::string value_error;
    if (!input_json(in, data, problems, value_error))
        return value_error.empty() ? error_answer(400, problems) : value_error_answer(value_error);
    Position pos;
    if (!read_position(data, strictness(in), pos, problems)) return error_answer(400, problems);
    return ok(advice_json(pos, exactness(in)));
}

}  // namespace manila::api

namespace manila {

std::optional<StateEvaluation> evaluate_state(const Json& state, std::optional<bool> strict,
                                              int threads) {
    api::State s;
    api::Problems problems;
    if (!api::read_state(state, strict, s, problems)) return std::nullopt;
    StateEvaluation out;
    out.owners = s.owners();
    out.table = api::evaluated(s, out.owners, threads);
    for (const api::StateBoat& b : s.boats)
        out.goods.emplace_back(kGoods[static_cast<std::size_t>(b.good)].name);
    return out;
}

}  // namespace manila

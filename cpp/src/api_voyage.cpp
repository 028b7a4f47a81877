// The voyage routes: /v1/validate, /v1/evaluate and /v1/advise, as server/app.py answers
// them (route_validate and _computed; their body's reader is this one, read_state_body),
// and the evaluation's and the advice's JSON, which voyage/evaluation.py's and
// voyage/advice.py's to_dict read from here.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

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

// What a voyage route's body asks for (read_state_body).
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

std::vector<std::string> goods_of(const State& s) {
    std::vector<std::string> goods;
    for (const StateBoat& b : s.boats)
        goods.emplace_back(kGoods[static_cast<std::size_t>(b.good)].name);
    return goods;
}

std::string option_name(int spot) {
    return spot == kDeclineSpot ? "decline" : table_spot_name(spot);
}

// advise(): the advice's numbers for a position.
AdviceAnswer advised(const Position& pos) {
    const State& s = pos.state;
    const std::vector<std::string> owners = s.owners();
    const Voyage v = to_voyage(s, owners);
    AdviceAnswer out;
    out.kind = pos.moment.kind;
    if (out.kind == "placement") {
        out.to_move = pos.to_move();
        const auto& order = pos.moment.order;
        std::vector<int> movers;
        for (auto it = std::find(order.begin(), order.end(), out.to_move); it != order.end();
             ++it) {
            const bool declined = std::find(pos.moment.declined.begin(), pos.moment.declined.end(),
                                            *it) != pos.moment.declined.end();
            if (*it == out.to_move || (!declined && pos.hand(*it) > 0))
                movers.push_back(owner_id(owners, *it));
        }
        const PlacementAdvice a = advise_placement(v, movers, 1);
        out.denominator = a.denominator;
        for (std::size_t i = 0; i < a.options.size(); ++i) {
            out.names.push_back(option_name(a.options[i].id));
            out.costs.push_back(a.options[i].cost);
            out.nets.push_back(a.net[i]);
        }
        out.best = a.best;
        for (const Turn& t : a.line)
            out.line.emplace_back(owners[static_cast<std::size_t>(t.owner)], option_name(t.spot));
        out.payoffs = a.payoffs;
        return out;
    }
    DecisionAdvice d;
    if (out.kind == "pilot_small" || out.kind == "pilot_large") {
        d = advise_pilot(v, out.kind == "pilot_large");
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
    out.denominator = d.denominator;
    const auto me = static_cast<std::size_t>(d.decider);
    out.to_move = owners[me];
    out.names = d.names;
    out.costs.assign(out.names.size(), 0);
    for (const auto& p : d.payoffs) out.nets.push_back(p[me] - d.payoffs[0][me]);
    out.best = d.best;
    for (const auto& [o, name] : d.line)
        out.line.emplace_back(owners[static_cast<std::size_t>(o)], name);
    out.payoffs = d.payoffs[static_cast<std::size_t>(d.best)];
    return out;
}

// The state (or position) a request carries, as JSON, with the request's options; the
// error answer when the request cannot be read.
std::optional<Answer> read_request(const Json& body, StateInput& in, Json& data) {
    Problems problems;
    if (!state_input(body, in, problems)) return error_answer(400, problems);
    std::string value_error;
    if (!input_json(in, data, problems, value_error))
        return value_error.empty() ? error_answer(400, problems) : value_error_answer(value_error);
    return std::nullopt;
}

}  // namespace

Json advise_position(const Position& pos, bool exact) {
    return advice_json(advised(pos), pos.state.owners(), exact);
}

Answer route_validate(const Json& body) {
    StateInput in;
    Json data;
    if (auto error = read_request(body, in, data)) return *error;
    Problems problems;
    State state;
    if (!read_state(data, strictness(in), state, problems)) return error_answer(400, problems);
    Json out = Json::object();
    out.set("valid", true);
    out.set("state", state_json(state));
    out.set("notation", state_notation(state));
    return ok(out);
}

Answer route_evaluate(const Json& body) {
    StateInput in;
    Json data;
    if (auto error = read_request(body, in, data)) return *error;
    Problems problems;
    State state;
    if (!read_state(data, strictness(in), state, problems)) return error_answer(400, problems);
    const std::vector<std::string> owners = state.owners();
    return ok(
        evaluation_json(evaluated(state, owners, 1), 0, goods_of(state), owners, exactness(in)));
}

Answer route_advise(const Json& body) {
    StateInput in;
    Json data;
    if (auto error = read_request(body, in, data)) return *error;
    Problems problems;
    Position pos;
    if (!read_position(data, strictness(in), pos, problems)) return error_answer(400, problems);
    return ok(advise_position(pos, exactness(in)));
}

}  // namespace manila::api

namespace manila {

ContractRead read_state_body(std::string_view text) {
    return api::read_contract(text, [](const Json& body, api::Problems& problems) {
        api::StateInput in;
        std::optional<Json> out;
        if (!api::state_input(body, in, problems)) return out;
        out = Json::object();
        if (in.state) return out;
        out->set("notation", in.notation);
        if (in.exact) out->set("exact", *in.exact);
        if (in.strict) out->set("strict", *in.strict);
        return out;
    });
}

std::optional<StateEvaluation> evaluate_state(const Json& state, std::optional<bool> strict,
                                              int threads) {
    api::State s;
    api::Problems problems;
    if (!api::read_state(state, strict, s, problems)) return std::nullopt;
    StateEvaluation out;
    out.owners = s.owners();
    out.table = api::evaluated(s, out.owners, threads);
    out.goods = api::goods_of(s);
    return out;
}

Json evaluation_json(const Table& t, int row, const std::vector<std::string>& goods,
                     const std::vector<std::string>& owners, bool exact) {
    if (row < 0 || row >= t.n)
        throw std::out_of_range("row " + std::to_string(row) + " is not in 0.." +
                                std::to_string(t.n - 1));
    if (goods.size() > static_cast<std::size_t>(kNumBoats) ||
        owners.size() > static_cast<std::size_t>(t.owner_stride))
        throw std::invalid_argument("goods, owners: more than the table holds");
    const auto r = static_cast<std::size_t>(row);
    const auto spots = static_cast<std::size_t>(kNumTableSpots);
    const auto sailing = static_cast<std::size_t>(kNumBoats);
    const auto outcomes_per_boat = static_cast<std::size_t>(kNumOutcomes);
    const std::int64_t den = t.denominator[r];
    Json table = Json::object();
    for (std::size_t i = 0; i < spots; ++i) {
        if (!t.legal[r * spots + i]) continue;
        Json spot = Json::object();
        spot.set("cost", t.cost[r * spots + i]);
        spot.set("expected_net", api::number(t.net[r * spots + i], den, exact));
        table.set(api::table_spot_name(static_cast<int>(i)), spot);
    }
    Json boats = Json::object();
    for (std::size_t b = 0; b < goods.size(); ++b) {
        Json outcomes = Json::object();
        for (std::size_t k = 0; k < outcomes_per_boat; ++k)
            outcomes.set(
                api::kOutcomes[k],
                api::number(t.boats[(r * sailing + b) * outcomes_per_boat + k], den, exact));
        boats.set(goods[b], outcomes);
    }
    Json incomes = Json::object(), payoffs = Json::object();
    const auto stride = static_cast<std::size_t>(t.owner_stride);
    for (std::size_t o = 0; o < owners.size(); ++o) {
        incomes.set(owners[o], api::number(t.incomes[r * stride + o], den, exact));
        payoffs.set(owners[o], api::number(t.payoffs[r * stride + o], den, exact));
    }
    Json out = Json::object();
    out.set("spots", table);
    out.set("boats", boats);
    out.set("incomes", incomes);
    out.set("payoffs", payoffs);
    return out;
}

Json advice_json(const AdviceAnswer& a, const std::vector<std::string>& owners, bool exact) {
    if (a.costs.size() != a.names.size() || a.nets.size() != a.names.size() ||
        a.payoffs.size() != owners.size() || a.best < 0 ||
        static_cast<std::size_t>(a.best) >= a.names.size())
        throw std::invalid_argument(
            "advice: one cost and one net per option, one payoff per owner, best an option");
    Json options = Json::object();
    for (std::size_t i = 0; i < a.names.size(); ++i) {
        Json option = Json::object();
        option.set("cost", a.costs[i]);
        option.set("expected_net", api::number(a.nets[i], a.denominator, exact));
        options.set(a.names[i], option);
    }
    Json turns = Json::array();
    for (const auto& [o, name] : a.line) turns.push(Json::array().push(o).push(name));
    Json values = Json::object();
    for (std::size_t o = 0; o < owners.size(); ++o)
        values.set(owners[o], api::number(a.payoffs[o], a.denominator, exact));
    Json out = Json::object();
    out.set("kind", a.kind);
    out.set("to_move", a.to_move);
    out.set("options", options);
    out.set("best", a.names[static_cast<std::size_t>(a.best)]);
    out.set("line", turns);
    out.set("payoffs", values);
    // What the advice assumes after this decision.
    out.set("horizon", a.kind == "placement"
                           ? "the rest of this placement round, then no further placements"
                           : "the rest of the voyage, with no further placements");
    return out;
}

}  // namespace manila

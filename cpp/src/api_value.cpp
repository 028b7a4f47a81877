// POST /v1/value: the learned value of a position, as server/app.py's route_value and
// analysis/value.py's value() answer it, and the value's JSON, which Value.to_dict reads
// from here.
#include <algorithm>
#include <iterator>
#include <limits>

#include "api_internal.hpp"
#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/value.hpp"

namespace manila {

Json value_json(const GameState& s, const ValueModel& m, const ValueConfig& c,
                const ValueAnswer& a) {
    Json players = Json::object();
    for (std::size_t p = 0; p < a.value.wealth.size(); ++p) {
        Json row = Json::object();
        row.set("wealth", Json::number(a.value.wealth[p]));
        row.set("equity", Json::number(a.value.equity[p]));
        row.set("win", Json::number(a.value.win[p]));
        row.set("wealth_ci95", Json::number(a.wealth_ci95[p]));
        row.set("equity_ci95", Json::number(a.equity_ci95[p]));
        row.set("win_ci95", Json::number(a.win_ci95[p]));
        players.set(player_name(static_cast<int>(p)), row);
    }
    const JsonRead info = read_json(code_points(m.info), true);
    Json model = Json::object();
    const auto info_get = [&](const char* key) {
        const Json* v = info.ok ? info.value.find(key) : nullptr;
        return v ? *v : Json();
    };
    model.set("version", info_get("version"));
    model.set("policy", info_get("policy"));
    Json out = Json::object();
    out.set("unit", "equity");
    out.set("exact", a.exact);
    out.set("rollouts", a.rollouts);
    out.set("policy", bot_name(c.policy));
    out.set("seed", Json::integer(std::to_string(c.seed)));
    out.set("phase", phase_name(s.board().phase));
    out.set("players", players);
    out.set("model", model);
    return out;
}

}  // namespace manila

namespace manila::api {

Answer route_value(const Json& body) {
    Problems shape;
    const HeavyShape& options = *heavy_shape("/v1/value");
    if (!heavy_body(body, options, shape)) return error_answer(400, shape);
    const Json* table = body.find("table");
    const Json* rollouts = body.find("rollouts");
    // analysis/value.value.
    std::string error;
    const std::vector<std::string> policies = continuation_policies();
    const std::string fallback = bot_name(AnalysisConfig{}.policy);
    const Json policy = body.find("policy") ? *body.find("policy") : Json(fallback);
    if (!check_choice(policy, "policy", policies, error)) return body_refused(error, options);
    const Json count = rollouts ? *rollouts : Json(kValueRollouts);
    if (!check_whole(count, "rollouts", kMinRollouts, std::to_string(kMaxRollouts), error))
        return body_refused(error, options);
    const Json seed = body.find("seed") ? *body.find("seed") : Json(0);
    if (!check_whole(seed, "seed", 0, std::to_string(std::numeric_limits<std::uint64_t>::max()),
                     error))
        return body_refused(error, options);
    const std::uint64_t seed_value = seed.kind() == Json::Kind::kInt
                                         ? static_cast<std::uint64_t>(seed.as_int())
                                         : std::stoull(seed.as_string());
    std::optional<GameState> state;
    int viewer = -1;
    if (!read_game(*table, seed_value, state, viewer, error)) return input_refused(error, options);
    ValueConfig config;
    config.policy = bot_kind_of(policy.as_string());
    config.rollouts = static_cast<int>(count.as_int());
    config.seed = seed_value;
    config.threads = 1;
    config.viewer = viewer;
    const ValueModel& model = shipped_value_model();
    return ok(value_json(*state, model, config, position_value(*state, model, config)));
}

}  // namespace manila::api

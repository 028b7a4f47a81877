// POST /v1/analyse: every option of the decision due, valued by rollouts, as server/app.py's
// route_analyse (_analysis_input) and analysis/analysis.py's analyse() answer it, and the
// analysis's JSON, which Analysis.to_dict reads from here. Every option is checked here, in
// analyse()'s order, before the engine sees it: the engine's own checks would throw, which
// WebAssembly cannot catch.
#include <iterator>
#include <limits>

#include "api_internal.hpp"
#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/cancel.hpp"
#include "manila/words.hpp"

namespace manila::api {
namespace {

// The body's value at `key`, or `fallback` when it is absent (a keyword left to its default).
Json option(const Json& body, const char* key, Json fallback) {
    const Json* v = body.find(key);
    return v ? *v : fallback;
}

// _analysis_input: a number given is capped at the share of the request's limit (min(given,
// cap), Python's comparison of an int of any size with a float), 0 (no time limit) too;
// anything else stays, for analyse() to refuse.
Json capped_time_limit(const Json& body) {
    const double cap = kAnalysisTimeShare * kTimeLimit;
    const Json* given = body.find("time_limit");
    if (!given) return Json::number(cap);
    bool above = false;
    switch (given->kind()) {
        case Json::Kind::kFloat:
            above = given->as_double() > cap || given->as_double() == 0;
            break;
        case Json::Kind::kInt:
            above = static_cast<double>(given->as_int()) > cap || given->as_int() == 0;
            break;
        case Json::Kind::kBigInt:
            above = !given->negative();
            break;
        default:
            break;
    }
    return above ? Json::number(cap) : *given;
}

double seconds_of(const Json& v) {
    return v.kind() == Json::Kind::kFloat ? v.as_double() : static_cast<double>(v.as_int());
}

std::vector<std::string> horizons() {
    return {horizon_name(Horizon::kVoyage), horizon_name(Horizon::kGame)};
}
std::vector<std::string> value_sources() {
    return {value_source_name(ValueSource::kLearned), value_source_name(ValueSource::kRollout)};
}

}  // namespace
}  // namespace manila::api

namespace manila {
namespace {

Json option_json(const OptionValue& v, bool game) {
    Json o = Json::object();
    o.set("mean", Json::number(v.mean));
    o.set("ci95", Json::number(v.ci95));
    o.set("diff", Json::number(v.diff));
    o.set("diff_ci95", Json::number(v.diff_ci95));
    o.set("rollouts", v.rollouts);
    o.set("exact", v.exact);
    if (game) {
        o.set("win", Json::number(v.win));
        o.set("win_ci95", Json::number(v.win_ci95));
        o.set("margin", Json::number(v.margin));
        o.set("margin_ci95", Json::number(v.margin_ci95));
    }
    return o;
}

}  // namespace

Json analysis_json(const Analysis& a) {
    // Options by name, as a dict holds them; best indexes that list.
    const bool game = a.config.horizon == Horizon::kGame;
    Json options = Json::object();
    for (std::size_t k = 0; k < a.options.size(); ++k)
        options.set(a.options[k].name, option_json(a.values[k], game));
    Json out = Json::object();
    out.set("decider", player_name(a.decider));
    out.set("kind", a.kind);
    out.set("horizon", horizon_name(a.config.horizon));
    out.set("unit", game ? "equity" : "pesos");
    out.set("policy", bot_name(a.config.policy));
    out.set("rollouts", a.rollouts);
    out.set("seed", Json::integer(std::to_string(a.config.seed)));
    out.set("exact", a.exact);
    const std::string best = options.members()[static_cast<std::size_t>(a.best)].first;
    out.set("options", options);
    out.set("best", best);
    out.set("stop", a.stop);
    out.set("gap_ci95", Json::number(a.best_gap_ci95));
    out.set("target", Json::number(a.config.target));
    out.set("screened_out", a.screened_out);
    out.set("seconds", Json::number(a.seconds));
    if (game) out.set("value", value_source_name(a.config.value));
    if (a.worth >= 0) out.set("worth", a.worth);
    const AnalysisWords words = words_of(a);
    out.set("words", Json::array_of(plain_words(words)));
    out.set("words_to_decider", Json::array_of(plain_words(words, true)));
    return out;
}

}  // namespace manila

namespace manila::api {

Answer route_analyse(const Json& body) {
    Problems shape;
    const HeavyShape& options = *heavy_shape("/v1/analyse");
    if (!heavy_body(body, options, shape)) return error_answer(400, shape);
    const Json time_limit = capped_time_limit(body);
    // analysis.analyse's checks, in its order (max_rollouts and threads are the server's).
    const AnalysisConfig defaults;
    const Json horizon = option(body, "horizon", horizon_name(defaults.horizon));
    const Json value = option(body, "value", value_source_name(defaults.value));
    const Json policy = option(body, "policy", bot_name(defaults.policy));
    const Json rollouts = option(body, "rollouts", Json());
    const Json seed = option(body, "seed", Json(0));
    const Json max_bids = option(body, "max_bids", Json(0));
    const Json screen = option(body, "screen", Json());
    const Json exact = option(body, "exact", Json(true));
    const std::string max_seed = std::to_string(std::numeric_limits<std::uint64_t>::max());
    const std::string max_int = std::to_string(kIntMax);
    std::string error;
    const bool options_ok =
        check_choice(horizon, "horizon", horizons(), error) &&
        check_choice(value, "value", value_sources(), error) &&
        check_choice(policy, "policy", continuation_policies(), error) &&
        (rollouts.is_null() ||
         check_whole(rollouts, "rollouts", kMinRollouts, std::to_string(kMaxRollouts), error)) &&
        check_whole(seed, "seed", 0, max_seed, error) &&
        check_real(time_limit, "time_limit", 0, kMaxSeconds, error) &&
        check_whole(max_bids, "max_bids", 0, max_int, error) &&
        (screen.is_null() || check_whole(screen, "screen", 0, max_int, error));
    if (!options_ok) return body_refused(error, options);
    if (!exact.is_bool())
        return body_refused("exact: true or false, got " + py_repr(exact), options);
    const std::uint64_t seed_value = seed.kind() == Json::Kind::kInt
                                         ? static_cast<std::uint64_t>(seed.as_int())
                                         : std::stoull(seed.as_string());
    std::optional<GameState> state;
    int viewer = -1;
    if (!read_game(*body.find("table"), seed_value, state, viewer, error))
        return input_refused(error, options);
    if (state->is_terminal())
        return input_refused("state: the game is over, no decision is due", options);
    if (state->is_chance_node())
        return input_refused("state: chance moves next (a deal or a roll), not a player", options);

    AnalysisConfig c;
    c.horizon =
        horizon.as_string() == horizon_name(Horizon::kGame) ? Horizon::kGame : Horizon::kVoyage;
    c.value = value.as_string() == value_source_name(ValueSource::kRollout) ? ValueSource::kRollout
                                                                            : ValueSource::kLearned;
    c.policy = bot_kind_of(policy.as_string());
    c.seed = seed_value;
    c.rollouts = rollouts.is_null() ? 0 : static_cast<int>(rollouts.as_int());
    c.max_rollouts = kAnalysisMaxRollouts;
    c.time_limit = seconds_of(time_limit);
    c.threads = 1;
    c.max_bids = static_cast<int>(max_bids.as_int());
    c.exact_shortcut = exact.as_bool();
    // From another player's view the decider's own shares are unknown too: rollouts only.
    c.exact_answers = exact.as_bool() && (viewer < 0 || viewer == state->current_player());
    c.sample_hidden = viewer >= 0;
    c.screen = screen.is_null() ? kHarbourScreen : static_cast<int>(screen.as_int());
    return ok(analysis_json(analyse_decision(*state, c)));
}

}  // namespace manila::api

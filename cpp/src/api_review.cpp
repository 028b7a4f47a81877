// The review's JSON (docs/review.md; manila.review's to_dict reads it from here) and
// POST /v1/review, as server/app.py's _review_input, _review and route_review answer it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

#include "api_internal.hpp"
#include "manila/analysis.hpp"
#include "manila/bots.hpp"
#include "manila/observation.hpp"
#include "manila/review.hpp"
#include "manila/value.hpp"

namespace manila {
namespace {

using api::moment_kind;

// The table as the decider saw it: the voyage notation of their view (in wealth) and the
// moment when it is one of a position's, or (before the boats are placed) the auction and
// the money.
std::string table_text(const GameState& s) {
    const int me = s.current_player();
    const GameState view = s.seen_by(me);
    const Board& b = view.board();
    const int n = b.num_players;
    const std::optional<Voyage> v = view.voyage();
    if (!v) {
        std::vector<std::string> cash, prices;
        for (int p = 0; p < n; ++p)
            cash.push_back(player_name(p) + " " +
                           std::to_string(b.players[static_cast<std::size_t>(p)].cash));
        for (int g = 0; g < kNumGoods; ++g)
            prices.push_back(std::string(kGoods[static_cast<std::size_t>(g)].name) + " " +
                             std::to_string(b.price(g)));
        std::string text = "voyage " + std::to_string(b.voyage) + ", " + phase_name(b.phase) +
                           "; cash " + api::joined(cash) + "; prices " + api::joined(prices);
        if (b.phase == Phase::kAuction && b.high_bidder >= 0)
            text +=
                "; high bid " + std::to_string(b.high_bid) + " by " + player_name(b.high_bidder);
        return text;
    }
    api::State st;
    st.next_roll = v->next_roll;
    for (const Boat& boat : v->boats) {
        api::StateBoat sb;
        sb.good = boat.good;
        sb.position = boat.position;
        for (int k = 0; k < boat.crew_size; ++k)
            sb.crew.push_back(player_name(boat.crew[static_cast<std::size_t>(k)]));
        st.boats.push_back(sb);
    }
    for (int k = 0; k < kNumSpots; ++k)
        if (v->spots[static_cast<std::size_t>(k)] >= 0)
            st.spots.emplace_back(k, player_name(v->spots[static_cast<std::size_t>(k)]));
    st.player = player_name(me);
    st.players = n;
    st.wealth = true;
    for (int p = 0; p < n; ++p) {
        const std::array<int, kNumGoods> seen = known_shares(b, me, p, PrivateInfo::kSingle);
        if (std::any_of(seen.begin(), seen.end(), [](int x) { return x != 0; }))
            st.shares.emplace_back(player_name(p), seen);
    }
    for (int g = 0; g < kNumGoods; ++g)
        st.prices[static_cast<std::size_t>(g)] = v->price[static_cast<std::size_t>(g)];
    for (int o = 0; o < v->num_owners; ++o) {
        const int budget = v->budget[static_cast<std::size_t>(o)];
        st.budget.emplace_back(player_name(o), budget == kUnlimited ? -1 : budget);
    }
    st.thirteen_to_port = v->rules.thirteen_to_port;
    st.pirate_variant = v->rules.pirate_variant;
    std::string text = api::state_notation(st);
    const char* kind = moment_kind(b.phase);
    if (!kind) return text;
    // notation.format_moment of the position's moment.
    std::vector<std::string> parts;
    if (std::string(kind) != "placement") parts.push_back(std::string("moment=") + kind);
    parts.push_back("turn=" + player_name(me));
    if (std::string(kind) == "placement") {
        std::vector<std::string> order, declined;
        for (int k = 0; k < n; ++k) order.push_back(player_name((b.harbour_master + k) % n));
        for (int p = 0; p < n; ++p)
            if ((b.declined >> p) & 1) declined.push_back(player_name(p));
        parts.push_back("order=" + api::joined(order, ","));
        if (!declined.empty()) parts.push_back("declined=" + api::joined(declined, ","));
    } else if (std::string(kind) == "boarding" && b.guard_boat >= 0) {
        parts.push_back(
            std::string("protect=") +
            kGoods[static_cast<std::size_t>(v->boats[static_cast<std::size_t>(b.guard_boat)].good)]
                .name +
            ":" + std::to_string(b.guard_seat + 1));
    }
    return text + " " + api::joined(parts, " ");
}

// Python's sum() of floats that starts from the int 0: 0 when there is nothing to add.
Json py_sum(const std::vector<double>& xs, double& total) {
    total = 0;
    for (const double x : xs) total += x;
    return xs.empty() ? Json(0) : Json::number(total);
}

// "final equity +12.0 = luck +5.0 - (own loss 10.0 - others' mean 8.0) + residual +4.5":
// the reconciliation in words, for the terminal and the page alike.
std::string reconciliation_words(double equity, double luck, double loss, double others_loss,
                                 double residual) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "final equity %+.1f = luck %+.1f - (own loss %.1f - others' mean %.1f) + "
                  "residual %+.1f",
                  equity, luck, loss, others_loss, residual);
    return buf;
}

std::uint64_t seed_of(const Json& seed) {
    return seed.kind() == Json::Kind::kInt ? static_cast<std::uint64_t>(seed.as_int())
                                           : std::stoull(seed.as_string());
}

}  // namespace

ReviewReport review_report(const GameState& initial, const std::vector<int>& history,
                           const ReviewRequest& request, const ReviewProgress& progress) {
    const ReviewBudget budget = review_budget(request.horizon, request.quick);
    ReviewConfig c;
    AnalysisConfig& a = c.analysis;
    a.horizon = request.horizon;
    a.value = request.value;
    a.policy = request.policy;
    a.seed = seed_of(request.seed);
    a.rollouts = request.rollouts;
    a.max_rollouts = request.max_rollouts.value_or(budget.max_rollouts);
    a.time_limit = request.time_limit.value_or(budget.time_limit);
    a.target = request.target.value_or(budget.target);
    a.batch = kReviewBatch;
    a.threads = request.threads;
    a.max_bids = request.max_bids;
    a.screen = request.screen;
    a.exact_shortcut = request.exact;
    a.exact_answers = request.exact;
    a.sample_hidden = true;
    a.relative = kReviewRelative;
    c.luck_rollouts = request.luck_rollouts.value_or(budget.luck_rollouts);
    c.decisions = request.decisions;
    const Review r = review_game(initial, history, c, progress);
    const int n = initial.num_players();

    // Every decision: the loss is the best's paired difference from the chosen (option 0).
    struct Row {
        int player;
        bool forced;
        double loss, ci;
        const char* cls;
    };
    std::vector<Row> rows;
    Json decisions = Json::array();
    std::vector<GameState> before;  // the state before each decision, in replay order
    {
        GameState g = initial;
        std::size_t next = 0;
        for (std::size_t i = 0; i < history.size() && next < r.decisions.size(); ++i) {
            if (static_cast<std::size_t>(r.decisions[next].index) == i) before.push_back(g), ++next;
            g.apply_legal(history[i]);
        }
    }
    for (std::size_t k = 0; k < r.decisions.size(); ++k) {
        const ReviewedDecision& d = r.decisions[k];
        const std::vector<DecisionOption>& options = d.analysis.options;
        double loss = 0, ci = 0;
        std::string best = d.chosen;
        Json chosen_value, best_value;
        int rollouts = 0;
        if (!d.forced && !options.empty()) {
            const auto b = static_cast<std::size_t>(d.analysis.best);
            best = options[b].name;
            if (b != 0) {
                const bool exact = d.analysis.exact;
                const double gain = exact ? d.analysis.values[b].diff : d.analysis.best_gain;
                loss = gain > 0.0 ? gain : 0.0;
                ci = exact ? d.analysis.values[b].diff_ci95 : d.analysis.best_gain_ci95;
            }
            chosen_value = Json::number(d.analysis.values[0].mean);
            best_value = Json::number(d.analysis.values[b].mean);
            rollouts = d.analysis.rollouts;
        }
        const char* cls = d.forced ? kLossClasses[0] : loss_class(loss, ci);
        rows.push_back({d.player, d.forced, loss, ci, cls});
        Json o = Json::object();
        o.set("index", d.index);
        o.set("player", player_name(d.player));
        o.set("voyage", d.voyage);
        o.set("kind", d.kind);
        o.set("chosen", d.chosen);
        o.set("best", best);
        o.set("loss", Json::number(loss));
        o.set("loss_ci95", Json::number(ci));
        o.set("class", cls);
        o.set("forced", d.forced);
        o.set("exact", d.analysis.exact);
        o.set("options", options.empty() ? 1 : static_cast<int>(options.size()));
        o.set("rollouts", rollouts);
        o.set("chosen_value", chosen_value);
        o.set("best_value", best_value);
        o.set("table", k < before.size() ? table_text(before[k]) : std::string());
        decisions.push(std::move(o));
    }

    // Every player's summary, and the reconciliation of their final equity:
    // final_equity = luck - (own total loss - the others' mean) + residual.
    std::vector<double> final(static_cast<std::size_t>(n)), losses(static_cast<std::size_t>(n));
    double final_sum = 0, losses_sum = 0;
    for (int p = 0; p < n; ++p) {
        final[static_cast<std::size_t>(p)] = r.wealth[static_cast<std::size_t>(p)];
        final_sum += final[static_cast<std::size_t>(p)];
    }
    for (int p = 0; p < n; ++p) {
        double total = 0;
        for (const Row& row : rows)
            if (row.player == p && !row.forced) total += row.loss;
        losses[static_cast<std::size_t>(p)] = total;
        losses_sum += total;
    }
    Json players = Json::object();
    for (int p = 0; p < n; ++p) {
        const auto P = static_cast<std::size_t>(p);
        int mine = 0;
        std::vector<double> free, free_ci;
        for (const Row& row : rows) {
            if (row.player != p) continue;
            ++mine;
            if (!row.forced) free.push_back(row.loss), free_ci.push_back(row.ci * row.ci);
        }
        double total = 0, ci_squares = 0;
        const Json total_json = py_sum(free, total);
        py_sum(free_ci, ci_squares);
        const auto m = static_cast<double>(free.size());
        const double mean = free.empty() ? 0.0 : total / m;
        double spread = 0.0;
        if (free.size() > 1) {
            double squares = 0;
            for (const double l : free) squares += (l - mean) * (l - mean);
            spread = std::sqrt(squares / (m - 1) / m);
        }
        std::vector<double> lucks, luck_squares;
        for (const ChanceLuck& e : r.events) {
            lucks.push_back(e.luck[P]);
            luck_squares.push_back(e.luck_ci95[P] * e.luck_ci95[P]);
        }
        double luck = 0, luck_ci_squares = 0;
        const Json luck_json = py_sum(lucks, luck);
        py_sum(luck_squares, luck_ci_squares);
        const double equity = final[P] - (final_sum - final[P]) / (n - 1);
        const double others_loss = (losses_sum - losses[P]) / (n - 1);
        const double residual = equity - (luck - (losses[P] - others_loss));
        Json classes = Json::object();
        for (const char* cls : kLossClasses) {
            int count = 0;
            for (const Row& row : rows)
                count += row.player == p && !row.forced && std::string(row.cls) == cls;
            classes.set(cls, count);
        }
        Json s = Json::object();
        s.set("final_equity", Json::number(equity));
        s.set("luck_adjusted", Json::number(equity - luck));
        s.set("residual", Json::number(residual));
        s.set("reconciliation",
              reconciliation_words(equity, luck, losses[P], others_loss, residual));
        s.set("band", free.empty() ? "" : band_of(mean));
        s.set("decisions", mine);
        s.set("non_forced", static_cast<int>(free.size()));
        s.set("total_loss", total_json);
        s.set("total_loss_ci95", Json::number(std::sqrt(ci_squares)));
        s.set("mean_loss", Json::number(mean));
        s.set(
            "mean_loss_ci95",
            Json::number(free.size() > 1 ? t95(static_cast<int>(free.size()) - 1) * spread : 0.0));
        s.set("accuracy", Json::number(same_exp(-mean / kAccuracyScale)));
        s.set("luck", luck_json);
        s.set("luck_ci95", Json::number(std::sqrt(luck_ci_squares)));
        s.set("classes", classes);
        s.set("wealth", r.wealth[P]);
        players.set(player_name(p), s);
    }

    Json events = Json::array();
    for (const ChanceLuck& e : r.events) {
        Json luck = Json::object(), luck_ci = Json::object(), value = Json::object();
        for (int p = 0; p < n; ++p) {
            const auto P = static_cast<std::size_t>(p);
            luck.set(player_name(p), Json::number(e.luck[P]));
            luck_ci.set(player_name(p), Json::number(e.luck_ci95[P]));
            value.set(player_name(p), Json::number(e.before[P]));
        }
        Json o = Json::object();
        o.set("index", e.index);
        o.set("voyage", e.voyage);
        o.set("kind", e.kind);
        o.set("outcome", action_name(e.action));
        o.set("exact", e.exact);
        o.set("luck", luck);
        o.set("luck_ci95", luck_ci);
        o.set("before", value);
        events.push(std::move(o));
    }
    Json voyage_wealth = Json::array();
    for (const std::vector<int>& w : r.voyage_wealth) voyage_wealth.push(Json::array_of(w));
    Json thresholds = Json::object();
    for (std::size_t k = 0; k < std::size(kLossThresholds); ++k)
        thresholds.set(kLossClasses[k + 1], Json::number(kLossThresholds[k]));
    Json bands = Json::array();
    for (const ReviewBand& b : kReviewBands) {
        Json o = Json::object();
        o.set("band", b.name);
        o.set("mean_loss_below", std::isfinite(b.below) ? Json::number(b.below) : Json());
        bands.push(std::move(o));
    }
    const bool complete = r.decisions.size() + r.events.size() >= static_cast<std::size_t>(r.items);
    Json out = Json::object();
    out.set("horizon", horizon_name(request.horizon));
    out.set("policy", bot_name(request.policy));
    out.set("seed", request.seed);
    out.set("quick", request.quick);
    out.set("unit", request.horizon == Horizon::kVoyage ? "pesos" : "equity");
    if (request.horizon == Horizon::kGame) out.set("value", value_source_name(request.value));
    out.set("thresholds", thresholds);
    out.set("bands", bands);
    out.set("decisions", decisions);
    out.set("players", players);
    out.set("events", events);
    out.set("voyage_wealth", voyage_wealth);
    out.set("seconds", Json::number(r.seconds));
    out.set("complete", complete);
    return {std::move(out), r.items, complete};
}

namespace api {

Answer route_review(const Json& body, const Progress& progress) {
    Problems shape;
    const HeavyShape& options = *heavy_shape("/v1/review");
    if (!heavy_body(body, options, shape)) return error_answer(400, shape);
    const Json* record = body.find("record");
    const auto given = [&](const char* key, Json fallback) {
        const Json* v = body.find(key);
        return v ? *v : fallback;
    };
    // manila.review's checks, in its order.
    const std::vector<std::string> horizons{horizon_name(Horizon::kVoyage),
                                            horizon_name(Horizon::kGame)};
    const std::vector<std::string> policies = continuation_policies();
    const std::vector<std::string> values{value_source_name(ValueSource::kLearned),
                                          value_source_name(ValueSource::kRollout)};
    const Json horizon = given("horizon", Json(horizon_name(Horizon::kGame)));
    const Json policy = given("policy", Json(bot_name(kReviewPolicy)));
    const Json value = given("value", Json(values[0]));
    const Json quick = given("quick", Json(kReviewQuick));
    const Json exact = given("exact", Json(true));
    std::string error;
    if (!check_choice(horizon, "horizon", horizons, error) ||
        !check_choice(policy, "policy", policies, error) ||
        !check_choice(value, "value", values, error))
        return body_refused(error, options);
    if (!quick.is_bool())
        return body_refused("quick: true or false, got " + py_repr(quick), options);
    if (!exact.is_bool())
        return body_refused("exact: true or false, got " + py_repr(exact), options);
    const std::string most = std::to_string(kMaxRollouts);
    const Json seed = given("seed", Json(0));
    const Json rollouts = given("rollouts", Json());
    const Json luck_rollouts = given("luck_rollouts", Json());
    if (!check_whole(seed, "seed", 0, std::to_string(std::numeric_limits<std::uint64_t>::max()),
                     error) ||
        (!rollouts.is_null() && !check_whole(rollouts, "rollouts", kMinRollouts, most, error)) ||
        (!luck_rollouts.is_null() && !check_whole(luck_rollouts, "luck_rollouts", 0, most, error)))
        return body_refused(error, options);
    // The record (game/engine.read_record, then replay: finished).
    Json data = *record;
    if (record->is_string()) {
        const JsonRead read = read_json(code_points(record->as_string()), true);
        if (!read.ok)
            return input_refused(read.decode_error
                                     ? "not a game record: not valid JSON: " + json_error_text(read)
                                 : read.reason == "nested too deeply"
                                     ? "not a game record: not valid JSON: nested too deeply"
                                     : read.reason,
                                 options);
        data = read.value;
    }
    std::optional<GameState> last;
    if (!read_record(data, last, error)) return input_refused(error, options);
    if (!last->is_terminal())
        return input_refused("cut short: the game is not over after its " +
                                 std::to_string(last->history().size()) + " actions (voyage " +
                                 std::to_string(last->board().voyage) + ", " +
                                 phase_name(last->board().phase) + ")",
                             options);
    ReviewRequest request;
    request.horizon = horizon_of(horizon.as_string());
    request.value = value_source_of(value.as_string());
    request.policy = bot_kind_of(policy.as_string());
    request.seed = seed;
    request.quick = quick.as_bool();
    request.exact = exact.as_bool();
    if (!rollouts.is_null()) request.rollouts = static_cast<int>(rollouts.as_int());
    if (!luck_rollouts.is_null()) request.luck_rollouts = static_cast<int>(luck_rollouts.as_int());
    request.max_rollouts = kReviewMaxRollouts;
    request.threads = 1;
    const GameState initial(last->num_players(), last->board().rules, last->seed());
    const ReviewReport review = review_report(initial, last->history(), request, progress);
    if (!review.complete) return error_answer(503, {{"", kStopped, ""}});
    return ok(review.json);
}

}  // namespace api
}  // namespace manila

// manila/words.hpp. The numbers are written as Python's format() writes them ("%.2f" and
// "%+.2f" round the exact binary value half to even, as Python does).
#include "manila/words.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "game_internal.hpp"
#include "manila/analysis.hpp"
#include "manila/rules.hpp"

namespace manila {
namespace {

std::string fixed2(double x, bool sign = false) {
    char buf[64];
    std::snprintf(buf, sizeof buf, sign ? "%+.2f" : "%.2f", x);
    return buf;
}

std::string value_text(double mean, double ci, const std::string& horizon) {
    return fixed2(mean) + " \u00b1 " + fixed2(ci) + (horizon == "game" ? " equity" : "");
}

std::string capitalised(std::string word) {
    if (!word.empty() && word[0] >= 'a' && word[0] <= 'z')
        word[0] = static_cast<char>(word[0] - 32);
    return word;
}

// The text after the last "; " (all of it if none), and before it ("" if none).
std::pair<std::string, std::string> rpartition(const std::string& name) {
    const std::size_t at = name.rfind("; ");
    if (at == std::string::npos) return {"", name};
    return {name.substr(0, at), name.substr(at + 2)};
}

std::vector<std::string> auction_words(const AnalysisWords& a) {
    std::vector<std::pair<int, const WordsOption*>> ceilings;
    for (const WordsOption& o : a.options)
        if (o.name.rfind("up to ", 0) == 0)
            ceilings.emplace_back(std::stoi(o.name.substr(o.name.rfind(' ') + 1)), &o);
    if (ceilings.empty()) return {a.decider + " cannot bid: passing is the only option."};
    const std::string unit = a.horizon == "voyage" ? "pesos" : "pesos of equity";
    if (!a.worth || *a.worth == 0) {
        const auto& [x, o] = ceilings[0];
        return {"The office is worth nothing to " + a.decider + " here: even up to " +
                std::to_string(x) + " is " + fixed2(std::fabs(o->diff)) + " \u00b1 " +
                fixed2(o->diff_ci95) + " " + unit + " worse than passing; let it go."};
    }
    const std::string name = "up to " + std::to_string(*a.worth);
    const WordsOption* o = nullptr;
    for (const WordsOption& option : a.options)
        if (option.name == name) o = &option;
    if (!o) return {};
    std::string words = "The office is worth up to " + std::to_string(*a.worth) + " to " +
                        a.decider + " (" + fixed2(o->diff, true) + " \u00b1 " +
                        fixed2(o->diff_ci95) + " " + unit + " over passing)";
    for (const auto& [x, option] : ceilings)
        if (x > *a.worth)
            return {words + "; above that, let it go (up to " + std::to_string(x) +
                    " is worse than passing)."};
    return {words + "."};
}

std::vector<std::string> harbour_words(const AnalysisWords& a) {
    const WordsOption& best = a.options[a.best];
    std::vector<std::string> words{"Best: " + best.name + " (" +
                                   value_text(best.mean, best.ci95, a.horizon) + ")."};
    // The best option of each share choice and of each good left home, in first-seen order.
    using Table = std::vector<std::pair<std::string, const WordsOption*>>;
    Table by_share, by_home;
    const auto keep = [](Table& table, const std::string& key, const WordsOption* o) {
        for (auto& [k, held] : table)
            if (k == key) {
                if (o->mean > held->mean) held = o;
                return;
            }
        table.emplace_back(key, o);
    };
    for (const WordsOption& o : a.options) {
        const auto [share, starts] = rpartition(o.name);
        std::vector<std::string> sailing;
        std::size_t from = 0;
        while (true) {
            const std::size_t to = starts.find(", ", from);
            const std::string part = starts.substr(from, to == std::string::npos ? to : to - from);
            sailing.push_back(part.substr(0, part.find(' ')));
            if (to == std::string::npos) break;
            from = to + 2;
        }
        std::string home = "?";
        for (const GoodInfo& g : kGoods)
            if (std::find(sailing.begin(), sailing.end(), g.name) == sailing.end()) {
                home = g.name;
                break;
            }
        keep(by_share, share.empty() ? "(share already chosen)" : share, &o);
        keep(by_home, home, &o);
    }
    const auto by_mean = [](Table table) {
        std::stable_sort(table.begin(), table.end(), [](const auto& x, const auto& y) {
            return -x.second->mean < -y.second->mean;
        });
        return table;
    };
    if (by_share.size() > 1) {
        words.emplace_back("Share:");
        for (const auto& [key, o] : by_mean(by_share))
            words.push_back("  " + key + ": " + value_text(o->mean, o->ci95, a.horizon) +
                            " (with " + rpartition(o->name).second + ")");
    }
    words.emplace_back("Good left home:");
    for (const auto& [key, o] : by_mean(by_home))
        words.push_back("  " + key + ": " + value_text(o->mean, o->ci95, a.horizon) +
                        " (best starts " + rpartition(o->name).second + ")");
    if (a.screened_out)
        words.push_back("(" + std::to_string(a.screened_out) +
                        " combinations were screened out by their exact value with no placement.)");
    return words;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> spot_labels() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const GoodInfo& g : kGoods) out.emplace_back(g.name, capitalised(g.name) + " seat");
    static const std::map<std::string, std::string> kLabels{
        {"port_a", "Port A"},           {"port_b", "Port B"},
        {"port_c", "Port C"},           {"shipyard_a", "Shipyard A"},
        {"shipyard_b", "Shipyard B"},   {"shipyard_c", "Shipyard C"},
        {"pirate_1", "Pirate captain"}, {"pirate_2", "Pirate 2"},
        {"pilot_small", "Small pilot"}, {"pilot_large", "Large pilot"},
        {"insurance", "Insurance"},
    };
    for (const char* spot : kSpotNames) {
        const auto found = kLabels.find(spot);
        out.emplace_back(spot, found == kLabels.end() ? spot : found->second);
    }
    return out;
}

std::string spot_label(std::string_view spot) {
    static const std::vector<std::pair<std::string, std::string>> labels = spot_labels();
    for (const auto& [id, label] : labels)
        if (id == spot) return label;
    return std::string(spot);
}

namespace {

// `line` with every whole word `seat` ("p2", not "p21") as "you".
std::string said_to(const std::string& line, const std::string& seat) {
    const auto word = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    };
    std::string out;
    std::size_t i = 0;
    while (i < line.size()) {
        if (line.compare(i, seat.size(), seat) == 0 && (i == 0 || !word(line[i - 1])) &&
            (i + seat.size() == line.size() || !word(line[i + seat.size()]))) {
            out += "you";
            i += seat.size();
        } else {
            out += line[i++];
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> plain_words(const AnalysisWords& a, bool to_decider) {
    if (to_decider) {
        std::vector<std::string> words = plain_words(a);
        for (std::string& line : words) line = said_to(line, a.decider);
        return words;
    }
    if (a.options.empty()) return {};
    const WordsOption& best = a.options[a.best];
    const std::string line =
        "Best: " + best.name + " (" + value_text(best.mean, best.ci95, a.horizon) + ").";
    if (a.kind == "auction") {
        std::vector<std::string> words = auction_words(a);
        words.push_back(line);
        return words;
    }
    if (a.kind == "harbour_master") return harbour_words(a);
    return {line};
}

AnalysisWords words_of(const Analysis& a) {
    AnalysisWords w;
    w.decider = player_name(a.decider);
    w.kind = a.kind;
    w.horizon = horizon_name(a.config.horizon);
    w.best = static_cast<std::size_t>(a.best);
    if (a.worth >= 0) w.worth = a.worth;
    w.screened_out = a.screened_out;
    for (std::size_t k = 0; k < a.options.size(); ++k) {
        const OptionValue& v = a.values[k];
        w.options.push_back({a.options[k].name, v.mean, v.ci95, v.diff, v.diff_ci95});
    }
    return w;
}

}  // namespace manila

// The words players read, one home for every reader: the spots' labels (the page, the
// terminal's table, the play route's log) and an analysis in plain words (the terminal's
// analysis, the play route's hint; Python's Analysis.plain_words reads them from here).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace manila {

// "Pirate captain" for pirate_1, "Jade seat" for jade; the id itself if it names no spot.
std::string spot_label(std::string_view spot);
// Every spot of the table (the goods' seats, then kSpotNames) with its label.
std::vector<std::pair<std::string, std::string>> spot_labels();

// What the plain words of an analysis read of it (manila.analysis.Analysis).
struct WordsOption {
    std::string name;
    double mean = 0, ci95 = 0, diff = 0, diff_ci95 = 0;
};
struct AnalysisWords {
    std::string decider;  // "p0"
    std::string kind;     // decision_kind
    std::string horizon;  // "voyage" or "game"
    std::vector<WordsOption> options;
    std::size_t best = 0;      // index into options
    std::optional<int> worth;  // auction: the office's worth (0: nothing)
    int screened_out = 0;
};

// The auction and the harbour master in plain words; other kinds: the best option. With
// `to_decider` the words are said to the decider: their seat reads "you".
std::vector<std::string> plain_words(const AnalysisWords& a, bool to_decider = false);

// What the plain words read of one of the engine's analyses (the decider as "p0").
struct Analysis;
AnalysisWords words_of(const Analysis& a);

}  // namespace manila

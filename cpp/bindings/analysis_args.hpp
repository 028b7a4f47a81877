// What the long-running bindings (analysis, review) share: the bridge from a Python
// progress callback to C++ work that runs with the GIL released, and the options' values.
#pragma once

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "manila/analysis.hpp"
#include "manila/bots.hpp"

// Each call takes the GIL back; an exception the callback raises stops the work (the
// callback answers false) and is raised again by rethrow_if_failed, once the GIL is held.
template <class... Args>
class PythonProgress {
  public:
    explicit PythonProgress(std::optional<std::function<bool(Args...)>> f) : f_(std::move(f)) {}

    std::function<bool(Args...)> callback() {
        if (!f_) return {};
        return [this](Args... args) {
            pybind11::gil_scoped_acquire acquire;
            try {
                return (*f_)(args...);
            } catch (pybind11::error_already_set& e) {
                e.restore();  // raised again by rethrow_if_failed
                failed_ = true;
                return false;
            }
        };
    }
    void rethrow_if_failed() const {
        if (failed_) throw pybind11::error_already_set();
    }

  private:
    std::optional<std::function<bool(Args...)>> f_;
    bool failed_ = false;
};

// The continuation policy of an analysis by default, by name.
inline std::string default_policy() { return manila::bot_name(manila::AnalysisConfig{}.policy); }

// Every option of an analysis with its values, as the Python side reads them.
inline pybind11::list options_list(const manila::Analysis& a) {
    pybind11::list options;
    for (std::size_t k = 0; k < a.options.size(); ++k) {
        const manila::OptionValue& v = a.values[k];
        pybind11::dict o;
        o["name"] = a.options[k].name;
        o["actions"] = a.options[k].actions;
        o["mean"] = v.mean;
        o["ci95"] = v.ci95;
        o["diff"] = v.diff;
        o["diff_ci95"] = v.diff_ci95;
        o["rollouts"] = v.rollouts;
        o["exact"] = v.exact;
        if (a.config.horizon == manila::Horizon::kGame) {
            o["win"] = v.win;
            o["win_ci95"] = v.win_ci95;
            o["margin"] = v.margin;
            o["margin_ci95"] = v.margin_ci95;
        }
        options.append(o);
    }
    return options;
}

// What an analysis and a reviewed decision both report of it.
inline void put_outcome(pybind11::dict& d, const manila::Analysis& a) {
    d["exact"] = a.exact;
    d["stop"] = a.stop;
    d["rollouts"] = a.rollouts;
    d["best"] = a.best;
    d["screened_out"] = a.screened_out;
    if (a.worth >= 0) d["worth"] = a.worth;
    d["options"] = options_list(a);
}

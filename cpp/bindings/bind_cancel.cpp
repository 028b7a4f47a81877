#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "manila/cancel.hpp"

namespace py = pybind11;
using namespace manila;

void register_cancel(py::module_& m) {
    m.attr("MAX_SECONDS") = kMaxSeconds;
    // Not a ValueError: nothing was wrong with the input.
    py::register_exception<Cancelled>(m, "Cancelled", PyExc_RuntimeError);

    py::class_<CancelToken, std::shared_ptr<CancelToken>>(
        m, "CancelToken",
        "Stops the engine's computations on the threads that use it (use_cancel_token).")
        .def(py::init<double>(), py::arg("time_limit") = 0.0)
        .def("cancel", &CancelToken::cancel)
        .def_property_readonly("cancelled", &CancelToken::cancelled)
        .def_property_readonly("time_limit", &CancelToken::time_limit);

    using Token = std::optional<std::shared_ptr<CancelToken>>;
    m.def(
        "use_cancel_token",
        [](const Token& token) -> Token {
            std::shared_ptr<CancelToken> previous = exchange_cancel_token(token.value_or(nullptr));
            if (!previous) return std::nullopt;
            return previous;
        },
        py::arg("token"),
        "Sets this thread's cancel token (None: none); returns the one it replaces.");
}

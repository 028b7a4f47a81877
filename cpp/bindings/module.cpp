// The private extension module manila._core: wires the register_* files together.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void register_rules(py::module_& m);
void register_voyage(py::module_& m);
void register_evaluator(py::module_& m);
void register_advice(py::module_& m);
void register_enumerate(py::module_& m);
void register_game(py::module_& m);
void register_vector_env(py::module_& m);
void register_table(py::module_& m);
void register_analysis(py::module_& m);
void register_review(py::module_& m);
void register_value(py::module_& m);
void register_cancel(py::module_& m);
void register_api(py::module_& m);

PYBIND11_MODULE(_core, m) {
    m.doc() = "Exact Manila voyage evaluation (C++ core; use the manila package instead).";
    register_cancel(m);  // first: every computation may raise Cancelled
    register_rules(m);
    register_voyage(m);
    register_evaluator(m);
    register_advice(m);
    register_enumerate(m);   // after the evaluator: it returns Tables
    register_game(m);        // after the voyage: GameState.voyage() returns a Voyage
    register_vector_env(m);  // after the game: VectorEnv.game() returns a GameState
    register_table(m);       // after the game: it makes GameStates
    register_analysis(m);    // after the game: it takes GameStates
    register_review(m);
    register_value(m);  // after the game: it takes GameStates
    register_api(m);
}

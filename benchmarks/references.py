"""The tests' brute-force references and random states (tests/helpers/), for the scripts that
check the engine against them before timing it."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests"))

from helpers.advice_reference import advice_reference
from helpers.cases import engine_tables, sampled_cases
from helpers.reference import evaluate_reference
from helpers.solver_reference import SolverBot, differences
from helpers.states import random_state

__all__ = [
    "SolverBot",
    "advice_reference",
    "differences",
    "engine_tables",
    "evaluate_reference",
    "random_state",
    "sampled_cases",
]

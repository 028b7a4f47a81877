"""What the tests share and test nothing themselves: the independent brute-force references
(reference, advice_reference), the state and position generators (states, positions), and a few
fixtures' machinery. Found through pytest's ``pythonpath`` (pyproject.toml), as ``helpers.*``."""

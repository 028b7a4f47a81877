"""A voyage to play with, before roll 3: the example of docs/numbers.md.

(Before roll 2 no real voyage has a boat in Manila and one on 12: the boats have made
one roll from spaces 0..5. Before roll 3 they can be there.)
"""

EXAMPLE = {
    "rules": {"thirteen_after_last_roll": "port", "pirate_variant": False},
    "next_roll": 3,
    "player": "red",
    "boats": {
        "ginseng": {"position": 8, "crew": ["red", "blue"]},
        "silk": {"position": "arrived", "crew": ["green"]},
        "jade": {"position": 12, "crew": []},
    },
    "spots": {"pirate_1": "blue", "pilot_large": "red", "port_c": "green"},
}

"""A voyage to play with: the state of MANILA.md part 2, one roll later.

(MANILA.md's own example, before roll 2, has a boat in Manila and one on 12, which no
real voyage reaches after one roll; before roll 3 they can be there.)
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

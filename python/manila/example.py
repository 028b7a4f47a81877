"""A voyage to play with: the state of MANILA.md part 2."""

EXAMPLE = {
    "rules": {"thirteen_after_last_roll": "port", "pirate_variant": False},
    "next_roll": 2,
    "player": "red",
    "boats": {
        "ginseng": {"position": 8, "crew": ["red", "blue"]},
        "silk": {"position": "arrived", "crew": ["green"]},
        "jade": {"position": 12, "crew": []},
    },
    "spots": {"pirate_1": "blue", "pilot_large": "red", "port_c": "green"},
}

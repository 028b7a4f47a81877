"""The voyage states every benchmark uses, named by what makes them costly."""

# Roll 3 next, pirates but no pilot held: the last roll only.
ROLL3 = {
    "next_roll": 3,
    "player": "red",
    "boats": {
        "ginseng": {"position": 9, "crew": ["red", "blue"]},
        "nutmeg": {"position": 11, "crew": ["green"]},
        "jade": {"position": 12, "crew": ["blue"]},
    },
    "spots": {"pirate_1": "green", "port_a": "blue", "insurance": "red"},
}

# Roll 3 next with both pilots and both pirates held.
ROLL3_DECISIONS = {
    "next_roll": 3,
    "player": "red",
    "boats": {
        "ginseng": {"position": 10, "crew": ["red"]},
        "silk": {"position": 11, "crew": ["blue", "green"]},
        "jade": {"position": 8, "crew": ["yellow"]},
    },
    "spots": {
        "pirate_1": "blue",
        "pirate_2": "yellow",
        "pilot_small": "green",
        "pilot_large": "red",
        "shipyard_a": "green",
    },
}

# Roll 2 next, no decisions left but the plunder.
ROLL2 = {
    "next_roll": 2,
    "player": "green",
    "boats": {
        "ginseng": {"position": 6, "crew": ["red"]},
        "nutmeg": {"position": 8, "crew": ["blue", "green"]},
        "silk": {"position": 7, "crew": []},
    },
    "spots": {"pirate_1": "red", "port_b": "blue"},
}

# Roll 2 next with both pilots and both pirates held by players who also hold crew.
ROLL2_DECISIONS = {
    "next_roll": 2,
    "player": "red",
    "boats": {
        "nutmeg": {"position": 7, "crew": ["red", "blue"]},
        "silk": {"position": 6, "crew": ["green"]},
        "jade": {"position": 9, "crew": ["yellow"]},
    },
    "spots": {
        "pirate_1": "blue",
        "pirate_2": "green",
        "pilot_small": "yellow",
        "pilot_large": "red",
        "insurance": "green",
    },
}

# Roll 1 next, fresh from the harbour master's start, nothing held: the known values of docs/numbers.md.
ROLL1 = {
    "next_roll": 1,
    "boats": {
        "ginseng": {"position": 3, "crew": []},
        "nutmeg": {"position": 4, "crew": []},
        "silk": {"position": 2, "crew": []},
    },
    "spots": {},
}

# Roll 1 next with both pilots and both pirates held by players who also hold crew.
ROLL1_DECISIONS = {
    "next_roll": 1,
    "player": "red",
    "boats": {
        "ginseng": {"position": 2, "crew": ["red", "blue"]},
        "silk": {"position": 4, "crew": ["green"]},
        "jade": {"position": 3, "crew": ["yellow", "blue"]},
    },
    "spots": {
        "pirate_1": "blue",
        "pirate_2": "green",
        "pilot_small": "yellow",
        "pilot_large": "red",
        "port_a": "yellow",
    },
}

STATES = {
    "roll3": ROLL3,
    "roll3_decisions": ROLL3_DECISIONS,
    "roll2": ROLL2,
    "roll2_decisions": ROLL2_DECISIONS,
    "roll1": ROLL1,
    "roll1_decisions": ROLL1_DECISIONS,
}

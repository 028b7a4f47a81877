#!/usr/bin/env python3
"""A manila bot in plain Python (docs/bots.md): a random legal action, seeded by the engine."""

import json
import random
import sys

rng = random.Random()
for line in sys.stdin:  # one message a line, until the engine closes standard input
    message = json.loads(line)
    if message["type"] == "start":  # a new game: seat, players, seed, rules, limits
        rng.seed(message["seed"])
        answer = {"ready": True}
    elif message["type"] == "move":  # the table, the legal actions, the time left
        answer = {"action": rng.choice(message["legal"])["id"]}
    else:  # a message of a later version: nothing to answer
        continue
    print(json.dumps(answer), flush=True)

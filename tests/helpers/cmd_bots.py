"""Program bots for tests/test_cmd_bots.py, good and bad: ``python cmd_bots.py MODE [FILE]``.

Each answers a game's start, then plays as MODE says:

- ``names``: plays well, answering by action name (the first legal action that is no loan);
- ``record``: plays well by id, and appends every message it reads, with its process id,
  to FILE (JSON lines), and ``"end of input"`` when its input closes;
- ``slow``: plays well, a fifth of a second a move;
- ``stubborn``: plays well, and outlives the end of its input (it must be killed);
- ``crash``: writes a line to stderr and fails (an uncaught exception: exit code 1);
- ``garbage``: answers a line that is not JSON;
- ``illegal``: answers an action id that is not legal;
- ``twice``: answers its first move twice;
- ``silent``: never answers a move (it goes on reading);
- ``asleep``: never reads or answers anything.
"""

import json
import os
import sys
import time

mode = sys.argv[1]
if mode == "asleep":
    time.sleep(3600)
moves = 0
for line in sys.stdin:
    message = json.loads(line)
    if mode == "record":
        with open(sys.argv[2], "a", encoding="utf-8") as out:
            out.write(json.dumps({"pid": os.getpid(), "message": message}) + "\n")
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
        continue
    moves += 1
    legal = message["legal"]
    first = next(a for a in legal if a["name"] not in ("mortgage", "repay"))
    if mode == "names":
        print(json.dumps({"action": first["name"]}), flush=True)
    elif mode in ("record", "stubborn", "slow", "twice"):
        time.sleep(0.2 if mode == "slow" else 0)
        print(json.dumps({"action": first["id"]}), flush=True)
        if mode == "twice" and moves == 1:
            print(json.dumps({"action": first["id"]}), flush=True)
    elif mode == "crash":
        print(f"thinking about {len(legal)} actions", file=sys.stderr, flush=True)
        raise RuntimeError("the bot broke down")
    elif mode == "garbage":
        print("foo bar", flush=True)
    elif mode == "illegal":
        print(json.dumps({"action": 99999}), flush=True)
if mode == "record":
    with open(sys.argv[2], "a", encoding="utf-8") as out:
        out.write(json.dumps({"pid": os.getpid(), "message": "end of input"}) + "\n")
if mode == "stubborn":
    time.sleep(3600)

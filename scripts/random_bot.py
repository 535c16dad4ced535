#!/usr/bin/env python3
"""A bot for Colosseum's stdio protocol (docs/bot-protocol.md) in a few lines of Python.

It reads one JSON request per line and answers with one of the listed legal moves, chosen at
random. Run it against a Colosseum bot with:

    colosseum arena goofspiel "cmd:python3 scripts/random_bot.py" heuristic --games 20
"""
import json
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    move = rng.choice(request["legal_moves"]) if request["legal_moves"] else "pass"
    print(json.dumps({"move": move}), flush=True)

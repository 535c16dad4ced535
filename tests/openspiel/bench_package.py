#!/usr/bin/env python3
"""Games/s of uniformly random playouts through the `colosseum` package, beside OpenSpiel's own
`goofspiel` in the same run (same loop, same Python).

Two loops: `playouts` (the loop `pyspiel.random_sim_test` runs, without its checks) and
`with information states` (the same, asking both seats' information-state strings at every
node, as `random_sim_test` and tabular algorithms do).

    python3 tests/openspiel/bench_package.py [--seconds S] [--info-only]

Prints one line per game and loop: games, seconds, games/s.
"""

from __future__ import annotations

import random
import sys
import time

import pyspiel

import colosseum

SECONDS = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 3.0
INFO_ONLY = "--info-only" in sys.argv


def playout(game: pyspiel.Game, rng: random.Random, info: bool) -> None:
    state = game.new_initial_state()
    while not state.is_terminal():
        if info:
            for p in range(2):
                state.information_state_string(p)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def bench(label: str, game: pyspiel.Game, info: bool) -> None:
    rng = random.Random(0)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        playout(game, rng, info)
        games += 1
    secs = time.perf_counter() - start
    loop = "with information states" if info else "playouts"
    print(f"{label:50s} {loop:25s} {games:7d} games {secs:6.2f} s {games / secs:10.1f} games/s",
          flush=True)


for info in ([True] if INFO_ONLY else [False, True]):
    bench("OpenSpiel goofspiel (13 cards, random order)", pyspiel.load_game("goofspiel"), info)
    bench("OpenSpiel goofspiel (13 cards, imp_info off)",
          pyspiel.load_game("goofspiel", {"imp_info": False}), info)
    for game_id in colosseum.game_ids():
        bench(f"colosseum_{game_id.replace('-', '_')} (default options)",
              pyspiel.load_game(colosseum.short_name(game_id)), info)

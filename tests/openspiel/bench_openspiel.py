#!/usr/bin/env python3
"""Random Goofspiel playouts in OpenSpiel, for comparison with `colosseum bench goofspiel`.

Two timings of goofspiel(num_cards=13) with uniformly random bids and prizes:

  random_sim_test  OpenSpiel's own C++ random simulation (pyspiel.random_sim_test with
                   serialize=False, verbose=False). It is a test driver, not a bare playout
                   loop: at each step it also clones the state and compares strings and
                   histories, and checks legal actions, rewards and information-state tensors,
                   so it is much slower than a pure C++ playout would be.
  python loop      a plain Python loop over pyspiel (new_initial_state, chance_outcomes,
                   legal_actions, apply_action(s)), with random.Random choices.

Usage: python3 tests/openspiel/bench_openspiel.py [--sims N] [--loop-games N] [--cards C]
       [--order random|descending|ascending] [--repeat R]
Prints games/s for each (best of --repeat runs). Needs `pip install open_spiel==2.0.2`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import pyspiel


def time_random_sim_test(game: pyspiel.Game, sims: int) -> float:
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)
    return time.perf_counter() - start


def time_python_loop(game: pyspiel.Game, games: int, seed: int) -> float:
    rng = random.Random(seed)
    choice = rng.choice
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_actions([choice(state.legal_actions(0)), choice(state.legal_actions(1))])
        state.returns()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sims", type=int, default=2000, help="games for random_sim_test (default 2000)")
    parser.add_argument("--loop-games", type=int, default=20000, help="games for the Python loop (default 20000)")
    parser.add_argument("--cards", type=int, default=13)
    parser.add_argument("--order", default="random", choices=["random", "descending", "ascending"])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = pyspiel.load_game(
        "goofspiel", {"num_cards": args.cards, "points_order": args.order}
    )
    print(
        f"OpenSpiel {getattr(pyspiel, '__version__', '?')}, Python {platform.python_version()}: "
        f"{game} (best of {args.repeat})"
    )

    secs = min(time_random_sim_test(game, args.sims) for _ in range(args.repeat))
    print(
        f"random_sim_test: {args.sims} games in {secs:.3f} s: {args.sims / secs:.0f} games/s "
        f"({secs / args.sims * 1e6:.1f} us/game)"
    )

    secs = min(time_python_loop(game, args.loop_games, args.seed + r) for r in range(args.repeat))
    print(
        f"python loop: {args.loop_games} games in {secs:.3f} s: {args.loop_games / secs:.0f} games/s "
        f"({secs / args.loop_games * 1e6:.1f} us/game)"
    )


if __name__ == "__main__":
    main()

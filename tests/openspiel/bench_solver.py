#!/usr/bin/env python3
"""OpenSpiel's value iteration on classic Goofspiel (descending prizes, point-difference
returns), to time beside Colosseum's exact solver (`cargo bench -p colosseum-ai`, solver group).
OpenSpiel solves each simultaneous node's matrix game as an LP through cvxpy (default solver
ECOS).

    python3 -m pip install open_spiel==2.0.2 cvxpy ecos
    python3 tests/openspiel/bench_solver.py 3 4 5

Prints, per N, the root value, the wall time of one full solve and the states solved."""
import sys, time
import pyspiel
from open_spiel.python.algorithms import value_iteration
for n in map(int, sys.argv[1:]):
    game = pyspiel.load_game(f"goofspiel(num_cards={n},points_order=descending,returns_type=point_difference)")
    start = time.perf_counter()
    values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-6)
    secs = time.perf_counter() - start
    print(f"N={n}: root value {values[str(game.new_initial_state())]:+.6f}, {secs:.2f} s, {len(values)} states", flush=True)

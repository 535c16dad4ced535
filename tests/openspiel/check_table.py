#!/usr/bin/env python3
"""Checks `colosseum solve`'s exact Goofspiel table against OpenSpiel's value iteration.

For each N, `colosseum solve goofspiel -o cards=N --precision f64 --out FILE` writes the table;
this script reads FILE by the format documented in docs/goofspiel-solution.md (its own reader,
not Colosseum's), then runs OpenSpiel's `value_iteration` on
`goofspiel(num_cards=N,points_order=descending,returns_type=point_difference)` (every
simultaneous node's matrix game solved by OpenSpiel's LP through cvxpy), and a single backward
induction over OpenSpiel's game tree with the same LP, and compares, at every state OpenSpiel
lists, its value with half of (the points difference so far plus the table's
value of the two hands): OpenSpiel's point_difference return is a seat's points minus the mean
of both, half the difference the table counts. Prints the number of states compared and the largest difference; fails above 1e-6.

    python3 -m pip install open_spiel==2.0.2 cvxpy ecos
    cargo build --release -p colosseum-cli
    python3 tests/openspiel/check_table.py --colosseum target/release/colosseum --cards 3 4 5

Exit status: 0 all agree; 1 a disagreement; 2 bad setup."""

from __future__ import annotations

import argparse
import struct
import subprocess
import sys
import tempfile
import time
from math import comb
from pathlib import Path

try:
    import pyspiel
    from open_spiel.python.algorithms import lp_solver, value_iteration
except ImportError:  # pragma: no cover - setup problem
    print("check_table: cannot import pyspiel; run `pip install open_spiel==2.0.2 cvxpy ecos`",
          file=sys.stderr)
    sys.exit(2)

TOLERANCE = 1e-6
FNV_OFFSET, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3


def fnv1a(data: bytes) -> int:
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def colex_rank(cards: list[int]) -> int:
    """Rank of a hand (cards 1..N) among the hands of its size: sum of C(card - 1, i), i from 1."""
    return sum(comb(c - 1, i + 1) for i, c in enumerate(sorted(cards)))


def read_table(path: Path):
    """The table as {(hand1, hand2): value} (hands as sorted tuples) by the documented format."""
    data = path.read_bytes()
    assert data[:8] == b"CLSMGOOF", "magic"
    version, n, returns, size = struct.unpack_from("<4I", data, 8)
    assert (version, returns) == (1, 1) and size in (4, 8), (version, returns, size)
    assert list(data[24:24 + n]) == list(range(n, 0, -1)), "prize order"
    assert fnv1a(data[:-8]) == struct.unpack_from("<Q", data, len(data) - 8)[0], "checksum"
    offset = 24 + (n + 7) // 8 * 8
    values = {(): {}}
    hands_by_level = {}
    for k in range(1, n + 1):
        m = comb(n, k)
        pairs = m * (m + 1) // 2
        level = struct.unpack_from(f"<{pairs}d", data, offset)
        offset += pairs * 8 + pairs * 2 * k * size
        hands_by_level[k] = level
    assert offset == len(data) - 8, "length"
    return n, hands_by_level


def table_value(n: int, levels, h1: list[int], h2: list[int]) -> float:
    k = len(h1)
    if k == 0:
        return 0.0
    m = comb(n, k)
    r1, r2 = colex_rank(h1), colex_rank(h2)
    sign = 1.0
    if r1 > r2:
        r1, r2, sign = r2, r1, -1.0
    index = r1 * m - r1 * (r1 - 1) // 2 + (r2 - r1)
    return sign * levels[k][index]


def parse_state(text: str):
    """Hands and points from OpenSpiel's goofspiel state string."""
    lines = {line.split(":")[0]: line.split(":")[1].split() for line in text.strip().split("\n")}
    h1 = [int(c) for c in lines["P0 hand"]]
    h2 = [int(c) for c in lines["P1 hand"]]
    p1, p2 = (int(p) for p in lines["Points"])
    return h1, h2, p1 - p2


def backward_induction(game):
    """Every state's value for P0 by one pass from the end over OpenSpiel's own game tree, each
    simultaneous node's matrix game solved by OpenSpiel's LP (`lp_solver`) from its children's
    exact values: what value iteration converges to, without its sweeps."""
    values = {}

    def value(state):
        key = str(state)
        if key in values:
            return values[key]
        if state.is_terminal():
            v = state.returns()[0]
        else:
            rows = []
            for a in state.legal_actions(0):
                row = []
                for b in state.legal_actions(1):
                    child = state.clone()
                    child.apply_actions([a, b])
                    row.append(value(child))
                rows.append(row)
            matrix = pyspiel.create_matrix_game(rows, [[-x for x in r] for r in rows])
            v = lp_solver.solve_zero_sum_matrix_game(matrix)[2]
        values[key] = v
        return v

    value(game.new_initial_state())
    return values


def compare(n, levels, values):
    """(states compared, largest difference, the state where it is)."""
    worst, where, compared = 0.0, None, 0
    for key, value in values.items():
        h1, h2, diff = parse_state(key)
        if len(h1) != len(h2):
            continue
        # OpenSpiel's point_difference return is a seat's points minus the mean of both (half
        # the difference); the table's value is the whole difference.
        mine = (diff + table_value(n, levels, h1, h2)) / 2
        if not abs(mine - value) <= worst:
            worst, where = abs(mine - value), key
        compared += 1
    return compared, worst, where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--colosseum", required=True, help="the colosseum binary")
    parser.add_argument("--cards", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--no-value-iteration", action="store_true",
                        help="only the backward induction with OpenSpiel's LP (fast)")
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.cards:
            path = Path(tmp) / f"goofspiel{n}.table"
            start = time.perf_counter()
            subprocess.run([args.colosseum, "solve", "goofspiel", "-o", f"cards={n}",
                            "--precision", "f64", "--out", str(path), "--json"],
                           check=True, stdout=subprocess.DEVNULL)
            ours = time.perf_counter() - start
            size, levels = read_table(path)
            assert size == n
            game = pyspiel.load_game(
                f"goofspiel(num_cards={n},points_order=descending,returns_type=point_difference)")
            start = time.perf_counter()
            exact = backward_induction(game)
            induction = time.perf_counter() - start
            compared, worst, where = compare(n, levels, exact)
            ok = worst <= TOLERANCE
            failed |= not ok
            print(f"N={n}: backward induction with OpenSpiel's LP ({induction:.2f} s): {compared} "
                  f"states compared, largest difference {worst:.2e} ({'ok' if ok else 'FAILED'}"
                  f"{'' if ok else ' at ' + repr(where)}); colosseum solve {ours:.2f} s (process)",
                  flush=True)
            if args.no_value_iteration:
                continue
            start = time.perf_counter()
            values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-9)
            theirs = time.perf_counter() - start
            compared, worst, where = compare(n, levels, values)
            ok = worst <= TOLERANCE
            # Value iteration stops when a sweep changes no value by more than the threshold;
            # a NaN from a failed LP also stops it (its error comparison is then false), so a
            # disagreement is reported with whether its values are a fixed point there.
            note = ""
            if not ok:
                stale = max((abs(values[k] - exact[k]), k) for k in exact if k in values)
                note = (f" at {where!r}; its largest difference from backward induction with its "
                        f"own LP is {stale[0]:.2e} at {stale[1]!r}: value iteration stopped "
                        "before converging")
            failed |= not ok
            print(f"N={n}: OpenSpiel value iteration ({theirs:.2f} s): {compared} states compared, "
                  f"largest difference {worst:.2e} ({'ok' if ok else 'FAILED'}){note}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

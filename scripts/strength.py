#!/usr/bin/env python3
"""Runs the arena for every game and writes docs/strength.md.

    cargo build --release -p colosseum-cli
    python3 scripts/strength.py [--games 200] [--hard-games 40] [--hard mcts:iters=20000]

Each pairing is `colosseum arena GAME A B --games N --seed 1 --json`, seats swapped every other
game. The slow pairing with the strongest budget uses fewer games (stated in the table).
"""
import argparse
import json
import platform
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--binary", default="target/release/colosseum")
parser.add_argument("--games", type=int, default=200)
parser.add_argument("--hard-games", type=int, default=40)
parser.add_argument("--hard", default="mcts:iters=20000")
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--out", default="docs/strength.md")
parser.add_argument("--only", default=None, help="one game id")
args = parser.parse_args()

games = [line.split()[0] for line in subprocess.run(
    [args.binary, "games"], capture_output=True, text=True, check=True).stdout.splitlines()]
if args.only:
    games = [args.only]

pairings = [
    ("heuristic", "random", args.games),
    ("mcts:easy", "random", args.games),
    ("mcts:easy", "heuristic", args.games),
    ("mcts:medium", "heuristic", args.games),
    ("mcts:medium", "mcts:easy", args.games),
    (args.hard, "heuristic", args.hard_games),
    (args.hard, "mcts:medium", args.hard_games),
]


def pct(i):
    return f"{100 * i['estimate']:.1f}% [{100 * i['low']:.1f}, {100 * i['high']:.1f}]"


def write():
    lines = [
        "# Bot strength",
        "",
        "Produced by `scripts/strength.py` from real `colosseum arena` runs (seed 1, seats swapped",
        f"every other game, {args.threads} threads) on {platform.machine()} with {args.threads} cores.",
        "W-D-L is bot A's wins, draws and losses; the share of decided games and the Elo",
        "difference come with 95% intervals (Wilson; normal approximation on the score).",
        "",
        "Levels: `mcts:easy` = decoupled UCT, 300 iterations; `mcts:medium` = regret matching, 3000",
        f"iterations; `{args.hard}` stands in for `mcts:hard` (regret matching, 1 s per decision),",
        "which is too slow for hundreds of games on this machine.",
        "",
        "| game | A | B | games | W-D-L | A's share of decided games | Elo A-B | think ms/decision (A) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for game, r in rows:
        e = r["elo"]
        lines.append(
            f"| {game} | {r['bot_a']} | {r['bot_b']} | {r['games']} | "
            f"{r['wins']}-{r['draws']}-{r['losses']} | {pct(r['decided_win_share'])} | "
            f"{e['estimate']:+.0f} [{e['low']:+.0f}, {e['high']:+.0f}] | {r['mean_think_ms'][0]:.2f} |")
    lines.append("")
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out}")


rows = []
for game in games:
    for a, b, n in pairings:
        start = time.time()
        out = subprocess.run(
            [args.binary, "arena", game, a, b, "--games", str(n), "--seed", "1",
             "--threads", str(args.threads), "--json"],
            capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            continue
        r = json.loads(out.stdout)
        rows.append((game, r))
        print(f"{game}: {r['bot_a']} vs {r['bot_b']}: {r['wins']}-{r['draws']}-{r['losses']} "
              f"decided {pct(r['decided_win_share'])} ({time.time() - start:.0f} s)", flush=True)
        write()  # after every pairing, so an interrupted run still leaves a table

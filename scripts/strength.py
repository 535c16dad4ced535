#!/usr/bin/env python3
"""Runs the arena for every game and writes the results as a table (target/strength.md unless
--out says otherwise; docs/strength.md is the reference page, whose rows are copied from such
tables by hand with their date and command).

    cargo build --release -p colosseum-cli
    python3 scripts/strength.py [--only GAME] [--threads 1]

Each pairing is `colosseum arena GAME A B --games N --seed 1 --json`, seats swapped every other
game. Game counts are per game and level (`COUNTS` below), chosen so that one game's runs take
a few minutes on one thread of the shared 2-core machine; the table states each count.
Every result is also appended to target/strength.jsonl.
"""
import argparse
import json
import platform
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--binary", default="target/release/colosseum")
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--out", default="target/strength.md")
parser.add_argument("--only", default=None, help="one game id")
parser.add_argument("--skip", type=int, default=0, help="pairings of the first game to skip")
parser.add_argument("--rows", default=None,
                    help="comma-separated indices into PAIRINGS to run (default: all with a count)")
args = parser.parse_args()

games = [line.split()[0] for line in subprocess.run(
    [args.binary, "games"], capture_output=True, text=True, check=True).stdout.splitlines()]
if args.only:
    games = [args.only]

# Games per pairing: heuristic vs random, then easy, medium and hard vs heuristic, then medium
# vs easy and hard vs medium (0: skipped).
COUNTS = {
    "goofspiel": [200, 200, 200, 200, 200, 200],
    "square-goofspiel": [200, 200, 200, 200, 0, 0],
    "thwart-omega": [200, 200, 200, 200, 0, 0],
    "all-in-goofspiel": [200, 200, 200, 200, 200, 200],
    "galespiel": [200, 200, 200, 200, 0, 200],
    "witchs-brew": [200, 200, 200, 200, 0, 0],
}
PAIRINGS = [
    ("heuristic", "random"),
    ("mcts:easy", "heuristic"),
    ("mcts:medium", "heuristic"),
    ("mcts:hard", "heuristic"),
    ("mcts:medium", "mcts:easy"),
    ("mcts:hard", "mcts:medium"),
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
        "Levels: regret-matching search without an opponent model, 1000 (`mcts:easy`), 6000",
        "(`mcts:medium`) and 30000 (`mcts:hard`) iterations per decision times each game's",
        "SEARCH_SCALE and REGRET_MATCHING_SCALE (docs/strength.md, \"The levels\"); `hard` plays",
        "the solved equilibrium in classic Goofspiel with fixed prizes (N <= 6).",
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
    for k, ((a, b), n) in enumerate(zip(PAIRINGS, COUNTS.get(game, [200, 100, 60, 40, 0, 0]))):
        if n == 0 or (game == games[0] and k < args.skip):
            continue
        if args.rows is not None and k not in {int(i) for i in args.rows.split(",")}:
            continue
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
        with open("target/strength.jsonl", "a") as log:
            log.write(json.dumps({"game": game, **r}) + "\n")
        print(f"{game}: {r['bot_a']} vs {r['bot_b']}: {r['wins']}-{r['draws']}-{r['losses']} "
              f"decided {pct(r['decided_win_share'])} ({time.time() - start:.0f} s)", flush=True)
        write()  # after every pairing, so an interrupted run still leaves a table

#!/usr/bin/env python3
"""Conformance of Colosseum's Goofspiel with OpenSpiel's `goofspiel`, game by game.

Plays random games in pyspiel (OpenSpiel 2.0.2), converts each to a Colosseum match record,
replays the record with `colosseum replay FILE --json` and checks that both agree on the points,
the returns (exactly, as floats) and the winner. Also checks that broken records are refused
with the index of the offending step.

Conversion. OpenSpiel's actions are 0-based (action a is card a + 1); its chance action is the
prize revealed. OpenSpiel plays the last turn itself when only one card is left in each hand
(the last prize and the forced bids never appear in its history); Colosseum wants every
decision as a step, so the converted record ends with the last prize as a chance step (random
order only: fixed orders reveal prizes without a chance step) and each seat's last card.

Usage: python3 tests/openspiel/conformance.py [--games N] [--seed S] [--colosseum PATH]
Needs python3 with `pip install open_spiel==2.0.2`, and `cargo build --release -p colosseum-cli`.
Exit status: 0 all agree; 1 a disagreement (the first is printed as a diff); 2 bad setup.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

try:
    import pyspiel
except ImportError:  # pragma: no cover - setup problem, not a disagreement
    print("conformance: cannot import pyspiel; run `pip install open_spiel==2.0.2`", file=sys.stderr)
    sys.exit(2)

CARDS = (1, 2, 3, 4, 5, 8, 13)
ORDERS = ("random", "descending", "ascending")
RETURNS = ("win_loss", "point_difference", "total_points")


@dataclass
class Game:
    """One game played in pyspiel, with what OpenSpiel says about its end."""

    index: int
    cards: int
    order: str
    returns_type: str
    steps: list[dict[str, str]] = field(default_factory=list)
    history: list[int] = field(default_factory=list)
    points: tuple[int, int] = (0, 0)
    returns: tuple[float, float] = (0.0, 0.0)
    state_text: str = ""

    def record(self) -> dict:
        return {
            "game": "goofspiel",
            "options": {"cards": self.cards, "order": self.order, "returns": self.returns_type},
            "seed": self.index,
            "steps": [dict(s) for s in self.steps],  # a copy: negative checks edit it
        }

    def describe(self) -> str:
        return (
            f"game #{self.index} (cards={self.cards}, order={self.order}, "
            f"returns={self.returns_type})\n"
            f"  OpenSpiel history: {self.history}\n"
            f"  OpenSpiel final state:\n    " + self.state_text.rstrip().replace("\n", "\n    ")
        )


class Disagreement(Exception):
    """Colosseum and OpenSpiel disagree, or the harness is inconsistent."""


def parse_state_text(text: str, cards: int) -> tuple[list[int], tuple[int, int]]:
    """The prize sequence and the points from OpenSpiel's goofspiel state string.

    The string (OpenSpiel 2.0.2) reads:
        P0 hand: ...\\nP1 hand: ...\\nPoint card sequence: 4 2 3 1 \\nPoints: 4 4 \\n
    """
    prizes: list[int] | None = None
    points: tuple[int, int] | None = None
    for line in text.splitlines():
        if line.startswith("Point card sequence:"):
            prizes = [int(x) for x in line.split(":", 1)[1].split()]
        elif line.startswith("Points:"):
            values = [int(x) for x in line.split(":", 1)[1].split()]
            if len(values) != 2:
                raise Disagreement(f"cannot read the points from OpenSpiel's state: {line!r}")
            points = (values[0], values[1])
    if prizes is None or points is None:
        raise Disagreement(f"cannot parse OpenSpiel's state string:\n{text}")
    if sorted(prizes) != list(range(1, cards + 1)):
        raise Disagreement(f"OpenSpiel's prize sequence {prizes} is not a permutation of 1..{cards}")
    return prizes, points


def play_openspiel(index: int, cards: int, order: str, returns_type: str, rng: random.Random) -> Game:
    """Plays one uniformly random game in pyspiel and converts it to Colosseum steps."""
    game = pyspiel.load_game(
        "goofspiel",
        {"num_cards": cards, "points_order": order, "returns_type": returns_type},
    )
    state = game.new_initial_state()
    g = Game(index, cards, order, returns_type)
    flat: list[int] = []  # what state.history() should be
    hands = [set(range(1, cards + 1)), set(range(1, cards + 1))]
    prizes_seen: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choice(outcomes)[0]
            state.apply_action(action)
            flat.append(action)
            prizes_seen.append(action + 1)
            g.steps.append({"chance": str(action + 1)})
        elif state.is_simultaneous_node():
            joint = [rng.choice(state.legal_actions(p)) for p in (0, 1)]
            state.apply_actions(joint)
            flat.extend(joint)
            for p in (0, 1):
                hands[p].remove(joint[p] + 1)
            g.steps.append({"p1": str(joint[0] + 1), "p2": str(joint[1] + 1)})
        else:
            raise Disagreement(f"unexpected sequential node in goofspiel: player {state.current_player()}")

    g.history = list(state.history())
    if g.history != flat:
        raise Disagreement(
            f"state.history() {g.history} differs from the actions applied {flat}"
        )
    g.state_text = str(state)
    g.returns = (float(state.returns()[0]), float(state.returns()[1]))
    prizes, g.points = parse_state_text(g.state_text, cards)

    # The turn OpenSpiel played by itself: every turn not in the history.
    bid_steps = sum(1 for s in g.steps if "p1" in s)
    if bid_steps < cards:
        if bid_steps != cards - 1:
            raise Disagreement(f"OpenSpiel's history has {bid_steps} turns of {cards}; expected all or all but one")
        if order == "random":
            left = sorted(set(range(1, cards + 1)) - set(prizes_seen))
            if len(left) != 1 or left[0] != prizes[-1]:
                raise Disagreement(f"last prize: remaining {left}, OpenSpiel's sequence ends {prizes[-1]}")
            g.steps.append({"chance": str(left[0])})
        if len(hands[0]) != 1 or len(hands[1]) != 1:
            raise Disagreement(f"hands before the forced turn are {hands}, not one card each")
        g.steps.append({"p1": str(hands[0].pop()), "p2": str(hands[1].pop())})

    # The points read from the string must fit the returns OpenSpiel computes itself.
    a, b = g.points
    expected = {
        "win_loss": ((a > b) - (a < b), (b > a) - (b < a)),
        "point_difference": (a - (a + b) / 2, b - (a + b) / 2),
        "total_points": (a, b),
    }[returns_type]
    if tuple(float(x) for x in expected) != g.returns:
        raise Disagreement(
            f"OpenSpiel's points {g.points} (from its state string) do not give its returns {g.returns}"
        )
    return g


def run_replay(binary: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [binary, "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )


def diff(name: str, colosseum: object, openspiel: object) -> str:
    return f"  {name}: colosseum {colosseum!r} != openspiel {openspiel!r}"


def check_game(binary: str, g: Game, path: Path) -> None:
    proc = run_replay(binary, path)
    header = f"{g.describe()}\n  record: {path}\n  colosseum stdout: {proc.stdout.strip()}\n  colosseum stderr: {proc.stderr.strip()}"
    if proc.returncode != 0:
        raise Disagreement(f"colosseum replay exited with {proc.returncode}\n{header}")
    try:
        out = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise Disagreement(f"colosseum replay --json printed no JSON ({e})\n{header}") from None
    problems = []
    if out.get("finished") is not True:
        problems.append(diff("finished", out.get("finished"), True))
    if "error" in out:
        problems.append(diff("error", out["error"], None))
    if out.get("steps") != len(g.steps):
        problems.append(diff("steps applied", out.get("steps"), len(g.steps)))
    score = out.get("score") or {}
    for seat, i in (("p1", 0), ("p2", 1)):
        got = score.get(seat)
        if not isinstance(got, int) or isinstance(got, bool) or got != g.points[i]:
            problems.append(diff(f"score.{seat} (points)", got, g.points[i]))
        got_r = (score.get("returns") or {}).get(seat)
        if not isinstance(got_r, (int, float)) or isinstance(got_r, bool) or float(got_r) != g.returns[i]:
            problems.append(diff(f"score.returns.{seat}", got_r, g.returns[i]))
    a, b = g.points
    winner = "p1" if a > b else "p2" if b > a else None
    got_w = (out.get("outcome") or {}).get("winner", "<missing>")
    if got_w != winner:
        problems.append(diff("outcome.winner", got_w, winner))
    if problems:
        raise Disagreement("colosseum and OpenSpiel disagree on " + header.split("\n", 1)[0] + "\n"
                           + "\n".join(problems) + "\n" + header.split("\n", 1)[1])


def write_record(directory: Path, name: str, record: dict) -> Path:
    path = directory / f"{name}.json"
    path.write_text(json.dumps(record) + "\n")
    return path


def expect_refused(binary: str, directory: Path, name: str, record: dict, index: int, why: str) -> None:
    """A broken record must make `replay` exit non-zero, naming steps[index] on stderr."""
    path = write_record(directory, name, record)
    proc = run_replay(binary, path)
    where = f"negative check `{name}` ({why}): record {path}\n  stdout: {proc.stdout.strip()}\n  stderr: {proc.stderr.strip()}"
    if proc.returncode == 0:
        raise Disagreement(f"colosseum accepted a broken record; {where}")
    if f"steps[{index}]" not in proc.stderr:
        raise Disagreement(f"stderr does not name steps[{index}]; {where}")
    try:
        out = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise Disagreement(f"no JSON summary on stdout; {where}") from None
    if (out.get("error") or {}).get("index") != index:
        raise Disagreement(f"error.index is not {index}; {where}")


def negative_checks(binary: str, directory: Path, games: list[Game]) -> int:
    """Broken records built from played games; returns how many checks ran."""
    base = next(g for g in games if g.cards >= 4 and g.order == "random")
    fixed = next(g for g in games if g.cards >= 3 and g.order != "random")
    checks = 0

    # A wrong bid: p1 bids again, at their second turn, the card they bid at their first.
    rec = base.record()
    bids = [i for i, s in enumerate(rec["steps"]) if "p1" in s]
    first, second = bids[0], bids[1]
    rec["steps"][second] = dict(rec["steps"][second], p1=rec["steps"][first]["p1"])
    expect_refused(binary, directory, "neg-bid-played-card", rec, second, "p1 bids a card already played")
    checks += 1

    # A bid outside 1..cards, for p2, in a fixed-order game.
    rec = fixed.record()
    bids = [i for i, s in enumerate(rec["steps"]) if "p1" in s]
    rec["steps"][bids[-1]] = dict(rec["steps"][bids[-1]], p2=str(fixed.cards + 1))
    expect_refused(binary, directory, "neg-bid-out-of-range", rec, bids[-1], "p2 bids cards+1")
    checks += 1

    # A prize revealed twice.
    rec = base.record()
    chances = [i for i, s in enumerate(rec["steps"]) if "chance" in s]
    rec["steps"][chances[1]] = dict(rec["steps"][chances[0]])
    expect_refused(binary, directory, "neg-prize-twice", rec, chances[1], "a prize revealed twice")
    checks += 1

    # A step after the end.
    rec = base.record()
    rec["steps"].append(dict(rec["steps"][-1]))
    expect_refused(binary, directory, "neg-after-end", rec, len(rec["steps"]) - 1, "a step after the last turn")
    checks += 1

    # OpenSpiel's raw history, without the explicit last turn, leaves the game unfinished.
    rec = base.record()
    rec["steps"] = rec["steps"][:-2]
    path = write_record(directory, "neg-openspiel-history-as-is", rec)
    proc = run_replay(binary, path)
    out = json.loads(proc.stdout) if proc.returncode == 0 else {}
    if proc.returncode != 0 or out.get("finished") is not False or out.get("outcome", {}).get("winner") is not None:
        raise Disagreement(
            f"a record without the forced last turn should replay to an unfinished game; record {path}\n"
            f"  exit {proc.returncode}, stdout: {proc.stdout.strip()}\n  stderr: {proc.stderr.strip()}"
        )
    checks += 1
    return checks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1200, help="random games to play (default 1200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random games (default 0)")
    parser.add_argument("--colosseum", default="target/release/colosseum", help="the colosseum binary")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="replays run at once")
    parser.add_argument("--keep", action="store_true", help="keep the records' directory")
    args = parser.parse_args()

    binary = args.colosseum
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        print(f"conformance: no colosseum binary at {binary}; build it with "
              "`cargo build --release -p colosseum-cli` or pass --colosseum PATH", file=sys.stderr)
        return 2
    if args.games < len(CARDS) * len(ORDERS) * len(RETURNS):
        print(f"conformance: --games must be at least {len(CARDS) * len(ORDERS) * len(RETURNS)} "
              "(one game per combination of options)", file=sys.stderr)
        return 2

    start = time.perf_counter()
    rng = random.Random(args.seed)
    combos = list(itertools.product(CARDS, ORDERS, RETURNS))
    tmp = tempfile.mkdtemp(prefix="colosseum-conformance-")
    directory = Path(tmp)
    try:
        games = []
        for i in range(args.games):
            cards, order, returns_type = combos[i % len(combos)]
            games.append(play_openspiel(i, cards, order, returns_type, rng))
        paths = [write_record(directory, f"game-{g.index:05d}", g.record()) for g in games]

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(check_game, binary, g, p) for g, p in zip(games, paths)]
            for future in futures:  # in game order: the first disagreement is reported
                future.result()
        negatives = negative_checks(binary, directory, games)
    except Disagreement as e:
        args.keep = True
        print(f"conformance: FAILED\n{e}", file=sys.stderr)
        print(f"conformance: records kept in {directory}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            for p in directory.iterdir():
                p.unlink()
            directory.rmdir()

    turns = sum(g.cards for g in games)
    print(
        f"conformance: {len(games)} games agree with OpenSpiel {getattr(pyspiel, '__version__', '?')} "
        f"({turns} turns; cards {','.join(map(str, CARDS))}; orders {'/'.join(ORDERS)}; "
        f"returns {'/'.join(RETURNS)}; seed {args.seed}); "
        f"{negatives} broken records refused or left unfinished as expected; "
        f"{time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Benchmarks of the bot pool (issue 36, holes 5 and 8); docs/benchmarks.md, "The bot pool".

    scripts/bot_pool_bench.py flood   [--bin target/release/colosseum] [--searches 2] [--flood 20]
    scripts/bot_pool_bench.py sigterm [--bin target/release/colosseum] [--searches 2] [--verifies 20]

flood: one address creates --flood bot-against-bot Square Goofspiel matches at the largest
budget (mcts:iters=50000, the per-address creation burst is 20); then an innocent bot match
(mcts:easy against mcts:easy, 30 s a decision) is created from another address, and once more
from the flooding address itself (its own share: the order every match had before the fair
pool). For each, the time each of its first decisions took (from the previous step to the
reveal) and how many of its moves the host made at a timeout.

sigterm: bot matches are played to the end, then --verifies verify requests of them are sent
at once (from as many addresses, so the per-address cap does not refuse them), and SIGTERM once
they are in the pool; the time until the process exits. Repeated three times.

Every server runs on a fresh database in a temporary directory, on a free loopback port, and
trusts 127.0.0.1 as a proxy so that X-Forwarded-For names the client.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


class Server:
    def __init__(self, binary, searches, db=None):
        self.dir = tempfile.mkdtemp(prefix="colosseum-pool-bench-")
        self.db = db or os.path.join(self.dir, "m.db")
        self.proc = subprocess.Popen(
            [binary, "serve", "--addr", "127.0.0.1:0", "--db", self.db,
             "--bot-searches", str(searches), "--trusted-proxy", "127.0.0.1"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        addr = line.split("http://", 1)[1].split()[0]
        self.base = f"http://{addr}"

    def call(self, method, path, body=None, client=None, timeout=60):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("content-type", "application/json")
        if client:
            req.add_header("x-forwarded-for", client)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def create(self, body, client):
        while True:
            status, v = self.call("POST", "/api/matches", body, client)
            if status != 429:  # past the address's creation burst: wait for the next one
                break
            time.sleep(1)
        assert status == 201, (status, v)
        return v["id"]

    def state(self, id):
        return self.call("GET", f"/api/matches/{id}")[1]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def bots(level):
    return [{"kind": "bot", "level": level}, {"kind": "bot", "level": level}]


def decisions(state):
    """(time each decision took in ms, moves made at a timeout) from a state's move log."""
    moves = state["match"]["moves"]
    took, last, defaults = [], 0, 0
    for m in moves:
        if "chance" in m:
            last = m["at"]
            continue
        took.append(m["at"] - last)
        last = m["at"]
        defaults += len(m.get("by_default", []))
    return took, defaults


def flood(args):
    s = Server(args.bin, args.searches)
    try:
        for _ in range(args.flood):
            s.create({"game": "square-goofspiel", "seats": bots("mcts:iters=50000")}, "10.0.0.1")
        time.sleep(2)
        health = s.call("GET", "/api/health")[1]
        print(f"flood: {args.flood} matches from one address; /api/health bots: "
              f"running {health['bots']['running']}, queued {health['bots']['queued']}, "
              f"shares {health['bots']['shares']}, queues {health['bots']['queues']}")
        innocent = {"game": "square-goofspiel", "seats": bots("mcts:easy"),
                    "time": {"kind": "timed", "per_decision_ms": 30000}}
        for who, client in [("another address", "10.0.0.2"), ("the flooding address", "10.0.0.1")]:
            id = s.create(innocent, client)
            start = time.time()
            while time.time() - start < args.seconds:
                took, defaults = decisions(s.state(id))
                if len(took) >= args.decisions:
                    break
                time.sleep(0.1)
            took, defaults = decisions(s.state(id))
            took = took[: args.decisions]
            shown = ", ".join(f"{t / 1000:.2f}" for t in took)
            print(f"innocent mcts:easy match from {who}: first {len(took)} decisions took "
                  f"[{shown}] s (max {max(took, default=0) / 1000:.2f} s); moves made at a "
                  f"timeout: {defaults}")
            health = s.call("GET", "/api/health")[1]
            print(f"  then: queued {health['bots']['queued']}, queues {health['bots']['queues']}")
    finally:
        s.stop()


def sigterm(args):
    for run in range(3):
        s = Server(args.bin, args.searches)
        try:
            ids = [s.create({"game": "goofspiel", "seats": bots("mcts:iters=50000"),
                             "time": {"kind": "untimed"}}, f"10.1.0.{i}") for i in range(4)]
            while not all(s.state(i)["status"] == "finished" for i in ids):
                time.sleep(0.5)
            codes = []

            def verify(n):
                try:
                    status, _ = s.call("GET", f"/api/matches/{ids[n % len(ids)]}/verify",
                                       client=f"10.2.0.{n}", timeout=120)
                except Exception as e:  # the server went away
                    status = type(e).__name__
                codes.append(status)

            threads = [threading.Thread(target=verify, args=(n,)) for n in range(args.verifies)]
            for t in threads:
                t.start()
            while True:
                v = s.call("GET", "/api/health")[1]["verify"]
                if v["queued"] + v["running"] > 0:
                    break
                time.sleep(0.05)
            time.sleep(1)
            v = s.call("GET", "/api/health")[1]["verify"]
            sent = time.time()
            s.proc.send_signal(signal.SIGTERM)
            s.proc.wait()
            took = time.time() - sent
            for t in threads:
                t.join()
            print(f"run {run + 1}: {args.verifies} verify requests in flight (verify jobs "
                  f"queued {v['queued']}, running {v['running']}): exited {took:.2f} s after "
                  f"SIGTERM (exit status {s.proc.returncode}); requests answered: "
                  f"{sorted(map(str, codes))}")
        finally:
            s.stop()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["flood", "sigterm"])
    p.add_argument("--bin", default="target/release/colosseum")
    p.add_argument("--searches", type=int, default=2)
    p.add_argument("--flood", type=int, default=20)
    p.add_argument("--decisions", type=int, default=5)
    p.add_argument("--seconds", type=float, default=300)
    p.add_argument("--verifies", type=int, default=20)
    args = p.parse_args()
    {"flood": flood, "sigterm": sigterm}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())

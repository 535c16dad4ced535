#!/usr/bin/env bash
# The browser tests: Debian's chromium driven by playwright-core against a real `colosseum serve`.
#
#   tests/browser/run.sh                 # uses target/release/colosseum (built if missing)
#   COLOSSEUM_BIN=target/debug/colosseum tests/browser/run.sh
#   SCREENSHOTS_DIR=docs/screenshots tests/browser/run.sh   # refresh the committed screenshots
#
# Screenshots go to target/browser-screenshots/ unless SCREENSHOTS_DIR says otherwise.
# First the unit tests of the pages' pure functions (present.test.mjs, social.unit.mjs; node
# --test), then the browser tests, with axe-core's accessibility audit (npm, pinned in package-lock.json).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

if ! command -v chromium >/dev/null 2>&1; then
  echo "installing Debian's chromium"
  if [ "$(id -u)" -eq 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
  DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y chromium >/dev/null \
    || { DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" update >/dev/null && DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y chromium >/dev/null; }
fi
export CHROMIUM="${CHROMIUM:-$(command -v chromium)}"

(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

# The pages' pure functions (crates/server/assets/present.js, movelog.js, chat.js, race.js, and
# the games' own modules in crates/games/assets), without a browser.
(cd "$here" && node --test --test-reporter=spec present.test.mjs social.unit.mjs games.unit.mjs)

bin="${COLOSSEUM_BIN:-target/release/colosseum}"
if [ ! -x "$bin" ]; then
  cargo build --release -p colosseum-cli
fi

tmp="$(mktemp -d)"
out="$tmp/serve.out"
# A small balance report for the rules page's test (docs/analysis.md): classic Goofspiel, 4 cards.
"$bin" balance goofspiel -o cards=4 -o order=descending --games 20 --engine mcts:iters=200 --out "$tmp/balance/goofspiel" >/dev/null
# Every browser of the tests comes from 127.0.0.1: lift the per-address limits.
"$bin" serve --addr 127.0.0.1:0 --db "$tmp/browser.db" --create-rate 1000 --max-connections-per-ip 1000 --balance-dir "$tmp/balance" >"$out" 2>"$tmp/serve.err" &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

for _ in $(seq 1 100); do
  if grep -q '^listening on http://' "$out" 2>/dev/null; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat "$tmp/serve.err" >&2; echo "colosseum serve did not start" >&2; exit 1; fi
  sleep 0.1
done
addr="$(head -1 "$out" | sed -n 's|^listening on \(http://[^ ]*\).*|\1|p')"
[ -n "$addr" ] || { echo "no address in: $(cat "$out")" >&2; exit 1; }
echo "colosseum serve at $addr"

export COLOSSEUM_URL="$addr"
SCREENSHOTS_DIR="${SCREENSHOTS_DIR:-target/browser-screenshots}"
case "$SCREENSHOTS_DIR" in /*) ;; *) SCREENSHOTS_DIR="$root/$SCREENSHOTS_DIR" ;; esac
export SCREENSHOTS_DIR
start=$(date +%s)
status=0
# tests.mjs: every feature as a user reaches it; walk.mjs: a newcomer's walk through every game
# at a phone's and a laptop's size, checked at every decision.
(cd "$here" && timeout 1500 node --test --test-concurrency=1 --test-reporter=spec tests.mjs walk.mjs) || status=$?
echo "browser tests: $(( $(date +%s) - start )) s, exit $status; screenshots in $SCREENSHOTS_DIR"
if [ "$status" -ne 0 ]; then
  echo "--- server stderr ---" >&2
  tail -50 "$tmp/serve.err" >&2 || true
fi
exit "$status"

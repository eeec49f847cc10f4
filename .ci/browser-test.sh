#!/usr/bin/env bash
# The explorer in a real browser: start `kpk serve` on a free loopback port, load the page in
# headless Chromium with a position in the URL (#fen=…), and check what the page shows once its
# scripts ran: the result, the DTC and the best move. Bounded in time; the server is stopped after.
# With `--screenshot FILE` it also saves a screenshot of the page (docs/explorer.png).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
cargo build --release --quiet
log=$(mktemp) dom=$(mktemp)
target/release/kpk serve --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log" "$dom"' EXIT
url=
for _ in $(seq 1 300); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "browser test: kpk serve did not start" >&2; cat "$log" >&2; exit 1; }
# Table 1, set 3 (wK d1, wP c3, bK f8, White to move): a win in 27 plies, only 1.Kc2 wins.
page="${url}#fen=5k2%2F8%2F8%2F8%2F8%2F2P5%2F8%2F3K4%20w%20-%20-%200%201"
chrome=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000)
timeout 90 "${chrome[@]}" --dump-dom "$page" >"$dom" 2>/dev/null
fail=0
check() {
  if grep -q -- "$2" "$dom"; then echo "browser test: page shows $1"; else echo "browser test: page does not show $1 ($2)" >&2; fail=1; fi
}
check "the result win" '<span id="result" class="win">win</span>'
check "DTC 27" '<span id="dtc">27</span>'
check "Kc2 as the best move" '<tr class="win best" data-san="Kc2" data-uci="d1c2">'
check "Kd2 as a drawing move, not best" '<tr class="draw" data-san="Kd2"'
check "x31 = -2 among the characteristics" '<span class="v" id="x31">-2</span>'
if [ "${1:-}" = "--screenshot" ]; then
  timeout 90 "${chrome[@]}" --window-size=1280,900 --screenshot="$2" "$page" 2>/dev/null
  echo "browser test: wrote $2"
fi
exit "$fail"

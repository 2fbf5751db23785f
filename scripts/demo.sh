#!/usr/bin/env bash
# scripts/demo.sh — `make demo`: almanac and the stub upstream wired together on this machine,
# so every example of the README's quick tour runs offline exactly as shown.
#
#   make demo                         build, then serve http://localhost:8080 until Ctrl-C
#   DEMO_PORT=9090 make demo          another port
#   DEMO_SKIP_BUILD=1 scripts/demo.sh reuse .build/release/almanac
#
# The stub (scripts/stub_upstream.py, python3 standard library only) speaks the real upstream
# formats on 127.0.0.1 with fixed rates and a fixed book catalogue; almanac binds 127.0.0.1 and
# takes every provider's base URL from the stub. The admin API is on, with the token in $TOKEN
# (printed at start; default demo-admin-token). Both processes are stopped by PID on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT="${DEMO_PORT:-8080}"
TOKEN="${TOKEN:-demo-admin-token}"
BIN="${DEMO_BIN:-$ROOT/.build/release/almanac}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/almanac-demo.XXXXXX")"
STUB_PID=""
APP_PID=""

stop() {
  [ -n "$APP_PID" ] && kill -TERM "$APP_PID" 2>/dev/null && wait "$APP_PID" 2>/dev/null || true
  [ -n "$STUB_PID" ] && kill -TERM "$STUB_PID" 2>/dev/null && wait "$STUB_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap stop EXIT
trap 'exit 0' INT TERM

if [ "${DEMO_SKIP_BUILD:-0}" != 1 ] || [ ! -x "$BIN" ]; then
  (cd "$ROOT" && swift build -c release --product almanac >&2)
fi

python3 "$ROOT/scripts/stub_upstream.py" --host 127.0.0.1 --port 0 --port-file "$WORK/stub.port" --fixed-rates \
  >"$WORK/stub.log" 2>&1 &
STUB_PID=$!
for _ in $(seq 1 100); do [ -s "$WORK/stub.port" ] && break; sleep 0.05; done
[ -s "$WORK/stub.port" ] || { echo "demo: the stub upstream did not start" >&2; cat "$WORK/stub.log" >&2; exit 1; }
STUB="http://127.0.0.1:$(cat "$WORK/stub.port")"

env ALMANAC_SERVER_HOST=127.0.0.1 ALMANAC_SERVER_PORT="$PORT" ALMANAC_SERVER_ADMIN_TOKEN="$TOKEN" \
  ALMANAC_RATES_COINBASE_BASE_URL="$STUB" ALMANAC_RATES_COINGECKO_BASE_URL="$STUB" \
  ALMANAC_RATES_COINDESK_BASE_URL="$STUB" ALMANAC_RATES_BITSTAMP_BASE_URL="$STUB" \
  ALMANAC_RATES_COINBASE_EXCHANGE_BASE_URL="$STUB" ALMANAC_RATES_FRANKFURTER_BASE_URL="$STUB" \
  ALMANAC_BOOKS_GOOGLE_BOOKS_BASE_URL="$STUB" ALMANAC_BOOKS_OPEN_LIBRARY_BASE_URL="$STUB" \
  ALMANAC_BOOKS_OPEN_LIBRARY_COVERS_BASE_URL="$STUB" \
  ALMANAC_LOG_LEVEL="${ALMANAC_LOG_LEVEL:-warn}" \
  "$BIN" serve --config "$ROOT/config/almanac.json" &
APP_PID=$!
for _ in $(seq 1 200); do
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break
  kill -0 "$APP_PID" 2>/dev/null || { echo "demo: almanac did not start" >&2; exit 1; }
  sleep 0.05
done
cat <<MSG
almanac demo: http://localhost:$PORT  (stub upstream: $STUB, pid $STUB_PID; almanac pid $APP_PID)
The README's quick tour runs as shown; for the admin examples: export TOKEN=$TOKEN
Ctrl-C stops both.
MSG
wait "$APP_PID"

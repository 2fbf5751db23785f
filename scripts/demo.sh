#!/usr/bin/env bash
# scripts/demo.sh — `make demo`: almanac and the stub upstream wired together on this machine,
# so every example of the tours (the README's quick tour, docs/tour.md) runs offline exactly as shown.
#
#   make demo                         build, then serve http://localhost:8080 until Ctrl-C
#   DEMO_PORT=9090 make demo          another port
#   DEMO_SKIP_BUILD=1 scripts/demo.sh reuse .build/release/almanac (DEMO_BIN: another binary)
#
# The stub (scripts/stub_upstream.py, python3 standard library only) speaks the real upstream
# formats on 127.0.0.1 with fixed rates and a fixed book catalogue; almanac binds 127.0.0.1 and
# takes every provider's base URL from the stub, exactly as the benchmarks wire it
# (bench/lib.sh). The admin API is on, with the token in $TOKEN (default demo-admin-token).
# Both processes are stopped by PID on exit.
source "$(dirname "${BASH_SOURCE[0]}")/../bench/lib.sh"
ALMANAC_FIXED_PORT="${DEMO_PORT:-8080}"
ADMIN_TOKEN="${TOKEN:-demo-admin-token}"
APP_BIN="${DEMO_BIN:-$APP_BIN}"
export ALMANAC_LOG_LEVEL="${ALMANAC_LOG_LEVEL:-warn}"
APP_STDOUT=/dev/stdout

if [ "${DEMO_SKIP_BUILD:-0}" != 1 ] || [ ! -x "$APP_BIN" ]; then
  (cd "$ROOT" && swift build -c release --product almanac >&2)
fi
start_stub --fixed-rates
start_almanac
cat <<MSG
almanac demo: http://localhost:$APP_PORT  (stub upstream: $STUB, pid $STUB_PID; almanac pid $APP_PID)
The README's quick tour and docs/tour.md run as shown; for the admin examples: export TOKEN=$ADMIN_TOKEN
Ctrl-C stops both.
MSG
wait "$APP_PID"

#!/usr/bin/env bash
# With the DEFAULT server.maxConnections (4096) and the server's body timeout (30 s,
# HTTPServerConfiguration.bodyTimeoutSeconds, not exposed as a configuration key), a
# slow-body client opening ~200 connections per second fills every connection slot in
# ~20 s; new clients then get 503 until the attack stops. (Slowloris is cut at
# headerTimeoutSeconds and cannot do this: 200/s × 5 s = 1,000 slots.)
#   bench/repro/slow_body_exhaustion.sh      (~45 s)
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
need_cmd slowhttptest slowhttptest
raise_fd_limit 20000
BENCH_SKIP_BUILD="${BENCH_SKIP_BUILD:-1}" build_release
start_stub
unset ALMANAC_SERVER_MAX_CONNECTIONS
export ALMANAC_SERVER_HEADER_TIMEOUT_SECONDS=5 ALMANAC_SERVER_IDLE_TIMEOUT_SECONDS=10
start_almanac
curl -s -o /dev/null "$APP/v1/rates"
slowhttptest -B -i 1 -x 10 -s 8192 -t POST -c 6000 -r 200 -l 40 -u "$APP/v1/rates" >"$WORK/slow.log" 2>&1 &
SLOW=$!; track_pid $SLOW
for t in 5 10 15 20 25 30 35; do
  sleep 5
  codes="$(for i in $(seq 20); do curl -s -o /dev/null -m 3 -w '%{http_code} ' "$APP/v1/rates" || true; done)"
  conns="$("$PYTHON" "$ROOT/bench/fdinfo.py" "$APP_PID" --server-port "$APP_PORT" | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["client_conns"])')"
  printf 't=%2ss  server-side client connections %5s  20 new GET /v1/rates → %s\n' "$t" "$conns" \
    "$(echo "$codes" | tr ' ' '\n' | grep -v '^$' | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}')"
done
stop_pid $SLOW 3

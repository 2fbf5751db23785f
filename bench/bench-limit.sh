#!/usr/bin/env bash
# bench/bench-limit.sh — what a new client gets while every connection slot is held
# (run by `make bench` through bench/bench.sh; also on its own).
#
# almanac with server.maxConnections = LIMIT, and nginx with one worker and
# worker_connections = LIMIT + 2 (its listening socket and the worker's channel to the master
# take one slot each, so LIMIT are left for clients), each hold LIMIT
# connections opened by bench/idle_conns.py: first idle keep-alives (one `GET /v1/rates`
# each, answered), then silent ones (connected, no byte sent). Then PROBES new clients, one
# after the other, each send one request and keep their connection, so every probe finds
# every slot held. Reported per server and mode: probes answered 200 and other outcomes,
# time to the whole answer (p50 / max), how many held connections were closed to make room,
# and the server's own account (almanac: almanac_connections_reclaimed_total and its
# "reusing connections" warn lines; nginx: its "worker_connections are not enough, reusing
# connections" lines). nginx (since 1.19.2) reuses in advance: once fewer than 1/16 of its
# worker_connections are free it closes reusable connections (idle keep-alive, or waiting for
# a first request), up to 32 at a time — so it already closes some while the LIMIT open.
#
#   bench/bench-limit.sh                    LIMIT=500 PROBES=50
#   LIMIT=200 PROBES=20 bench/bench-limit.sh
#   BENCH_SKIP_BUILD=1                        reuse .build/release/almanac
#
# Output: markdown on stdout and in bench-results/bench-limit-<UTC time>.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LIMIT="${LIMIT:-500}"
PROBES="${PROBES:-50}"
need_cmd curl curl
raise_fd_limit 20000
report_init bench-limit
build_release
start_stub

export ALMANAC_SERVER_MAX_CONNECTIONS="$LIMIT"
# Long enough that no held connection times out during the run: only reclaiming closes them.
export ALMANAC_SERVER_IDLE_TIMEOUT_SECONDS=600 ALMANAC_SERVER_HEADER_TIMEOUT_SECONDS=60
export ALMANAC_RATES_TTL_SECONDS=3600 ALMANAC_RATES_STALE_SECONDS=3600
export ALMANAC_LOG_LEVEL=warn   # the "reusing connections" line is a warn line
export NGINX_WORKERS=1 NGINX_WORKER_CONNECTIONS=$((LIMIT + 2)) NGINX_ERROR_LOG_LEVEL=warn

# nginx serves the bytes almanac serves.
start_almanac
curl -s -o /dev/null "$APP/v1/rates"
curl -s -D "$WORK/rates.headers" -o "$WORK/rates.body" "$APP/v1/rates"
CTYPE="$(awk -F': ' 'tolower($1)=="content-type"{print $2}' "$WORK/rates.headers" | tr -d '\r')"
stop_pid "$APP_PID" 10

emit "# almanac evidence: bench/bench-limit.sh"
emit ""
machine_header >>"$REPORT"
emit "- command: \`$0\` (LIMIT=$LIMIT, PROBES=$PROBES)"
emit "- almanac: \`server.maxConnections\` = $LIMIT; nginx $(nginx -v 2>&1 | sed 's/^nginx version: //'): 1 worker, \`worker_connections $((LIMIT + 2))\` (its listening socket and the worker's channel to the master take one slot each), keepalive_timeout 600s; nginx ≥ 1.19.2 starts closing reusable connections *in advance*, once fewer than 1/16 of its slots are free, up to 32 at a time"
emit "- $LIMIT connections held by \`bench/idle_conns.py\` (idle: one \`GET /v1/rates\` answered on each; silent: no byte sent), then $PROBES probes one after the other, each kept open once answered (so each finds every slot held); a probe that has no whole answer within 2 s counts as its error"
emit ""
emit "| server | held | opened (errors while opening) | probes answered 200 | other probe outcomes | probe p50 / max (ms) | held connections closed | server's account |"
emit "| --- | --- | --- | --- | --- | --- | --- | --- |"
for mode in idle silent; do
  flag=""; [ "$mode" = silent ] && flag="--silent"
  for server in almanac nginx; do
    if [ "$server" = almanac ]; then
      APP_STDOUT="$WORK/almanac-$mode.log" start_almanac
      port=$APP_PORT; pids="--pid $APP_PID"
    else
      rm -f "$WORK/nginx/logs/error.log"
      start_nginx "$WORK/rates.body" "$CTYPE" /v1/rates
      port=$NGINX_PORT; pids="$(for p in $(nginx_pids); do printf -- '--pid %s ' "$p"; done)"
    fi
    log "$LIMIT $mode connections + $PROBES probes on $server"
    # shellcheck disable=SC2086
    res="$("$PYTHON" "$ROOT/bench/idle_conns.py" --port "$port" $pids -n "$LIMIT" $flag \
           --probes "$PROBES" --probe-timeout 2 --settle 1 --hold 1 2>&1 | tail -1)"
    if [ "$server" = almanac ]; then
      metrics="$(curl -s "$APP/metrics")"
      account="reclaimed: $(echo "$metrics" | awk '/^almanac_connections_reclaimed_total\{state="idle"\}/{i=$2} /^almanac_connections_reclaimed_total\{state="silent"\}/{s=$2} END{printf "%d idle, %d silent", i, s}'); warn lines: $(grep -c 'reusing connections' "$WORK/almanac-$mode.log" || true)"
      kill -0 "$APP_PID" 2>/dev/null || account="**process died**"
      stop_pid "$APP_PID" 10
    else
      account="'reusing connections' lines: $(grep -c 'reusing connections' "$WORK/nginx/logs/error.log" || true); 'not enough' without reuse: $(grep 'worker_connections are not enough' "$WORK/nginx/logs/error.log" | grep -vc 'reusing' || true)"
      stop_pid "$NGINX_PID" 5
    fi
    emit "$(echo "$res" | SERVER="$server" ACCOUNT="$account" J '"| %s | %d %s | %d%s | %d / %d | %s | %s / %s | %d | %s |" % (__import__("os").environ["SERVER"], d["requested"], d["mode"], d["opened"], (" (" + ", ".join("%s: %d" % kv for kv in sorted(d["errors"].items())) + ")") if d["errors"] else "", d["probes_ok"], d["probes"], ", ".join("%s: %d" % kv for kv in sorted(d["probe_outcomes"].items()) if kv[0] != "200") or "none", d["probe_p50_ms"], d["probe_max_ms"], d["opened"] - d["still_open_after_hold"], __import__("os").environ["ACCOUNT"])' 2>/dev/null || echo "| $server | $LIMIT $mode | failed: $res |")"
  done
done
emit ""

cp "$REPORT" "$OUT"
cat "$REPORT"
log "report saved to ${OUT#"$ROOT"/}"

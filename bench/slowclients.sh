#!/usr/bin/env bash
# bench/slowclients.sh — slow-client resistance of the release binary.
#
# almanac runs with server.headerTimeoutSeconds=5 and server.idleTimeoutSeconds=10.
# 1. unloaded baseline: wrk -t1 -c10 -d20s --latency on GET /v1/rates (cached hit)
# 2. for each slowhttptest mode — -H slowloris, -B slow body (POST; almanac has no POST
#    routes, but the server must still time the body out), -X slow read — keep about
#    SLOW_CONC (1,000) slow connections open (SLOW_RATE new ones per second; at a 5 s
#    timeout that needs SLOW_RATE × test length connections in all), and meanwhile:
#    - run the same wrk and compare its p99 with the unloaded p99 (target ≤ 2×);
#    - sample the server's open client connections every second (/proc/PID/fd);
#    - run bench/slow_probe.py (5 connections per slow mode) to time each close.
#    The attack tool, the probe and the monitor run at nice 19 (as if on another machine:
#    on 2 shared cores their CPU would otherwise show up as server latency).
#    Slow connections are "closed within the timeouts" when the server-side count stays
#    near rate × (timeout + 2 s) and drains within timeout + 3 s after the attack ends.
#
#   bench/slowclients.sh      BENCH_QUICK=1 for a smoke run; EVIDENCE_KEEP=1 keeps logs
# Output: markdown on stdout and in bench-results/slowclients-<UTC time>.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HEADER_TIMEOUT=5
IDLE_TIMEOUT=10
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  WRK_D=4; SLOW_RATE=50; SLOW_LEN=12; RAMP=3
else
  WRK_D=20; SLOW_RATE="${SLOW_RATE:-200}"; SLOW_LEN=32; RAMP=6
fi
SLOW_TOTAL=$((SLOW_RATE * (SLOW_LEN - 4)))
need_cmd wrk wrk
need_cmd slowhttptest slowhttptest
raise_fd_limit 20000
report_init slowclients

build_release
start_stub
export ALMANAC_SERVER_HEADER_TIMEOUT_SECONDS=$HEADER_TIMEOUT
export ALMANAC_SERVER_IDLE_TIMEOUT_SECONDS=$IDLE_TIMEOUT
export ALMANAC_SERVER_MAX_CONNECTIONS="${ALMANAC_SERVER_MAX_CONNECTIONS:-16000}"
export ALMANAC_RATES_TTL_SECONDS=3600
start_almanac
curl -s -o /dev/null "$APP/v1/rates"; curl -s -o /dev/null "$APP/v1/rates"
URL="$APP/v1/rates"
fdi() { "$PYTHON" "$ROOT/bench/fdinfo.py" "$APP_PID" --server-port "$APP_PORT" --upstream-port "$STUB_PORT"; }
# The 1 s connection monitor runs at nice 19, during the baseline too, so it costs the
# measured clients the same in every row.
monitor() { # monitor FILE
  ( while :; do echo "{\"t\": $(date +%s.%N), \"fd\": $(nice -n 19 "$PYTHON" "$ROOT/bench/fdinfo.py" "$APP_PID" --server-port "$APP_PORT" --upstream-port "$STUB_PORT" 2>/dev/null || echo null)}" >>"$1"; sleep 1; done ) &
  MON=$!; track_pid $MON
}

run_wrk() { # run_wrk LABEL
  wrk -t1 -c10 -d"${WRK_D}s" --latency "$URL" >"$WORK/wrk-$1.txt" 2>&1 || true
  "$PYTHON" "$ROOT/bench/wrk_report.py" parse "$WORK/wrk-$1.txt" mode="$1"
}

emit "# almanac evidence: bench/slowclients.sh"
emit ""
machine_header >>"$REPORT"
emit "- command: \`bench/slowclients.sh\` (BENCH_QUICK=${BENCH_QUICK:-0}); headerTimeoutSeconds=$HEADER_TIMEOUT, idleTimeoutSeconds=$IDLE_TIMEOUT, maxConnections=$ALMANAC_SERVER_MAX_CONNECTIONS"
emit "- normal clients: \`wrk -t1 -c10 -d${WRK_D}s --latency $URL\` (cached hit), started ${RAMP}s into each attack"
emit "- attack: \`slowhttptest -c $SLOW_TOTAL -r $SLOW_RATE -l $SLOW_LEN\` (≈ $((SLOW_RATE * HEADER_TIMEOUT)) concurrent at a ${HEADER_TIMEOUT}s timeout; ≈ 1,000 with the defaults)"
emit ""

log "baseline wrk"
monitor "$WORK/conns-baseline.jsonl"
BASE_JSON="$(run_wrk unloaded)"
stop_pid $MON 1
BASE_P99="$(echo "$BASE_JSON" | J 'd["p99_ms"]')"
emit "| attack | slowhttptest | wrk req/s | wrk p50 ms | wrk p99 ms | p99 vs unloaded (target ≤ 2×) | wrk errors / non-2xx | server-side client conns: max during attack | bound if closed within timeout + 2 s | drained to 0 after attack (s) | slowhttptest: closed / connected at end / service available | probe: time to close (median/max s) |"
emit "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
emit "$(echo "$BASE_JSON" | J '"| none (unloaded) | — | %.0f | %.3f | %.3f | 1.00 | %d / %d | — | — | — | — | — |" % (d["rps"] or 0, d["p50_ms"] or 0, d["p99_ms"] or 0, d["socket_errors"], d["non2xx"])')"

for mode in H B X; do
  case $mode in
    H) args=(-H -i 1 -x 24 -t GET); name="slowloris (-H)";;
    B) args=(-B -i 1 -x 10 -s 8192 -t POST); name="slow body (-B)";;
    X) args=(-X -k 8 -n 1 -w 16 -y 64 -z 16); name="slow read (-X)";;
  esac
  log "slowhttptest $name"
  : >"$WORK/conns-$mode.jsonl"
  monitor "$WORK/conns-$mode.jsonl"
  T_START="$(date +%s.%N)"
  nice -n 19 slowhttptest "${args[@]}" -c "$SLOW_TOTAL" -r "$SLOW_RATE" -l "$SLOW_LEN" -p 3 -g -o "$WORK/slow-$mode" \
    -u "$URL" >"$WORK/slow-$mode.log" 2>&1 &
  SLOW=$!; track_pid $SLOW
  sleep "$RAMP"
  nice -n 19 "$PYTHON" "$ROOT/bench/slow_probe.py" --port "$APP_PORT" -n 5 --header-timeout $HEADER_TIMEOUT \
    --idle-timeout $IDLE_TIMEOUT >"$WORK/probe-$mode.json" 2>&1 &
  PROBE=$!; track_pid $PROBE
  W_JSON="$(run_wrk "$mode")"
  for ((i = 0; i < SLOW_LEN + 30; i++)); do kill -0 $SLOW 2>/dev/null || break; sleep 1; done
  stop_pid $SLOW 3
  T_END="$(date +%s.%N)"
  # Drain: server-side client connections back to 0.
  DRAIN="not within $((IDLE_TIMEOUT + 20)) s"
  for ((i = 0; i < (IDLE_TIMEOUT + 20) * 2; i++)); do
    if [ "$(fdi | J 'd["client_conns"]')" = 0 ]; then DRAIN="$(awk -v a="$T_END" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')"; break; fi
    sleep 0.5
  done
  wait $PROBE 2>/dev/null || true
  stop_pid $MON 1
  kill -0 "$APP_PID" 2>/dev/null || die "almanac died during $name (see $WORK/almanac.err)"
  row="$("$PYTHON" - "$mode" "$name" "$W_JSON" "$BASE_P99" "$WORK/conns-$mode.jsonl" "$T_START" "$SLOW_LEN" "$HEADER_TIMEOUT" "$IDLE_TIMEOUT" "$WORK/slow-$mode.csv" "$WORK/probe-$mode.json" "$DRAIN" "$SLOW_TOTAL" "$SLOW_RATE" <<'PY'
import csv, json, sys
mode, name, wj, base_p99, conns, t0, length, ht, it, csvp, probe, drain, total, rate = sys.argv[1:15]
w = json.loads(wj); t0 = float(t0); length = int(length)
samples = []
for l in open(conns):
    try:
        s = json.loads(l)
        if s["fd"]: samples.append((float(s["t"]) - t0, s["fd"]["client_conns"]))
    except Exception:
        pass
mx = max((c for _, c in samples), default=0)
# If every slow connection is closed within its timeout (+2 s), at most
# rate × (timeout + 2) are open at once (+ 10 wrk + 15 probe connections);
# a server that never closes them climbs towards the total.
limit = float(it if mode == "X" else ht)
bound = int(float(rate) * (limit + 2)) + 25
at_check = "≤ %d %s" % (bound, "✅" if mx <= bound else "❌")
sh = "—"
try:
    rows = list(csv.reader(open(csvp)))
    hdr = rows[0]; last = rows[-1]
    col = {h.strip().lower(): i for i, h in enumerate(hdr)}
    sh = "%s / %s / %s" % (last[col["closed"]], last[col["connected"]], last[col.get("service available", len(last) - 1)])
except Exception as e:
    sh = "no csv (%s)" % type(e).__name__
pr = "—"
try:
    p = json.loads(open(probe).read().strip().splitlines()[-1])
    pr = "; ".join("%s %s/%s (limit %s; %s)" % (k.replace("_", " "), v["median_s"], v["max_s"], v["limit_s"],
                   ", ".join("%s×%d" % (o, n) for o, n in v["outcomes"].items())) for k, v in sorted(p.items()))
except Exception as e:
    pr = "probe failed (%s)" % type(e).__name__
ratio = (w["p99_ms"] / float(base_p99)) if w.get("p99_ms") and float(base_p99) else None
print("| %s | `slowhttptest -%s` | %.0f | %.3f | %.3f | %s %s | %d / %d | %d | %s | %s | %s | %s |" % (
    name, mode, w["rps"] or 0, w["p50_ms"] or 0, w["p99_ms"] or 0,
    "%.2f" % ratio if ratio else "—", "" if ratio is None else ("✅" if ratio <= 2 else "❌"),
    w["socket_errors"], w["non2xx"], mx, at_check, drain, sh, pr))
PY
)"
  emit "$row"
  sleep 2
done
emit ""
emit "alive at the end: $(kill -0 "$APP_PID" 2>/dev/null && echo yes || echo NO); almanac VmHWM $(proc_status "$APP_PID" VmHWM) KiB"
cp "$REPORT" "$OUT"
cat "$REPORT"
log "report saved to ${OUT#"$ROOT"/}"

#!/usr/bin/env bash
# Benchmarks almanac's HTTPServer against nginx on loopback (`make bench`; not a test).
#
# Both serve the same ~700-byte JSON body with the same Content-Type: almanac through the
# real HTTPServer + Router (Sources/bench-server), nginx from a file. wrk runs alternate
# between the two (RUNS each, per concurrency) and the medians are reported. Then N idle
# keep-alive connections (one request each) are opened to each server and the RSS growth
# per connection is reported; almanac's limit is IDLE connections, so they hold every slot,
# and PROBES new clients (one request each, kept open) show newcomers are still served.
# Every process started here is stopped by its PID.
#
# Env: DURATION (10s), RUNS (3), IDLE (5000), PROBES (20), NGINX_WORKERS (2), ALMANAC_PORT, NGINX_PORT.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
RUNS=${RUNS:-3}
IDLE=${IDLE:-5000}
PROBES=${PROBES:-20}
NGINX_WORKERS=${NGINX_WORKERS:-2}
# Free loopback ports outside the kernel's ephemeral range (fixed ones collide with whatever else
# runs here; scripts/free_port.py says how they are chosen).
free_port() { python3 "$(dirname "${BASH_SOURCE[0]}")/../scripts/free_port.py"; }
ALMANAC_PORT=${ALMANAC_PORT:-$(free_port)}
NGINX_PORT=${NGINX_PORT:-$(free_port)}

ulimit -n "$(ulimit -Hn)"
command -v wrk >/dev/null || { echo "wrk is required" >&2; exit 1; }
command -v nginx >/dev/null || { echo "nginx is required" >&2; exit 1; }

swift build -c release --product bench-server >&2
BIN=.build/release/bench-server

TMP=$(mktemp -d)
chmod 755 "$TMP"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT

mkdir -p "$TMP/www" "$TMP/logs"
"$BIN" --print-body > "$TMP/www/rates.json"
chmod 644 "$TMP/www/rates.json"
cat > "$TMP/nginx.conf" <<CONF
worker_processes $NGINX_WORKERS;
worker_rlimit_nofile 20000;
daemon off;
pid $TMP/nginx.pid;
error_log $TMP/logs/error.log warn;
events { worker_connections 10000; }
http {
    access_log off;
    server_tokens off;
    keepalive_requests 10000000;
    keepalive_timeout 60s;
    types { }
    default_type "application/json; charset=utf-8";
    server {
        listen 127.0.0.1:$NGINX_PORT backlog=4096;
        location / { root $TMP/www; try_files /rates.json =404; }
    }
}
CONF

BENCH_MAX_CONNECTIONS=$IDLE "$BIN" "$ALMANAC_PORT" > "$TMP/logs/almanac.log" 2>&1 &
ALMANAC_PID=$!
PIDS+=("$ALMANAC_PID")
nginx -p "$TMP" -c "$TMP/nginx.conf" &
NGINX_PID=$!
PIDS+=("$NGINX_PID")

wait_up() {
    for _ in $(seq 1 100); do
        curl -fsS -o /dev/null "http://127.0.0.1:$1/rates" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "server on port $1 did not come up" >&2
    exit 1
}
wait_up "$ALMANAC_PORT"
wait_up "$NGINX_PORT"
cmp <(curl -fsS "http://127.0.0.1:$ALMANAC_PORT/rates") <(curl -fsS "http://127.0.0.1:$NGINX_PORT/rates")

# Latency as printed by wrk (e.g. 85.00us, 1.20ms, 1.01s) in microseconds.
to_us() {
    awk -v v="$1" 'BEGIN {
        n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
        if (u == "us") m = 1; else if (u == "ms") m = 1000; else if (u == "s") m = 1000000; else m = 1
        printf "%.0f", n * m }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

declare -A RPS P50 P99
for c in 50 256; do
    for run in $(seq 1 "$RUNS"); do
        for name in almanac nginx; do
            port=$ALMANAC_PORT; [ "$name" = nginx ] && port=$NGINX_PORT
            out=$(wrk -t1 -c"$c" -d"$DURATION" --latency "http://127.0.0.1:$port/rates")
            if echo "$out" | grep -q "Non-2xx\|Socket errors"; then echo "$out" | grep "Non-2xx\|Socket errors" >&2; fi
            RPS[$name,$c]+="$(echo "$out" | awk '/^Requests\/sec/ { print $2 }') "
            P50[$name,$c]+="$(to_us "$(echo "$out" | awk '$1 == "50%" { print $2 }')") "
            P99[$name,$c]+="$(to_us "$(echo "$out" | awk '$1 == "99%" { print $2 }')") "
            echo "run $run $name -c$c: $(echo "$out" | awk '/^Requests\/sec/ { print $2 }') req/s" >&2
        done
    done
done

# bench/idle_conns.py holds IDLE connections (one request answered on each) and reports the RSS
# growth of the server's process tree (nginx: master + workers) and what PROBES newcomers got.
idle_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
declare -A IDLE_BYTES PROBED
for name in almanac nginx; do
    port=$ALMANAC_PORT; pids=(--pid "$ALMANAC_PID")
    [ "$name" = nginx ] && { port=$NGINX_PORT; pids=(--pid "$NGINX_PID" --children); }
    res=$(python3 bench/idle_conns.py --port "$port" "${pids[@]}" -n "$IDLE" --path /rates \
        --settle 1 --hold 0 --probes "$PROBES")
    IDLE_BYTES[$name]=$(printf '%s' "$res" | idle_field bytes_per_conn | cut -d. -f1)
    echo "$name idle: RSS $(printf '%s' "$res" | idle_field rss_before_kib) KiB -> $(printf '%s' "$res" | idle_field rss_after_kib) KiB for $IDLE connections" >&2
    PROBED[$name]=$(printf '%s' "$res" | python3 -c 'import json, sys
r = json.load(sys.stdin)
print("%d / %d answered 200 (p50 %s ms, max %s ms)" % (r["probes_ok"], r["probes"], r["probe_p50_ms"], r["probe_max_ms"]))')
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "| metric | almanac | nginx ($NGINX_WORKERS workers) | almanac / nginx |"
echo "| --- | ---: | ---: | ---: |"
for c in 50 256; do
    ra=$(echo "${RPS[almanac,$c]}" | tr ' ' '\n' | grep . | median)
    rn=$(echo "${RPS[nginx,$c]}" | tr ' ' '\n' | grep . | median)
    pa=$(echo "${P50[almanac,$c]}" | tr ' ' '\n' | grep . | median)
    pn=$(echo "${P50[nginx,$c]}" | tr ' ' '\n' | grep . | median)
    qa=$(echo "${P99[almanac,$c]}" | tr ' ' '\n' | grep . | median)
    qn=$(echo "${P99[nginx,$c]}" | tr ' ' '\n' | grep . | median)
    echo "| req/s, -c$c (median of $RUNS) | $ra | $rn | $(ratio "$ra" "$rn") |"
    echo "| p50 latency, -c$c (µs) | $pa | $pn | $(ratio "$pa" "$pn") |"
    echo "| p99 latency, -c$c (µs) | $qa | $qn | $(ratio "$qa" "$qn") |"
done
echo "| RSS per idle keep-alive connection ($IDLE open) | ${IDLE_BYTES[almanac]} B | ${IDLE_BYTES[nginx]} B | $(ratio "${IDLE_BYTES[almanac]}" "${IDLE_BYTES[nginx]}") |"
echo "| new clients while the $IDLE idle ones are held (almanac: every slot, maxConnections $IDLE; nginx: below its limit) | ${PROBED[almanac]:-none} | ${PROBED[nginx]:-none} | |"
echo
echo "wrk -t1 -c{50,256} -d$DURATION --latency, $RUNS alternating runs each; $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"

#!/usr/bin/env bash
# bench/bench.sh — `make bench`: almanac vs nginx vs the floor (bench/floor.c) on cached hits,
# with server CPU per hit and its ratios; memory per idle connection,
# single-flight on a cold key, upstream connection reuse, then the
# component benches when present. Reports numbers; never fails a build on them
# (exit status is non-zero only when the harness itself cannot run).
#
#   bench/bench.sh                 full run (~5 min on 2 cores)
#   BENCH_QUICK=1 bench/bench.sh   smoke run: every duration tiny
#   BENCH_SKIP_BUILD=1               reuse .build/release/almanac
#   BENCH_SKIP_COMPONENTS=1          skip bench/bench-{server,cache,client}.sh
#   BENCH_HITS_ONLY=1                only the cached-hits comparison (almanac, nginx, the floor)
#   BENCH_INDEX_COMPARE=0            no almanac-index-off row (by default the same binary with
#                                    the price index off takes its turn beside almanac, whose
#                                    index is on and must serve: `source` "index")
#   FLOOR_WORKERS=2                  the floor's forked workers (NGINX_WORKERS: nginx's)
#   (always run: bench/storm.sh, the quota storm against a provider answering 429, and
#   bench/bench-cluster.sh, three replicas sharing Redis; bench/bench-book-memory.sh, RSS per
#   cached book at 20,000 books)
#   EVIDENCE_KEEP=1                  keep the temp dir (logs, raw wrk output)
#   BENCH_ACCESS_LOG=1               both servers log every request to a file: almanac at
#                                    log level info (its production default; JSON lines),
#                                    nginx `access_log FILE buffer=64k flush=1s` (combined).
#                                    Default: no access log on either side (almanac at
#                                    log level error, nginx access_log off).
#
# Output: markdown on stdout and in bench-results/bench-<UTC time>.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

QUICK="${BENCH_QUICK:-0}"
if [ "$QUICK" = 1 ]; then
  DUR=2s; RUNS=1; IDLE_NS="300 600"; BURST_N=100; SEQ_N=10; CONCS="50 256"; IDLE_PROBES=5
else
  DUR="${BENCH_DURATION:-10s}"; RUNS="${BENCH_RUNS:-3}"; IDLE_NS="5000 15000"; BURST_N=1000; SEQ_N=100; CONCS="50 256"; IDLE_PROBES=20
fi
CMDLINE="$0 $*  (BENCH_QUICK=$QUICK, BENCH_ACCESS_LOG=${BENCH_ACCESS_LOG:-0}, BENCH_HITS_ONLY=${BENCH_HITS_ONLY:-0})"
need_cmd wrk wrk
need_cmd curl curl
raise_fd_limit 20000
report_init bench
# BENCH_INDEX_COMPARE=0 skips the almanac-index-off row.
INDEX_COMPARE="${BENCH_INDEX_COMPARE:-1}"
SERVERS="almanac nginx floor"
[ "$INDEX_COMPARE" != 1 ] || SERVERS="almanac almanac-index-off nginx floor"

build_release
start_stub

# Long TTLs so every measured request is a HIT; room for 15,000 idle connections.
export ALMANAC_SERVER_MAX_CONNECTIONS="${ALMANAC_SERVER_MAX_CONNECTIONS:-16500}"
export ALMANAC_SERVER_IDLE_TIMEOUT_SECONDS="${ALMANAC_SERVER_IDLE_TIMEOUT_SECONDS:-600}"
export ALMANAC_RATES_TTL_SECONDS="${ALMANAC_RATES_TTL_SECONDS:-3600}"
export ALMANAC_RATES_STALE_SECONDS="${ALMANAC_RATES_STALE_SECONDS:-3600}"
# The stub is not Google or Open Library: no request budget for them, so the 100 sequential
# misses all reach it and measure connection reuse (with the real providers' budgets, 1 a
# second after a burst of 20, the steward would answer 60 of them 503 without asking).
unbudget_providers BOOKS_GOOGLE_BOOKS BOOKS_OPEN_LIBRARY
if [ "${BENCH_ACCESS_LOG:-0}" = 1 ]; then
  export ALMANAC_LOG_LEVEL=info
  APP_STDOUT="$WORK/almanac-access.log"
  NGINX_ACCESS_LOG="$WORK/nginx/logs/access.log combined buffer=64k flush=1s"
  LOG_MODE="access log on for both: almanac log level info, JSON lines to a file; nginx \`access_log FILE buffer=64k flush=1s\`"
else
  LOG_MODE="no access log on either side: almanac log level error, nginx access_log off"
fi
start_almanac
log "almanac pid $APP_PID on $APP; stub on $STUB"
# The same binary with the price index off (`rates.index.providers` empty), taking turns with
# the others: the index must not cost a cached hit anything, and the two rows show it.
# almanac's own row must be the index's answer (`source` "index"), or the comparison is void.
if [ "$INDEX_COMPARE" = 1 ]; then
  MAIN_APP="$APP" MAIN_APP_PORT="$APP_PORT" MAIN_APP_PID="$APP_PID"
  export ALMANAC_RATES_INDEX_PROVIDERS=""
  APP_STDERR="$WORK/almanac-index-off.err" start_almanac
  unset ALMANAC_RATES_INDEX_PROVIDERS
  OFF_APP="$APP" OFF_APP_PID="$APP_PID"
  APP="$MAIN_APP" APP_PORT="$MAIN_APP_PORT" APP_PID="$MAIN_APP_PID"
  log "almanac with the index off: pid $OFF_APP_PID on $OFF_APP"
fi

# ---------------------------------------------------------------- warm + capture body
curl -s -o /dev/null "$APP/v1/rates"
curl -s -D "$WORK/rates.headers" -o "$WORK/rates.body" "$APP/v1/rates"
RATES_STATUS="$(head -1 "$WORK/rates.headers" | tr -d '\r')"
CTYPE="$(awk -F': ' 'tolower($1)=="content-type"{print $2}' "$WORK/rates.headers" | tr -d '\r')"
XCACHE="$(awk -F': ' 'tolower($1)=="x-cache"{print $2}' "$WORK/rates.headers" | tr -d '\r')"
BODY_BYTES="$(wc -c <"$WORK/rates.body")"
[ -n "$CTYPE" ] || CTYPE="application/json"
RATES_SOURCE="$(J 'd.get("source")' <"$WORK/rates.body" 2>/dev/null || echo none)"
log "GET /v1/rates -> $RATES_STATUS, $BODY_BYTES bytes, $CTYPE, X-Cache: $XCACHE, source: $RATES_SOURCE"
if [ "$INDEX_COMPARE" = 1 ]; then
  [ "$RATES_SOURCE" = index ] || die "almanac's /v1/rates is not the index's answer (source: $RATES_SOURCE; see $WORK/stub.log)"
  curl -s -o /dev/null "$OFF_APP/v1/rates"
  curl -s -o "$WORK/rates-index-off.body" "$OFF_APP/v1/rates"
  OFF_SOURCE="$(J 'd.get("source")' <"$WORK/rates-index-off.body" 2>/dev/null || echo none)"
  [ "$OFF_SOURCE" != index ] || die "the index-off almanac answered from the index"
  OFF_BYTES="$(wc -c <"$WORK/rates-index-off.body")"
fi
start_nginx "$WORK/rates.body" "$CTYPE" /v1/rates
cmp -s "$WORK/rates.body" <(curl -s "$NGINX/v1/rates") || die "nginx does not serve the same bytes"
log "nginx master pid $NGINX_PID on $NGINX"
# The floor answers with almanac's whole cached answer, status line and headers included.
curl -s -i -o "$WORK/rates.response" "$APP/v1/rates"
start_floor "$WORK/rates.response"
cmp -s "$WORK/rates.body" <(curl -s "$FLOOR/v1/rates") || die "the floor does not serve the same bytes"
log "floor pid $FLOOR_PID on $FLOOR"
CLK_TCK="$(getconf CLK_TCK)"
# server_pids NAME — the processes whose CPU a run is charged: almanac's one, nginx's master
# and workers, the floor's parent and workers.
server_pids() {
  case "$1" in
    almanac) echo "$APP_PID" ;;
    almanac-index-off) echo "$OFF_APP_PID" ;;
    nginx) nginx_pids ;;
    floor) process_tree "$FLOOR_PID" ;;
  esac
}

emit "# almanac evidence: bench/bench.sh"
emit ""
machine_header >>"$REPORT"
emit "- command: \`$CMDLINE\`"
emit "- wrk: \`wrk -t1 -c{50,256} -d$DUR --latency\`, $RUNS run(s) each, ${SERVERS// /, } (the floor: bench/floor.c, ${FLOOR_WORKERS:-2} workers) taking turns"
emit "- server CPU: utime + stime from /proc/PID/stat of the server's processes (nginx and the floor: master and workers), before and after each run, over the requests wrk counted"
emit "- logging: $LOG_MODE"
emit "- body: \`GET /v1/rates\` → $RATES_STATUS, $BODY_BYTES bytes, \`$CTYPE\`, \`source\` $RATES_SOURCE (X-Cache on the captured response: ${XCACHE:-none}); nginx serves the same bytes (worker_processes ${NGINX_WORKERS:-2}, keepalive_requests 1000000)"
if [ "$INDEX_COMPARE" = 1 ]; then
  emit "- price index: on for \`almanac\` (five exchanges at the stub); \`almanac-index-off\` is the same binary with \`ALMANAC_RATES_INDEX_PROVIDERS=\` (empty), answering $OFF_BYTES bytes, \`source\` $OFF_SOURCE"
fi
emit ""

# ---------------------------------------------------------------- throughput
RUNS_FILE="$WORK/wrk.jsonl"
for c in $CONCS; do
  for ((r = 1; r <= RUNS; r++)); do
    for server in $SERVERS; do
      case $server in
        almanac) url="$APP/v1/rates" ;; almanac-index-off) url="$OFF_APP/v1/rates" ;;
        nginx) url="$NGINX/v1/rates" ;; floor) url="$FLOOR/v1/rates" ;;
      esac
      log "wrk -c$c run $r $server"
      # shellcheck disable=SC2046 # one PID per word
      ticks_before="$(cpu_ticks $(server_pids $server))"
      wrk -t1 -c"$c" -d"$DUR" --latency "$url" >"$WORK/wrk-$server-$c-$r.txt" 2>&1 || true
      # shellcheck disable=SC2046
      ticks_after="$(cpu_ticks $(server_pids $server))"
      "$PYTHON" "$ROOT/bench/wrk_report.py" parse "$WORK/wrk-$server-$c-$r.txt" \
        server=$server conns="$c" run="$r" cpu_ticks=$((ticks_after - ticks_before)) clk_tck="$CLK_TCK" >>"$RUNS_FILE"
      kill -0 "$APP_PID" 2>/dev/null || die "almanac died during wrk (see $WORK/almanac.err)"
      [ "$INDEX_COMPARE" != 1 ] || kill -0 "$OFF_APP_PID" 2>/dev/null ||
        die "almanac with the index off died during wrk (see $WORK/almanac-index-off.err)"
    done
  done
done
emit "## Cached hits: almanac vs nginx vs the floor (same bytes)"
emit ""
"$PYTHON" "$ROOT/bench/wrk_report.py" summary "$RUNS_FILE" >>"$REPORT"
if [ "${BENCH_ACCESS_LOG:-0}" = 1 ]; then
  sleep 1.5 # nginx flushes its buffered log within 1 s; almanac before its queue goes idle
  emit ""
  emit "Access-log lines written during the runs: almanac $(wc -l <"$APP_STDOUT"), nginx $(wc -l <"$WORK/nginx/logs/access.log" 2>/dev/null || echo 0)."
fi
HWM_AFTER_WRK="$(proc_status "$APP_PID" VmHWM)"
emit ""
emit "almanac peak RSS (VmHWM) after the wrk runs: $((HWM_AFTER_WRK / 1024)) MiB ($HWM_AFTER_WRK KiB)"
# Where almanac's connections lived (server.loopPlacement adaptive: packed onto the loops the
# load needs while no processor is spare; docs/server.md, "Which loop a connection lives on").
LOOP_METRICS="$(curl -s "$APP/metrics" | awk '/^almanac_http_event_loops /{a=$2} /^almanac_http_active_event_loops /{b=$2} /^almanac_connections_rebalanced_total /{c=$2} END{printf "%s of %s event loops active, %s connections rebalanced", b, a, c}')"
emit ""
emit "almanac after the wrk runs: $LOOP_METRICS (server.loopPlacement \`${ALMANAC_SERVER_LOOP_PLACEMENT:-adaptive}\`)"
emit ""
if [ "${BENCH_HITS_ONLY:-0}" = 1 ]; then
  cp "$REPORT" "$OUT"
  cat "$REPORT"
  log "report saved to ${OUT#"$ROOT"/} (BENCH_HITS_ONLY: cached hits only)"
  exit 0
fi

# ---------------------------------------------------------------- single flight
emit "## Single-flight on a cold key and upstream connection reuse"
emit ""
emit "Stub upstream answers after 300 ms; the cache namespace is purged first (\`DELETE /admin/cache/...\`); upstream counts come from the stub's \`/__stats\`."
emit ""
emit "| scenario | client requests | statuses | X-Cache | Cache-Status \`collapsed\` (followers) | upstream requests (target 1) | upstream TCP connections: new / used | client p50 / p99 ms |"
emit "| --- | --- | --- | --- | --- | --- | --- | --- |"
stub_fault none delay_ms=300
for spec in "books:/v1/books/9780306406157:/books/v1/volumes" "rates:/v1/rates:/v2/exchange-rates"; do
  ns="${spec%%:*}"; rest="${spec#*:}"; path="${rest%%:*}"; upath="${rest#*:}"
  purge="$(admin DELETE "/admin/cache/$ns")"
  case "$purge" in 2*) ;; *)
    if [ "$ns" = books ]; then   # no admin purge: a never-requested ISBN is cold by construction
      path="/v1/books/$("$PYTHON" -c "import sys; sys.path.insert(0,'$ROOT/bench'); import isbn, random; print(isbn.isbn13(random.randrange(10**7), prefix='97805'))")"
    else
      purge="$purge (no purge: the rates table is already cached, the row measures hits)"
    fi;;
  esac
  stub_reset
  res="$("$PYTHON" "$ROOT/bench/requests.py" burst --port "$APP_PORT" --path "$path" -n "$BURST_N")"
  st="$(stub_stats)"
  echo "$res $st" >>"$WORK/burst.jsonl"
  up="$(echo "$st" | J "d['paths'].get('$upath',{}).get('requests',0)")"
  upc="$(echo "$st" | J "'%d new / %d used' % (d['connections_opened'], d.get('connections_used', -1))")"
  all="$(echo "$st" | J "d['requests_total']")"
  emit "$(echo "$res" | J '"| %d concurrent GET '"$path"' after purge (purge → HTTP '"$purge"') | %d | %s | %s | %d | '"$up"' %s (all paths: '"$all"') | '"$upc"' | %s / %s |" % (d["n"], d["connected"], d["statuses"], d["x_cache"], d["collapsed"], ("✅" if '"$up"' == 1 else "❌"), d["p50_ms"], d["p99_ms"]) + (" errors: %s" % d["errors"] if d["errors"] else "")')"
done
stub_fault none delay_ms=0
stub_reset
res="$("$PYTHON" "$ROOT/bench/requests.py" seq --port "$APP_PORT" -n "$SEQ_N")"
st="$(stub_stats)"
echo "$res $st" >>"$WORK/seq.jsonl"
upr="$(echo "$st" | J "d['requests_total']")"
upc="$(echo "$st" | J "'%d new / %d used' % (d['connections_opened'], d.get('connections_used', -1))")"
emit "$(echo "$res" | J '"| %d sequential misses (distinct ISBNs) | %d | %s | %s | — | '"$upr"' | '"$upc"' (ideal: 0–1 new, reused) | %s / %s |" % (d["n"], d["n"], d["statuses"], d["x_cache"], d["p50_ms"], d["p99_ms"]) + (" errors: %s" % d["errors"] if d["errors"] else "")')"
emit ""
HWM_END="$(proc_status "$APP_PID" VmHWM)"
emit "almanac peak RSS (VmHWM) after wrk, the bursts and the misses: $((HWM_END / 1024)) MiB ($HWM_END KiB); alive: $(kill -0 "$APP_PID" 2>/dev/null && echo yes || echo NO)"
emit ""

# ---------------------------------------------------------------- history
# A ten-year range (3,652 days ending yesterday) through the CoinDesk drop-in: what a cold one
# costs upstream (blocks of 1000 days at bitstamp, 366 at frankfurter), then warm latency with
# wrk on one keep-alive connection (every request a HIT assembled from the cached blocks).
emit "## Historical ranges: ten years (3,652 days) of daily closes"
emit ""
read -r HS HE <<<"$("$PYTHON" -c 'import datetime as t; y=t.datetime.now(t.timezone.utc).date()-t.timedelta(days=1); print(y-t.timedelta(days=3651), y)')"
HDUR="$([ "$QUICK" = 1 ] && echo 2s || echo 5s)"
emit "\`GET /v1/bpi/historical/close.json?start=$HS&end=$HE&currency=…\` after \`DELETE /admin/cache/history\`; upstream counts from the stub's \`/__stats\`; warm: \`wrk -t1 -c1 -d$HDUR --latency\` (one connection, so p50 is one request's service time). The machine is shared with other work: numbers are indicative."
emit ""
emit "| currency | days served | cold: time | cold: bitstamp requests (bound ⌈N/1000⌉+1 = 5) | cold: frankfurter requests | warm p50 ms (target ≤ 2) | warm p99 ms | warm req/s | body bytes |"
emit "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
admin DELETE /admin/cache/history >/dev/null
for cur in USD JPY; do
  url="$APP/v1/bpi/historical/close.json?start=$HS&end=$HE&currency=$cur"
  stub_reset
  cold="$(curl -s -o "$WORK/history-$cur.json" -w '%{http_code} %{time_total}' "$url")"
  st="$(stub_stats)"
  bit="$(echo "$st" | J "sum(v['requests'] for k, v in d['paths'].items() if k.startswith('/api/v2/ohlc/'))")"
  fx="$(echo "$st" | J "sum(v['requests'] for k, v in d['paths'].items() if k.startswith('/v1/') and '..' in k)")"
  days="$(J "len(d['bpi'])" <"$WORK/history-$cur.json" 2>/dev/null || echo "?")"
  bytes="$(wc -c <"$WORK/history-$cur.json")"
  note=""; [ "$cur" = JPY ] && note=" (USD blocks already warm)"
  wrk -t1 -c1 -d"$HDUR" --latency "$url" >"$WORK/wrk-history-$cur.txt" 2>&1 || true
  w="$("$PYTHON" "$ROOT/bench/wrk_report.py" parse "$WORK/wrk-history-$cur.txt" currency="$cur")"
  echo "$w" >>"$WORK/history.jsonl"
  emit "$(echo "$w" | J '"| '"$cur"' | '"$days"' | HTTP '"${cold%% *}"', '"${cold##* }"' s | '"$bit$note"' %s | '"$fx"' | %.3f %s | %.3f | %.0f | '"$bytes"' |" % (("✅" if '"$bit"' <= 5 else "❌"), d["p50_ms"] or -1, ("✅" if d["p50_ms"] is not None and d["p50_ms"] <= 2 else "❌"), d["p99_ms"] or -1, d["rps"] or 0) + (" non-2xx: %d" % d["non2xx"] if d["non2xx"] else "")')"
done
emit ""

# ---------------------------------------------------------------- idle connections
# A fresh server per measurement, so memory freed by an earlier phase cannot hide the cost.
stop_pid "$APP_PID" 10; stop_pid "$NGINX_PID" 5
emit "## Memory per idle keep-alive connection"
emit ""
emit "\`bench/idle_conns.py\`: a freshly started server (warmed with one \`GET /v1/rates\`), N connections, one \`GET /v1/rates\` each (response read), then idle; VmRSS before/after (nginx: master + workers). almanac runs with \`server.maxConnections\` = N, so the N idle connections hold every slot; then $IDLE_PROBES probes (new connections, one request each, kept open) show that newcomers are still served, each by closing the longest-idle connection (\"still open\" counts the held ones left). nginx is not at its limit here (worker_connections 16384 per worker); \`bench/bench-limit.sh\` below compares both at the same limit."
emit ""
emit "| server | connections | opened | still open after hold | RSS before KiB | RSS after KiB | bytes per connection (target ≤ 2048) | probes answered 200 (p50 / max ms) | errors |"
emit "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for n in $IDLE_NS; do
  for server in almanac nginx; do
    if [ $server = almanac ]; then
      ALMANAC_SERVER_MAX_CONNECTIONS="$n" start_almanac; curl -s -o /dev/null "$APP/v1/rates"
      port=$APP_PORT; pids="--pid $APP_PID"
    else
      start_nginx "$WORK/rates.body" "$CTYPE" /v1/rates
      port=$NGINX_PORT; pids="$(for p in $(nginx_pids); do printf -- '--pid %s ' "$p"; done)"
    fi
    log "idle connections: $n on $server"
    # shellcheck disable=SC2086
    res="$("$PYTHON" "$ROOT/bench/idle_conns.py" --port "$port" $pids -n "$n" --probes "$IDLE_PROBES" \
           --settle "$([ "$QUICK" = 1 ] && echo 1 || echo 3)" --hold "$([ "$QUICK" = 1 ] && echo 1 || echo 5)" 2>&1 | tail -1)"
    echo "$res" >>"$WORK/idle.jsonl"
    emit "$(echo "$res" | J '"| %s | %d | %d | %d | %d | %d | %s %s | %d / %d %s (%s / %s) | %s |" % ("'$server'", d["requested"], d["opened"], d["still_open_after_hold"], d["rss_before_kib"], d["rss_after_kib"], d["bytes_per_conn"], ("✅" if d["bytes_per_conn"] is not None and d["bytes_per_conn"] <= 2048 else "❌"), d["probes_ok"], d["probes"], ("✅" if d["probes_ok"] == d["probes"] else "❌"), d["probe_p50_ms"], d["probe_max_ms"], (d["errors"] or "none"))' 2>/dev/null || echo "| $server | $n | failed: $res |")"
    if [ $server = almanac ]; then
      kill -0 "$APP_PID" 2>/dev/null || emit "| almanac | $n | **process died** | | | | | |"
      stop_pid "$APP_PID" 10
    else
      stop_pid "$NGINX_PID" 5
    fi
  done
done
emit ""

# ---------------------------------------------------------------- gzip on the hit path
# Instructions per cached hit, counted by callgrind, for a client without Accept-Encoding and
# one that accepts gzip (served the stored twin): the figure that says what gzip costs a hit.
if [ "${BENCH_SKIP_GZIP:-0}" != 1 ] && command -v valgrind >/dev/null; then
  emit "## Hit path with and without \`Accept-Encoding: gzip\` (callgrind, \`bench/profile-hit.sh\`)"
  emit ""
  emit "| client | instructions per cached \`GET /v1/rates\` hit |"
  emit "| --- | --- |"
  if [ "$QUICK" = 1 ]; then preq=2000; else preq=20000; fi
  for coding in "" gzip; do
    log "profile-hit with Accept-Encoding: ${coding:-none}"
    per="$(cd "$ROOT" && BENCH_SKIP_BUILD=1 APP_BIN="$APP_BIN" PROFILE_REQUESTS=$preq PROFILE_ACCEPT_ENCODING="$coding" \
      timeout 900 bash bench/profile-hit.sh 2>/dev/null | sed -n 's/^\*\*Instructions per request: \([0-9]*\)\*\*.*/\1/p')"
    emit "| Accept-Encoding: ${coding:-(none)} | ${per:-not measured} |"
  done
  emit ""
fi

# ---------------------------------------------------------------- quota storm
# Its own almanac and stub (the storm needs Google answering 429), on the binary built above.
log "running bench/storm.sh"
emit "## Quota storm (bench/storm.sh)"
emit ""
(cd "$ROOT" && BENCH_SKIP_BUILD=1 timeout 300 bash bench/storm.sh 2>/dev/null | sed -n '/^| figure/,$p') >>"$REPORT" || emit "(exit status $?)"

# ---------------------------------------------------------------- a cluster
# Three replicas of its own sharing one redis-server: an L2 hit's latency, and one cold key
# asked 1,000 times at once across the replicas.
log "running bench/bench-cluster.sh"
emit "## A cluster: three replicas sharing Redis (bench/bench-cluster.sh)"
emit ""
(cd "$ROOT" && BENCH_SKIP_BUILD=1 BENCH_QUICK="$QUICK" timeout 900 bash bench/bench-cluster.sh 2>/dev/null |
  sed -n '/^- cache.redis/p; /^- topology/p; /^## An L2 hit/,$p' | sed 's/^## /### /') >>"$REPORT" || emit "(exit status $?)"
emit ""

# ---------------------------------------------------------------- memory per cached book
# Its own almanac and stub: 20,000 distinct books loaded, RSS growth per entry against the answer.
log "running bench/bench-book-memory.sh"
emit "## Memory per cached book (bench/bench-book-memory.sh)"
emit ""
if [ "$QUICK" = 1 ]; then menv=(BOOK_MEMORY_ENTRIES=2000 BOOK_MEMORY_HITS=2000); else menv=(); fi
(cd "$ROOT" && env BENCH_SKIP_BUILD=1 "${menv[@]}" timeout 600 bash bench/bench-book-memory.sh 2>/dev/null | sed -n '/^- command/,$p') >>"$REPORT" ||
  emit "(bench/bench-book-memory.sh: exit status $?)"
emit ""

# ---------------------------------------------------------------- at the connection limit
emit "## At the connection limit (bench/bench-limit.sh)"
emit ""
if [ "$QUICK" = 1 ]; then lenv=(LIMIT=100 PROBES=10); else lenv=(); fi
(cd "$ROOT" && env BENCH_SKIP_BUILD=1 "${lenv[@]}" timeout 600 bash bench/bench-limit.sh 2>/dev/null | sed -n '/^- command/,$p') >>"$REPORT" ||
  emit "(bench/bench-limit.sh: exit status $?)"
emit ""

# ---------------------------------------------------------------- component benches
if [ "${BENCH_SKIP_COMPONENTS:-0}" != 1 ]; then
  emit "## Component benches"
  emit ""
  for s in bench-server bench-cache bench-client; do
    f="$ROOT/bench/$s.sh"
    if [ -f "$f" ]; then
      log "running bench/$s.sh"
      emit "### bench/$s.sh"
      emit ""
      emit '```'
      if [ "$QUICK" = 1 ]; then qenv=(DURATION=2s RUNS=1 IDLE=300 N=200); else qenv=(); fi
      (cd "$ROOT" && env BENCH_QUICK="$QUICK" "${qenv[@]}" timeout 900 bash "$f" 2>&1 | tail -60) >>"$REPORT" || emit "(exit status $?)"
      emit '```'
    else
      emit "- bench/$s.sh: not present in this checkout"
    fi
    emit ""
  done
fi

cp "$REPORT" "$OUT"
cat "$REPORT"
log "report saved to ${OUT#"$ROOT"/}"

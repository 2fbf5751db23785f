#!/usr/bin/env bash
# bench/storm.sh — the quota storm: STORM_N (300) distinct valid ISBNs, STORM_CONCURRENCY (20)
# at a time, against the release binary, while the stub's Google Books answers every request
# with 429 and `Retry-After: 1` (Open Library, unbudgeted here, knows every book). Prints how
# many requests reached Google, how long the storm took, the slowest client wait and the
# statuses, against the targets: ≤ 30 requests to Google, storm < 6 s, no client > 2 s.
#
#   bench/storm.sh                    build (unless BENCH_SKIP_BUILD=1) and run
#   STORM_N=300 STORM_CONCURRENCY=20    the storm's size
#   STORM_DELAY_MS=200                  every stub answer takes this long (default 0): a storm
#                                       that outlasts the cooldown, so the probes show
#
# Report only: the exit status is non-zero only when the harness cannot run.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

N="${STORM_N:-300}"
CONC="${STORM_CONCURRENCY:-20}"
need_cmd curl curl
report_init storm
build_release
DELAY="${STORM_DELAY_MS:-0}"
start_stub --delay-ms "$DELAY"
stub_fault ratelimit429 "path=/books/v1/volumes&retry_after=1"
# Open Library stands for "a provider that answers": no budget, so every figure is Google's.
unbudget_providers BOOKS_OPEN_LIBRARY
start_almanac
stub_reset
log "almanac pid $APP_PID on $APP; stub on $STUB (google-books: 429, Retry-After: 1)"

"$PYTHON" - "$APP_PORT" "$N" "$CONC" >"$WORK/storm.json" <<'PY'
import http.client, json, sys, threading, time
port, n, conc = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])

def isbn13(i):
    body = "978" + str(100000000 + i)   # digits 4..6 are "100", never the stub's unknown "999"
    s = sum(int(c) * (1 if k % 2 == 0 else 3) for k, c in enumerate(body))
    return body + str((10 - s % 10) % 10)

queue = [isbn13(i) for i in range(n)]
lock = threading.Lock()
waits, statuses = [], {}

def worker():
    while True:
        with lock:
            if not queue:
                return
            isbn = queue.pop()
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("GET", "/v1/books/" + isbn)
            status = conn.getresponse().status
        except OSError as e:
            status = "error"
        finally:
            conn.close()
        with lock:
            waits.append(time.monotonic() - started)
            statuses[str(status)] = statuses.get(str(status), 0) + 1

t0 = time.monotonic()
threads = [threading.Thread(target=worker) for _ in range(conc)]
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.monotonic() - t0
waits.sort()
print(json.dumps({"elapsed": elapsed, "max_wait": waits[-1], "p50_wait": waits[len(waits) // 2],
                  "p99_wait": waits[min(len(waits) - 1, int(len(waits) * 0.99))], "statuses": statuses}))
PY

STATS="$(stub_stats)"
GOOGLE="$(J 'd["paths"].get("/books/v1/volumes", {}).get("requests", 0)' <<<"$STATS")"
OPENLIB="$(J 'd["paths"].get("/api/books", {}).get("requests", 0)' <<<"$STATS")"
ELAPSED="$(J '"%.2f" % d["elapsed"]' <"$WORK/storm.json")"
MAXW="$(J '"%.3f" % d["max_wait"]' <"$WORK/storm.json")"
P50="$(J '"%.3f" % d["p50_wait"]' <"$WORK/storm.json")"
P99="$(J '"%.3f" % d["p99_wait"]' <"$WORK/storm.json")"
STATUSES="$(J 'json.dumps(d["statuses"], sort_keys=True)' <"$WORK/storm.json")"
SKIPPED="$(curl -s "$APP/metrics" | { grep '^almanac_upstream_skipped_total{provider="google-books"' || true; } | tr '\n' ' ')"
verdict() { if "$PYTHON" -c "import sys; sys.exit(0 if $1 else 1)"; then echo "yes"; else echo "NO"; fi; }

emit "# almanac evidence: bench/storm.sh"
emit ""
machine_header >>"$REPORT"
emit "- storm: $N distinct valid ISBNs, $CONC at a time, \`GET /v1/books/{isbn}\` on fresh connections; google-books answers 429 with Retry-After: 1; open-library answers (no budget); every stub answer delayed ${DELAY} ms"
emit ""
emit "| figure | value | target | met |"
emit "| --- | --- | --- | --- |"
emit "| requests that reached google-books | $GOOGLE | ≤ 30 | $(verdict "$GOOGLE <= 30") |"
emit "| storm duration | ${ELAPSED} s | < 6 s | $(verdict "$ELAPSED < 6") |"
emit "| slowest client wait | ${MAXW} s (p50 ${P50} s, p99 ${P99} s) | ≤ 2 s | $(verdict "$MAXW <= 2") |"
emit "| statuses | \`$STATUSES\` | | |"
emit "| requests to open-library | $OPENLIB | | |"
emit ""
emit "- \`$SKIPPED\`"
cp "$REPORT" "$OUT"
cat "$REPORT"
log "report saved to ${OUT#"$ROOT"/}"

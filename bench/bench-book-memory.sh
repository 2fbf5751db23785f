#!/usr/bin/env bash
# bench/bench-book-memory.sh — RSS per cached book against the size of its answer.
#
# Starts the almanac binary against the stub upstream (bench/lib.sh), then bench/book_memory.py
# loads BOOK_MEMORY_WARM distinct books (not counted), reads VmRSS, loads BOOK_MEMORY_ENTRIES
# (20,000) more distinct books through `GET /v1/books/{isbn}` (each a MISS that stores one
# entry), and reads VmRSS again: growth per entry, divided by the mean `/v1/books` body, is the
# figure (target ≤ 2×). Around the load it times BOOK_MEMORY_HITS hits of one book with the
# warm keys and with all keys cached (server CPU; target: within 1.3×). The cache is sized so
# nothing is evicted and nothing expires during the run.
#
#   bench/bench-book-memory.sh
#   BENCH_SKIP_BUILD=1 APP_BIN=.build/debug/almanac bench/bench-book-memory.sh
#
# Output: a markdown report on stdout and in bench-results/book-memory-<UTC>.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ENTRIES="${BOOK_MEMORY_ENTRIES:-20000}"
WARM="${BOOK_MEMORY_WARM:-200}"
HITS="${BOOK_MEMORY_HITS:-20000}"
report_init book-memory
build_release
start_stub
unbudget_all_providers
export ALMANAC_CACHE_MAX_ENTRIES=$((ENTRIES * 2)) ALMANAC_CACHE_MAX_BYTES=$((1 << 30))
export ALMANAC_BOOKS_TTL_SECONDS=86400
start_almanac
log "loading $WARM + $ENTRIES books into almanac (pid $APP_PID)"
RESULT="$("$PYTHON" "$ROOT/bench/book_memory.py" --port "$APP_PORT" --pid "$APP_PID" \
  --entries "$ENTRIES" --warm "$WARM" --repeat "$HITS")" || die "bench/book_memory.py failed"
BOOKS="$(curl -s -H "Authorization: Bearer $ADMIN_TOKEN" "$APP/admin/cache" | J 'json.dumps(d["namespaces"]["books"]) if isinstance(d.get("namespaces"), dict) else d' 2>/dev/null || echo "?")"

emit "# almanac evidence: bench/bench-book-memory.sh"
emit ""
machine_header >>"$REPORT"
emit "- command: \`bench/bench-book-memory.sh\` (BOOK_MEMORY_ENTRIES=$ENTRIES, BOOK_MEMORY_WARM=$WARM, BOOK_MEMORY_HITS=$HITS, binary $APP_BIN)"
emit "- books namespace afterwards (/admin/cache): $BOOKS"
emit ""
emit "| figure | target | result |"
emit "| --- | --- | --- |"
emit "$(echo "$RESULT" | J '"| RSS growth per cached book (%d entries: %d → %d KiB) | ≤ 2 × answer | %d B = %.2f × the mean %d-byte answer %s |" % (d["entries"], d["rss_before_kib"], d["rss_after_kib"], d["bytes_per_entry"], d["ratio"], d["mean_answer_bytes"], "✅" if d["ratio"] <= 2 else "❌")')"
emit "$(echo "$RESULT" | J '"| server CPU for %d hits of one book, %d keys vs %d keys cached | ≤ 1.3× | %s vs %s ticks (%s×) |" % ('"$HITS"', d["warm"] + d["entries"], d["warm"], d["hit_cpu_ticks_all_keys"], d["hit_cpu_ticks_warm_keys"], d["hit_cpu_ratio"])')"
emit "$(echo "$RESULT" | J '"| answers that were not 200 MISS | 0 | %d %s |" % (d["problems"], d["first_problems"])')"
emit ""
emit "raw: \`$RESULT\`"
cp "$REPORT" "$OUT"
cat "$REPORT"
log "report: ${OUT#"$ROOT"/}"

#!/usr/bin/env bash
# Reproduces the crash found by the soak (2026-11-22): GET /v1/books?isbn=<cache miss>
# (the batch route, BooksBatchRoute.swift, withTaskGroup) kills the release binary after a
# handful of sequential requests — SIGILL in String hashing (Dictionary.subscript.setter at
# BooksBatchRoute.swift:46/56) or SIGSEGV in swift_retain (task group result copy).
# Single lookups (/v1/books/{isbn}) and covers survive the same traffic.
#   bench/repro/batch_crash.sh [N]     (default 60 requests; exit 1 when almanac died)
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
N="${1:-60}"
BENCH_SKIP_BUILD="${BENCH_SKIP_BUILD:-1}" build_release
start_stub
start_almanac
for ((i = 1; i <= N; i++)); do
  code="$("$PYTHON" -c "import sys; sys.path.insert(0,'$ROOT/bench'); import isbn; print(isbn.isbn13(7000000+$i+$RANDOM*100))")"
  status="$(curl -s -o /dev/null -w '%{http_code}' "$APP/v1/books?isbn=$code" || true)"
  sleep 0.1
  if ! kill -0 "$APP_PID" 2>/dev/null; then
    echo "almanac DIED on request $i: GET /v1/books?isbn=$code (curl status $status)"
    grep -m1 -A16 'crashed:' "$WORK/almanac.err" | cut -c1-220
    exit 1
  fi
done
echo "almanac survived $N batch misses"

#!/usr/bin/env bash
# scripts/observability-check.sh — part of `make test`: the alert rules and the Grafana
# dashboard name only metrics almanac really serves.
#
#   scripts/observability-check.sh        (OBSERVABILITY_BIN: the binary, default .build/debug/almanac)
#
# Starts the stub upstream, a redis-server (so the shared-cache families exist) and the real
# binary on 127.0.0.1, answers a few requests so every labelled family has samples, scrapes
# /metrics, and runs scripts/observability_check.py on the scrape. Every process is stopped by
# its PID on exit (bench/lib.sh). promtool's own checks (`check rules`, `test rules`) are
# separate lines of `make test`.
source "$(dirname "${BASH_SOURCE[0]}")/../bench/lib.sh"
APP_BIN="${OBSERVABILITY_BIN:-$ROOT/.build/debug/almanac}"
[ -x "$APP_BIN" ] || die "no almanac binary at $APP_BIN (swift build first)"

start_stub --fixed-rates
start_redis
export ALMANAC_CACHE_REDIS_URL="$REDIS_URL"
unbudget_providers RATES_COINBASE RATES_COINGECKO BOOKS_GOOGLE_BOOKS BOOKS_OPEN_LIBRARY
start_almanac
for path in /v1/rates /v1/rates/EUR /v1/books/9780140328721 /healthz; do
  curl -s -o /dev/null --max-time 10 "$APP$path" || die "GET $path failed"
done
curl -sf --max-time 10 "$APP/metrics" >"$WORK/metrics.txt" || die "GET /metrics failed"
"$PYTHON" "$ROOT/scripts/observability_check.py" "$WORK/metrics.txt"

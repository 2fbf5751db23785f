#!/usr/bin/env bash
# scripts/schemathesis.sh — property-based API testing of the release binary against its
# own OpenAPI document (GET /openapi.json) with every Schemathesis check, stub upstream
# behind it. Bounded: ST_MAX_EXAMPLES per operation (default 50); ST_TIMEOUT (default 1200 s)
# kills a run that takes too long; ST_MAX_TIME=S makes fuzzing fill S seconds instead.
#
#   scripts/schemathesis.sh                (installs schemathesis==$ST_VERSION in a private
#                                           venv under ~/.cache/almanac-evidence once;
#                                           works offline after)
#   ST_MAX_EXAMPLES=200 scripts/schemathesis.sh
# The admin token is sent as a Bearer header so admin operations are exercised too.
# scripts/schemathesis_hooks.py gives Schemathesis a strategy for `format: isbn`, because
# no JSON Schema pattern can express an ISBN check digit.
# Output: Schemathesis' own report on stdout, plus bench-results/schemathesis-<UTC>/
# (junit.xml, ndjson events, a pytest file that replays each failure) and a markdown
# summary. Exit status: Schemathesis' (non-zero when it found failures) if ST_STRICT=1,
# else 0 when the harness ran.
source "$(dirname "${BASH_SOURCE[0]}")/../bench/lib.sh"
ST_VERSION="${ST_VERSION:-4.32.5}"
BIN="$(venv_tool schemathesis "schemathesis==$ST_VERSION")"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RDIR="$ROOT/bench-results/schemathesis-$STAMP"
mkdir -p "$RDIR"

build_release
start_stub
start_almanac
curl -sf -o "$RDIR/openapi.json" "$APP/openapi.json" || die "GET /openapi.json failed"
log "schemathesis $ST_VERSION against $APP/openapi.json"
set +e
# Schemathesis keeps a .schemathesis/ cache in its working directory: run it from the temp
# dir so nothing lands in the repository.
cd "$WORK"
# scripts/schemathesis_hooks.py registers the document's custom string formats (isbn,
# isbn-query) so positive cases carry a valid ISO 2108 check digit; see that file.
export PYTHONPATH="$ROOT/scripts${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks
# --url overrides the schema's servers so the run hits this instance.
# (--max-time would make fuzzing repeat until the budget is spent: only when asked for.)
timeout "${ST_TIMEOUT:-1200}" "$BIN/st" run "$APP/openapi.json" --url "$APP" \
  --checks all \
  --max-examples "${ST_MAX_EXAMPLES:-50}" \
  ${ST_MAX_TIME:+--max-time "$ST_MAX_TIME"} \
  --seed "${ST_SEED:-42}" \
  --request-timeout 10 \
  --workers 2 \
  --generation-database none \
  -H "Authorization: Bearer $ADMIN_TOKEN" \
  --report junit,ndjson,pytest --report-dir "$RDIR" \
  --no-color ${ST_EXTRA_ARGS:-} 2>&1 | tee "$RDIR/output.txt"
RC=${PIPESTATUS[0]}
set -e
ALIVE="$(kill -0 "$APP_PID" 2>/dev/null && echo yes || echo NO)"
{
  echo "# almanac evidence: scripts/schemathesis.sh"
  echo
  machine_header
  echo "- command: \`scripts/schemathesis.sh\` (schemathesis $ST_VERSION; \`st run URL/openapi.json --checks all --max-examples ${ST_MAX_EXAMPLES:-50} --seed ${ST_SEED:-42}\`)"
  echo "- exit status: $RC; almanac alive afterwards: $ALIVE"
  echo
  echo '```'
  # The summary block Schemathesis prints at the end.
  awk '/^=+ *(FAILURES|SUMMARY)/{p=1} p' "$RDIR/output.txt" | tail -150
  echo '```'
} >"$RDIR/summary.md"
log "reports in ${RDIR#"$ROOT"/} (summary.md, junit.xml, pytest reproduction)"
if [ "${ST_STRICT:-0}" = 1 ]; then exit "$RC"; fi

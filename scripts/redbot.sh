#!/usr/bin/env bash
# scripts/redbot.sh — REDbot (HTTP protocol lint: caching, validators, conditional
# requests, ranges, Content-Length, Date...) on each cached endpoint of a running
# release binary + stub upstream. Notes classified BAD are findings; WARN are listed.
#
#   scripts/redbot.sh            (installs redbot==$REDBOT_VERSION in a private venv
#                                 under ~/.cache/almanac-evidence once; offline after)
# Output: markdown on stdout and bench-results/redbot-<UTC time>.md (+ raw HAR files
# when EVIDENCE_KEEP=1). Exit 0 unless the harness fails (REDBOT_STRICT=1: 1 on BAD).
source "$(dirname "${BASH_SOURCE[0]}")/../bench/lib.sh"
REDBOT_VERSION="${REDBOT_VERSION:-2.7.1}"
PATHS=(/v1/rates /v1/rates/USD /v1/currencies /v1/bpi/currentprice.json /v1/books/9780306406157)
[ "$#" -gt 0 ] && PATHS=("$@")
BIN="$(venv_tool redbot "redbot==$REDBOT_VERSION")"
mkdir -p "$ROOT/bench-results"
OUT="$ROOT/bench-results/redbot-$(date -u +%Y%m%dT%H%M%SZ).md"

build_release
start_stub
start_almanac
for p in "${PATHS[@]}"; do curl -s -o /dev/null "$APP$p"; done   # warm: REDbot sees HITs

{
  echo "# almanac evidence: scripts/redbot.sh"
  echo
  machine_header
  echo "- command: \`scripts/redbot.sh\` (redbot $REDBOT_VERSION, \`redbot -o har URL\`)"
  echo
  echo "| endpoint | status | BAD | WARN | GOOD/INFO |"
  echo "| --- | --- | --- | --- | --- |"
} >"$WORK/report.md"
for p in "${PATHS[@]}"; do
  f="$WORK/redbot$(echo "$p" | tr '/?=&' '____').har"
  log "redbot $p"
  timeout 120 "$BIN/redbot" -o har "$APP$p" >"$f" 2>"$f.err" || true
  "$PYTHON" - "$p" "$f" >>"$WORK/report.md" <<'PY'
import json, sys
path, f = sys.argv[1:3]
try:
    har = json.load(open(f))
except Exception as e:
    print("| `%s` | redbot failed: %s | | | |" % (path, open(f + ".err").read().strip().splitlines()[-1:] or e))
    sys.exit(0)
by = {}
status = "?"
for entry in har["log"]["entries"]:
    status = entry.get("response", {}).get("status", status)
    for m in entry.get("_red_messages", []):
        by.setdefault(m["level"], []).append("%s: %s" % (m["note_id"], m["summary"]))
cell = lambda l: "<br>".join(sorted(set(l))) if l else "—"
print("| `%s` | %s | %s | %s | %d |" % (path, status, cell(by.get("BAD")), cell(by.get("WARN")),
      len(by.get("GOOD", [])) + len(by.get("INFO", []))))
PY
done
cp "$WORK/report.md" "$OUT"
cat "$OUT"
log "report saved to ${OUT#"$ROOT"/}"
if [ "${REDBOT_STRICT:-0}" = 1 ] && awk -F'|' 'NR>8 && $4 !~ /—/' "$OUT" | grep -q .; then exit 1; fi

#!/usr/bin/env bash
# bench/profile-hit.sh — instructions per cached hit, counted by valgrind's callgrind.
#
# Wall-clock benchmarks on a shared 2-core VM vary by ±40% from run to run; instruction
# counts hardly do (same binary, same inputs → the same count to within ~1%, whatever else
# the machine does; the rest is how requests happen to batch). Hashing is made deterministic
# (SWIFT_DETERMINISTIC_HASHING=1) for the profiled server: with a random seed per process,
# dictionary collisions alone moved one binary's count by ~1,000 from run to run.
# This runs the release `almanac` under callgrind against the stub upstream, warms the
# rates cache, zeroes the counters, sends PROFILE_REQUESTS keep-alive `GET /v1/rates` hits
# from PROFILE_CONNECTIONS connections, dumps, and prints instructions per request plus the
# functions that cost the most (inclusive and self). Compare two commits by running it on
# each: the figure that matters is "Ir per request".
#
#   bench/profile-hit.sh                        (20,000 requests over 8 connections)
#   PROFILE_PATH=/v1/rates/USD bench/profile-hit.sh
#   BENCH_SKIP_BUILD=1 APP_BIN=/path/to/almanac bench/profile-hit.sh
#   ALMANAC_LOG_LEVEL=info bench/profile-hit.sh (with the access log, as in production)
#   PROFILE_ACCEPT_ENCODING=gzip bench/profile-hit.sh (clients that accept gzip: the
#                                 stored gzip twin is served)
#   PROFILE_INDEX=off bench/profile-hit.sh (the price index off, `rates.index.providers`
#                                 empty; by default it is on, its five exchanges at the stub,
#                                 and the run stops unless `GET /v1/rates` says `source` "index")
#
# Output: a markdown report on stdout and in bench-results/profile-hit-<UTC>.md; the raw
# callgrind.out stays in the temp dir with EVIDENCE_KEEP=1. Needs valgrind (apt-get).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_cmd valgrind valgrind
need_cmd callgrind_control valgrind
need_cmd callgrind_annotate valgrind
need_cmd curl curl
REQUESTS="${PROFILE_REQUESTS:-20000}"
CONNECTIONS="${PROFILE_CONNECTIONS:-8}"
TARGET_PATH="${PROFILE_PATH:-/v1/rates}"
ACCEPT_ENCODING="${PROFILE_ACCEPT_ENCODING:-}"
INDEX="${PROFILE_INDEX:-on}"
case "$INDEX" in on) ;; off) export ALMANAC_RATES_INDEX_PROVIDERS="" ;; *) die "PROFILE_INDEX is on or off" ;; esac
report_init profile-hit
build_release
start_stub

# Every measured request must be a HIT: long TTLs.
export ALMANAC_RATES_TTL_SECONDS=3600 ALMANAC_RATES_STALE_SECONDS=3600
export SWIFT_DETERMINISTIC_HASHING=1
REAL_BIN="$APP_BIN"
OUTFILE="$WORK/callgrind.out"
WRAPPER="$WORK/almanac-under-callgrind"
cat >"$WRAPPER" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file="$OUTFILE" --dump-instr=no \\
  --collect-atstart=yes "$REAL_BIN" "\$@"
EOF
chmod +x "$WRAPPER"
APP_BIN="$WRAPPER"
start_almanac   # wait_http allows 30 s: enough for startup under valgrind
# The load: exactly REQUESTS keep-alive requests, split over CONNECTIONS connections, each
# reading every response to its end (Content-Length), so the count is exact.
LOADER="$WORK/load.py"
cat >"$LOADER" <<'EOF'
import socket, sys, threading
port, path, total, conns = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
coding = f"Accept-Encoding: {sys.argv[5]}\r\n" if len(sys.argv) > 5 and sys.argv[5] else ""
request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: profile-hit\r\n{coding}\r\n".encode()
failures = []
def worker(n):
    s = socket.create_connection(("127.0.0.1", port))
    buf = b""
    for _ in range(n):
        s.sendall(request)
        while b"\r\n\r\n" not in buf:
            chunk = s.recv(65536)
            if not chunk: raise SystemExit("connection closed")
            buf += chunk
        head, buf = buf.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 200"): failures.append(head.split(b"\r\n", 1)[0])
        length = next(int(l.split(b":", 1)[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:"))
        while len(buf) < length:
            chunk = s.recv(65536)
            if not chunk: raise SystemExit("connection closed")
            buf += chunk
        buf = buf[length:]
    s.close()
threads = [threading.Thread(target=worker, args=(total // conns + (1 if i < total % conns else 0),)) for i in range(conns)]
for t in threads: t.start()
for t in threads: t.join()
print(len(failures))
EOF
# Warm every event loop, not just the one a few requests happen to land on: each loop keeps its
# own cache replica, render memo and prepared fields, and a loop first reached during the
# measurement would add its one-time rendering to the count (~800 per hit over 5,000 hits,
# decided by which loop the kernel hands each connection). 32 connections miss a loop with
# probability 2^-31 for two loops.
for _ in 1 2 3; do curl -s -o /dev/null "$APP$TARGET_PATH"; done # the first is the miss that loads it
WARMED="$("$PYTHON" "$LOADER" "$APP_PORT" "$TARGET_PATH" 96 32 "$ACCEPT_ENCODING")"
[ "$WARMED" = 0 ] || die "warming: $WARMED answers were not 200"
XCACHE="$(curl -s -D - -o /dev/null "$APP$TARGET_PATH" | awk -F': ' 'tolower($1)=="x-cache"{print $2}' | tr -d '\r')"
[ "$XCACHE" = HIT ] || die "$TARGET_PATH is not a cache hit after warming (X-Cache: ${XCACHE:-none})"
# The rates table the hits are served from: the index's (`source` "index") unless it is off.
SOURCE="$(curl -s "$APP/v1/rates" | J 'd.get("source")' 2>/dev/null || echo none)"
case "$INDEX:$SOURCE" in
  on:index) ;; off:index) die "the index is off but /v1/rates says source index" ;;
  off:*) ;; *) die "the index is on but /v1/rates says source $SOURCE (are its exchanges at the stub?)" ;;
esac

callgrind_control -z "$APP_PID" >/dev/null
log "sending $REQUESTS requests for $TARGET_PATH over $CONNECTIONS connections (under callgrind)"
FAILED="$("$PYTHON" "$LOADER" "$APP_PORT" "$TARGET_PATH" "$REQUESTS" "$CONNECTIONS" "$ACCEPT_ENCODING")"
callgrind_control -d "$APP_PID" >/dev/null
DUMP="$(ls -t "$OUTFILE".* 2>/dev/null | sed -n 1p)"
[ -n "$DUMP" ] || die "callgrind wrote no dump"
# The dump's own "summary:" line is the total for the interval since the zeroing.
TOTAL="$(awk '/^summary:/{print $2}' "$DUMP")"
PER_REQUEST=$(( TOTAL / REQUESTS ))

emit "# almanac evidence: bench/profile-hit.sh"
emit ""
machine_header >>"$REPORT"
emit "- command: \`bench/profile-hit.sh\` (PROFILE_REQUESTS=$REQUESTS, PROFILE_CONNECTIONS=$CONNECTIONS, PROFILE_PATH=$TARGET_PATH, PROFILE_ACCEPT_ENCODING=${ACCEPT_ENCODING:-none}, PROFILE_INDEX=$INDEX, ALMANAC_LOG_LEVEL=${ALMANAC_LOG_LEVEL}, SWIFT_DETERMINISTIC_HASHING=1)"
emit "- rates table served: \`source\` $SOURCE"
emit "- valgrind: $(valgrind --version); non-200 answers: $FAILED"
emit ""
emit "**Instructions per request: $PER_REQUEST** (user space, whole process: $TOTAL Ir over $REQUESTS hits)"
emit ""
emit "Top functions, inclusive:"
emit ""
emit '```'
callgrind_annotate --inclusive=yes --threshold=99 "$DUMP" 2>/dev/null \
  | awk '/^-+$/{n++} n>=3' | sed -n '3,40p' | cut -c1-200 >>"$REPORT" || true
emit '```'
emit ""
emit "Top functions, self:"
emit ""
emit '```'
callgrind_annotate --threshold=99 "$DUMP" 2>/dev/null \
  | awk '/^-+$/{n++} n>=3' | sed -n '3,40p' | cut -c1-200 >>"$REPORT" || true
emit '```'
cp "$REPORT" "$OUT"
cat "$REPORT"
log "report: ${OUT#"$ROOT"/}"

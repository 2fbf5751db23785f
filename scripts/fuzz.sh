#!/usr/bin/env bash
# Builds the libFuzzer target for the HTTP request parser and runs it for a bounded time.
#   scripts/fuzz.sh [seconds]      (default 60)
# Seeds: Fuzz/corpus/parser (committed). Inputs libFuzzer discovers go to
# Fuzz/.build/corpus (not committed); crashes go to fuzz-artifacts/.
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FUZZ="$ROOT/Fuzz"
LINKED="$FUZZ/Sources/ParserFuzz/Linked"

# Link the parser and the shared types it uses (a symlink per file, regenerated each run).
rm -rf "$LINKED"
mkdir -p "$LINKED"
for f in "$ROOT"/Sources/HTTPServer/RequestParser*.swift "$ROOT"/Sources/HTTPServer/Parse*.swift \
         "$ROOT"/Sources/HTTPServer/{HTTPRequest,HTTPHeaders,HTTPStatus,QueryString}.swift; do
  ln -s "../../../../Sources/HTTPServer/$(basename "$f")" "$LINKED/$(basename "$f")"
done

# -parse-as-library: the entry point is LLVMFuzzerTestOneInput; libFuzzer brings `main`.
# -sanitize=fuzzer,address in ONE flag: swiftc keeps only the last -sanitize= it sees, so
# `--sanitize=fuzzer --sanitize=address` silently drops the coverage instrumentation and
# libFuzzer runs blind ("no interesting inputs were found"). --sanitize=fuzzer stays for
# SwiftPM's link step (libFuzzer's runtime and main).
# --disable-dead-strip: keep the linker from garbage-collecting the coverage sections.
BUILD=(swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --disable-dead-strip)
cd "$FUZZ"
"${BUILD[@]}"
BIN="$("${BUILD[@]}" --show-bin-path)/ParserFuzz"

mkdir -p "$FUZZ/.build/corpus" "$ROOT/fuzz-artifacts"
# Swift's crash backtracer reads raw stack memory, which ASan reports as a second,
# bogus error after a real trap; libFuzzer's own report is enough.
export SWIFT_BACKTRACE=enable=no
"$BIN" "$FUZZ/.build/corpus" "$FUZZ/corpus/parser" \
  -dict="$FUZZ/http.dict" \
  -max_total_time="$SECONDS_TO_RUN" \
  -max_len=4096 \
  -timeout=10 \
  -print_final_stats=1 \
  -artifact_prefix="$ROOT/fuzz-artifacts/"

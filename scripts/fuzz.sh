#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for a bounded time (docs/fuzzing.md).
#   scripts/fuzz.sh [seconds] [target ...]     seconds: per target, default 60 (0: build only)
#   scripts/fuzz.sh coinbase                   one target, 60 s
#   scripts/fuzz.sh --list                     the target names
#   scripts/fuzz.sh --build-only [target ...]  link and build, run nothing
# Targets: parser (HTTP/1.1 request parser), app (the whole router behind the parser, with
# in-process upstreams), resp (Redis RESP2/RESP3 parser), shared-values (the records cached
# values travel in between replicas) and one per upstream decoder: coinbase,
# coingecko, coindesk, google-books, open-library. No target named = all of them, in turn.
# Seeds: Fuzz/corpus/<target> (committed). Inputs libFuzzer discovers go to
# Fuzz/.build/corpus/<target> (not committed); crashes go to fuzz-artifacts/<target>/.
# Exit status: 0 when every target ran its time without a finding, else 1 (after running
# the remaining targets).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FUZZ="$ROOT/Fuzz"
ALL_TARGETS=(parser app resp shared-values coinbase coingecko coindesk google-books open-library)

# target name → executable product, dictionary, largest input.
product() {
  case "$1" in
    parser) echo ParserFuzz ;;
    app) echo AppFuzz ;;
    resp) echo RESPFuzz ;;
    shared-values) echo SharedValuesFuzz ;;
    coinbase) echo CoinbaseFuzz ;;
    coingecko) echo CoinGeckoFuzz ;;
    coindesk) echo CoinDeskFuzz ;;
    google-books) echo GoogleBooksFuzz ;;
    open-library) echo OpenLibraryFuzz ;;
    *) return 1 ;;
  esac
}
dictionary() {
  case "$1" in
    parser) echo "$FUZZ/http.dict" ;; app) echo "$FUZZ/app.dict" ;; resp) echo "$FUZZ/resp.dict" ;;
    shared-values) echo "$FUZZ/shared-values.dict" ;; *) echo "$FUZZ/json.dict" ;;
  esac
}
max_len() { case "$1" in parser|app) echo 4096 ;; *) echo 8192 ;; esac; }

SECONDS_TO_RUN=60
BUILD_ONLY=0
TARGETS=()
for arg in "$@"; do
  if [ "$arg" = "--list" ]; then printf '%s\n' "${ALL_TARGETS[@]}"; exit 0
  elif [ "$arg" = "--build-only" ]; then BUILD_ONLY=1
  elif [[ "$arg" =~ ^[0-9]+$ ]]; then SECONDS_TO_RUN="$arg"
  elif product "$arg" >/dev/null; then TARGETS+=("$arg")
  else echo "fuzz.sh: unknown target '$arg' (targets: ${ALL_TARGETS[*]})" >&2; exit 2
  fi
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL_TARGETS[@]}")
# 0 seconds means build only (libFuzzer's -max_total_time=0 would mean "forever").
[ "$SECONDS_TO_RUN" -gt 0 ] || BUILD_ONLY=1

# The product's modules come from the root package (Fuzz/Package.swift depends on it by path):
# nothing to link or list here.

# -parse-as-library: the entry point is LLVMFuzzerTestOneInput; libFuzzer brings `main`.
# -sanitize=fuzzer,address in ONE flag: swiftc keeps only the last -sanitize= it sees, so
# `--sanitize=fuzzer --sanitize=address` silently drops the coverage instrumentation and
# libFuzzer runs blind ("no interesting inputs were found"). --sanitize=fuzzer stays for
# SwiftPM's link step (libFuzzer's runtime and main).
# --disable-dead-strip: keep the linker from garbage-collecting the coverage sections.
BUILD=(swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --disable-dead-strip)
cd "$FUZZ"
PRODUCTS=()
for target in "${TARGETS[@]}"; do PRODUCTS+=(--product "$(product "$target")"); done
if [ ${#TARGETS[@]} -eq 1 ]; then "${BUILD[@]}" "${PRODUCTS[@]}"; else "${BUILD[@]}"; fi
BIN_DIR="$("${BUILD[@]}" --show-bin-path)"
[ "$BUILD_ONLY" = 0 ] || exit 0

# Swift's crash backtracer reads raw stack memory, which ASan reports as a second,
# bogus error after a real trap; libFuzzer's own report is enough.
export SWIFT_BACKTRACE=enable=no
FAILED=()
for target in "${TARGETS[@]}"; do
  mkdir -p "$FUZZ/.build/corpus/$target" "$ROOT/fuzz-artifacts/$target"
  echo "== fuzz $target for ${SECONDS_TO_RUN}s"
  if ! "$BIN_DIR/$(product "$target")" "$FUZZ/.build/corpus/$target" "$FUZZ/corpus/$target" \
      -dict="$(dictionary "$target")" \
      -max_total_time="$SECONDS_TO_RUN" \
      -max_len="$(max_len "$target")" \
      -timeout=10 \
      -print_final_stats=1 \
      -artifact_prefix="$ROOT/fuzz-artifacts/$target/"; then
    FAILED+=("$target")
  fi
done
if [ ${#FAILED[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in: ${FAILED[*]} (inputs in fuzz-artifacts/)" >&2
  exit 1
fi
echo "fuzz.sh: ${TARGETS[*]}: ${SECONDS_TO_RUN}s each, no findings"

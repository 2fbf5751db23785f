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

# Link the product sources (a symlink per file: SwiftPM refuses a target directory that is a
# symlink leading outside the package). Refreshed in place on every run — new files linked,
# links to deleted files removed — so a concurrent run's build never sees a missing file.
link() { # link DIR FILE...   (FILEs relative to $ROOT/Sources; DIR four levels below $ROOT)
  local dir="$1"; shift
  mkdir -p "$dir"
  for f in "$@"; do ln -sfn "../../../../Sources/$f" "$dir/$(basename "$f")"; done
  find "$dir" -maxdepth 1 -xtype l -delete
}
# 1. The parser and the shared types it uses, compiled into the parser target itself.
link "$FUZZ/Sources/ParserFuzz/Linked" $(cd "$ROOT/Sources" && ls HTTPServer/RequestParser*.swift \
  HTTPServer/Parse*.swift HTTPServer/{HTTPRequest,HTTPHeaders,HTTPStatus,QueryString}.swift)
# 1b. The RESP parser (pure files; they import only Base) for the resp target.
link "$FUZZ/Sources/RESPFuzz/Linked" $(cd "$ROOT/Sources" && ls Redis/RESP*.swift)
# 1c. The shared-value checks the unit tests use, for the shared-values target.
link "$FUZZ/Sources/SharedValuesFuzz/Linked" TestSupport/SharedCacheValueProbe.swift TestSupport/SplitMix64.swift TestSupport/RandomText.swift
# 2. Whole modules for the decoders: Rates and Books with what they import (same module names
#    and dependency graph as the root package, so their sources compile unchanged).
#    A module's subfolders (Rates/History, CBuildInfo/include) are mirrored folder by folder.
#    The list follows Almanac's dependencies in ../Package.swift (a module missing here fails
#    the fuzz build, and so `make test`).
link_tree() { # link_tree MODULE: every file below Sources/MODULE, same relative layout
  local module="$1" sub dir depth up
  while IFS= read -r sub; do
    dir="$FUZZ/Sources/Linked/$sub"
    depth=$(( $(tr -cd / <<<"$sub" | wc -c) + 4 ))
    up=$(printf '../%.0s' $(seq 1 "$depth"))
    mkdir -p "$dir"
    for f in "$ROOT/Sources/$sub"/*; do
      [ -f "$f" ] && ln -sfn "${up}Sources/$sub/$(basename "$f")" "$dir/$(basename "$f")"
    done
    find "$dir" -maxdepth 1 -xtype l -delete
  done < <(cd "$ROOT/Sources" && find "$module" -type d)
}
for module in Base CCurl CEpoll CZlib COpenSSL CBuildInfo HTTPClient HTTPServer Upstream Cache Gzip Rates Books Redis SharedSteward Almanac; do
  link_tree "$module"
done

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

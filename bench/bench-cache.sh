#!/usr/bin/env bash
# Cache micro-benchmark: hit throughput (fresh() and value(for:), 1 and 2 threads) and memory
# overhead per entry at 100,000 entries. Release build; prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product bench-cache
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
./.build/release/bench-cache "$@"

// bench-cache: hit throughput of the cache's two read paths and its memory overhead per entry.
// Run with `bench/bench-cache.sh` (release build); prints a Markdown table.
import Cache
import Dispatch
import Foundation

/// A typical small cached answer: its payload lives inline (no heap), so every byte the
/// process gains beyond `cacheCost` is the cache's own overhead.
struct BenchValue: CacheValue {
    var id: Int
    var a: Int = 1
    var b: Int = 2
    var c: Int = 3
    var cacheCost: Int { MemoryLayout<BenchValue>.size }
    /// 32 hex digits, like a 128-bit digest: heap-allocated, as real validators are.
    var cacheValidator: String {
        let hex = String(UInt64(truncatingIfNeeded: id) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + String(repeating: "f", count: 16)
    }
}

func rssBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kB = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kB * 1_024
    }
    return 0
}

/// ISBN-13-like keys: 13 ASCII characters, stored inline by String.
func key(_ i: Int) -> String { "978" + String(1_000_000_000 + i) }

/// CPU seconds used by the whole process: on a busy machine, wall-clock rates understate the
/// cache, so the table shows CPU cost per hit next to them.
func cpuSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func load(_ i: Int) -> @Sendable () async throws -> CacheLoad<BenchValue> {
    { CacheLoad(value: BenchValue(id: i), ttlSeconds: 3_600, staleSeconds: 3_600) }
}

let hotKeys = 10_000
let lookupsPerThread = 4_000_000
var rows: [(String, String)] = []

// MARK: hits

let store = CacheStore(limits: CacheLimits(maxEntries: 200_000, maxBytes: 1 << 30))
let ns = store.namespace("bench", keyType: String.self, valueType: BenchValue.self)
let keys = (0..<hotKeys).map(key)
for (i, k) in keys.enumerated() { _ = try await ns.value(for: k, load: load(i)) }

func freshLoop(offset: Int) -> Int {
    var found = 0
    for n in 0..<lookupsPerThread where ns.fresh(keys[(n &* 7 &+ offset) % hotKeys]) != nil { found += 1 }
    return found
}

func valueLoop(offset: Int) async throws -> Int {
    var found = 0
    for n in 0..<lookupsPerThread {
        let i = (n &* 7 &+ offset) % hotKeys
        if try await ns.value(for: keys[i], load: load(i)).outcome == .hit { found += 1 }
    }
    return found
}

@MainActor func report(_ label: String, threads: Int, cpu: Double, _ elapsed: Duration) {
    let hits = Double(threads * lookupsPerThread)
    rows.append((label, String(format: "%.2f M hits/s wall, %.0f ns CPU/hit", hits / seconds(elapsed) / 1e6, 1e9 * cpu / hits)))
}

@MainActor func measure(_ label: String, threads: Int, _ body: () async throws -> Void) async rethrows {
    let cpuStart = cpuSeconds()
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    report(label, threads: threads, cpu: cpuSeconds() - cpuStart, elapsed)
}

await measure("fresh(), 1 thread", threads: 1) { precondition(freshLoop(offset: 0) == lookupsPerThread) }
await measure("fresh(), 2 threads", threads: 2) {
    DispatchQueue.concurrentPerform(iterations: 2) { t in precondition(freshLoop(offset: t * 13) == lookupsPerThread) }
}
try await measure("value(for:), 1 task", threads: 1) {
    let found = try await valueLoop(offset: 0)
    precondition(found == lookupsPerThread)
}
try await measure("value(for:), 2 tasks", threads: 2) {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for t in 0..<2 { group.addTask { try await valueLoop(offset: t * 13) } }
        for try await found in group { precondition(found == lookupsPerThread) }
    }
}

// MARK: overhead per entry

let entries = 100_000
let before = rssBytes()
let big = CacheStore(limits: CacheLimits(maxEntries: entries, maxBytes: 1 << 30))
let bigNS = big.namespace("bench", keyType: String.self, valueType: BenchValue.self)
let fillStart = ContinuousClock.now
let fillCPUStart = cpuSeconds()
for i in 0..<entries { _ = try await bigNS.value(for: key(i), load: load(i)) }
let fillCPU = cpuSeconds() - fillCPUStart
let fillTime = ContinuousClock.now - fillStart
let after = rssBytes()
let payload = entries * MemoryLayout<BenchValue>.size
let overhead = Double(after - before - payload) / Double(entries)
precondition(bigNS.stats().entries == entries)
rows.append((
    "misses (single-flight load + store), 1 task",
    String(format: "%.0f k/s wall, %.1f µs CPU/miss", Double(entries) / seconds(fillTime) / 1e3, 1e6 * fillCPU / Double(entries))))
rows.append(("RSS overhead per entry at 100,000", String(format: "%.0f B (payload %d B/entry excluded)", overhead, MemoryLayout<BenchValue>.size)))
rows.append(("charged overhead (entryOverheadBytes)", "\(CacheStore.entryOverheadBytes) B"))

print("| measure | result |")
print("| --- | --- |")
for (label, value) in rows { print("| \(label) | \(value) |") }

import TestSupport
import Testing
@testable import Cache


@Suite struct StressTests {
    /// 8 tasks × 5,000 mixed operations over 300 keys in two namespaces, random sizes, TTLs,
    /// stale windows and failures, limits small enough to evict constantly; then the store's
    /// structures and counters must agree exactly.
    @Test func mixedKeysUnderSmallLimitsKeepInvariants() async throws {
        let limits = CacheLimits(maxEntries: 100, maxBytes: 60 * (1_000 + CacheStore.entryOverheadBytes))
        let clock = ManualCacheClock()
        let store = CacheStore(limits: limits, clock: clock)
        let spaces = [
            store.namespace("rates", keyType: Int.self, valueType: Payload.self),
            store.namespace("books", keyType: Int.self, valueType: Payload.self),
        ]
        let loads = Locked(0)

        let lookups = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(worker) &* 7919 &+ 1)
                    var counted = 0
                    for _ in 0..<5_000 {
                        let ns = spaces[Int.random(in: 0..<2, using: &rng)]
                        let key = Int.random(in: 0..<300, using: &rng)
                        let roll = Int.random(in: 0..<1_000, using: &rng)
                        switch roll {
                        case 0..<200:
                            if ns.fresh(key) != nil { counted += 1 }
                        case 200..<203:
                            ns.purge()
                        case 203..<260:
                            clock.advance(by: Double.random(in: 0..<0.5, using: &rng))
                        default:
                            let cost = Int.random(in: 0...2_000, using: &rng)
                            let ttl = Double.random(in: 0...3, using: &rng)
                            let stale = Double.random(in: 0...3, using: &rng)
                            let fails = roll % 17 == 0
                            let suspends = roll % 3 == 0
                            counted += 1
                            do {
                                _ = try await ns.value(for: key) {
                                    loads.increment()
                                    if suspends { await Task.yield() }
                                    if fails { throw TestFailure() }
                                    return CacheLoad(
                                        value: Payload(text: "\(key)", cost: cost), ttlSeconds: ttl, staleSeconds: stale)
                                }
                            } catch is TestFailure {
                                // shared load failures are part of the mix
                            }
                        }
                    }
                    return counted
                }
            }
            return try await group.reduce(0, +)
        }

        #expect(await waitUntil {
            spaces.allSatisfy { $0.stats().loadsInFlight == 0 }
        }, "background refreshes done")
        let violations = store.auditViolations()
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        let stats = store.stats().values
        let totals = store.totals()
        #expect(stats.map(\.entries).reduce(0, +) == totals.entries)
        #expect(stats.map(\.bytes).reduce(0, +) == totals.bytes)
        #expect(totals.entries <= limits.maxEntries)
        #expect(totals.bytes <= limits.maxBytes)
        let served = stats.map { $0.hits + $0.misses + $0.stale }.reduce(0, +)
        #expect(served == UInt64(lookups))
        #expect(stats.map(\.evictions).reduce(0, +) > 0)
        #expect(UInt64(loads.value) <= stats.map { $0.misses + $0.stale }.reduce(0, +))
    }
}

@Suite struct LoopReplicaStressTests {
    /// Two event-loop threads hit constantly (through their replicas) while tasks load, refresh,
    /// purge, evict and advance the clock; every hit must be one the store would serve at that
    /// moment's clock (checked against the value's own key and the clock), and afterwards the
    /// replicas must hold exactly what the store holds.
    @Test func loopHitsDuringChurnStayExact() async throws {
        let limits = CacheLimits(maxEntries: 40, maxBytes: 1 << 30)
        let clock = ManualCacheClock()
        let store = CacheStore(limits: limits, clock: clock)
        let ns = store.namespace("rates", keyType: Int.self, valueType: Payload.self)
        let stop = Locked(false)
        let wrong = Locked(0)
        let loopHits = Locked(0)
        let loops = (0..<2).map { loop in
            startEventLoopThread(loop) {
                var rng = SplitMix64(seed: UInt64(loop) + 99)
                var hits = 0
                while !stop.value {
                    let key = Int.random(in: 0..<60, using: &rng)
                    guard let hit = ns.fresh(key) else { continue }
                    hits += 1
                    if hit.value.text != "\(key)" || hit.freshnessLeftSeconds <= 0 { wrong.increment() }
                }
                return hits
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(worker) &* 31 &+ 7)
                    for _ in 0..<3_000 {
                        let key = Int.random(in: 0..<60, using: &rng)
                        switch Int.random(in: 0..<100, using: &rng) {
                        case 0..<2: ns.purge()
                        case 2..<10: clock.advance(by: Double.random(in: 0..<0.3, using: &rng))
                        default:
                            let ttl = Double.random(in: 0...2, using: &rng)
                            _ = try await ns.value(for: key) {
                                CacheLoad(value: Payload(text: "\(key)"), ttlSeconds: ttl, staleSeconds: 1)
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        stop.set(true)
        #expect(await waitUntil { loops.allSatisfy { $0.value != nil } }, "the loop threads stopped")
        for loop in loops { loopHits.increment(by: loop.value ?? 0) }
        #expect(wrong.value == 0)
        #expect(loopHits.value > 0)
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 }, "background refreshes done")
        let violations = store.auditViolations()
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        #expect(ns.stats().hits >= UInt64(loopHits.value))
    }
}

@Suite struct CancellationStressTests {
    /// Callers cancelled at random points: every caller that was not cancelled gets the value
    /// (a shared load is only cancelled once nobody waits for it), every cancelled one gets the
    /// value or `CancellationError`, nobody hangs, and the store ends consistent.
    @Test func randomCancellationsNeverStrandOrFailOthers() async throws {
        let clock = ManualCacheClock()
        let store = CacheStore(limits: CacheLimits(maxEntries: 8, maxBytes: 1 << 20), clock: clock)
        let ns = store.namespace("rates", keyType: Int.self, valueType: Payload.self)
        let loads = Locked(0)
        let load: @Sendable (Int) -> @Sendable () async throws -> CacheLoad<Payload> = { key in
            {
                loads.increment()
                try await Task.sleep(for: .microseconds(Int.random(in: 0...500)))
                return CacheLoad(value: Payload(text: "\(key)"), ttlSeconds: 1, staleSeconds: 1)
            }
        }
        var rng = SplitMix64(seed: 42)
        for _ in 0..<100 {
            clock.advance(by: Double.random(in: 0...1.5, using: &rng))
            var tasks: [(task: Task<CacheLookup<Payload>, any Error>, cancelled: Bool, key: Int)] = []
            for _ in 0..<30 {
                let key = Int.random(in: 0..<12, using: &rng)
                tasks.append((Task { try await ns.value(for: key, load: load(key)) }, Bool.random(using: &rng), key))
            }
            for entry in tasks where entry.cancelled {
                await Task.yield()
                entry.task.cancel()
            }
            for entry in tasks {
                do {
                    let lookup = try await entry.task.value
                    #expect(lookup.value.text == "\(entry.key)")
                } catch is CancellationError {
                    #expect(entry.cancelled, "a caller that was not cancelled got CancellationError")
                }
            }
        }
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 }, "loads finished")
        let violations = store.auditViolations()
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        #expect(loads.value > 0)
    }
}

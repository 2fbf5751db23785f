import TestSupport
import Testing
@testable import Cache

@Suite struct StaleTests {
    /// hit → stale (one refresh however many readers) → a miss at the window's end, which joins
    /// the refresh still in flight rather than starting another load.
    @Test func staleWhileRevalidateTransitionsAtExactBoundaries() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "k", text: "old", ttl: 10, stale: 5)
        let gate = Gate()
        let refreshes = Locked(0)
        let refresh = loader("new", ttl: 10, stale: 5, gate: gate, calls: refreshes)

        f.at(9.999)
        #expect(try await ns.value(for: "k", load: refresh).outcome == .hit)
        f.at(10)
        #expect(ns.fresh("k") == nil)
        let stale = try await ns.value(for: "k", load: refresh)
        #expect(stale.outcome == .stale)
        #expect(stale.value.text == "old")
        #expect(stale.freshnessLeftSeconds == 0)
        #expect(stale.ageSeconds == 10)
        #expect(stale.validator == "v-old")

        try await withThrowingTaskGroup(of: CacheLookup<Payload>.self) { group in
            for _ in 0..<100 { group.addTask { try await ns.value(for: "k", load: refresh) } }
            for try await lookup in group {
                #expect(lookup.outcome == .stale)
                #expect(lookup.value.text == "old")
            }
        }
        f.at(14.999)
        #expect(try await ns.value(for: "k", load: refresh).outcome == .stale)
        #expect(await waitUntil { refreshes.value == 1 }, "refresh started")
        #expect(ns.stats().loadsInFlight == 1)

        f.at(15)
        async let missed = ns.value(for: "k", load: refresh)
        #expect(await waitUntil { ns.stats().misses == 2 }, "miss registered")
        gate.open()
        let joined = try await missed
        #expect(joined.outcome == .miss)
        #expect(joined.value.text == "new")
        #expect(refreshes.value == 1)
        let stats = ns.stats()
        #expect(stats.stale == 102)
        #expect(stats.loadsInFlight == 0)
        #expect(try await ns.value(for: "k", load: refresh).outcome == .hit)
    }

    @Test func refreshReplacesStaleValue() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "k", text: "old", ttl: 10, stale: 100)
        f.at(50)
        let calls = Locked(0)
        #expect(try await ns.value(for: "k", load: loader("new", ttl: 10, calls: calls)).outcome == .stale)
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 }, "refresh finished")
        let hit = try #require(ns.fresh("k"))
        #expect(hit.value.text == "new")
        #expect(hit.ageSeconds == 0)
        #expect(hit.freshnessLeftSeconds == 10)
        #expect(calls.value == 1)
    }

    /// stale-if-error: failed refreshes keep the stale value served (one attempt in flight at a
    /// time, a later read may retry); past the window the load's error reaches the caller.
    @Test func staleIfErrorServesUntilWindowEndThenErrorSurfaces() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "k", text: "old", ttl: 10, stale: 5)
        let attempts = Locked(0)
        let failing: @Sendable () async throws -> CacheLoad<Payload> = {
            attempts.increment()
            throw TestFailure()
        }
        f.at(10)
        #expect(try await ns.value(for: "k", load: failing).outcome == .stale)
        #expect(await waitUntil { attempts.value == 1 && ns.stats().loadsInFlight == 0 }, "first refresh failed")
        f.at(12)
        let still = try await ns.value(for: "k", load: failing)
        #expect(still.outcome == .stale)
        #expect(still.value.text == "old")
        #expect(await waitUntil { attempts.value == 2 && ns.stats().loadsInFlight == 0 }, "second refresh failed")
        f.at(14.999)
        #expect(try await ns.value(for: "k", load: failing).outcome == .stale)
        #expect(await waitUntil { attempts.value == 3 && ns.stats().loadsInFlight == 0 }, "third refresh failed")

        f.at(15)
        await #expect(throws: TestFailure.self) { try await ns.value(for: "k", load: failing) }
        #expect(attempts.value == 4)
        #expect(ns.stats().entries == 0)
        await #expect(throws: TestFailure.self) { try await ns.value(for: "k", load: failing) }
        #expect(attempts.value == 5)
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func failedRefreshBacksOffWhenConfigured() async throws {
        let f = Fixture(refreshRetrySeconds: 3)
        let ns = f.namespace()
        try await fill(ns, "k", ttl: 10, stale: 100)
        let attempts = Locked(0)
        let failing: @Sendable () async throws -> CacheLoad<Payload> = {
            attempts.increment()
            throw TestFailure()
        }
        f.at(10)
        #expect(try await ns.value(for: "k", load: failing).outcome == .stale)
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 }, "refresh failed")
        f.at(12.999)
        #expect(try await ns.value(for: "k", load: failing).outcome == .stale)
        #expect(ns.stats().loadsInFlight == 0)
        #expect(attempts.value == 1)
        f.at(13)
        #expect(try await ns.value(for: "k", load: failing).outcome == .stale)
        #expect(await waitUntil { attempts.value == 2 && ns.stats().loadsInFlight == 0 }, "retry failed")
    }

    @Test func backgroundRefreshIgnoresReaderCancellation() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "k", text: "old", ttl: 10, stale: 100)
        f.at(20)
        let gate = Gate()
        let sawCancellation = Locked(0)
        let refresh: @Sendable () async throws -> CacheLoad<Payload> = {
            await gate.wait()
            if Task.isCancelled { sawCancellation.increment() }
            return CacheLoad(value: Payload(text: "new"), ttlSeconds: 10, staleSeconds: 100)
        }
        let reader = Task { try await ns.value(for: "k", load: refresh) }
        reader.cancel()
        #expect(try await reader.value.outcome == .stale)
        #expect(await waitUntil { ns.stats().loadsInFlight == 1 }, "refresh started")
        gate.open()
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 }, "refresh finished")
        #expect(sawCancellation.value == 0)
        #expect(ns.fresh("k")?.value.text == "new")
    }
}

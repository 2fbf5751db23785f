import TestSupport
import Testing
@testable import Cache

@Suite struct LRUTests {
    @Test func maxEntriesEvictsLeastRecentlyUsed() async throws {
        let f = Fixture(maxEntries: 3)
        let ns = f.namespace()
        try await fill(ns, "a")
        try await fill(ns, "b")
        try await fill(ns, "c")
        #expect(ns.fresh("a") != nil)  // a is now most recent: b is the oldest
        try await fill(ns, "d")
        #expect(ns.fresh("b") == nil)
        #expect(ns.fresh("a") != nil)
        #expect(ns.fresh("c") != nil)
        #expect(ns.fresh("d") != nil)

        // A value(for:) hit refreshes recency too: touch c, then a; d is the oldest.
        #expect(try await fill(ns, "c").outcome == .hit)
        #expect(try await fill(ns, "a").outcome == .hit)
        try await fill(ns, "e")
        #expect(ns.fresh("d") == nil)
        let stats = ns.stats()
        #expect(stats.entries == 3)
        #expect(stats.evictions == 2)
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func maxBytesEvictsAcrossNamespaces() async throws {
        let entry = 1_000 + CacheStore.entryOverheadBytes
        let f = Fixture(maxBytes: 3 * entry)
        let rates = f.namespace("rates")
        let books = f.store.namespace("books", keyType: Int.self, valueType: Payload.self)
        try await fill(rates, "a", cost: 1_000)
        _ = try await books.value(for: 1) { CacheLoad(value: Payload(text: "b", cost: 1_000), ttlSeconds: 10, staleSeconds: 0) }
        try await fill(rates, "c", cost: 1_000)
        #expect(try await fill(rates, "a").outcome == .hit)  // books/1 is now the oldest
        try await fill(rates, "d", cost: 1_000)

        #expect(books.fresh(1) == nil)
        #expect(rates.fresh("a") != nil)
        let stats = f.store.stats()
        #expect(stats["books"]?.evictions == 1)
        #expect(stats["books"]?.entries == 0)
        #expect(stats["books"]?.bytes == 0)
        #expect(stats["rates"]?.entries == 3)
        #expect(stats["rates"]?.bytes == 3 * entry)
        #expect(stats["rates"]?.evictions == 0)

        // A bigger value pushes out as many old ones as it needs, oldest first.
        // Recency is now a, d, c (fresh("a") above touched a).
        try await fill(rates, "big", cost: entry)
        #expect(rates.fresh("c") == nil)
        #expect(rates.fresh("d") == nil)
        #expect(rates.fresh("a") != nil)
        #expect(f.store.totals().bytes == entry + entry + CacheStore.entryOverheadBytes)
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func valueLargerThanBudgetIsReturnedButNotStored() async throws {
        let f = Fixture(maxBytes: 10_000)
        let ns = f.namespace()
        try await fill(ns, "small", cost: 100)
        let calls = Locked(0)
        let huge = try await ns.value(for: "huge", load: loader("huge", cost: 20_000, calls: calls))
        #expect(huge.outcome == .miss)
        #expect(huge.value.text == "huge")
        #expect(ns.fresh("small") != nil)
        #expect(ns.fresh("huge") == nil)
        let stats = ns.stats()
        #expect(stats.entries == 1)
        #expect(stats.evictions == 0)
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func replacingAValueRepricesIt() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "k", ttl: 10, stale: 100, cost: 100)
        f.at(20)
        let calls = Locked(0)
        _ = try await ns.value(for: "k", load: loader("k2", ttl: 10, stale: 100, cost: 5_000, calls: calls))
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 }, "refresh finished")
        #expect(ns.stats().bytes == 5_000 + CacheStore.entryOverheadBytes)
        #expect(ns.stats().entries == 1)
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func deadEntriesAreSweptByLaterStores() async throws {
        let f = Fixture()
        let ns = f.namespace()
        for i in 0..<20 { try await fill(ns, "short\(i)", ttl: 1) }
        f.at(5)
        for i in 0..<10 { try await fill(ns, "long\(i)", ttl: 100) }  // 10 stores × 4 nodes swept
        #expect(ns.stats().entries == 10)
        #expect(ns.stats().evictions == 0)
        #expect(f.store.auditViolations().isEmpty)
    }
}

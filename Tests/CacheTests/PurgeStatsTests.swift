import TestSupport
import Testing
@testable import Cache

@Suite struct PurgeStatsTests {
    @Test func sameNameGivesViewsOnSameEntries() async throws {
        let f = Fixture()
        let one = f.namespace("rates")
        let two = f.namespace("rates")
        try await fill(one, "BTC")
        #expect(two.fresh("BTC")?.value.text == "BTC")
        #expect(f.store.stats()["rates"]?.hits == 1)
        #expect(one.stats() == two.stats())
    }

    @Test func purgeNamespaceAndPurgeAll() async throws {
        let f = Fixture()
        let rates = f.namespace("rates")
        let books = f.namespace("books")
        let covers = f.namespace("covers")
        for key in ["a", "b", "c"] {
            try await fill(rates, key)
            try await fill(books, key, cost: 300)
            try await fill(covers, key, cost: 5_000)
        }
        #expect(rates.fresh("a") != nil)

        #expect(f.store.purge(namespace: "books"))
        #expect(!f.store.purge(namespace: "nope"))
        var stats = f.store.stats()
        #expect(stats["books"]?.entries == 0)
        #expect(stats["books"]?.bytes == 0)
        #expect(stats["books"]?.misses == 3)  // counters survive purges
        #expect(stats["rates"]?.entries == 3)
        #expect(stats["rates"]?.bytes == 3 * (100 + CacheStore.entryOverheadBytes))
        #expect(stats["rates"]?.hits == 1)
        #expect(books.fresh("a") == nil)
        #expect(f.store.auditViolations().isEmpty)

        covers.purge()
        #expect(f.store.stats()["covers"]?.entries == 0)
        #expect(f.store.totals().entries == 3)

        // purged namespaces fill again
        try await fill(books, "z")
        #expect(books.fresh("z") != nil)
        f.store.purgeAll()
        stats = f.store.stats()
        #expect(stats.values.allSatisfy { $0.entries == 0 && $0.bytes == 0 })
        #expect(f.store.totals().entries == 0)
        #expect(f.store.totals().bytes == 0)
        #expect(f.store.auditViolations().isEmpty)
        #expect(Set(stats.keys) == ["rates", "books", "covers"])
    }

    @Test func loadCompletingAfterPurgeStoresItsResult() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "other")
        let gate = Gate()
        async let loaded = ns.value(for: "k") {
            await gate.wait()
            return CacheLoad(value: Payload(text: "late"), ttlSeconds: 10, staleSeconds: 0)
        }
        #expect(await waitUntil { ns.stats().loadsInFlight == 1 }, "load in flight")
        f.store.purgeAll()
        gate.open()
        #expect(try await loaded.value.text == "late")
        let stats = ns.stats()
        #expect(stats.entries == 1)
        #expect(stats.bytes == 100 + CacheStore.entryOverheadBytes)
        #expect(stats.loadsInFlight == 0)
        #expect(f.store.auditViolations().isEmpty)
    }
}

@Suite struct NamespaceTypeTests {
    @Test func sameNameWithOtherTypesTraps() async {
        await #expect(processExitsWith: .failure) {
            let store = CacheStore(limits: CacheLimits())
            _ = store.namespace("rates", keyType: String.self, valueType: Payload.self)
            _ = store.namespace("rates", keyType: Int.self, valueType: Payload.self)
        }
    }
}

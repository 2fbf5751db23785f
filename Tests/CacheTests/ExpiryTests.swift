import Testing
import TestSupport
@testable import Cache

@Suite struct ExpiryTests {
    @Test func missThenHitThenExpiry() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let calls = Locked(0)
        let first = try await ns.value(for: "BTC", load: loader("one", ttl: 10, calls: calls))
        #expect(first.outcome == .miss)
        #expect(first.ageSeconds == 0)
        #expect(first.freshnessLeftSeconds == 10)
        #expect(first.validator == "v-one")

        f.at(4)
        let hit = try await ns.value(for: "BTC", load: loader("two", ttl: 10, calls: calls))
        #expect(hit.outcome == .hit)
        #expect(hit.value.text == "one")
        #expect(hit.ageSeconds == 4)
        #expect(hit.freshnessLeftSeconds == 6)
        #expect(ns.fresh("BTC")?.value.text == "one")

        f.at(9.999)
        #expect(ns.fresh("BTC") != nil)
        f.at(10)
        #expect(ns.fresh("BTC") == nil)
        let reload = try await ns.value(for: "BTC", load: loader("two", ttl: 10, calls: calls))
        #expect(reload.outcome == .miss)
        #expect(reload.value.text == "two")
        #expect(calls.value == 2)
        let stats = ns.stats()
        #expect(stats.hits == 3)
        #expect(stats.misses == 2)
        #expect(stats.stale == 0)
        #expect(stats.entries == 1)
    }

    @Test func jitterExtremesGiveTtlAndNinetyPercent() async throws {
        let f = Fixture()
        let ns = f.namespace()
        f.jitter.set(0)
        let none = try await fill(ns, "a", ttl: 100)
        #expect(none.freshnessLeftSeconds == 100)
        f.jitter.set(1)
        let most = try await fill(ns, "b", ttl: 100)
        #expect(most.freshnessLeftSeconds == 90)
        f.jitter.set(0.5)
        let half = try await fill(ns, "c", ttl: 100)
        #expect(half.freshnessLeftSeconds == 95)

        f.at(89.999)
        #expect(ns.fresh("b") != nil)
        f.at(90)
        #expect(ns.fresh("b") == nil)
        #expect(ns.fresh("c") != nil)
        f.at(99.999)
        #expect(ns.fresh("a") != nil)
        f.at(100)
        #expect(ns.fresh("a") == nil)
    }

    @Test func defaultJitterStaysWithinTenPercentBelowTtl() async throws {
        let clock = ManualCacheClock()
        let store = CacheStore(limits: CacheLimits(), clock: clock)
        let ns = store.namespace("rates", keyType: Int.self, valueType: Payload.self)
        for key in 0..<200 {
            let lookup = try await ns.value(for: key) {
                CacheLoad(value: Payload(text: "x"), ttlSeconds: 60, staleSeconds: 0)
            }
            #expect(lookup.freshnessLeftSeconds >= 54 && lookup.freshnessLeftSeconds <= 60)
        }
    }

    @Test func negativeAnswerWithShorterTtlExpiresFirst() async throws {
        let f = Fixture()
        let ns = f.namespace("books")
        try await fill(ns, "found", text: "book", ttl: 86_400)
        try await fill(ns, "missing", text: "not-found", ttl: 3_600)
        f.at(3_600)
        #expect(ns.fresh("missing") == nil)
        #expect(ns.fresh("found")?.value.text == "book")
        let calls = Locked(0)
        let again = try await ns.value(for: "missing", load: loader("not-found", ttl: 3_600, calls: calls))
        #expect(again.outcome == .miss)
        #expect(calls.value == 1)
    }

    @Test func validatorComputedOnceAtStoreTime() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let validatorCalls = Locked(0)
        _ = try await ns.value(for: "k") {
            CacheLoad(value: Payload(text: "x", validatorCalls: validatorCalls), ttlSeconds: 10, staleSeconds: 0)
        }
        for _ in 0..<5 {
            let hit = try await ns.value(for: "k", load: loader("y", calls: Locked(0)))
            #expect(hit.validator == "v-x")
            #expect(ns.fresh("k")?.validator == "v-x")
        }
        #expect(validatorCalls.value == 1)
    }

    @Test func zeroTtlWithoutStaleWindowIsServedButNotKept() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let lookup = try await fill(ns, "k", ttl: 0)
        #expect(lookup.outcome == .miss)
        #expect(lookup.freshnessLeftSeconds == 0)
        #expect(ns.stats().entries == 0)
        #expect(f.store.auditViolations().isEmpty)
    }
}

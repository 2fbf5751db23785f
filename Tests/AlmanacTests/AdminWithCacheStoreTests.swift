import Cache
import HTTP1
import Testing
@testable import Almanac

private struct Blob: CacheValue {
    var text: String
    var cacheCost: Int { text.utf8.count }
    var cacheValidator: String { text }
}

/// The admin API and cache metrics against the real `CacheStore`.
@Suite struct AdminWithCacheStoreTests {
    private static let token = "real-cache-admin-token"

    private func fill(_ store: CacheStore) async throws {
        let rates = store.namespace("rates", keyType: String.self, valueType: Blob.self)
        let books = store.namespace("books", keyType: String.self, valueType: Blob.self)
        for key in ["BTC", "ETH"] {
            _ = try await rates.value(for: key) { CacheLoad(value: Blob(text: key), ttlSeconds: 60, staleSeconds: 0) }
        }
        _ = try await books.value(for: "9780132350884") { CacheLoad(value: Blob(text: "book"), ttlSeconds: 60, staleSeconds: 0) }
        _ = rates.fresh("BTC")
    }

    @Test func purgesEmptyTheRealStoreAndMetricsFollow() async throws {
        let store = CacheStore(limits: CacheLimits(maxEntries: 100, maxBytes: 1 << 20))
        try await fill(store)
        let registry = AlmanacMetrics.makeRegistry(.init(http: HTTPMetrics(), cacheStats: { store.stats() }))
        let router = AlmanacApp.makeRouter(operations: .init(isDraining: { false }, metrics: registry,
                                                             adminToken: Self.token, cache: store))
        let auth: HTTPHeaders = ["Authorization": "Bearer \(Self.token)"]

        let stats = await respond(router, "GET", "/admin/cache", headers: auth)
        let namespaces = try #require(stats.jsonObject?["namespaces"] as? [String: [String: Any]])
        #expect(namespaces["rates"]?["entries"] as? Int == 2)
        #expect(namespaces["rates"]?["misses"] as? Int == 2)
        #expect(namespaces["rates"]?["hits"] as? Int == 1)
        #expect(namespaces["books"]?["entries"] as? Int == 1)

        let metrics = await respond(router, "GET", "/metrics").text
        #expect(metrics.contains(#"almanac_cache_entries{namespace="rates"} 2"#))
        #expect(metrics.contains(#"almanac_cache_hits_total{namespace="rates"} 1"#))

        #expect(await respond(router, "DELETE", "/admin/cache/rates", headers: auth).status == .ok)
        #expect(store.stats()["rates"]?.entries == 0)
        #expect(store.stats()["books"]?.entries == 1)
        #expect(await respond(router, "DELETE", "/admin/cache/covers", headers: auth).status == .ok,
                "covers was never used: still a valid, empty namespace")

        #expect(await respond(router, "DELETE", "/admin/cache", headers: auth).status == .ok)
        #expect(store.stats().values.allSatisfy { $0.entries == 0 && $0.bytes == 0 })
        let after = await respond(router, "GET", "/metrics").text
        #expect(after.contains(#"almanac_cache_entries{namespace="books"} 0"#))
    }
}

import Cache
import Base
import Foundation
import HTTP1
import Synchronization
import Testing
import TestSupport
@testable import Almanac

/// `cache.redis.*`, `/readyz`, `/metrics`, `Cache-Status` and admin purges with a shared cache.
@Suite struct SharedCacheWiringTests {
    private static let token = "shared-cache-admin-token"

    private func load(_ env: [String: String]) -> Result<AlmanacConfiguration, ConfigurationErrors> {
        ConfigurationLoader.load(flags: ConfigurationFlags(), environment: env, fileReader: files([:]))
    }

    @Test func redisKeysDefaultValidateAndKeepThePasswordSecret() throws {
        let defaults = try load([:]).get()
        #expect(defaults.cache.redis == AlmanacConfiguration.Cache.Redis())
        #expect(defaults.cache.redis.url == nil && defaults.cache.redis.keyPrefix == "almanac:")
        #expect(defaults.cache.redis.timeoutMs == 50 && defaults.cache.redis.maxValueBytes == 4_194_304)
        #expect(defaults.redisConfiguration == nil)

        let set = try load(["ALMANAC_CACHE_REDIS_URL": "redis://app:s3cret-pw@10.0.0.5:6380/2",
                            "ALMANAC_CACHE_REDIS_KEY_PREFIX": "blue:", "ALMANAC_CACHE_REDIS_TIMEOUT_MS": "75",
                            "ALMANAC_CACHE_REDIS_MAX_VALUE_BYTES": "1024"]).get()
        let redis = try #require(set.redisConfiguration)
        #expect(redis.url.host == "10.0.0.5" && redis.url.port == 6380 && redis.url.database == 2)
        #expect(redis.timeoutMilliseconds == 75)
        #expect(set.sharedCacheSettings.keyPrefix == Array("blue:".utf8))
        #expect(set.sharedCacheSettings.maxValueBytes == 1024)
        #expect(set.sharedCacheSettings.lockMilliseconds == set.upstream.steward.requestDeadlineMs + 1_000)
        // A waiter gives up on another replica's load at half the request deadline, well before it.
        #expect(set.sharedCacheSettings.waitLimitSeconds == Double(set.upstream.steward.requestDeadlineMs) / 2_000)
        // Values read back may claim no longer lifetimes than each namespace's configured ones.
        let limits = try load(["ALMANAC_RATES_TTL_SECONDS": "60", "ALMANAC_RATES_STALE_SECONDS": "600",
                               "ALMANAC_BOOKS_TTL_SECONDS": "100", "ALMANAC_BOOKS_NOT_FOUND_TTL_SECONDS": "200",
                               "ALMANAC_BOOKS_STALE_SECONDS": "300", "ALMANAC_RATES_HISTORY_TTL_SECONDS": "400",
                               "ALMANAC_BOOKS_SEARCH_TTL_SECONDS": "500"]).get()
            .sharedCacheSettings.valueLimits
        #expect(limits["rates"] == SharedValueLimits(ttlSeconds: 60, staleSeconds: 600))
        #expect(limits["books"] == SharedValueLimits(ttlSeconds: 200, staleSeconds: 300))
        #expect(limits["covers"] == SharedValueLimits(ttlSeconds: 200, staleSeconds: 300))
        #expect(limits["history"] == SharedValueLimits(ttlSeconds: 400, staleSeconds: 400))
        #expect(limits["book-search"] == SharedValueLimits(ttlSeconds: 500, staleSeconds: 300))
        #expect(limits["volumes"] == SharedValueLimits(ttlSeconds: 200, staleSeconds: 300))
        // Every namespace the cache holds is bounded by its own TTLs, not only by the absolute limit.
        #expect(Set(limits.keys) == Set(AdminRoutes.namespaces), "\(limits.keys.sorted())")
        #expect(set.secrets.contains("s3cret-pw"))
        #expect(set.redactedJSON.contains(#""url" : "redis://app:***@10.0.0.5:6380/2""#), "\(set.redactedJSON)")
        #expect(!set.redactedJSON.contains("s3cret-pw"))
        #expect(Redactor(secrets: set.secrets).redact("connect redis://app:s3cret-pw@x failed") .contains("s3cret-pw") == false)

        for bad in ["rediss//:s3cret-pw@host", "http://host", "redis://:s3cret-pw@host:99999", "redis://host?x=1"] {
            guard case .failure(let errors) = load(["ALMANAC_CACHE_REDIS_URL": bad]) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(errors.problems.count == 1 && errors.problems[0].hasPrefix("cache.redis.url:"), "\(errors.problems)")
            #expect(!errors.description.contains("s3cret-pw"), "\(errors.description)")
        }
        for (key, value) in [("ALMANAC_CACHE_REDIS_KEY_PREFIX", "has space"), ("ALMANAC_CACHE_REDIS_KEY_PREFIX", ""),
                             ("ALMANAC_CACHE_REDIS_TIMEOUT_MS", "0"), ("ALMANAC_CACHE_REDIS_MAX_VALUE_BYTES", "-1")] {
            guard case .failure(let errors) = load([key: value]) else {
                Issue.record("\(key)=\(value) was accepted")
                continue
            }
            #expect(errors.problems.first?.hasPrefix("cache.redis.") == true, "\(errors.problems)")
        }
    }

    @Test func readinessSaysWhetherRedisAnswersOnlyWhenConfigured() async {
        let up = Locked(false)
        let router = AlmanacApp.makeRouter(operations: .init(isDraining: { false }, metrics: MetricsRegistry(), adminToken: nil,
                                                             cache: FakeCache(), sharedCacheUp: { up.value }))
        #expect(await respond(router, "GET", "/readyz").text == #"{"status":"ready","l2":"down"}"#)
        up.set(true)
        let ready = await respond(router, "GET", "/readyz")
        #expect(ready.status == .ok && ready.text == #"{"status":"ready","l2":"up"}"#)
    }

    @Test func metricsListTheSharedLayer() {
        var stats = SharedCacheStats()
        stats.up = true
        stats.hits = 3
        stats.takeovers = 1
        let fixed = stats
        let registry = AlmanacMetrics.makeRegistry(.init(http: HTTPMetrics(), sharedCache: { fixed }))
        let text = registry.render()
        #expect(text.contains("\nalmanac_cache_l2_up 1\n"))
        #expect(text.contains("\nalmanac_cache_l2_hits_total 3\n"))
        #expect(text.contains("\nalmanac_cache_l2_takeovers_total 1\n"))
        #expect(text.contains("# TYPE almanac_cache_l2_errors_total counter"))
        #expect(!AlmanacMetrics.makeRegistry(.init(http: HTTPMetrics())).render().contains("almanac_cache_l2"))
    }

    /// Every family is in docs/operations.md's metrics table (by full name, or as `_suffix`
    /// after a sibling's full name on the same row).
    @Test func everySharedFamilyIsDocumented() throws {
        let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `almanac_cache_l2_") }
        for family in SharedCacheMetrics.families(SharedCacheStats()) {
            let suffix = "`_" + family.name.dropFirst("almanac_cache_l2_".count) + "`"
            #expect(rows.contains { $0.contains("`\(family.name)`") || $0.contains(suffix) }, "\(family.name) undocumented")
        }
    }

    @Test func aSharedHitSaysRedisInCacheStatus() async {
        let shared = CacheFreshness(outcome: .hit, ageSeconds: 4, freshnessLeftSeconds: 56, shared: true)
        #expect(HTTPCaching.cacheStatus(.init(shared)) == "almanac; hit; detail=redis")
        let response = await serveRepresentation(Array("{}".utf8), contentType: "application/json", etag: "\"e\"",
                                                 freshness: shared)
        #expect(response.headers["Cache-Status"] == "almanac; hit; detail=redis")
        #expect(response.headers["X-Cache"] == "HIT" && response.headers["Age"] == "4")
        #expect(response.headers["Cache-Control"] == "public, max-age=56")
        let lookup = CacheLookup(value: SharedText("x"), outcome: .hit, ageSeconds: 1, freshnessLeftSeconds: 2, validator: "v",
                                 source: .shared)
        #expect(CacheFreshness(lookup).shared)
    }

    /// Admin purges go through the shared layer: its keys go, the other replica's memory
    /// follows; with Redis down only this replica is purged, and the answer says so.
    @Test func adminPurgesReachTheOtherReplica() async throws {
        let clock = ManualCacheClock()
        let backend = InMemorySharedCacheBackend(clock: clock)
        func replica() -> CacheStore {
            CacheStore(limits: CacheLimits(), clock: clock,
                       shared: SharedCacheLayer(backend: backend, settings: .init(keyPrefix: Array("t:".utf8)), wallClock: clock))
        }
        let (a, b) = (replica(), replica())
        await a.startSharedLayer()
        await b.startSharedLayer()
        for store in [a, b] {
            _ = try await store.namespace("rates", keyType: String.self, valueType: SharedText.self).value(for: "table") {
                CacheLoad(value: SharedText("t"), ttlSeconds: 60, staleSeconds: 0)
            }
        }
        #expect(b.stats()["rates"]?.entries == 1)
        let router = AlmanacApp.makeRouter(operations: .init(isDraining: { false }, metrics: MetricsRegistry(),
                                                             adminToken: Self.token, cache: a))
        let auth: HTTPHeaders = ["Authorization": "Bearer \(Self.token)"]
        let purged = await respond(router, "DELETE", "/admin/cache/rates", headers: auth)
        #expect(purged.status == .ok)
        #expect(purged.text == #"{"purged":["rates"],"l2":"purged","deletedKeys":1}"#)
        #expect(b.stats()["rates"]?.entries == 0)
        #expect(backend.liveKeys.isEmpty)

        backend.setUnavailable("down")
        let alone = await respond(router, "DELETE", "/admin/cache", headers: auth)
        #expect(alone.status == .ok)
        #expect(alone.text == #"{"purged":["rates","history","books","covers","book-search","volumes"],"l2":"unavailable"}"#)
    }
}

/// The warn line for values refused from Redis: one a minute per reason, whatever the number
/// of keys or namespaces, with the reason, namespace and key.
@Suite struct SharedRejectionLogTests {
    @Test func oneLineAMinutePerReason() {
        let sink = MemoryLogSink()
        let logger = Logger(configuration: .init(level: .info, format: .json, redactor: Redactor(secrets: [])), sink: sink)
        let clock = ManualCacheClock(start: 100)
        let log = SharedRejectionLog(logger: logger, clock: clock)
        for key in ["a", "b", "c"] { log.rejected(SharedRejectionEvent(namespace: "rates", key: key, reason: .validator)) }
        log.rejected(SharedRejectionEvent(namespace: "books", key: "9780306406157", reason: .validator))
        log.rejected(SharedRejectionEvent(namespace: "books", key: "9780306406157", reason: .key))
        #expect(sink.lines.count == 2, "\(sink.lines)")
        #expect(sink.lines[0].contains(#""reason":"validator""#) && sink.lines[0].contains(#""key":"a""#)
            && sink.lines[0].contains(#""namespace":"rates""#) && sink.lines[0].contains("value in Redis refused"))
        #expect(sink.lines[1].contains(#""reason":"key""#))
        clock.set(160)
        log.rejected(SharedRejectionEvent(namespace: "rates", key: "d", reason: .validator))
        #expect(sink.lines.count == 3)
    }
}

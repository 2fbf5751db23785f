import Cache
import Upstream
import HTTPServer

/// The standard set of families `/metrics` serves (docs/operations.md "Metrics"), assembled from closures so
/// each source (server, cache, HTTP client) is read at scrape time and tests can feed fakes.
public enum AlmanacMetrics {
    /// Where each family's numbers come from.
    public struct Sources: Sendable {
        public var http: HTTPMetrics
        /// `HTTPServer.openConnections`.
        public var openConnections: @Sendable () -> Int
        /// `HTTPServer.reclaimedConnections`.
        public var reclaimedConnections: @Sendable () -> ReclaimedConnections
        /// `CacheStore.stats()`.
        public var cacheStats: @Sendable () -> [String: CacheStats]
        /// The HTTP client's counters, mapped to Almanac's shape.
        public var upstream: @Sendable () -> UpstreamMetricsSnapshot
        /// Budgets, cooldowns and breakers; nil when no steward runs.
        public var steward: Steward?
        /// `SharedCacheLayer.stats()`; nil without a shared cache (`cache.redis.url`).
        public var sharedCache: (@Sendable () -> SharedCacheStats)?

        public init(http: HTTPMetrics,
                    openConnections: @escaping @Sendable () -> Int = { 0 },
                    reclaimedConnections: @escaping @Sendable () -> ReclaimedConnections = { ReclaimedConnections() },
                    cacheStats: @escaping @Sendable () -> [String: CacheStats] = { [:] },
                    upstream: @escaping @Sendable () -> UpstreamMetricsSnapshot = { .empty },
                    steward: Steward? = nil,
                    sharedCache: (@Sendable () -> SharedCacheStats)? = nil) {
            self.http = http
            self.openConnections = openConnections
            self.reclaimedConnections = reclaimedConnections
            self.cacheStats = cacheStats
            self.upstream = upstream
            self.steward = steward
            self.sharedCache = sharedCache
        }
    }

    /// A registry with every standard collector registered.
    public static func makeRegistry(_ sources: Sources) -> MetricsRegistry {
        let registry = MetricsRegistry()
        registry.register { sources.http.collect() }
        registry.register {
            [.single("almanac_http_open_connections", help: "HTTP connections currently open.", kind: .gauge,
                     value: Double(sources.openConnections()))]
        }
        registry.register {
            let reclaimed = sources.reclaimedConnections()
            return [MetricFamily(name: "almanac_connections_reclaimed_total",
                                 help: "Connections closed to make room for new ones at server.maxConnections, by the state they were in: idle between keep-alive requests, or silent (no request begun).",
                                 kind: .counter,
                                 samples: [.init(labels: [("state", "idle")], value: .number(Double(reclaimed.idle))),
                                           .init(labels: [("state", "silent")], value: .number(Double(reclaimed.silent)))])]
        }
        registry.register { CacheMetrics.families(sources.cacheStats()) }
        if let shared = sources.sharedCache { registry.register { SharedCacheMetrics.families(shared()) } }
        registry.register { sources.upstream().families() }
        if let steward = sources.steward { registry.register { StewardMetrics.families(steward) } }
        registry.register {
            [MetricFamily(name: "almanac_build_info", help: "Build information; the value is always 1.", kind: .gauge,
                          samples: [.init(labels: [("version", AlmanacVersion.string), ("commit", AlmanacVersion.commit),
                                                   ("swift", AlmanacVersion.swiftVersion)],
                                          value: .number(1))])]
        }
        registry.register { ProcessMetrics.families() }
        return registry
    }
}

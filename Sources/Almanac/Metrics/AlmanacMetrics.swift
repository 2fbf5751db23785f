import Cache
import Upstream
import HTTP1

/// The standard set of families `/metrics` serves (docs/operations.md "Metrics"), assembled from closures so
/// each source (server, cache, HTTP client) is read at scrape time and tests can feed fakes.
public enum AlmanacMetrics {
    /// Where each family's numbers come from; what is not given reads as zero or absent. Built
    /// by the app and by tests, with the memberwise initialiser.
    struct Sources: Sendable {
        var http: HTTPMetrics
        /// `HTTPServer.openConnections`.
        var openConnections: @Sendable () -> Int = { 0 }
        /// `HTTPServer.reclaimedConnections`.
        var reclaimedConnections: @Sendable () -> ReclaimedConnections = { ReclaimedConnections() }
        /// `HTTPServer.rejectedConnections`.
        var refusedConnections: @Sendable () -> Int = { 0 }
        /// `HTTPServer.eventLoopCount` and `activeEventLoops`.
        var eventLoops: @Sendable () -> (all: Int, active: Int) = { (0, 0) }
        /// `HTTPServer.rebalancedConnections`.
        var rebalancedConnections: @Sendable () -> Int = { 0 }
        /// `CacheStore.stats()`.
        var cacheStats: @Sendable () -> [String: CacheStats] = { [:] }
        /// The HTTP client's counters, mapped to Almanac's shape.
        var upstream: @Sendable () -> UpstreamMetricsSnapshot = { .empty }
        /// Budgets, cooldowns and breakers; nil when no steward runs.
        var steward: Steward?
        /// `SharedCacheLayer.stats()`; nil without a shared cache (`cache.redis.url`).
        var sharedCache: (@Sendable () -> SharedCacheStats)?
        /// The Redis primary in use (`host:port`, nil while down); set only with Sentinel.
        var sharedCachePrimary: (@Sendable () -> String?)? = nil
    }

    /// A registry with every standard collector registered.
    static func makeRegistry(_ sources: Sources) -> MetricsRegistry {
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
        registry.register {
            [.single("almanac_connections_refused_total",
                     help: "Connections refused at server.maxConnections (503 and close, or closed at once) because every open connection was busy.",
                     kind: .counter, value: Double(sources.refusedConnections()))]
        }
        registry.register {
            let loops = sources.eventLoops()
            return [.single("almanac_http_event_loops", help: "Event loops (threads with their own epoll set and listening socket) the server runs.",
                            kind: .gauge, value: Double(loops.all)),
                    .single("almanac_http_active_event_loops",
                            help: "Event loops that take new connections now: packed onto as few as the load needs while no processor is spare (server.loopPlacement adaptive).",
                            kind: .gauge, value: Double(loops.active)),
                    .single("almanac_connections_rebalanced_total",
                            help: "Keep-alive connections closed after a complete response (Connection: close) so that the client's reconnection lands on a less busy event loop.",
                            kind: .counter, value: Double(sources.rebalancedConnections()))]
        }
        registry.register { CacheMetrics.families(sources.cacheStats()) }
        if let shared = sources.sharedCache { registry.register { SharedCacheMetrics.families(shared()) } }
        if let primary = sources.sharedCachePrimary { registry.register { [SharedCacheMetrics.primaryFamily(primary())] } }
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

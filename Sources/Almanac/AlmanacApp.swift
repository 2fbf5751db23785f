import Base
import Cache
import HTTPClient
import HTTP1
import Web
import Redis
import SharedSteward
import Synchronization
import Upstream
#if canImport(Glibc)
import Glibc
#endif

/// The running service: one `AlmanacConfiguration` in, every component built and wired
/// (logger, cache, upstream client, router, metrics, server). `run()` serves until
/// SIGTERM/SIGINT, then drains; `start()`/`shutdown()` do the same under a test's control.
public final class AlmanacApp: Sendable {
    public let configuration: AlmanacConfiguration
    public let logger: Logger
    public let cache: CacheStore
    public let httpClient: any HTTPClient
    public let httpMetrics: HTTPMetrics
    public let metrics: MetricsRegistry
    public let router: Router
    /// Budgets, cooldowns and breakers for every provider (shared by every feature).
    public let steward: Steward
    /// The shared cache's Redis connection (`cache.redis.url`); nil without one.
    public let redis: RedisSharedCacheBackend?
    private let lifecycle: Lifecycle

    public init(configuration: AlmanacConfiguration, plugins: AlmanacPlugins = .standard,
                logSink: any LogSink = StandardOutputSink()) {
        self.configuration = configuration
        let logger = Logger(configuration: .init(level: configuration.log.level, format: configuration.log.format,
                                                 redactor: Redactor(secrets: configuration.secrets)),
                            sink: logSink)
        let staleLog = StaleServingLog(logger: logger)
        let rejectionLog = SharedRejectionLog(logger: logger)
        let redis = configuration.redisConfiguration.map { redisConfiguration in
            RedisSharedCacheBackend(client: RedisClient(configuration: redisConfiguration, onAvailabilityChange: { up in
                if up {
                    logger.info("shared cache: Redis connected", ["redis": .string(redisConfiguration.target)])
                } else {
                    logger.warn("shared cache: Redis connection lost; serving from memory and upstream until it is back",
                                ["redis": .string(redisConfiguration.target)])
                }
            }, onConnectionFailure: { reason in
                // Why it cannot connect (a refused certificate, no sentinel naming the primary),
                // once per reason: the "lost" line alone would not say.
                logger.warn("shared cache: cannot connect to Redis; serving from memory and upstream until it can",
                            ["redis": .string(redisConfiguration.target), "reason": .string(reason)])
            }))
        }
        let shared = redis.map { redis in
            SharedCacheLayer(backend: redis, settings: configuration.sharedCacheSettings,
                             availability: { redis.client.isAvailable }, onRejected: { rejectionLog.rejected($0) })
        }
        let cache = CacheStore(limits: configuration.cacheLimits, onRefreshFailure: { staleLog.refreshFailed($0) }, shared: shared)
        var sharedStats: (@Sendable () -> SharedCacheStats)?
        var sharedUp: (@Sendable () -> Bool)?
        if let shared {
            sharedStats = { shared.stats() }
            sharedUp = { shared.isAvailable }
        }
        // Which primary is in use matters only when Sentinel chooses it.
        var sharedPrimary: (@Sendable () -> String?)?
        if let client = redis?.client, client.configuration.sentinel != nil {
            sharedPrimary = { client.serverAddress }
        }
        let httpClient = plugins.makeHTTPClient(configuration.httpClientConfiguration, logger)
        // With Redis, the replicas share cooldowns, breakers and budgets through it (each
        // deciding alone while Redis is away); without, the steward's state is this process's.
        let stewardState = redis.map { redis in
            SharedStewardState(client: redis.client, keyPrefix: Array(configuration.cache.redis.keyPrefix.utf8),
                               fallback: LocalStewardState(configuration: configuration.stewardConfiguration,
                                                           now: SystemClock().now()))
        }
        let steward = Steward(configuration: configuration.stewardConfiguration, state: stewardState,
                              onChange: { provider, change in StewardLog.write(change, provider: provider, to: logger) },
                              onFailure: { failure in UpstreamFailureLog.write(failure, to: logger) })
        let lifecycle = Lifecycle()
        let httpMetrics = HTTPMetrics()
        let metrics = AlmanacMetrics.makeRegistry(.init(
            http: httpMetrics,
            openConnections: { lifecycle.server?.openConnections ?? 0 },
            reclaimedConnections: { lifecycle.server?.reclaimedConnections ?? ReclaimedConnections() },
            refusedConnections: { lifecycle.server?.rejectedConnections ?? 0 },
            eventLoops: { (lifecycle.server?.eventLoopCount ?? 0, lifecycle.server?.activeEventLoops ?? 0) },
            rebalancedConnections: { lifecycle.server?.rebalancedConnections ?? 0 },
            cacheStats: { cache.stats() },
            upstream: { plugins.upstreamMetrics(httpClient) },
            steward: steward,
            sharedCache: sharedStats,
            sharedCachePrimary: sharedPrimary))
        let context = AlmanacContext(configuration: configuration, logger: logger, cache: cache, httpClient: httpClient,
                                     steward: steward, metrics: metrics)
        self.router = AlmanacApp.makeRouter(
            operations: .init(isDraining: { lifecycle.isDraining }, metrics: metrics,
                              adminToken: configuration.server.adminToken, cache: cache, logger: logger,
                              upstreams: { steward.statuses() },
                              sharedCacheUp: sharedUp, sharedCachePrimary: sharedPrimary),
            features: plugins.routes.map { registration in { registration(&$0, context) } })
        self.logger = logger
        self.cache = cache
        self.httpClient = httpClient
        self.httpMetrics = httpMetrics
        self.metrics = metrics
        self.steward = steward
        self.redis = redis
        self.lifecycle = lifecycle
    }

    /// The routing table: operations routes first, then each feature's. Static and fed plain
    /// values so tests can build the exact production table with fakes.
    static func makeRouter(operations: OperationsRoutes.Dependencies,
                                  features: [(inout Router) -> Void] = []) -> Router {
        var router = Router(problemTypes: .almanac)
        OperationsRoutes.register(on: &router, operations)
        for register in features { register(&router) }
        ServiceIndex.register(on: &router)
        return router
    }

    /// Binds and starts serving; returns the bound port (useful with `--port 0`).
    @discardableResult
    public func start() throws -> Int {
        signal(SIGPIPE, SIG_IGN)
        let logger = self.logger
        // Below info nothing would be written: the server then builds no entries.
        let accessLog: (@Sendable (AccessLogEntry) -> Void)? = logger.isEnabled(.info) ? { @Sendable entry in logger.access(entry) } : nil
        let server = HTTPServer(configuration: configuration.httpServerConfiguration,
                                responder: AlmanacPipeline.responder(
                                    router: router, metrics: httpMetrics,
                                    cors: CORSPolicy(allowedOrigins: configuration.server.cors.allowedOrigins,
                                                     problemTypes: .almanac)),
                                accessLog: accessLog,
                                accessLogFlush: { logger.requestAccessLogFlush() },
                                // The server's own operational lines (accept failures, "reusing
                                // connections" at maxConnections) as warn lines of the service log.
                                errorLog: { logger.warn($0) })
        let port = try server.start()
        lifecycle.server = server
        if let redis {
            if configuration.redisUsesTLS && !configuration.cache.redis.tls.verify {
                logger.warn("shared cache: TLS certificate verification is off (cache.redis.tls.verify: false); the connection is encrypted but the server is not authenticated",
                            ["redis": .string(redis.client.configuration.target)])
            }
            // Connect now, not at the first miss; a Redis that is down is retried in the
            // background while almanac serves without it.
            redis.client.start()
            let cache = self.cache
            Task { await cache.startSharedLayer() }
        }
        logger.info("listening", [
            "host": .string(configuration.server.http.host), "port": .int(port),
            "version": .string(AlmanacVersion.string), "routes": .int(router.routes.count),
        ])
        return port
    }

    /// Marks the app draining (`/readyz` 503); keeps accepting and serving for
    /// `server.shutdownDelaySeconds`, so load balancers polling readiness take the instance
    /// out of rotation while it still answers whatever they send; then lets the server finish
    /// in-flight work and close.
    public func shutdown() async {
        lifecycle.beginDraining()
        guard let server = lifecycle.server else { return }
        let delay = configuration.server.shutdownDelaySeconds
        if delay > 0 {
            logger.info("shutdown delay: still serving, /readyz answers 503", ["delay_seconds": .double(delay)])
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        }
        logger.info("draining", ["grace_seconds": .double(configuration.server.http.shutdownGraceSeconds)])
        await server.shutdown()
        // The server's responder (the router) captures `lifecycle` (readiness, the open
        // connections gauge), and `lifecycle` holds the server: let go of it, or that cycle
        // keeps the server, router, cache and upstream client (its sockets) alive forever.
        lifecycle.server = nil
        await redis?.shutdown()
        logger.info("stopped")
    }

    /// Serves until SIGTERM or SIGINT, then drains (after `server.shutdownDelaySeconds`) and
    /// returns. A second signal during the delay or the drain exits at once. SIGHUP does not
    /// end the process: there is no reload, and the log says so.
    public func run() async throws {
        let logger = self.logger
        let latch = SignalLatch(reported: [SIGHUP], onReport: { sig in
            logger.warn("SIGHUP ignored: almanac does not reload its configuration; restart it to apply changes",
                        ["signal": .int(Int(sig))])
        }, onRepeat: { sig in
            logger.warn("second signal during shutdown: exiting now", ["signal": .int(Int(sig))])
            exit(1)
        })
        defer { latch.cancel() }
        try start()
        let sig = await latch.wait()
        logger.info("shutdown requested", ["signal": .int(Int(sig))])
        await shutdown()
    }
}

/// The server once started and the draining flag, shared with closures built before the
/// server exists (the readiness route, the open-connections gauge).
final class Lifecycle: Sendable {
    private let state = Mutex<(server: HTTPServer?, draining: Bool)>((nil, false))

    var server: HTTPServer? {
        get { state.withLock { $0.server } }
        set { state.withLock { $0.server = newValue } }
    }

    var isDraining: Bool {
        state.withLock { $0.draining || ($0.server?.isDraining ?? false) }
    }

    func beginDraining() { state.withLock { $0.draining = true } }
}

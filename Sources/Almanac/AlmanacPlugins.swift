import Books
import Cache
import HTTPClient
import HTTP1
import Web
import Rates
import Upstream

/// What the app hands each feature when it registers its routes: the validated
/// configuration and the shared services, built once.
public struct AlmanacContext: Sendable {
    public let configuration: AlmanacConfiguration
    public let logger: Logger
    public let cache: CacheStore
    public let httpClient: any HTTPClient
    /// Every provider chain asks through it: budgets, cooldowns, breakers, deadlines.
    public let steward: Steward
    /// `/metrics`: a feature registers its own families here.
    public let metrics: MetricsRegistry
}

/// The extension points where features plug into the app: their routes and the upstream
/// HTTP client. `standard` is the production set; integration edits only that list.
public struct AlmanacPlugins: Sendable {
    /// Adds a feature's routes (e.g. `RatesRoutes.register`) using the shared context.
    public typealias RouteRegistration = @Sendable (inout Router, AlmanacContext) -> Void

    public var routes: [RouteRegistration]
    /// Builds the one upstream client every provider shares.
    public var makeHTTPClient: @Sendable (HTTPClientConfiguration, Logger) -> any HTTPClient
    /// Reads the client's counters for `/metrics`, mapped to Almanac's shape.
    public var upstreamMetrics: @Sendable (any HTTPClient) -> UpstreamMetricsSnapshot
    /// The configuration's defaults, provider registries included: the command line loads
    /// onto them and `check-config --providers` lists their providers, so a build (or a test)
    /// with another registry has its keys, lists and budgets with no other edit.
    public var configurationDefaults = AlmanacConfiguration()

    public init(routes: [RouteRegistration] = [],
                makeHTTPClient: @escaping @Sendable (HTTPClientConfiguration, Logger) -> any HTTPClient = { _, _ in UnavailableHTTPClient() },
                upstreamMetrics: @escaping @Sendable (any HTTPClient) -> UpstreamMetricsSnapshot = { _ in .empty }) {
        self.routes = routes
        self.makeHTTPClient = makeHTTPClient
        self.upstreamMetrics = upstreamMetrics
    }

    /// Production wiring: rates and books on the shared cache, every provider through one
    /// libcurl client, whose per-provider counters feed `/metrics`.
    public static var standard: AlmanacPlugins {
        AlmanacPlugins(
            routes: [
                { router, ctx in
                    let history = HistoryService(
                        configuration: ctx.configuration.history, client: ctx.httpClient, cache: ctx.cache,
                        steward: ctx.steward)
                    let rates = RatesService(
                        configuration: ctx.configuration.rates, sharedEndpoints: ctx.configuration.history.endpoints,
                        client: ctx.httpClient, cache: ctx.cache, steward: ctx.steward)
                    ctx.metrics.register { IndexMetrics.families(rates.lastIndexReport) }
                    RatesRoutes.register(on: &router, service: rates, history: history, logger: ctx.logger)
                    HistoryRoutes.register(on: &router, history: history, logger: ctx.logger)
                },
                { router, ctx in
                    BooksRoutes.register(on: &router, service: BooksService(
                        configuration: ctx.configuration.books, client: ctx.httpClient, cache: ctx.cache,
                        steward: ctx.steward),
                        logger: ctx.logger, links: ctx.configuration.publicLinks)
                },
            ],
            makeHTTPClient: { config, _ in CurlHTTPClient(configuration: config) },
            upstreamMetrics: { client in
                guard let curl = client as? CurlHTTPClient else { return .empty }
                return UpstreamMetricsSnapshot(byProvider: curl.metrics.snapshot())
            })
    }
}

/// Stands in until a real client is plugged in: every call fails as an upstream error
/// (502), never a crash.
public struct UnavailableHTTPClient: HTTPClient {
    public init() {}
    public func get(_ request: UpstreamRequest) async throws -> UpstreamResponse {
        throw UpstreamError(.other, provider: request.provider, detail: "no upstream HTTP client is configured")
    }
}

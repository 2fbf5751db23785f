import Cache
import HTTPClient
import Upstream

/// The one rate table almanac serves, kept in the `rates` cache namespace.
///
/// Every endpoint reads the same table (cross rates are derived from it), so there is a
/// single cache key: concurrent cold requests share one upstream fetch (the cache's
/// single-flight), expiry triggers one background refresh (stale-while-revalidate), and a
/// failed refresh keeps the stale table within `staleSeconds` (stale-if-error).
public final class RatesService: Sendable {
    /// The namespace name under `cache.*` limits (also `DELETE /admin/cache/rates`).
    public static let namespaceName = "rates"
    static let tableKey = "table"

    public let providers: [any RatesProvider]
    public let ttlSeconds: Double
    public let staleSeconds: Double
    private let chain: ProviderChain<RateTable>
    private let cache: CacheNamespace<String, RateTable>

    /// The service for `configuration`, fetching through `client` and caching in `cache`.
    public convenience init(configuration: RatesConfiguration, client: any HTTPClient, cache: CacheStore,
                            steward: Steward? = nil, now: @escaping WallClock = WallClocks.system) {
        self.init(providers: configuration.makeProviders(now: now), ttlSeconds: configuration.ttlSeconds,
                  staleSeconds: configuration.staleSeconds, client: client, cache: cache, steward: steward)
    }

    /// The service with explicit providers (tests, custom wiring).
    public init(providers: [any RatesProvider], ttlSeconds: Double = RatesConfiguration().ttlSeconds,
                staleSeconds: Double = RatesConfiguration().staleSeconds,
                client: any HTTPClient, cache: CacheStore, steward: Steward? = nil) {
        self.providers = providers
        self.ttlSeconds = ttlSeconds
        self.staleSeconds = staleSeconds
        self.chain = ProviderChain(rates: providers, client: client, steward: steward)
        self.cache = cache.namespace(RatesService.namespaceName, keyType: String.self, valueType: RateTable.self)
    }

    /// The current table: fresh from the cache, stale while a refresh runs, or fetched now
    /// (failing over across providers). Throws `ProvidersUnavailable` when no provider answered.
    public func table() async throws -> CacheLookup<RateTable> {
        let chain = self.chain
        let ttl = ttlSeconds, stale = staleSeconds
        return try await cache.value(for: RatesService.tableKey) {
            let table = try await chain.firstAnswer(background: CacheRefresh.isBackground)
            return CacheLoad(value: table, ttlSeconds: ttl, staleSeconds: stale)
        }
    }

    /// The table when it is fresh, synchronously (counted as a hit); nil otherwise. Lets routes
    /// answer hits `.ready`, with no task hop.
    public func freshTable() -> CacheLookup<RateTable>? {
        cache.fresh(RatesService.tableKey)
    }
}

import Cache
import HTTPClient
import Synchronization
import Upstream

/// The one rate table almanac serves, kept in the `rates` cache namespace.
///
/// Every endpoint reads the same table (cross rates are derived from it), so there is a
/// single cache key: concurrent cold requests share one upstream fetch (the cache's
/// single-flight), expiry triggers one background refresh (stale-while-revalidate), and a
/// failed refresh keeps the stale table within `staleSeconds` (stale-if-error).
///
/// With a price index (`PriceIndex`), the same entry holds the index too (`IndexedRates`):
/// the chain's table and every constituent's tickers are fetched concurrently by the one load,
/// so the index refreshes once per TTL and a hit costs what it did without it.
public final class RatesService: Sendable {
    /// The namespace name under `cache.*` limits (also `DELETE /admin/cache/rates`).
    public static let namespaceName = "rates"
    static let tableKey = "table"

    public let providers: [any RatesProvider]
    public let ttlSeconds: Double
    public let staleSeconds: Double
    /// The Bitcoin Price Index anchoring USD/EUR/GBP (nil: off, the chain's table as it is).
    public let index: PriceIndex?
    private let chain: ProviderChain<RateTable>
    private let cache: CacheNamespace<String, IndexedRates>
    private let lastReport = Mutex<IndexReport?>(nil)

    /// The service for `configuration`, fetching through `client` and caching in `cache`.
    /// - Parameter sharedEndpoints: the history exchanges' endpoints, which the constituents
    ///   of the same name (coinbase-exchange, bitstamp) use.
    public convenience init(configuration: RatesConfiguration, sharedEndpoints: ProviderEndpoints = HistoryConfiguration().endpoints,
                            client: any HTTPClient, cache: CacheStore,
                            steward: Steward? = nil, now: @escaping WallClock = WallClocks.system) {
        let constituents = configuration.index.makeConstituents(shared: sharedEndpoints)
        let index = constituents.isEmpty ? nil : PriceIndex(constituents: constituents, rule: configuration.index.rule,
                                                            client: client, steward: steward, now: now)
        self.init(providers: configuration.makeProviders(now: now), index: index, ttlSeconds: configuration.ttlSeconds,
                  staleSeconds: configuration.staleSeconds, client: client, cache: cache, steward: steward)
    }

    /// The service with explicit providers (tests, custom wiring).
    public init(providers: [any RatesProvider], index: PriceIndex? = nil, ttlSeconds: Double = RatesConfiguration().ttlSeconds,
                staleSeconds: Double = RatesConfiguration().staleSeconds,
                client: any HTTPClient, cache: CacheStore, steward: Steward? = nil) {
        self.providers = providers
        self.index = index
        self.ttlSeconds = ttlSeconds
        self.staleSeconds = staleSeconds
        self.chain = ProviderChain(rates: providers, client: client, steward: steward)
        self.cache = cache.namespace(RatesService.namespaceName, keyType: String.self, valueType: IndexedRates.self)
    }

    /// The current table: fresh from the cache, stale while a refresh runs, or fetched now
    /// (failing over across providers). Throws `ProvidersUnavailable` when no provider answered.
    public func table() async throws -> CacheLookup<RateTable> {
        Self.tableLookup(try await indexed())
    }

    /// The table when it is fresh, synchronously (counted as a hit); nil otherwise. Lets routes
    /// answer hits `.ready`, with no task hop.
    public func freshTable() -> CacheLookup<RateTable>? {
        cache.fresh(RatesService.tableKey).map(Self.tableLookup)
    }

    /// The cached value itself (table and index report), as `table()` finds or loads it.
    public func indexed() async throws -> CacheLookup<IndexedRates> {
        let chain = self.chain, index = self.index
        let ttl = ttlSeconds, stale = staleSeconds
        let lookup = try await cache.value(for: RatesService.tableKey) { [self] in
            let background = CacheRefresh.isBackground
            async let report = index?.report(background: background)
            let table = try await chain.firstAnswer(background: background)
            let value = IndexedRates.compose(chain: table, index: await report)
            // A background refresh returns to no caller: remember its report here.
            if let report = value.index { lastReport.withLock { $0 = report } }
            return CacheLoad(value: value, ttlSeconds: ttl, staleSeconds: stale)
        }
        // Only loads and this path meet a value first (loaded, or adopted from the shared
        // layer); fresh hits see one already met, so they need not touch the lock.
        if let report = lookup.value.index { lastReport.withLock { $0 = report } }
        return lookup
    }

    /// The index report of the last value served through `indexed()` (nil before the first,
    /// or with the index off), for `/metrics`.
    public var lastIndexReport: IndexReport? { lastReport.withLock { $0 } }

    /// The cached value when it is fresh, synchronously; nil otherwise.
    public func freshIndexed() -> CacheLookup<IndexedRates>? {
        cache.fresh(RatesService.tableKey)
    }

    /// A lookup of the served table, with the cached value's validator and times.
    static func tableLookup(_ lookup: CacheLookup<IndexedRates>) -> CacheLookup<RateTable> {
        CacheLookup(value: lookup.value.table, outcome: lookup.outcome, ageSeconds: lookup.ageSeconds,
                    freshnessLeftSeconds: lookup.freshnessLeftSeconds, validator: lookup.validator,
                    collapsed: lookup.collapsed, source: lookup.source)
    }
}

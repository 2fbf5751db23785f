import Upstream

/// The `rates.*` configuration keys (docs/rates.md "Configuration"). Every default is written
/// once: the plain values here, each provider's base URL and budget in its own file
/// (`RatesProviderKind.descriptor`). Almanac's configuration holds this type as it is.
public struct RatesConfiguration: Sendable, Equatable {
    /// Every provider `providers` may name (the registry, `RatesProviderKind.all`).
    public let kinds: [RatesProviderKind]
    /// Provider ids in failover order (`rates.providers`).
    public var providers = ["coinbase", "coingecko"]
    /// Freshness of a fetched table (`rates.ttlSeconds`).
    public var ttlSeconds: Double = 60
    /// How long past expiry a table may still be served stale (`rates.staleSeconds`).
    public var staleSeconds: Double = 600
    /// Each provider's base URL and budget (`rates.<provider>.baseUrl`, …), by id.
    public var endpoints: ProviderEndpoints
    /// `rates.index.*`: the Bitcoin Price Index anchoring USD, EUR and GBP.
    public var index: IndexConfiguration

    public init(kinds: [RatesProviderKind] = RatesProviderKind.all, index: IndexConfiguration = IndexConfiguration()) {
        self.kinds = kinds
        self.endpoints = ProviderEndpoints(kinds.map(\.descriptor))
        self.index = index
    }

    /// The configured providers, in order. Unknown names are skipped (the loader rejects them).
    public func makeProviders(now: @escaping WallClock = WallClocks.system) -> [any RatesProvider] {
        providers.compactMap { id in
            kinds.first { $0.descriptor.id == id }.map { $0.make(endpoints[id].baseURL, now) }
        }
    }
}

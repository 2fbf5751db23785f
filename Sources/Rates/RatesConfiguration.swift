/// The `rates.*` configuration keys (docs/rates.md "Configuration"), with their documented defaults.
public struct RatesConfiguration: Sendable, Equatable {
    public enum Defaults {
        public static let providers = ["coinbase", "coingecko"]
        public static let ttlSeconds: Double = 60
        public static let staleSeconds: Double = 600
        public static let coinbaseBaseURL = "https://api.coinbase.com"
        public static let coingeckoBaseURL = "https://api.coingecko.com"
        /// CoinDesk's own host was retired in 2025; the key exists for mirrors.
        public static let coindeskBaseURL = "https://api.coindesk.com"
    }

    /// One upstream's settings (`rates.coinbase.baseUrl`, …).
    public struct Upstream: Sendable, Equatable {
        public var baseURL: String
        public init(baseURL: String) { self.baseURL = baseURL }
    }

    /// Provider names in failover order (`rates.providers`).
    public var providers: [String]
    /// Freshness of a fetched table (`rates.ttlSeconds`).
    public var ttlSeconds: Double
    /// How long past expiry a table may still be served stale (`rates.staleSeconds`).
    public var staleSeconds: Double
    public var coinbase: Upstream
    public var coingecko: Upstream
    public var coindesk: Upstream

    public init(
        providers: [String] = Defaults.providers,
        ttlSeconds: Double = Defaults.ttlSeconds,
        staleSeconds: Double = Defaults.staleSeconds,
        coinbase: Upstream = Upstream(baseURL: Defaults.coinbaseBaseURL),
        coingecko: Upstream = Upstream(baseURL: Defaults.coingeckoBaseURL),
        coindesk: Upstream = Upstream(baseURL: Defaults.coindeskBaseURL)
    ) {
        self.providers = providers
        self.ttlSeconds = ttlSeconds
        self.staleSeconds = staleSeconds
        self.coinbase = coinbase
        self.coingecko = coingecko
        self.coindesk = coindesk
    }

    /// Every name `providers` may contain.
    public static let knownProviders = ["coinbase", "coingecko", "coindesk"]

    /// Problems with this configuration, one line per bad key (for `almanac check-config`).
    public func validate() -> [String] {
        var problems: [String] = []
        if providers.isEmpty { problems.append("rates.providers: must name at least one provider") }
        for name in providers where !RatesConfiguration.knownProviders.contains(name) {
            problems.append("rates.providers: unknown provider \"\(name)\" (known: \(RatesConfiguration.knownProviders.joined(separator: ", ")))")
        }
        if Set(providers).count != providers.count { problems.append("rates.providers: a provider is listed twice") }
        if !(ttlSeconds > 0 && ttlSeconds.isFinite) { problems.append("rates.ttlSeconds: must be a positive number of seconds") }
        if !(staleSeconds >= 0 && staleSeconds.isFinite) { problems.append("rates.staleSeconds: must be zero or a positive number of seconds") }
        for (key, upstream) in [("coinbase", coinbase), ("coingecko", coingecko), ("coindesk", coindesk)]
            where !(upstream.baseURL.hasPrefix("http://") || upstream.baseURL.hasPrefix("https://")) {
            problems.append("rates.\(key).baseUrl: must be an absolute http:// or https:// URL")
        }
        return problems
    }

    /// The configured providers, in order. Unknown names are skipped (`validate()` reports them).
    public func makeProviders(now: @escaping WallClock = WallClocks.system) -> [any RatesProvider] {
        providers.compactMap { name -> (any RatesProvider)? in
            switch name {
            case "coinbase": return CoinbaseProvider(baseURL: coinbase.baseURL, now: now)
            case "coingecko": return CoinGeckoProvider(baseURL: coingecko.baseURL, now: now)
            case "coindesk": return CoinDeskProvider(baseURL: coindesk.baseURL)
            default: return nil
            }
        }
    }
}

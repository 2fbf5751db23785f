/// The `rates.history.*` keys and the history providers' base URLs, with their defaults.
public struct HistoryConfiguration: Sendable, Equatable {
    public enum Defaults {
        public static let providers = ["bitstamp", "coinbase-exchange"]
        /// 30 days: complete days never change; the TTL only bounds how long an unused block
        /// occupies memory before the least-recently-used rule would drop it anyway.
        public static let ttlSeconds: Double = 2_592_000
        public static let bitstampBaseURL = "https://www.bitstamp.net"
        public static let coinbaseExchangeBaseURL = "https://api.exchange.coinbase.com"
        public static let frankfurterBaseURL = "https://api.frankfurter.dev"
    }

    /// Every name `providers` may contain.
    public static let knownProviders = ["bitstamp", "coinbase-exchange"]

    /// Exchanges in fall-through order (`rates.history.providers`).
    public var providers: [String]
    /// Lifetime of a block of complete days (`rates.history.ttlSeconds`).
    public var ttlSeconds: Double
    public var bitstampBaseURL: String
    public var coinbaseExchangeBaseURL: String
    public var frankfurterBaseURL: String

    public init(providers: [String] = Defaults.providers, ttlSeconds: Double = Defaults.ttlSeconds,
                bitstampBaseURL: String = Defaults.bitstampBaseURL,
                coinbaseExchangeBaseURL: String = Defaults.coinbaseExchangeBaseURL,
                frankfurterBaseURL: String = Defaults.frankfurterBaseURL) {
        self.providers = providers
        self.ttlSeconds = ttlSeconds
        self.bitstampBaseURL = bitstampBaseURL
        self.coinbaseExchangeBaseURL = coinbaseExchangeBaseURL
        self.frankfurterBaseURL = frankfurterBaseURL
    }

    /// The configured exchanges, in order (unknown names are skipped; the loader rejects them).
    public func makeExchanges() -> [any HistoryExchangeProvider] {
        providers.compactMap { name -> (any HistoryExchangeProvider)? in
            switch name {
            case "bitstamp": return BitstampHistoryProvider(baseURL: bitstampBaseURL)
            case "coinbase-exchange": return CoinbaseExchangeHistoryProvider(baseURL: coinbaseExchangeBaseURL)
            default: return nil
            }
        }
    }
}

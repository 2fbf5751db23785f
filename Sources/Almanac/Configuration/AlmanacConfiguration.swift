/// Everything an operator can set (docs/operations.md "Configuration"), with the documented defaults.
///
/// `ConfigurationLoader` fills it from defaults < JSON file < environment < flags and
/// validates every value, so code that receives one can trust it without re-checking.
public struct AlmanacConfiguration: Sendable, Equatable {
    public var server = Server()
    public var cache = Cache()
    public var upstream = Upstream()
    public var rates = Rates()
    public var books = Books()
    public var log = Log()

    public init() {}

    /// `server.*`: the listener and its limits.
    public struct Server: Sendable, Equatable {
        /// `0.0.0.0`: every IPv4 interface, as containers need.
        public var host = "0.0.0.0"
        /// 8080. Port 0 (ephemeral) is accepted only from `--port`, for tests.
        public var port = 8080
        public var maxConnections = 4096
        public var headerTimeoutSeconds = 10.0
        public var idleTimeoutSeconds = 60.0
        public var maxHeaderBytes = 16384
        public var maxBodyBytes = 65536
        public var shutdownGraceSeconds = 10.0
        /// 0: after SIGTERM/SIGINT, how long to keep accepting and serving while `/readyz`
        /// answers 503, so a load balancer takes the instance out of rotation before the drain.
        public var shutdownDelaySeconds = 0.0
        /// None: the admin API is off and its routes answer 404 as if they did not exist.
        public var adminToken: String?
        public var cors = CORS()
        /// Where clients reach almanac (`https://books.example.com`, a path prefix allowed):
        /// the base of absolute links almanac writes (Google-compatible `imageLinks`). None:
        /// built from the request's `Host` (and forwarded headers when trusted).
        public var publicBaseUrl: String?
        /// Behind one trusted reverse proxy: `Forwarded` / `X-Forwarded-Proto` /
        /// `X-Forwarded-Host` shape absolute links, and the access log's client address comes
        /// from `X-Forwarded-For`. Off by default: a direct client could forge them.
        public var trustForwardedHeaders = false
        public init() {}

        /// `server.cors.*`: which web pages on other origins may read the public API.
        public struct CORS: Sendable, Equatable {
            /// `["*"]`: any origin, as CoinDesk allowed. Otherwise a list of
            /// `scheme://host[:port]` origins (normalized); `[]` admits none.
            public var allowedOrigins = ["*"]
            public init() {}
        }
    }

    /// `cache.*`: one memory budget shared by every namespace.
    public struct Cache: Sendable, Equatable {
        public var maxEntries = 10000
        public var maxBytes = 67_108_864
        public var redis = Redis()
        public init() {}

        /// `cache.redis.*`: the layer replicas share (docs/cache.md "Two layers").
        public struct Redis: Sendable, Equatable {
            /// None: no shared layer, this process's memory only. A secret (its password).
            public var url: String?
            public var keyPrefix = "almanac:"
            /// Bound of every Redis call; past it the call counts as Redis being down.
            public var timeoutMs = 50
            /// Larger values stay in memory only.
            public var maxValueBytes = 4_194_304
            public init() {}
        }
    }

    /// `upstream.*`: how the HTTP client treats every provider.
    public struct Upstream: Sendable, Equatable {
        public var connectTimeoutMs = 2000
        public var timeoutMs = 5000
        public var retries = 2
        public var maxResponseBytes = 5_242_880
        /// `almanac/<version> (+<project URL>)`; operators append a contact address.
        public var userAgent = AlmanacVersion.userAgent
        /// Longest wait for a provider's budget token before it is skipped.
        public var maxQueueMs = 250
        /// Cap of a cooldown, whatever a provider's Retry-After says.
        public var maxCooldownSeconds = 300.0
        /// Consecutive transport failures, timeouts or 5xx that open a provider's breaker.
        public var breakerFailures = 5
        /// Retries as a share of a provider's requests over the last 10 s (at least 1 a second).
        public var retryBudgetPercent = 10
        /// A client request's whole wait across the provider chain.
        public var requestDeadlineMs = 8000
        public init() {}
    }

    /// One upstream API's location and request budget; tests and mirrors point it elsewhere.
    public struct Endpoint: Sendable, Equatable {
        public var baseUrl: String
        /// Budget refill rate (`…maxRequestsPerSecond`, 0 = none); defaults follow each
        /// provider's published guidance (docs/upstream.md).
        public var maxRequestsPerSecond: Double
        /// Budget size (`…burst`): a full batch goes at once.
        public var burst = 20
        public init(baseUrl: String, maxRequestsPerSecond: Double = 0) {
            self.baseUrl = baseUrl
            self.maxRequestsPerSecond = maxRequestsPerSecond
        }
    }

    /// `rates.*`: exchange-rate providers and cache lifetimes.
    public struct Rates: Sendable, Equatable {
        public static let knownProviders = ["coinbase", "coingecko", "coindesk"]
        /// Tried in this order; a failure falls through to the next.
        public var providers = ["coinbase", "coingecko"]
        public var ttlSeconds = 60.0
        public var staleSeconds = 600.0
        /// Coinbase App API: 10,000 requests an hour → 2.7 a second.
        public var coinbase = Endpoint(baseUrl: "https://api.coinbase.com", maxRequestsPerSecond: 2.7)
        /// Keyless CoinGecko: a few calls a minute per IP, shared → 0.2 a second (12 a minute).
        public var coingecko = Endpoint(baseUrl: "https://api.coingecko.com", maxRequestsPerSecond: 0.2)
        /// Retired in 2025; kept for mirrors and recorded fixtures (no budget: no guidance).
        public var coindesk = Endpoint(baseUrl: "https://api.coindesk.com")
        /// `rates.history.*`: daily closes of complete UTC days.
        public var history = History()
        /// Daily BTC-USD/EUR/GBP candles from 2011-08-18. Bitstamp allows 8,000 requests per
        /// 10 minutes per IP → 13 a second.
        public var bitstamp = Endpoint(baseUrl: "https://www.bitstamp.net", maxRequestsPerSecond: 13)
        /// Daily BTC-USD/EUR/GBP candles from 2015-07-20. Coinbase Exchange's public endpoints
        /// allow 10 requests a second per IP.
        public var coinbaseExchange = Endpoint(baseUrl: "https://api.exchange.coinbase.com", maxRequestsPerSecond: 10)
        /// ECB reference rates, for every other ECB currency's history (no published limit).
        public var frankfurter = Endpoint(baseUrl: "https://api.frankfurter.dev")
        public init() {}

        public struct History: Sendable, Equatable {
            public static let knownProviders = ["bitstamp", "coinbase-exchange"]
            /// Exchanges in fall-through order.
            public var providers = ["bitstamp", "coinbase-exchange"]
            /// Lifetime of a cached block of complete days (30 days).
            public var ttlSeconds = 2_592_000.0
            public init() {}
        }
    }

    /// `books.*`: book providers, cache lifetimes and the cover size cap.
    public struct Books: Sendable, Equatable {
        public static let knownProviders = ["google-books", "open-library"]
        public var providers = ["google-books", "open-library"]
        public var ttlSeconds = 86400.0
        /// How long "no provider knows this ISBN" is cached.
        public var notFoundTtlSeconds = 3600.0
        public var staleSeconds = 604_800.0
        public var googleBooks = GoogleBooks()
        public var openLibrary = OpenLibrary()
        public var maxCoverBytes = 2_097_152
        public init() {}

        public struct GoogleBooks: Sendable, Equatable {
            public var baseUrl = "https://www.googleapis.com"
            /// Optional; without it Google's anonymous quota applies. A secret: never logged.
            public var apiKey: String?
            /// Optional ISO 3166-1 alpha-2 code sent as `country=` (Google answers by the
            /// caller's location, which for a server in a data centre may be surprising).
            public var country: String?
            /// Google APIs' default per-user quota, 100 requests per 100 s → 1 a second.
            public var maxRequestsPerSecond = 1.0
            public var burst = 20
            public init() {}
        }

        public struct OpenLibrary: Sendable, Equatable {
            public var baseUrl = "https://openlibrary.org"
            public var coversBaseUrl = "https://covers.openlibrary.org"
            /// Open Library asks API users for about one request a second.
            public var maxRequestsPerSecond = 1.0
            public var burst = 20
            public init() {}
        }
    }

    /// `log.*`: what is logged and how lines look.
    public struct Log: Sendable, Equatable {
        public var level = LogLevel.info
        public var format = LogFormat.json
        public init() {}
    }
}

/// Severity of a log line; lines below the configured level are dropped before formatting.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case debug, info, warn, error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warn: 2
        case .error: 3
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// `json`: one JSON object per line for log shippers; `text`: `key=value` for people.
public enum LogFormat: String, Sendable, CaseIterable {
    case json, text
}

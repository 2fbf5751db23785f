import Books
import HTTPClient
import HTTPServer
import Rates
import Upstream

/// Everything an operator can set (docs/operations.md "Configuration"), with the documented defaults.
///
/// `ConfigurationLoader` fills it from defaults < JSON file < environment < flags and
/// validates every value, so code that receives one can trust it without re-checking.
public struct AlmanacConfiguration: Sendable, Equatable {
    public var server = Server()
    public var cache = Cache()
    public var upstream = Upstream()
    /// `rates.*` except `rates.history.*`; providers and their endpoints from the registry
    /// (`RatesProviderKind.all`), every default written once in Rates.
    public var rates = RatesConfiguration()
    /// `rates.history.*` and the history providers' endpoints (`rates.bitstamp.*`, …).
    public var history = HistoryConfiguration()
    /// `books.*`; providers and their endpoints from the registry (`BooksProviderKind.all`).
    public var books = BooksConfiguration()
    public var log = Log()

    public init() {}

    /// The defaults with other provider registries (tests that add a provider; a build with
    /// more providers): the keys, provider names and budgets follow the kinds given.
    public init(rates: [RatesProviderKind] = RatesProviderKind.all, history: [HistoryProviderKind] = HistoryProviderKind.all,
                books: [BooksProviderKind] = BooksProviderKind.all) {
        self.rates = RatesConfiguration(kinds: rates)
        self.history = HistoryConfiguration(kinds: history)
        self.books = BooksConfiguration(kinds: books)
    }

    /// `server.*`: the listener and its limits. The server's own defaults are the documented
    /// ones (written once, in `HTTPServerConfiguration`).
    public struct Server: Sendable, Equatable {
        private static let defaults = HTTPServerConfiguration()
        /// `0.0.0.0`: every IPv4 interface, as containers need.
        public var host = defaults.host
        /// 8080. Port 0 (ephemeral) is accepted only from `--port`, for tests.
        public var port = defaults.port
        public var maxConnections = defaults.maxConnections
        public var headerTimeoutSeconds = defaults.headerTimeoutSeconds
        public var idleTimeoutSeconds = defaults.idleTimeoutSeconds
        public var maxHeaderBytes = defaults.maxHeaderBytes
        public var maxBodyBytes = defaults.maxBodyBytes
        public var shutdownGraceSeconds = defaults.shutdownGraceSeconds
        /// 0: after SIGTERM/SIGINT, how long to keep accepting and serving while `/readyz`
        /// answers 503, so a load balancer takes the instance out of rotation before the drain.
        public var shutdownDelaySeconds = 0.0
        /// None: the admin API is off and its routes answer 404 as if they did not exist.
        public var adminToken: String?
        public var cors = CORS()
        /// Where clients reach almanac (`https://books.example.com`, a path prefix allowed):
        /// the base of absolute links almanac writes (Google-compatible `imageLinks`). None:
        /// built from the request's `Host` (and forwarded headers when trusted).
        public var publicBaseURL: String?
        /// Behind one trusted reverse proxy: `Forwarded` / `X-Forwarded-Proto` /
        /// `X-Forwarded-Host` shape absolute links, and the access log's client address comes
        /// from `X-Forwarded-For`. Off by default: a direct client could forge them.
        public var trustForwardedHeaders = defaults.trustForwardedHeaders
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

    /// `upstream.*`: how the HTTP client treats every provider. Defaults are the client's and
    /// the steward's own (written once, in `HTTPClientConfiguration` and `StewardConfiguration`).
    public struct Upstream: Sendable, Equatable {
        private static let client = HTTPClientConfiguration(), steward = StewardConfiguration()
        public var connectTimeoutMs = client.connectTimeoutMs
        public var timeoutMs = client.timeoutMs
        public var retries = client.retries
        public var maxResponseBytes = client.maxResponseBytes
        /// `almanac/<version> (+<project URL>)`; operators append a contact address.
        public var userAgent = AlmanacVersion.userAgent
        /// Longest wait for a provider's budget token before it is skipped.
        public var maxQueueMs = steward.maxQueueMs
        /// Cap of a cooldown, whatever a provider's Retry-After says.
        public var maxCooldownSeconds = steward.limits.maxCooldownSeconds
        /// Consecutive transport failures, timeouts or 5xx that open a provider's breaker.
        public var breakerFailures = steward.limits.breakerFailures
        /// Retries as a share of a provider's requests over the last 10 s (at least 1 a second).
        public var retryBudgetPercent = steward.limits.retryBudgetPercent
        /// A client request's whole wait across the provider chain.
        public var requestDeadlineMs = steward.requestDeadlineMs
        public init() {}
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

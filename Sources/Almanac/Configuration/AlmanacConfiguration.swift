import Books
import HTTPClient
import HTTP1
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

    /// `server.*`: the listener and its limits, and what almanac's own routes need.
    public struct Server: Sendable, Equatable {
        /// `server.host`, `.port`, `.maxConnections`, `.headerTimeoutSeconds`, `.idleTimeoutSeconds`,
        /// `.maxHeaderBytes`, `.maxBodyBytes`, `.shutdownGraceSeconds` and `.trustForwardedHeaders`:
        /// the HTTP server's own settings with its documented defaults, held as its type so each
        /// is written once (`httpServerConfiguration` adds what almanac derives).
        ///
        /// `trustForwardedHeaders`: behind one trusted reverse proxy, `Forwarded` /
        /// `X-Forwarded-Proto` / `X-Forwarded-Host` shape absolute links and the access log's
        /// client address comes from `X-Forwarded-For`. Off by default: a direct client could forge them.
        public var http = HTTPServerConfiguration()
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
            /// Redis behind Sentinel, instead of `url`: the sentinels (`host:port`) and the name
            /// they monitor the primary under.
            public var sentinels: [String] = []
            public var masterName: String?
            /// The primary's password with Sentinel (with `url` it belongs in the URL). A secret.
            public var password: String?
            public var tls = TLS()
            public init() {}

            /// `cache.redis.tls.*`: how the connection to Redis is encrypted and verified
            /// (with `rediss://`, or with Sentinel and `enabled`).
            public struct TLS: Sendable, Equatable {
                /// With Sentinel, connect to the primary over TLS (with `url`, the scheme says it).
                public var enabled = false
                public var caFile: String?
                public var certFile: String?
                public var keyFile: String?
                public var serverName: String?
                /// Off only by choice; logged as a warning at start.
                public var verify = true
                public init() {}
            }
        }
    }

    /// `upstream.*`: how the HTTP client and the steward treat every provider, held as their
    /// own configuration types so each default is written once, where it is used.
    public struct Upstream: Sendable, Equatable {
        /// `upstream.connectTimeoutMs`, `.timeoutMs`, `.retries`, `.maxResponseBytes` and
        /// `.userAgent` (`almanac/<version> (+<project URL>)` by default; operators append a
        /// contact address).
        public var client = HTTPClientConfiguration()
        /// `upstream.maxQueueMs` (longest wait for a budget token before a provider is skipped),
        /// `.requestDeadlineMs` (a client request's whole wait across the provider chain), and in
        /// `limits`: `.maxCooldownSeconds`, `.breakerFailures`, `.retryBudgetPercent`. Budgets
        /// come from the provider endpoints (`stewardConfiguration`).
        public var steward = StewardConfiguration()
        public init() {
            client.userAgent = AlmanacVersion.userAgent
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

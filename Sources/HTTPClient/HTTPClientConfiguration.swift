/// Upstream client limits (`upstream.*` in docs/operations.md "Configuration"; docs/client.md).
public struct HTTPClientConfiguration: Sendable, Equatable {
    /// TCP (+ TLS) connect budget of one attempt; never more than what is left of `timeoutMs`.
    public var connectTimeoutMs: Int = 2000
    /// Total deadline of one `get`, retries, backoff and redirects included.
    public var timeoutMs: Int = 5000
    /// Extra attempts after the first, for the retryable failures of `RetryPolicy`.
    public var retries: Int = 2
    public var maxResponseBytes: Int = 5_242_880
    public var userAgent: String = "almanac"
    public var maxConnectionsPerHost: Int = 8
    public var maxConnectionsTotal: Int = 64
    /// Drip-feed guard (`StallGuard`): once the first byte of an answer has arrived, an attempt
    /// whose rate stays below this many bytes per second for `stallSeconds` is aborted as a
    /// timeout. 0 disables it. Before the first byte only `timeoutMs` limits the wait.
    /// Default 100 B/s over 3 s: any real answer (even a 5 KB JSON over a poor link) is far above
    /// it, while a server sending a byte now and then is cut long before `timeoutMs` when that
    /// is configured generously.
    public var stallBytesPerSecond: Int = 100
    /// `upstream.stallSeconds`; 0 disables the guard.
    public var stallSeconds: Int = 3
    /// At most this many redirects are followed (each target checked before connecting).
    public var maxRedirects: Int = 3
    /// Base of the exponential backoff with full jitter: attempt n waits random(0, base·2ⁿ⁻¹).
    public var retryBaseDelayMs: Int = 100
    /// Cap of one backoff wait and of an honoured `Retry-After`.
    public var maxRetryDelayMs: Int = 2000
    /// Sent as `Accept-Encoding`; libcurl decodes the body (size limits apply to decoded bytes).
    public var acceptEncoding: String = "gzip, deflate"
    public init() {}
}

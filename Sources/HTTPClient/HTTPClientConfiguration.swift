/// Upstream client limits (API.md §1 `upstream.*`).
public struct HTTPClientConfiguration: Sendable {
    public var connectTimeoutMs: Int = 2000
    /// Total deadline of one `get`, retries included.
    public var timeoutMs: Int = 5000
    public var retries: Int = 2
    public var maxResponseBytes: Int = 5_242_880
    public var userAgent: String = "almanac"
    public var maxConnectionsPerHost: Int = 8
    public var maxConnectionsTotal: Int = 64
    public init() {}
}

/// Everything one HTTP exchange (one hop: no retries, no redirects) needs, already decided by
/// `CurlHTTPClient`: the URL was checked against scheme and host policy before this exists.
struct TransferSpec: Sendable {
    var url: String
    var headers: [UpstreamHeader]
    var userAgent: String
    var connectTimeoutMs: Int
    /// What is left of the call's total deadline.
    var timeoutMs: Int
    var maxResponseBytes: Int
    var lowSpeedLimitBytesPerSecond: Int
    var lowSpeedTimeSeconds: Int
    var acceptEncoding: String
}

/// How one hop ended.
enum TransferOutcome: Sendable {
    /// `redirectURL` is libcurl's resolved `Location` for 3xx answers (never followed by curl).
    case response(UpstreamResponse, redirectURL: String?)
    case failure(UpstreamError.Kind, detail: String)
}

import Base

/// Everything one HTTP exchange (one hop: no retries, no redirects) needs, already decided by
/// `CurlHTTPClient`: the URL was checked against scheme and host policy before this exists.
struct TransferSpec: Sendable {
    var url: String
    var headers: [UpstreamHeader]
    /// The client's identity and per-attempt limits: user agent, connect timeout, drip-feed
    /// guard, accepted encodings (its `timeoutMs` and `maxResponseBytes` give way to the two below).
    var client: HTTPClientConfiguration
    /// What is left of the call's total deadline.
    var timeoutMs: Int
    /// The request's own limit when it sets one (a cover image), else the client's.
    var maxResponseBytes: Int
    /// The call's clock (its deadline's): the stall guard's seconds are read on it.
    var clock: any MonotonicClock
}

/// How one hop ended.
enum TransferOutcome: Sendable {
    /// `redirectURL` is libcurl's resolved `Location` for 3xx answers (never followed by curl).
    case response(UpstreamResponse, redirectURL: String?)
    case failure(UpstreamError.Kind, detail: String)
}

/// A say over each attempt of a `get`, for whoever must protect the provider: the steward
/// (module `Upstream`) implements it with budgets, cooldowns, breakers and a retry budget;
/// `CurlHTTPClient.get(_:)` alone uses `OpenGate`, which lets every attempt through.
public protocol AttemptGate: Sendable {
    /// Before attempt `attempt` (1 = the first) of `request`, which must end by `deadline`.
    /// Returns a permit, or throws to stop: the first attempt's error is thrown to the caller
    /// (e.g. the steward's "provider skipped"); for a retry, the previous answer is returned.
    func admit(_ request: UpstreamRequest, attempt: Int, deadline: UpstreamDeadline) async throws -> any AttemptPermit
    /// Whether a retryable answer (`RetryPolicy`) may be retried.
    func mayRetry(_ request: UpstreamRequest, after result: Result<UpstreamResponse, UpstreamError>) async -> Bool
}

/// One admitted attempt; told how it ended, exactly once.
public protocol AttemptPermit: Sendable {
    func finish(_ result: Result<UpstreamResponse, UpstreamError>) async
}

/// Lets every attempt through (a client used on its own, tests, tools).
public struct OpenGate: AttemptGate, AttemptPermit {
    public init() {}
    public func admit(_ request: UpstreamRequest, attempt: Int, deadline: UpstreamDeadline) async throws -> any AttemptPermit { self }
    public func mayRetry(_ request: UpstreamRequest, after result: Result<UpstreamResponse, UpstreamError>) async -> Bool { true }
    public func finish(_ result: Result<UpstreamResponse, UpstreamError>) async {}
}

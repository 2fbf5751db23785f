import HTTPClient

/// No provider gave an answer and at least one could not be asked or failed, so the answer is
/// unknown: nothing is cached, and the HTTP layer answers 503 when a provider was skipped
/// (it said stop, or its breaker or budget held it back), else 504 when every failure was a
/// timeout, else 502.
///
/// The one failure type of `ProviderChain` for every domain (rates, books, history).
public struct ProvidersUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each failed provider's error, in the order they were asked.
    public var failures: [UpstreamError]
    /// Providers the steward held back, in the order they would have been asked.
    public var skipped: [ProviderSkipped]

    public init(failures: [UpstreamError], skipped: [ProviderSkipped] = []) {
        self.failures = failures
        self.skipped = skipped
    }

    /// True when at least one provider was asked and every one that was asked timed out, and
    /// none was skipped (504 rather than 502). An empty list is never a timeout: with no
    /// provider asked, nothing timed out.
    public var isTimeout: Bool { skipped.isEmpty && !failures.isEmpty && failures.allSatisfy(\.isTimeout) }

    /// Seconds until the first skipped provider may be asked again (the 503's `Retry-After`),
    /// nil when none was skipped.
    public var retryAfterSeconds: Double? { skipped.map(\.availableInSeconds).min() }

    public var description: String {
        let parts = failures.map(\.description) + skipped.map(\.description)
        return parts.isEmpty ? "no provider is configured" : parts.joined(separator: "; ")
    }
}

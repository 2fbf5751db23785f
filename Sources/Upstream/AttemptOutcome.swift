import Foundation
import HTTPClient

/// How one attempt ended, in the terms the steward's state machines need.
public enum AttemptOutcome: Sendable, Equatable {
    /// The provider asked almanac to stop: a 429 (with or without `Retry-After`), or a 503
    /// with `Retry-After`. Starts a cooldown; never retried.
    case stop(retryAfterSeconds: Double?)
    /// A transport failure, a timeout or a 5xx: counts towards the breaker.
    case failure
    /// Any other answer (2xx–4xx, or an error that says nothing of the provider's health,
    /// such as a body over the size limit): the provider is alive.
    case answered
    /// The caller went away; says nothing about the provider.
    case cancelled

    /// Transport-level failures: the provider (or the way to it) is not working.
    static let failedKinds: Set<UpstreamError.Kind> = [
        .dns, .connectionRefused, .connectionReset, .tls, .timeout, .truncated, .malformed,
    ]

    /// Classifies a client result; `Retry-After` in HTTP-date form is read against `wallNow`.
    public init(_ result: Result<UpstreamResponse, UpstreamError>, wallNow: Date = Date()) {
        switch result {
        case .failure(let error):
            if error.kind == .cancelled { self = .cancelled }
            else { self = Self.failedKinds.contains(error.kind) ? .failure : .answered }
        case .success(let response):
            let retryAfter = response.header("retry-after").flatMap { RetryPolicy.retryAfterSeconds($0, now: wallNow) }
            if response.status == 429 {
                self = .stop(retryAfterSeconds: retryAfter)
            } else if response.status == 503, let retryAfter {
                self = .stop(retryAfterSeconds: retryAfter)
            } else {
                self = (500...599).contains(response.status) ? .failure : .answered
            }
        }
    }
}

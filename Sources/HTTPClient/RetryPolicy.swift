import Base
import Foundation

/// When a GET (idempotent, RFC 9110 §9.2.2) is tried again, and after how long.
public enum RetryPolicy {
    /// Statuses that say "try again later" (a gateway or overload answer). Never 429: a
    /// provider that says "too many requests" gets fewer, not one more.
    static let retriedStatuses: Set<Int> = [502, 503, 504]
    /// Failures where a new connection may well succeed. A timeout is retried only when time is
    /// left (a connect timeout shorter than the total deadline).
    static let retriedKinds: Set<UpstreamError.Kind> = [.connectionRefused, .connectionReset, .timeout]

    /// Whether `result` is worth another attempt.
    static func isRetryable(_ result: Result<UpstreamResponse, UpstreamError>) -> Bool {
        switch result {
        case .success(let response): return retriedStatuses.contains(response.status)
        case .failure(let error): return retriedKinds.contains(error.kind)
        }
    }

    /// The wait before attempt `attempt + 1`: the server's `Retry-After` (capped) when it sent
    /// one, else exponential backoff with full jitter.
    static func delay(after result: Result<UpstreamResponse, UpstreamError>, attempt: Int,
                      configuration: HTTPClientConfiguration, now: Date = Date(),
                      random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }) -> Duration {
        let cap = Double(max(0, configuration.maxRetryDelayMs)) / 1000
        if case .success(let response) = result, let header = response.header("retry-after"),
           let seconds = retryAfterSeconds(header, now: now) {
            return .milliseconds(Int(min(seconds, cap) * 1000))
        }
        let base = Double(max(0, configuration.retryBaseDelayMs)) / 1000
        let ceiling = min(cap, base * pow(2, Double(max(0, attempt - 1))))
        return .milliseconds(Int(random(0...ceiling) * 1000))
    }

    /// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; nil when unparsable.
    public static func retryAfterSeconds(_ value: String, now: Date) -> Double? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { // bytes: "1" U+0301 is one Character
            return Double(value)
        }
        let nowSeconds = Int64(max(-1e15, min(1e15, now.timeIntervalSince1970.rounded(.down))))
        guard let seconds = HTTPDate.parse(value, now: nowSeconds) else { return nil }
        return max(0, Double(seconds) - now.timeIntervalSince1970)
    }
}

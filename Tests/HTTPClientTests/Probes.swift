@testable import HTTPClient
import Foundation

/// Thin doors into internal pure logic, so the tests above read as behaviour.
enum RetryPolicyProbe {
    static func retryAfter(_ value: String, now: Date) -> Double? { RetryPolicy.retryAfterSeconds(value, now: now) }

    static func maxBackoff(attempt: Int, _ configuration: HTTPClientConfiguration) -> Duration {
        RetryPolicy.delay(after: .success(UpstreamResponse(status: 503)), attempt: attempt, configuration: configuration,
                          random: { $0.upperBound })
    }

    static func delay(retryAfter: String, _ configuration: HTTPClientConfiguration) -> Duration {
        RetryPolicy.delay(after: .success(UpstreamResponse(status: 429, headers: ["Retry-After": retryAfter])), attempt: 1,
                          configuration: configuration)
    }
}

enum HeaderParserProbe {
    /// nil when every line is accepted, else "malformed" or "tooLarge".
    static func run(_ lines: [String], max: Int = 1 << 20) -> String? {
        var parser = ResponseHeaderParser()
        for line in lines {
            switch parser.consume(ArraySlice(Array(line.utf8)), maxResponseBytes: max) {
            case .malformed?: return "malformed"
            case .tooLarge?: return "tooLarge"
            case .stalled?: return "stalled"
            case nil: continue
            }
        }
        return nil
    }
}

import Base
import Synchronization

/// Upstream attempts per provider by outcome, and their latency, for `/metrics`.
/// One attempt is one try of a `get` (its redirect hops included); retries count again.
public final class UpstreamMetrics: Sendable {
    /// Outcome labels: `ok` (status < 400), `http_4xx`, `http_5xx`, else `outcomeLabel(for:)`.
    public static let ok = "ok"
    public static let http4xx = "http_4xx"
    public static let http5xx = "http_5xx"

    private struct Provider: Sendable {
        var outcomes: [String: UInt64] = [:]
        let latency = LatencyHistogram()
    }

    private let providers = Mutex<[String: Provider]>([:])

    public init() {}

    /// The Prometheus-friendly (snake_case) label of an error kind, e.g. `connection_refused`;
    /// a run of capitals is one word (`invalidURL` → `invalid_url`).
    public static func outcomeLabel(for kind: UpstreamError.Kind) -> String {
        var label = ""
        var previousWasUpper = false
        for character in kind.rawValue {
            let isUpper = character.isUppercase
            if isUpper && !previousWasUpper { label += "_" }
            label += character.lowercased()
            previousWasUpper = isUpper
        }
        return label
    }

    /// The label of a response status.
    public static func outcomeLabel(forStatus status: Int) -> String {
        status >= 500 ? http5xx : status >= 400 ? http4xx : ok
    }

    /// Counts one attempt; `CurlHTTPClient` calls it, and so may other clients sharing the table.
    public func record(provider: String, outcome: String, seconds: Double) {
        let histogram = providers.withLock { table in
            table[provider, default: Provider()].outcomes[outcome, default: 0] &+= 1
            return table[provider, default: Provider()].latency // present: the line above stored it
        }
        histogram.record(seconds: seconds)
    }

    /// A copy of every provider's counters and latency histogram.
    public func snapshot() -> [String: (outcomes: [String: UInt64], latency: LatencyHistogram.Snapshot)] {
        let table = providers.withLock { $0 }
        return table.mapValues { (outcomes: $0.outcomes, latency: $0.latency.snapshot()) }
    }

    /// How many attempts for `provider` ended with `outcome` (for tests and logs).
    public func count(provider: String, outcome: String) -> UInt64 {
        providers.withLock { $0[provider]?.outcomes[outcome] ?? 0 }
    }
}

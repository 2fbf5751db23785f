import Base
import HTTPClient

/// Upstream calls as the HTTP client counted them, in a shape owned by Almanac so the
/// client's own metrics type can change without touching `/metrics`: the lead maps the
/// client's snapshot into this in one closure at wiring time.
public struct UpstreamMetricsSnapshot: Sendable {
    public struct Requests: Sendable, Equatable {
        /// Provider name: `coinbase`, `google-books`, …
        public var provider: String
        /// `ok`, `http_error`, `timeout`, `dns`, … (a small fixed set decided by the client).
        public var outcome: String
        public var count: UInt64
        public init(provider: String, outcome: String, count: UInt64) {
            self.provider = provider
            self.outcome = outcome
            self.count = count
        }
    }

    public var requests: [Requests]
    /// Latency per provider.
    public var durations: [String: LatencyHistogram.Snapshot]

    public init(requests: [Requests] = [], durations: [String: LatencyHistogram.Snapshot] = [:]) {
        self.requests = requests
        self.durations = durations
    }

    public static let empty = UpstreamMetricsSnapshot()

    /// From a per-provider table of outcome counts and a latency histogram (the shape
    /// `UpstreamMetrics.snapshot()` in HTTPClient returns), so wiring is one line:
    /// `upstreamMetrics: { _ in UpstreamMetricsSnapshot(byProvider: curl.metrics.snapshot()) }`.
    public init(byProvider table: [String: (outcomes: [String: UInt64], latency: LatencyHistogram.Snapshot)]) {
        self.init(
            requests: table.flatMap { provider, entry in
                entry.outcomes.map { Requests(provider: provider, outcome: $0.key, count: $0.value) }
            },
            durations: table.mapValues(\.latency))
    }

    func families() -> [MetricFamily] {
        let requestSamples = requests.sorted { ($0.provider, $0.outcome) < ($1.provider, $1.outcome) }
            .map { MetricFamily.Sample(labels: [("provider", $0.provider), ("outcome", $0.outcome)], value: .number(Double($0.count))) }
        let durationSamples = durations.sorted { $0.key < $1.key }
            .map { MetricFamily.Sample(labels: [("provider", $0.key)], value: .histogram($0.value)) }
        return [
            MetricFamily(name: "almanac_upstream_requests_total", help: "Upstream requests made, by provider and outcome.",
                         kind: .counter, samples: requestSamples),
            MetricFamily(name: "almanac_upstream_request_duration_seconds",
                         help: "Upstream request latency including retries, by provider.",
                         kind: .histogram, samples: durationSamples),
        ]
    }
}

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
        MetricFamily.requestFamilies(
            counter: ("almanac_upstream_requests_total", "Upstream requests made, by provider and outcome."),
            counts: requests.sorted { ($0.provider, $0.outcome) < ($1.provider, $1.outcome) }
                .map { ([("provider", $0.provider), ("outcome", $0.outcome)], $0.count) },
            histogram: ("almanac_upstream_request_duration_seconds",
                        "Upstream request latency including retries, by provider.", "provider"),
            durations: durations.map { ($0.key, $0.value) })
    }
}

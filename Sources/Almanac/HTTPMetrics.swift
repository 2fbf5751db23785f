import HTTPClient
import Synchronization

/// Request counts by route, method and status, and latency by route. Labels come from the
/// router's *pattern* (`/v1/rates/{code}`), never the raw path, and methods outside the
/// standard set count as `OTHER`, so a scanner cannot blow up the series count.
public final class HTTPMetrics: Sendable {
    /// The route label of requests no route matched (404, 405).
    public static let unmatchedRoute = "unmatched"

    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    private struct Key: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private struct State {
        var counts: [Key: UInt64] = [:]
        var durations: [String: LatencyHistogram] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func record(route: String, method: String, status: Int, seconds: Double) {
        let method = HTTPMetrics.knownMethods.contains(method) ? method : "OTHER"
        let histogram = state.withLock { state -> LatencyHistogram in
            state.counts[Key(route: route, method: method, status: status), default: 0] += 1
            if let h = state.durations[route] { return h }
            let h = LatencyHistogram()
            state.durations[route] = h
            return h
        }
        histogram.record(seconds: seconds)
    }

    public func collect() -> [MetricFamily] {
        let (counts, durations) = state.withLock { ($0.counts, $0.durations) }
        let countSamples = counts.sorted { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }
            .map { MetricFamily.Sample(labels: [("route", $0.key.route), ("method", $0.key.method), ("status", String($0.key.status))],
                                       value: .number(Double($0.value))) }
        let durationSamples = durations.sorted { $0.key < $1.key }
            .map { MetricFamily.Sample(labels: [("route", $0.key)], value: .histogram($0.value.snapshot())) }
        return [
            MetricFamily(name: "almanac_http_requests_total", help: "HTTP requests answered, by route pattern, method and status.",
                         kind: .counter, samples: countSamples),
            MetricFamily(name: "almanac_http_request_duration_seconds",
                         help: "Time from routing a request to its response being ready, by route pattern.",
                         kind: .histogram, samples: durationSamples),
        ]
    }
}

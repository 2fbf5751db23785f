import Synchronization

/// The scrape-time list of collectors behind `GET /metrics`. Collectors read live state
/// (atomics, snapshots) when scraped, so recording a request costs nothing here.
public final class MetricsRegistry: Sendable {
    private let collectors = Mutex<[MetricsCollector]>([])

    public init() {}

    public func register(_ collector: @escaping MetricsCollector) {
        collectors.withLock { $0.append(collector) }
    }

    public func collect() -> [MetricFamily] {
        let list = collectors.withLock { $0 }
        return list.flatMap { $0() }
    }

    public func render() -> String { PrometheusText.render(collect()) }
}

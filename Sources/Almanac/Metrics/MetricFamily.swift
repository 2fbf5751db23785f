import Base

/// One Prometheus metric family as collected at scrape time: a name, its help, its type and
/// every sample. Collectors build these from live state; `PrometheusText` renders them.
public struct MetricFamily: Sendable {
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    public struct Sample: Sendable {
        /// Label pairs in the order they are rendered.
        public var labels: [(String, String)]
        public var value: Value
        public init(labels: [(String, String)] = [], value: Value) {
            self.labels = labels
            self.value = value
        }
    }

    public enum Value: Sendable {
        case number(Double)
        case histogram(LatencyHistogram.Snapshot)
    }

    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [Sample]

    public init(name: String, help: String, kind: Kind, samples: [Sample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }

    /// The two families every request source exports: a `…_requests_total` counter (`counts`,
    /// each sample's labels then its count, in the order given: the caller sorts them) and a
    /// `…_request_duration_seconds` histogram (`durations` by one label, sorted here), so
    /// scrapes are stable.
    static func requestFamilies(
        counter: (name: String, help: String), counts: [(labels: [(String, String)], count: UInt64)],
        histogram: (name: String, help: String, label: String), durations: [(String, LatencyHistogram.Snapshot)]
    ) -> [MetricFamily] {
        let countSamples = counts.map { Sample(labels: $0.labels, value: .number(Double($0.count))) }
        let durationSamples = durations.sorted { $0.0 < $1.0 }
            .map { Sample(labels: [(histogram.label, $0.0)], value: .histogram($0.1)) }
        return [
            MetricFamily(name: counter.name, help: counter.help, kind: .counter, samples: countSamples),
            MetricFamily(name: histogram.name, help: histogram.help, kind: .histogram, samples: durationSamples),
        ]
    }

    /// A family with a single unlabelled sample.
    public static func single(_ name: String, help: String, kind: Kind, value: Double) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: kind, samples: [Sample(value: .number(value))])
    }
}

/// Something that contributes families at scrape time.
public typealias MetricsCollector = @Sendable () -> [MetricFamily]

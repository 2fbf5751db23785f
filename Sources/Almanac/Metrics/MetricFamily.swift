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

    /// A family with a single unlabelled sample.
    public static func single(_ name: String, help: String, kind: Kind, value: Double) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: kind, samples: [Sample(value: .number(value))])
    }
}

/// Something that contributes families at scrape time.
public typealias MetricsCollector = @Sendable () -> [MetricFamily]

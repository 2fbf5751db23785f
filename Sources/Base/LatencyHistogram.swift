import Synchronization

/// A Prometheus-style cumulative histogram of durations in seconds, safe to record from any
/// thread: server-side request metrics and upstream call metrics both record into it. Buckets
/// span 50 µs (a cache hit) to 30 s (a slow upstream with retries), so both HTTP serving and
/// upstream calls resolve where they actually fall.
public final class LatencyHistogram: Sendable {
    /// Upper bounds in seconds, ascending; `+Inf` is implicit.
    public static let defaultBounds: [Double] = [
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
        0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
    ]

    /// A consistent copy of the histogram's state.
    public struct Snapshot: Sendable, Equatable {
        public var bounds: [Double]
        /// Non-cumulative counts, one per bound plus the trailing `+Inf` bucket.
        public var counts: [UInt64]
        public var sum: Double
        public var count: UInt64

        /// Cumulative counts per bound (the `le` series), ending with `+Inf` == `count`.
        public var cumulativeCounts: [UInt64] {
            var running: UInt64 = 0
            return counts.map { running += $0; return running }
        }
    }

    public let bounds: [Double]
    private let state: Mutex<Snapshot>

    public init(bounds: [Double] = LatencyHistogram.defaultBounds) {
        precondition(bounds == bounds.sorted(), "bucket bounds must ascend")
        self.bounds = bounds
        state = Mutex(Snapshot(bounds: bounds, counts: Array(repeating: 0, count: bounds.count + 1), sum: 0, count: 0))
    }

    public func record(seconds: Double) {
        let index = bounds.firstIndex { seconds <= $0 } ?? bounds.count
        state.withLock {
            $0.counts[index] += 1
            $0.sum += seconds
            $0.count += 1
        }
    }

    public func snapshot() -> Snapshot { state.withLock { $0 } }
}

import Base
import Synchronization
import Transport

/// Request counts by route, method and status, and latency by route. Labels come from the
/// router's *pattern* (`/v1/rates/{code}`), never the raw path, and methods outside the
/// standard set count as `OTHER`, so a scanner cannot blow up the series count.
///
/// Each route's series live in one `Series` object, looked up once per route (the responder
/// resolves them when it is made); recording a request is then a few atomic operations on a
/// slot for its (method, status) pair and the route's histogram. Both are kept per server
/// event loop (`LoopShard`) and summed when collected: two loops answering hits on the same
/// route never write the same cache line or take the same histogram lock.
public final class HTTPMetrics: Sendable {
    /// The route label of requests no route matched (404, 405).
    public static let unmatchedRoute = "unmatched"

    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
    /// Method labels by index (`Series` keys); the last is `OTHER`.
    static let methodLabels = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "OTHER"]

    /// The label index of `method`: one of `knownMethods`, or `OTHER`.
    static func methodIndex(_ method: String) -> Int {
        switch method {
        case "GET": 0
        case "HEAD": 1
        case "POST": 2
        case "PUT": 3
        case "DELETE": 4
        case "PATCH": 5
        case "OPTIONS": 6
        default: 7
        }
    }

    /// One route's request counts (by method and status) and latency histogram, per loop shard.
    public final class Series: Sendable {
        let route: String
        private let shards: [Shard] = (0..<LoopShard.count).map { _ in Shard() }

        /// A (method, status) pair and its count. `key` is 0 while free, else
        /// `methodIndex << 32 | (status + 1)`, claimed once by compare-and-swap; slots fill in order.
        final class Slot: Sendable {
            let key = Atomic<UInt64>(0)
            let count = Atomic<UInt64>(0)
        }
        fileprivate struct PairKey: Hashable {
            var methodIndex: Int
            var status: Int
        }

        /// What one loop (or everything off the loops) records into.
        final class Shard: Sendable {
            let histogram = LatencyHistogram()
            /// Pairs a route sees are few; any beyond the slots (or with a status outside
            /// 0..<2^32 - 1) are counted under a lock.
            let slots: [Slot] = (0..<Series.slotCount).map { _ in Slot() }
            fileprivate let overflow = Mutex<[PairKey: UInt64]>([:])
        }
        private static let slotCount = 16

        init(route: String) { self.route = route }

        public func record(method: String, status: Int, seconds: Double) {
            let shard = shards[LoopShard.current]
            count(in: shard, methodIndex: HTTPMetrics.methodIndex(method), status: status)
            shard.histogram.record(seconds: seconds)
        }

        private func count(in shard: Shard, methodIndex: Int, status: Int) {
            if status >= 0, status < 0xFFFF_FFFF {
                let key = UInt64(methodIndex) << 32 | UInt64(status + 1)
                for slot in shard.slots {
                    let current = slot.key.load(ordering: .acquiring)
                    if current == key {
                        slot.count.wrappingAdd(1, ordering: .relaxed)
                        return
                    }
                    if current == 0 {
                        let (exchanged, original) = slot.key.compareExchange(
                            expected: 0, desired: key, ordering: .acquiringAndReleasing)
                        if exchanged || original == key {
                            slot.count.wrappingAdd(1, ordering: .relaxed)
                            return
                        }
                    }
                }
            }
            shard.overflow.withLock { $0[PairKey(methodIndex: methodIndex, status: status), default: 0] += 1 }
        }

        /// The route's latency histogram, its shards summed.
        func durations() -> LatencyHistogram.Snapshot {
            var total = shards[0].histogram.snapshot()
            for shard in shards.dropFirst() {
                let part = shard.histogram.snapshot()
                guard part.count > 0 else { continue }
                for i in total.counts.indices { total.counts[i] += part.counts[i] }
                total.sum += part.sum
                total.count += part.count
            }
            return total
        }

        /// (method label, status, count) for every pair counted at least once.
        func counts() -> [(method: String, status: Int, count: UInt64)] {
            var totals: [PairKey: UInt64] = [:]
            for shard in shards {
                for (key, count) in shard.overflow.withLock({ $0 }) { totals[key, default: 0] += count }
                for slot in shard.slots {
                    let key = slot.key.load(ordering: .acquiring)
                    guard key != 0 else { break }
                    totals[PairKey(methodIndex: Int(key >> 32), status: Int(key & 0xFFFF_FFFF) - 1), default: 0]
                        += slot.count.load(ordering: .relaxed)
                }
            }
            return totals.compactMap { key, count in
                count > 0 ? (HTTPMetrics.methodLabels[key.methodIndex], key.status, count) : nil
            }
        }
    }

    private let series = Mutex<[String: Series]>([:])

    public init() {}

    /// The series of `route`, created on first use. Keep it to record without a lookup.
    public func series(route: String) -> Series {
        series.withLock { table in
            if let found = table[route] { return found }
            let made = Series(route: route)
            table[route] = made
            return made
        }
    }

    public func record(route: String, method: String, status: Int, seconds: Double) {
        series(route: route).record(method: method, status: status, seconds: seconds)
    }

    public func collect() -> [MetricFamily] {
        let all = series.withLock { Array($0.values) }
        var counts: [(route: String, method: String, status: Int, count: UInt64)] = []
        var durations: [(String, LatencyHistogram.Snapshot)] = []
        for s in all {
            for c in s.counts() { counts.append((s.route, c.method, c.status, c.count)) }
            let snapshot = s.durations()
            if snapshot.count > 0 { durations.append((s.route, snapshot)) }
        }
        return MetricFamily.requestFamilies(
            counter: ("almanac_http_requests_total", "HTTP requests answered, by route pattern, method and status."),
            counts: counts.sorted { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }
                .map { ([("route", $0.route), ("method", $0.method), ("status", String($0.status))], $0.count) },
            histogram: ("almanac_http_request_duration_seconds",
                        "Time from routing a request to its response being ready, by route pattern.", "route"),
            durations: durations)
    }
}

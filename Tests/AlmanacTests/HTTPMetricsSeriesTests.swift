import Dispatch
import Testing
import Transport
@testable import Almanac

/// `HTTPMetrics` counts (method, status) pairs in lock-free slots with a locked overflow; the
/// exposition must be what a plain dictionary of counts gives.
@Suite struct HTTPMetricsSeriesTests {
    @Test func countsMatchADictionaryPastTheSlotsAndForOddStatuses() {
        let http = HTTPMetrics()
        var expected: [String: UInt64] = [:]
        let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "BREW", "get", ""]
        let statuses = [200, 304, 404, 0, -1, 599, 999, Int.max, Int.min, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1_0000_00C8]
        var n = 0
        for route in ["/a", "/b/{x}", HTTPMetrics.unmatchedRoute] {
            for method in methods {
                for status in statuses {
                    n += 1
                    for _ in 0..<(n % 3 + 1) {
                        http.record(route: route, method: method, status: status, seconds: 0.001)
                        let label = HTTPMetrics.knownMethods.contains(method) ? method : "OTHER"
                        expected["\(route) \(label) \(status)", default: 0] += 1
                    }
                }
            }
        }
        let counts = http.collect()[0].samples.map { sample -> (String, Double) in
            (sample.labels.map(\.1).joined(separator: " "), { if case let .number(v) = sample.value { v } else { -1 } }())
        }
        let got = Dictionary(counts, uniquingKeysWith: +)
        for (key, value) in expected where got[key] != Double(value) { Issue.record("\(key): \(String(describing: got[key])) != \(value)") }
        #expect(got.count == expected.count)
        #expect(counts.count == expected.count)
        let labels = counts.map(\.0)
        let order = http.collect()[0].samples.map { ($0.labels[0].1, $0.labels[1].1, Int($0.labels[2].1)!) }
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 }, "sorted by route, method, status: \(labels)")
    }

    /// Recorded on three event loops (three shards) and off them (the shared one): the
    /// exposition sums the shards, counts and histogram alike.
    @Test func recordsFromSeveralEventLoopsAreSummed() {
        final class Idle: SocketReadinessHandler, @unchecked Sendable {
            func readable() {}
            func writable() {}
        }
        let http = HTTPMetrics()
        let series = http.series(route: "/r")
        let loops = (0..<3).map { _ in EventLoop<Idle>() }
        defer { for loop in loops { loop.stop() } }
        for (i, loop) in loops.enumerated() {
            loop.sync { for _ in 0..<(100 * (i + 1)) { series.record(method: "GET", status: 200, seconds: 0.001) } }
        }
        for _ in 0..<50 { series.record(method: "GET", status: 200, seconds: 0.001) }
        let families = http.collect()
        #expect(families[0].samples.count == 1)
        if case let .number(total) = families[0].samples.first?.value { #expect(total == 650) } else { Issue.record("no count") }
        let durations = series.durations()
        #expect(durations.count == 650)
        #expect(durations.cumulativeCounts.last == 650)
        #expect(abs(durations.sum - 0.65) < 1e-9)
    }

    @Test func concurrentRecordsAreAllCounted() async {
        let http = HTTPMetrics()
        let series = http.series(route: "/r")
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for k in 0..<5000 { series.record(method: k % 2 == 0 ? "GET" : "HEAD", status: 200 + (k + i) % 20, seconds: 0.0001) }
        }
        let total = http.collect()[0].samples.reduce(0.0) { sum, sample in
            if case let .number(v) = sample.value { sum + v } else { sum }
        }
        #expect(total == 40_000)
        #expect(http.collect()[0].samples.count == 40)  // 2 methods × 20 statuses: past the 16 slots
    }
}

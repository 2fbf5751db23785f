import HTTP1
import Transport
import Web

/// Per-route request metrics as a pipeline step: every answer (a handler's, a step's, the
/// router's own 404/405) is counted and timed under its route pattern, never the raw path
/// (`unmatched` for the router's own answers), so label cardinality is the routing table's.
/// The outermost step: it times the whole pipeline and records the status clients see.
struct MetricsStep: Middleware {
    /// Every route's series, resolved once at start-up: recording needs no lock and no
    /// labels lookup. Found by the pattern's length, then compared (the router hands over its
    /// own copy of the pattern, so the comparison is usually one of identical strings): no
    /// pattern is hashed per request, as a dictionary would.
    private let patterns: [String]
    private let series: [HTTPMetrics.Series]
    /// `patterns[firstByLength[n]..<firstByLength[n + 1]]` are the patterns of `n` bytes.
    private let firstByLength: [Int]
    private let unmatched: HTTPMetrics.Series
    private let metrics: HTTPMetrics

    init(router: Router, metrics: HTTPMetrics) {
        var unique: [String] = []
        for route in router.routes where !unique.contains(route.pattern) { unique.append(route.pattern) }
        unique.sort { $0.utf8.count < $1.utf8.count }
        let longest = unique.last?.utf8.count ?? 0
        var first = [Int](repeating: unique.count, count: longest + 2)
        for (index, pattern) in unique.enumerated().reversed() { first[pattern.utf8.count] = index }
        for length in stride(from: longest, through: 0, by: -1) where first[length] > first[length + 1] {
            first[length] = first[length + 1]
        }
        patterns = unique
        series = unique.map { metrics.series(route: $0) }
        firstByLength = first
        unmatched = metrics.series(route: HTTPMetrics.unmatchedRoute)
        self.metrics = metrics
    }

    /// The series of a route pattern (made on first use for one the router did not list).
    private func series(for pattern: String) -> HTTPMetrics.Series {
        let length = pattern.utf8.count
        if length + 1 < firstByLength.count {
            let candidates = firstByLength[length]..<firstByLength[length + 1]
            // The router hands over the pattern it was given, which is this table's copy: the
            // same bits, found without comparing text (a book's pattern was compared in full
            // with the other patterns of its length first, ~300 instructions a hit).
            for index in candidates where IdenticalStrings.identical(patterns[index], pattern) { return series[index] }
            for index in candidates where patterns[index] == pattern { return series[index] }
        }
        return metrics.series(route: pattern)
    }

    /// The request's series and when it was received (the server's stamp, when it set one).
    func begin(_ request: HTTPRequest, _ context: RouteContext) -> (series: HTTPMetrics.Series, start: UInt64) {
        let series = context.route.map { self.series(for: $0.pattern) } ?? unmatched
        let received = request.receivedAt
        return (series, received != 0 ? received : SystemFacts.monotonicNanoseconds())
    }

    func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext,
                _ token: (series: HTTPMetrics.Series, start: UInt64)) {
        let seconds = Double(SystemFacts.monotonicNanoseconds() &- token.start) / 1e9
        token.series.record(method: request.method, status: response.status.code, seconds: seconds)
    }
}

import Dispatch
import HTTP1
import Web

/// Per-route request metrics as a pipeline step: every answer (a handler's, a step's, the
/// router's own 404/405) is counted and timed under its route pattern, never the raw path
/// (`unmatched` for the router's own answers), so label cardinality is the routing table's.
/// The outermost step: it times the whole pipeline and records the status clients see.
struct MetricsStep: Middleware {
    /// Every route's series, resolved once at start-up: recording needs no lock and no
    /// labels lookup.
    private let seriesByPattern: [String: HTTPMetrics.Series]
    private let unmatched: HTTPMetrics.Series
    private let metrics: HTTPMetrics

    init(router: Router, metrics: HTTPMetrics) {
        var table: [String: HTTPMetrics.Series] = [:]
        for route in router.routes where table[route.pattern] == nil {
            table[route.pattern] = metrics.series(route: route.pattern)
        }
        seriesByPattern = table
        unmatched = metrics.series(route: HTTPMetrics.unmatchedRoute)
        self.metrics = metrics
    }

    /// The request's series and when it was received (the server's stamp, when it set one).
    func begin(_ request: HTTPRequest, _ context: RouteContext) -> (series: HTTPMetrics.Series, start: UInt64) {
        let series = context.route.map { seriesByPattern[$0.pattern] ?? metrics.series(route: $0.pattern) } ?? unmatched
        let received = request.receivedAt
        return (series, received != 0 ? received : DispatchTime.now().uptimeNanoseconds)
    }

    func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext,
                _ token: (series: HTTPMetrics.Series, start: UInt64)) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds &- token.start) / 1e9
        token.series.record(method: request.method, status: response.status.code, seconds: seconds)
    }
}

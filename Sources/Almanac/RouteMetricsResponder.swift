import Dispatch
import HTTPServer

/// Wraps a router as the server's responder, recording per-route metrics. Matching happens
/// once: the matched handler is called directly, and only misses go through
/// `Router.respond(to:)` for its 404/405 problems.
public enum RouteMetricsResponder {
    public static func make(router: Router, metrics: HTTPMetrics) -> HTTPServer.Responder {
        // Every route's series, resolved once: recording needs no lock and no labels lookup.
        var table: [String: HTTPMetrics.Series] = [:]
        for route in router.routes where table[route.pattern] == nil {
            table[route.pattern] = metrics.series(route: route.pattern)
        }
        let unmatched = metrics.series(route: HTTPMetrics.unmatchedRoute)
        let seriesByPattern = table
        return { request in
            let start = DispatchTime.now().uptimeNanoseconds
            let series: HTTPMetrics.Series
            let future: HTTPResponseFuture
            switch router.match(method: request.method, path: request.path) {
            case let .found(matched, params, handler):
                series = seriesByPattern[matched.pattern] ?? metrics.series(route: matched.pattern)
                future = handler(request, params)
            case .methodNotAllowed, .notFound:
                series = unmatched
                future = router.respond(to: request)
            }
            let method = request.method
            switch future {
            case let .ready(response):
                series.record(method: method, status: response.status.code, seconds: elapsed(since: start))
                return .ready(response)
            case let .pending(work):
                return .pending {
                    let response = await work()
                    series.record(method: method, status: response.status.code, seconds: elapsed(since: start))
                    return response
                }
            }
        }
    }

    private static func elapsed(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
    }
}

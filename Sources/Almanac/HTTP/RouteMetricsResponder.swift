import Dispatch
import HTTP1
import Web

/// Wraps a router as the server's responder, recording per-route metrics and applying the
/// CORS policy to public routes (`Router.Route.isPublic`). Matching happens once: the matched
/// handler is called directly, and only misses go through `Router.respond(to:)` for its
/// 404/405 problems and `OPTIONS *`.
///
/// `OPTIONS` on the path of a public route (a browser's preflight, or a plain `OPTIONS`) is
/// answered by the policy, recorded under that route; on any other path it stays a 405.
public enum RouteMetricsResponder {
    public static func make(router: Router, metrics: HTTPMetrics, cors: CORSPolicy = CORSPolicy(allowedOrigins: ["*"], problemTypes: .almanac)) -> HTTPServer.Responder {
        // Every route's series, resolved once: recording needs no lock and no labels lookup.
        var table: [String: HTTPMetrics.Series] = [:]
        for route in router.routes where table[route.pattern] == nil {
            table[route.pattern] = metrics.series(route: route.pattern)
        }
        let unmatched = metrics.series(route: HTTPMetrics.unmatchedRoute)
        let seriesByPattern = table
        return { request in
            let start = request.receivedAt != 0 ? request.receivedAt : DispatchTime.now().uptimeNanoseconds
            let series: HTTPMetrics.Series
            var future: HTTPResponseFuture
            let isPublic: Bool
            switch router.match(method: request.method, path: request.path) {
            case let .found(matched, params, handler):
                series = seriesByPattern[matched.pattern] ?? metrics.series(route: matched.pattern)
                future = handler(request, params)
                isPublic = matched.isPublic
            case .methodNotAllowed where request.method == "OPTIONS":
                if case let .found(matched, _, _) = router.match(method: "GET", path: request.path), matched.isPublic {
                    series = seriesByPattern[matched.pattern] ?? metrics.series(route: matched.pattern)
                    future = .ready(cors.answerOptions(request))
                } else {
                    series = unmatched
                    future = router.respond(to: request)
                }
                isPublic = false
            case .methodNotAllowed, .notFound:
                series = unmatched
                future = router.respond(to: request)
                isPublic = false
            }
            let method = request.method
            // Consumed, so the response's header storage is uniquely owned here and CORS
            // fields go into the room the handler reserved (no copy-on-write).
            switch consume future {
            case var .ready(response):
                if isPublic { cors.apply(to: &response.headers, requestHeaders: request.headers) }
                series.record(method: method, status: response.status.code, seconds: elapsed(since: start))
                return .ready(response)
            case let .pending(work):
                return .pending {
                    var response = await work()
                    if isPublic { cors.apply(to: &response.headers, requestHeaders: request.headers) }
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

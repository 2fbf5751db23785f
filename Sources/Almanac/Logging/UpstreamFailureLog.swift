import Base
import Cache
import HTTPClient
import HTTP1

/// One `warn` line per failed upstream request, written where it fails (the steward's
/// `onFailure`), so the operator sees every failure: those a client is told about (502, 503,
/// 504, a batch entry's error), those a later provider recovered (google-books 503, then
/// open-library answered), and those of background refreshes nobody waits for.
///
/// The line carries what the client's problem detail leaves out: the redacted upstream URL and
/// libcurl's own message; and the request id the client got (`RequestContext`), so one id finds
/// both, and the request's W3C trace (`trace_id`, `span_id`; `TraceContext.current`), the same
/// the access line and the upstream's `traceparent` carry. `background` tells a
/// stale-while-revalidate refresh from a request that waited.
enum UpstreamFailureLog {
    /// - Parameter requestID: the request's id; by default the one of the request this task
    ///   works for (a caller answering synchronously passes its own).
    static func write(_ failure: UpstreamError, requestID: String = RequestContext.requestID,
                      trace: TraceContext? = TraceContext.current, to logger: Logger) {
        logger.warn("upstream failed", [
            "provider": .string(failure.provider),
            "cause": .string(UpstreamMetrics.outcomeLabel(for: failure.kind)),
            "detail": .string(failure.detail),
            "diagnostic": .string(failure.diagnostic),
            "url": .string(failure.url ?? ""),
            "background": .string(CacheRefresh.isBackground ? "true" : "false"),
        ], for: RequestLogContext(requestID: requestID, trace: trace))
    }
}

import Base
import HTTP1

/// The client's request a log line is written for: its `X-Request-ID` and its W3C trace, the
/// same the access line carries, so one id (or one `trace_id` in a tracing system) finds every
/// line a request caused. Warn lines written on behalf of a request carry it
/// (`Logger.warn(_:_:for:)`); lines tied to no request (Redis down, a breaker's state change)
/// do not.
public struct RequestLogContext: Sendable, Equatable {
    /// Empty outside a request.
    public var requestID: String
    /// Nil outside a request, or on a path the server answered without one.
    public var trace: TraceContext?

    public init(requestID: String, trace: TraceContext?) {
        self.requestID = requestID
        self.trace = trace
    }

    /// The request the current task works for (`RequestContext.requestID` and
    /// `TraceContext.current`, set by the server around every handler that answers
    /// asynchronously and inherited by the cache loads and refreshes it starts).
    public static var current: RequestLogContext {
        RequestLogContext(requestID: RequestContext.requestID, trace: TraceContext.current)
    }

    /// `request_id`, `trace_id`, `span_id`, in that order (empty strings when unknown: the
    /// fields are always there, so a log query need not test for them).
    var fields: KeyValuePairs<String, Logger.Value> {
        [
            "request_id": .string(requestID),
            "trace_id": .string(trace?.traceIDText ?? ""),
            "span_id": .string(trace?.spanIDText ?? ""),
        ]
    }
}

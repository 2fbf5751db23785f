import Base

/// Reading a request's W3C trace context from its headers, in two steps so that a cached hit
/// pays little: `incoming` (one pass over the fields, no allocation) runs for every request;
/// the `TraceContext` (almanac's span id, the `tracestate` list) is made only when something
/// needs it: a handler that answers asynchronously (it may call upstream) or an access line.
enum RequestTrace {
    /// The caller's `traceparent` when there is exactly one and it is valid. Several
    /// `traceparent` fields cannot be told apart, so they count as none (a new trace).
    static func incoming(_ headers: HTTPHeaders) -> TraceParent? {
        var found: String?
        for field in headers.fields where field.name.equalsIgnoringASCIICase("traceparent") {
            guard found == nil else { return nil }
            found = field.value
        }
        return found.flatMap(TraceParent.parse)
    }

    /// The request's trace, with its forwarded `tracestate` (read only when the caller's
    /// `traceparent` was valid, as the spec requires).
    static func begin(_ parent: TraceParent?, headers: HTTPHeaders) -> TraceContext {
        guard parent != nil else { return .begin(from: nil) }
        let traceState = headers.contains("tracestate") ? TraceState.normalize(headers.values(for: "tracestate")) ?? "" : ""
        return .begin(from: parent, traceState: traceState)
    }
}

import Base

/// W3C trace context on upstream requests: every request almanac makes names the trace of the
/// client request it is made for (`TraceContext.current`, inherited by cache loads and the
/// refreshes a request starts) with almanac's span as the parent, and passes the caller's
/// `tracestate` on. A request made outside any client request (none today; a future timer)
/// starts a trace of its own, so an upstream always gets a well-formed `traceparent`.
enum TracePropagation {
    /// `headers` with `traceparent` (and `tracestate` when the caller sent one) set, replacing
    /// any a provider put there itself.
    static func headers(_ headers: [UpstreamHeader], trace: TraceContext? = TraceContext.current) -> [UpstreamHeader] {
        let trace = trace ?? .begin(from: nil)
        var headers = headers
        headers.removeAll { header in
            let name = ASCIICase.lowercased(header.name.utf8)
            return name == "traceparent" || name == "tracestate"
        }
        headers.append(UpstreamHeader("traceparent", trace.traceparent))
        if !trace.traceState.isEmpty { headers.append(UpstreamHeader("tracestate", trace.traceState)) }
        return headers
    }
}

/// What the task answering a request knows about that request, for code far from the handler.
///
/// The server sets `requestID` around every handler that answers asynchronously (a cached hit
/// answered at once has nothing to log). Tasks started while it runs (a cache load, a
/// stale-while-revalidate refresh) inherit it, so a warn line written deep inside an upstream
/// call names the request that caused it, the same id the client got in `X-Request-ID`.
public enum RequestContext {
    /// The request's `X-Request-ID`; empty outside a request (startup, timers).
    /// (Its W3C trace is `TraceContext.current`, in Base, where the HTTP client reads it too.)
    @TaskLocal public static var requestID = ""
}

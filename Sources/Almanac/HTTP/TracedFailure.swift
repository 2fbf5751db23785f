import HTTPServer

/// An answer made at once from the cache whose failure writes a warn line (a cached rates
/// table that lists the currency asked for without a usable rate).
///
/// The server sets the request's W3C trace (`TraceContext.current`) only around handlers that
/// answer asynchronously: a cached hit makes no ids until its access line. So the failure is
/// answered on the asynchronous path, where its warn line carries the same `trace_id` and
/// `span_id` as the access line. A success stays synchronous; a failure costs one task.
enum TracedFailure {
    /// `attempt()`'s response at once, or, when it throws, `failure(error)` made on the
    /// server's asynchronous path.
    static func answer(_ attempt: () throws -> HTTPResponse,
                       failure: @escaping @Sendable (any Error) -> HTTPResponse) -> HTTPResponseFuture {
        do {
            return .ready(try attempt())
        } catch {
            return .pending { failure(error) }
        }
    }
}

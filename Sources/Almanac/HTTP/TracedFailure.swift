import HTTP1

/// An answer made at once from the cache whose failure may write a warn line (a cached rates
/// table that lists the currency asked for without a usable rate).
///
/// The server sets the request's W3C trace (`TraceContext.current`) only around handlers that
/// answer asynchronously: a cached hit makes no ids until its access line. So a failure that
/// logs is answered on the asynchronous path, where its warn line carries the same `trace_id`
/// and `span_id` as the access line. A success, and a failure that logs nothing (an unknown
/// currency's 404), stay synchronous; a failure that logs costs one task.
enum TracedFailure {
    /// `attempt()`'s response at once; when it throws, `failure(error)`, made on the server's
    /// asynchronous path when `writesWarnLine(error)`.
    static func answer(_ attempt: () throws -> HTTPResponse, writesWarnLine: (any Error) -> Bool,
                       failure: @escaping @Sendable (any Error) -> HTTPResponse) -> HTTPResponseFuture {
        do {
            return .ready(try attempt())
        } catch {
            guard writesWarnLine(error) else { return .ready(failure(error)) }
            return .pending { failure(error) }
        }
    }
}

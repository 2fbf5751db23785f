import HTTP1
import Web

/// The one answer path of every cached endpoint: parse → fresh? → load → render, failures
/// through the family's `ProblemMapping`.
///
/// - parse: the request's query, or the error (a client mistake) its problem says.
/// - fresh: the value when the cache holds it fresh, read synchronously; then the answer is
///   `.ready` on the calling thread (the connection's queue): no task, no hop. This is the
///   hit path, and it allocates nothing of its own: the steps are stored closures, called.
/// - load: otherwise the value from the cache's load (stale-while-revalidate, single flight,
///   the upstream), awaited in the server's task (`.pending`).
/// - render: the value as the response (bytes stored or memoized, cache headers).
///
/// A failure to render a fresh value that owes a warn line (`ProblemConvertible.writesWarnLine`:
/// a cached table listing the currency asked for without a usable rate, or an unexpected error)
/// is answered on the asynchronous path: the server sets the request's W3C trace
/// (`TraceContext.current`) only around handlers that answer asynchronously, so there the warn
/// line carries the same `trace_id` and `span_id` as the access line. A failure that logs
/// nothing (an unknown currency's 404) stays synchronous.
struct CachedEndpoint<Query: Sendable, Value: Sendable>: Sendable {
    let fresh: @Sendable (Query) -> Value?
    let load: @Sendable (Query) async throws -> Value
    let render: @Sendable (Value, Query, HTTPRequest) throws -> HTTPResponse
    let failures: ProblemMapping

    init(failures: ProblemMapping, fresh: @escaping @Sendable (Query) -> Value?,
         load: @escaping @Sendable (Query) async throws -> Value,
         render: @escaping @Sendable (Value, Query, HTTPRequest) throws -> HTTPResponse) {
        self.failures = failures
        self.fresh = fresh
        self.load = load
        self.render = render
    }

    /// Parses the query (a failure is its problem, at once), then answers it.
    func answer(_ request: HTTPRequest, parse: () throws -> Query) -> HTTPResponseFuture {
        let query: Query
        do {
            query = try parse()
        } catch {
            return .ready(failures.response(for: error, request))
        }
        return answer(request, query)
    }

    /// Answers a parsed query: from the fresh value at once, else after the load.
    func answer(_ request: HTTPRequest, _ query: Query) -> HTTPResponseFuture {
        if let value = fresh(query) {
            do {
                return .ready(try render(value, query, request))
            } catch {
                guard failures.writesWarnLine(error) else { return .ready(failures.response(for: error, request)) }
                return .pending { [failures] in failures.response(for: error, request) }
            }
        }
        return .pending { [self] in
            do {
                return try render(try await load(query), query, request)
            } catch {
                return failures.response(for: error, request)
            }
        }
    }
}

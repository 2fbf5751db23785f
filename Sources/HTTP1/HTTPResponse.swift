/// A response as handlers build it. The server adds `Date`, `Server`, `Content-Length`,
/// `Connection` and `X-Request-ID`; handlers set everything else.
///
/// `body` is a copy-on-write array: a cached, pre-rendered body is shared by every
/// response that serves it and is written straight from that storage (no re-encoding,
/// no copy), which is what "rendered once, served as bytes" means here.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// What the body was rendered from, when it is a cached representation whose caching
    /// fields, coding and 304 are left to the pipeline's steps; nil for every other answer,
    /// whose handler sets its fields itself.
    ///
    /// Spelled `Optional<…>`, not `Representation?`: a `T?` stored property has an implicit
    /// initial `nil`, and with `init` then assigning it the optimizer built every response in a
    /// local and copied it out (a copy and a destroy of every field, ~380 instructions and 16
    /// reference-count operations on each cached hit).
    public var representation: Optional<Representation>

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                representation: Representation? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.representation = representation
    }

    /// A JSON response (`application/json; charset=utf-8`) from already-encoded bytes.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var h = headers
        h.set("Content-Type", "application/json; charset=utf-8")
        return HTTPResponse(status: status, headers: h, body: body)
    }
}

/// What a handler returns: an answer ready now, or work to await.
///
/// Ready answers (cache hits, health checks) are written on the connection's event loop with
/// no task hop at all; pending work runs as a Swift task and its answer is handed back to
/// the connection's loop, so neither the loop nor the cooperative pool is ever blocked.
public enum HTTPResponseFuture: Sendable {
    case ready(HTTPResponse)
    case pending(@Sendable () async -> HTTPResponse)
}

import HTTP1

/// One step of the middleware pipeline around every handler (`PipelineResponder`): it sees the
/// request with its route before the handler runs, may answer instead of it, and adjusts the
/// response afterwards, whether the handler answered at once (`.ready`) or after a task.
///
/// Steps are values of concrete types composed once at start-up (`then`), so the server calls
/// one specialized function per request: no array of existentials, no closure per step, and
/// nothing allocated on the `.ready` path beyond what the steps themselves do.
public protocol Middleware: Sendable {
    /// What `begin` hands `finish` for one request: a start time, a metrics series (`Void`
    /// when the step needs nothing).
    associatedtype Token: Sendable

    /// Before the handler.
    func begin(_ request: HTTPRequest, _ context: RouteContext) -> Token

    /// The step's own answer instead of the handler's (a CORS preflight), or nil.
    func answer(_ request: HTTPRequest, _ context: RouteContext) -> HTTPResponse?

    /// After the handler (or the answering step): adjusts the response in place. The response
    /// is uniquely owned here, so fields go into the room the handler reserved (no copy).
    func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext, _ token: Token)
}

extension Middleware where Token == Void {
    @inlinable
    public func begin(_ request: HTTPRequest, _ context: RouteContext) {}
}

extension Middleware {
    @inlinable
    public func answer(_ request: HTTPRequest, _ context: RouteContext) -> HTTPResponse? { nil }

    /// This step around `inner`: `self` begins first, may answer first, and finishes last.
    @inlinable
    public func then<Inner: Middleware>(_ inner: Inner) -> MiddlewarePair<Self, Inner> {
        MiddlewarePair(outer: self, inner: inner)
    }
}

/// Two steps composed: the outer one wraps the inner one, like layers of an onion.
public struct MiddlewarePair<Outer: Middleware, Inner: Middleware>: Middleware {
    public let outer: Outer
    public let inner: Inner

    @inlinable
    public init(outer: Outer, inner: Inner) {
        self.outer = outer
        self.inner = inner
    }

    @inlinable
    public func begin(_ request: HTTPRequest, _ context: RouteContext) -> (Outer.Token, Inner.Token) {
        (outer.begin(request, context), inner.begin(request, context))
    }

    @inlinable
    public func answer(_ request: HTTPRequest, _ context: RouteContext) -> HTTPResponse? {
        outer.answer(request, context) ?? inner.answer(request, context)
    }

    @inlinable
    public func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext,
                       _ token: (Outer.Token, Inner.Token)) {
        inner.finish(&response, request, context, token.1)
        outer.finish(&response, request, context, token.0)
    }
}

import HTTP1

/// The CORS policy as a pipeline step: the policy's fields on every answer of a public route
/// (`Router.Route.isPublic`), and its answer to `OPTIONS` on a public route's path (a
/// browser's preflight, or a plain `OPTIONS`). Other routes (admin, metrics) never get CORS.
public struct CORSStep: Middleware {
    public typealias Token = Void
    public let policy: CORSPolicy

    @inlinable
    public init(_ policy: CORSPolicy) { self.policy = policy }

    @inlinable
    public func answer(_ request: HTTPRequest, _ context: RouteContext) -> HTTPResponse? {
        guard !context.isHandled, context.route?.isPublic == true, request.method == "OPTIONS" else { return nil }
        return policy.answerOptions(request)
    }

    @inlinable
    public func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext, _ token: Void) {
        if context.isPublicAnswer { policy.apply(to: &response.headers, requestHeaders: request.headers) }
    }
}

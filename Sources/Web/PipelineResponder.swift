import HTTP1

/// A router served through a middleware pipeline: the server's responder.
///
/// Matching happens once: the matched handler is called directly, and only misses go through
/// `Router.respond(to:)` for its 404/405 problems and `OPTIONS *`. `OPTIONS` on the path of a
/// public route (a browser's preflight, or a plain `OPTIONS`) is offered to the steps under
/// that route (the CORS step answers it); on any other path it stays the router's 405.
///
/// `@inlinable`, like the steps of this module: the app's composition is specialized where it
/// is made, across the module boundary; unspecialized, every hit would pay for generic
/// metadata and witness calls.
public struct PipelineResponder<Steps: Middleware>: Sendable {
    public let router: Router
    public let steps: Steps

    @inlinable
    public init(router: Router, steps: Steps) {
        self.router = router
        self.steps = steps
    }

    /// The responder the server calls: one closure, made once.
    @inlinable
    public var responder: HTTPServer.Responder {
        { request in self.respond(to: request) }
    }

    /// The matched handler is called inside the `.found` case, with the match's parameters
    /// as they are: nothing (no optional tuple of handler and parameters) is kept around to be
    /// copied and destroyed on a hit.
    @inlinable
    public func respond(to request: HTTPRequest) -> HTTPResponseFuture {
        switch router.match(method: request.method, path: request.path) {
        case let .found(route, parameters, handler):
            let context = RouteContext(route: route, isHandled: true)
            let token = steps.begin(request, context)
            if let answer = steps.answer(request, context) { return finish(.ready(answer), request, context, token) }
            return finish(handler(request, parameters), request, context, token)
        case .methodNotAllowed where request.method == "OPTIONS":
            if case let .found(route, _, _) = router.match(method: "GET", path: request.path), route.isPublic {
                return respondUnhandled(request, RouteContext(route: route, isHandled: false))
            }
            return respondUnhandled(request, RouteContext(route: nil, isHandled: false))
        case .methodNotAllowed, .notFound:
            return respondUnhandled(request, RouteContext(route: nil, isHandled: false))
        }
    }

    /// A request no handler answers: a step's answer (a CORS preflight) or the router's own.
    @inlinable
    func respondUnhandled(_ request: HTTPRequest, _ context: RouteContext) -> HTTPResponseFuture {
        let token = steps.begin(request, context)
        if let answer = steps.answer(request, context) { return finish(.ready(answer), request, context, token) }
        return finish(router.respond(to: request), request, context, token)
    }

    /// The steps' `finish` around `future`: at once when it is ready, else after its work.
    @inlinable @inline(__always)
    func finish(_ future: consuming HTTPResponseFuture, _ request: HTTPRequest, _ context: RouteContext,
                _ token: Steps.Token) -> HTTPResponseFuture {
        // Consumed, so the response's header storage is uniquely owned by `finish`.
        switch consume future {
        case var .ready(response):
            steps.finish(&response, request, context, token)
            return .ready(response)
        case let .pending(work):
            return .pending { [steps] in
                var response = await work()
                steps.finish(&response, request, context, token)
                return response
            }
        }
    }
}

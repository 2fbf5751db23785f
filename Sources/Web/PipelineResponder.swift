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

    @inlinable
    public func respond(to request: HTTPRequest) -> HTTPResponseFuture {
        let context: RouteContext
        var handled: (Router.Handler, RouteParameters)?
        switch router.match(method: request.method, path: request.path) {
        case let .found(route, parameters, handler):
            context = RouteContext(route: route, isHandled: true)
            handled = (handler, parameters)
        case .methodNotAllowed where request.method == "OPTIONS":
            if case let .found(route, _, _) = router.match(method: "GET", path: request.path), route.isPublic {
                context = RouteContext(route: route, isHandled: false)
            } else {
                context = RouteContext(route: nil, isHandled: false)
            }
        case .methodNotAllowed, .notFound:
            context = RouteContext(route: nil, isHandled: false)
        }
        let token = steps.begin(request, context)
        var future: HTTPResponseFuture
        if let answer = steps.answer(request, context) {
            future = .ready(answer)
        } else if let (handler, parameters) = handled {
            future = handler(request, parameters)
        } else {
            future = router.respond(to: request)
        }
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

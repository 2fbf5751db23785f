import HTTPServer

/// A request as the middleware pipeline's steps see it: with the route it is answered under.
public struct RoutedRequest: Sendable {
    public let request: HTTPRequest
    /// The route the request is answered under: the matched one, or for `OPTIONS` on the path
    /// of a public route, that route (its `GET`). Nil for the router's own answers (404, 405,
    /// `OPTIONS *`).
    public let route: Router.Route?
    /// Whether the route's handler answers; false for `OPTIONS` on a public route's path,
    /// which a step answers (`Middleware.answer`) or the router (405).
    public let isHandled: Bool

    public init(request: HTTPRequest, route: Router.Route?, isHandled: Bool) {
        self.request = request
        self.route = route
        self.isHandled = isHandled
    }

    /// A public route's handler answers (the responses CORS applies to).
    public var isPublicAnswer: Bool { isHandled && route?.isPublic == true }
}

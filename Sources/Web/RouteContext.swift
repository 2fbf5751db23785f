/// The route a request is answered under, as the middleware pipeline's steps see it next to
/// the request (passed on its own, so no step copies it).
public struct RouteContext: Sendable {
    /// The matched route, or for `OPTIONS` on the path of a public route, that route (its
    /// `GET`). Nil for the router's own answers (404, 405, `OPTIONS *`).
    public let route: Router.Route?
    /// Whether the route's handler answers; false for `OPTIONS` on a public route's path,
    /// which a step answers (`Middleware.answer`) or the router (405).
    public let isHandled: Bool

    @inlinable
    public init(route: Router.Route?, isHandled: Bool) {
        self.route = route
        self.isHandled = isHandled
    }

    /// A public route's handler answers (the responses CORS applies to).
    @inlinable
    public var isPublicAnswer: Bool { isHandled && route?.isPublic == true }
}

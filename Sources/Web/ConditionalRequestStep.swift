import HTTP1

/// Conditional GET (RFC 9110 §13.1.2) as a pipeline step: a `200` whose entity tag the
/// request's `If-None-Match` already names becomes `304 Not Modified` with no body.
///
/// It is generic: it knows nothing of caches, only the response's tag: its `representation`'s
/// (a cached answer whose fields a later step writes; the tag of the coding chosen by a step
/// inside this one), else its `ETag` field. A 304 keeps the fields a 200 would have sent
/// (`ETag`, `Cache-Control`, `Vary`, …, RFC 9110 §15.4.5) and drops what describes the body it
/// no longer has (`Content-Type`, `Content-Encoding`); their removal keeps every other field in
/// its place, and a representation's field writer leaves them out for a 304. Anything but a 200
/// (a cached 404, a problem) is never turned into a 304.
public struct ConditionalRequestStep: Middleware {
    public typealias Token = Void

    @inlinable
    public init() {}

    @inlinable
    public func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext, _ token: Void) {
        Self.apply(to: &response, request: request)
    }

    /// Turns `response` into its 304 when the request's `If-None-Match` matches its tag.
    public static func apply(to response: inout HTTPResponse, request: HTTPRequest) {
        // The request's field first: most requests have none, and then the response is not read.
        // By code: comparing `HTTPStatus` values would compare their reason phrases too.
        guard response.status.code == 200, let field = request.value(of: .ifNoneMatch),
              let etag = response.representation?.etag ?? response.headers["ETag"],
              ifNoneMatch(field, matches: etag) else { return }
        response.status = .notModified
        response.body = []
        response.headers.remove("Content-Type")
        response.headers.remove("Content-Encoding")
    }

    /// `If-None-Match` evaluation (RFC 9110 §13.1.2): `*` or any listed tag that matches by
    /// weak comparison.
    public static func ifNoneMatch(_ fieldValue: String, matches etag: String) -> Bool {
        let target = opaque(etag)
        for tag in fieldValue.commaSeparatedItems() {
            if tag.utf8.elementsEqual("*".utf8) || opaque(tag).elementsEqual(target) { return true }
        }
        return false
    }

    /// The tag without a weak `W/` prefix, as bytes (entity tags are compared octet by octet).
    private static func opaque<S: StringProtocol>(_ tag: S) -> Substring.UTF8View {
        let bytes = Substring(tag).utf8
        return bytes.starts(with: "W/".utf8) ? bytes.dropFirst(2) : bytes
    }
}

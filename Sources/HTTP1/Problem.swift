import Base

/// RFC 9457 problem details, the body of every error the server and its application send.
public struct Problem: Sendable, Equatable, Error {
    public var type: String
    public var title: String
    public var status: HTTPStatus
    /// What went wrong in words a person can act on; never a stack trace or a secret.
    public var detail: String
    /// Sent as `Retry-After` (RFC 9110 §10.2.3) when set: when trying again makes sense.
    public var retryAfterSeconds: Int?

    /// An `about:blank` problem (RFC 9457 §4.2.1): nothing to explain beyond the status, whose
    /// reason phrase is the title.
    public init(status: HTTPStatus, detail: String) {
        self.type = "about:blank"
        self.title = status.reasonPhrase
        self.status = status
        self.detail = detail
    }

    /// A problem of a documented type.
    /// - Parameters:
    ///   - slug: a stable identifier such as `invalid-isbn`, which `types` turns into the `type`
    ///     URI. With `ProblemTypes.aboutBlank` the problem is `about:blank` and `title` is
    ///     ignored for the reason phrase, as RFC 9457 §4.2.1 asks.
    ///   - title: a short summary of the type; the status's reason phrase when nil.
    public init(status: HTTPStatus, slug: String, title: String? = nil, detail: String, types: ProblemTypes) {
        self.type = types.type(of: slug)
        self.title = types.base == nil ? status.reasonPhrase : title ?? status.reasonPhrase
        self.status = status
        self.detail = detail
    }

    /// The problem as compact JSON, with keys in a fixed order.
    public var jsonBytes: [UInt8] {
        var out = "{\"type\":"
        JSONText.appendString(type, to: &out)
        out += ",\"title\":"
        JSONText.appendString(title, to: &out)
        out += ",\"status\":\(status.code),\"detail\":"
        JSONText.appendString(detail, to: &out)
        out += "}"
        return Array(out.utf8)
    }

    /// Seconds a client should wait before retrying a 503 that names no time of its own
    /// (RFC 9110 §10.2.3). Those causes pass within seconds or are answered by another
    /// instance: a draining instance, the connection limit, a wait cancelled by shutdown. A
    /// paused upstream sets `retryAfterSeconds` to when it may be asked again.
    public static let defaultRetryAfter = "1"

    /// The problem as a response: `application/problem+json` and `Cache-Control: no-store`
    /// (errors must not be cached by clients or proxies), and `Retry-After` on every 503.
    public var response: HTTPResponse {
        var headers = HTTPHeaders()
        headers.reserveCapacity(3)
        headers.add("Content-Type", "application/problem+json")
        headers.add("Cache-Control", "no-store")
        if let retryAfterSeconds {
            headers.add("Retry-After", String(max(0, retryAfterSeconds)))
        } else if status == .serviceUnavailable {
            headers.add("Retry-After", Problem.defaultRetryAfter)
        }
        return HTTPResponse(status: status, headers: headers, body: jsonBytes)
    }
}

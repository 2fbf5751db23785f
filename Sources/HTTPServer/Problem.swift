import Base

/// RFC 9457 problem details, the body of every error almanac sends.
public struct Problem: Sendable, Equatable, Error {
    /// Base of the `type` URIs: each slug is documented under this anchor base.
    public static let typeBase = "https://github.com/almanac-dev/almanac/blob/main/docs/problems.md#"

    public var type: String
    public var title: String
    public var status: HTTPStatus
    /// What went wrong in words a person can act on; never a stack trace or a secret.
    public var detail: String
    /// Sent as `Retry-After` (RFC 9110 §10.2.3) when set: when trying again makes sense.
    public var retryAfterSeconds: Int?

    /// - Parameter slug: a stable identifier such as `invalid-isbn`; `nil` means `about:blank`
    ///   (RFC 9457 §4.2.1), whose title is the status's reason phrase.
    public init(status: HTTPStatus, slug: String? = nil, title: String? = nil, detail: String) {
        self.type = slug.map { Problem.typeBase + $0 } ?? "about:blank"
        self.title = title ?? status.reasonPhrase
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
